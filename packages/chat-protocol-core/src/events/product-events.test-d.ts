import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/v4/mini';
import {
  applyChatEvent,
  createChatCodec,
  createChatState,
  type ChatChannel,
  type ChatEventTypeV1,
  type ChatEventEnvelopeOf,
  type ChatStateOf,
  type ChatStateV1,
  type OpenCardSnapshotV1,
} from '../index.js';

const scout = createChatCodec({
  events: {
    'scout.products': { schema: z.strictObject({ products: z.array(z.string()) }), channel: 'state' },
    'scout.highlight': { schema: z.strictObject({ productId: z.string() }), channel: 'event' },
    'scout.cart_mutate': { schema: z.strictObject({ productId: z.string() }), channel: 'transient' },
  },
});
type ScoutEvents = typeof scout extends { eventFields: infer Fields } ? keyof Fields : never;

describe('product events are typed end to end (DESIGN §3.3, issue 13)', () => {
  it('the envelope union holds each registered event with its data type', () => {
    const parsed = scout.parseChatEnvelope('{}');
    if (!parsed.ok) return;
    const { event } = parsed.value;
    if (event.type === 'scout.products') expectTypeOf(event.data).toEqualTypeOf<{ products: string[] }>();
    if (event.type === 'scout.highlight') expectTypeOf(event.data).toEqualTypeOf<{ productId: string }>();
    if (event.type === 'delta') expectTypeOf(event.text).toEqualTypeOf<string>();
    expectTypeOf<Extract<typeof event, { type: 'scout.other' }>>().toBeNever();
  });

  it('the state keeps event-channel events in productEvents and state-channel data in productState', () => {
    const state = scout.parseChatState('{}');
    if (!state.ok) return;
    const [turn] = state.value.turns;
    if (turn === undefined) return;
    expectTypeOf(turn.productEvents).toEqualTypeOf<{ type: 'scout.highlight'; data: { productId: string } }[] | undefined>();
    expectTypeOf(turn.productState).toEqualTypeOf<{ 'scout.products'?: { products: string[] } } | undefined>();
  });

  it("channelOf answers a product event's declared channel as a literal", () => {
    expectTypeOf(scout.channelOf('scout.products')).toEqualTypeOf<'state'>();
    expectTypeOf(scout.channelOf('scout.cart_mutate')).toEqualTypeOf<'transient'>();
    expectTypeOf(scout.channelOf('delta')).toEqualTypeOf<ChatChannel>();
    // @ts-expect-error: a name the codec did not register
    scout.channelOf('scout.other');
    expectTypeOf<ScoutEvents>().toEqualTypeOf<'scout.products' | 'scout.highlight' | 'scout.cart_mutate' | ChatEventTypeV1>();
  });

  it("the codec's reducer and encoder carry the product types; the base ones never see them", () => {
    const encoded = scout.encodeChatEnvelope({});
    if (encoded.ok)
      expectTypeOf(encoded.envelope).toEqualTypeOf<Extract<ReturnType<typeof scout.parseChatEnvelope>, { ok: true }>['value']>();
    expectTypeOf<ChatStateOf<OpenCardSnapshotV1>>().toMatchTypeOf<ChatStateV1>();
    const parsed = scout.parseChatEnvelope('{}');
    if (parsed.ok) {
      const applied = scout.applyChatEvent(createChatState('conv_1'), parsed.value);
      if (applied.ok)
        expectTypeOf(applied.state.turns[0]?.productEvents).toEqualTypeOf<
          { type: 'scout.highlight'; data: { productId: string } }[] | undefined
        >();
      // @ts-expect-error: the base reducer takes base envelopes only
      applyChatEvent(createChatState('conv_1'), parsed.value);
    }
    expectTypeOf<ChatEventEnvelopeOf<OpenCardSnapshotV1>>().toEqualTypeOf<ChatEventEnvelopeOf<OpenCardSnapshotV1, Record<never, never>>>();
  });

  it('a registration that is not namespaced or has no channel does not type-check', () => {
    // @ts-expect-error: channel is required
    createChatCodec({ events: { 'scout.products': { schema: z.string() } } });
    // @ts-expect-error: the channel vocabulary is closed
    createChatCodec({ events: { 'scout.products': { schema: z.string(), channel: 'history' } } });
  });
});
