import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { envelopeOf } from '../../test/envelopes.js';
import { runs } from '../../../../test-support/property-runs.js';
import { applyChatEvent } from '../state/apply-chat-event.js';
import { createChatCodec } from '../chat-codec.js';
import { encodeChatEnvelope } from '../envelope/encode-chat-envelope.js';
import { CHAT_EVENT_FIELDS } from './event-fields.js';
import { channelOf } from './events.js';
import { parseChatEnvelope } from '../envelope/parse-chat-envelope.js';
import { isProductEventName } from './product-events.js';
import { encodeChatSseFrame, parseChatSseMessage } from '../sse/sse.js';
import { createChatState, parseChatState } from '../state/state.js';

// Scout's domain events as Papercusp/scout-chat renders them (src/reducer.ts):
// `products` and `broaden` replace what the assistant shows, `cart_mutate` is
// a one-off side effect the app performs.
const ProductsSchema = z.strictObject({ products: z.array(z.record(z.string(), z.unknown())) });
const BroadenSchema = z.strictObject({
  options: z.array(z.strictObject({ label: z.string(), prompt: z.string(), resultCount: z.optional(z.int()) })),
});
const CartMutateSchema = z.strictObject({ action: z.enum(['add', 'remove']), productId: z.string() });
const scout = createChatCodec({
  events: {
    'scout.products': { schema: ProductsSchema, channel: 'state' },
    'scout.broaden': { schema: BroadenSchema, channel: 'state' },
    'scout.cart_mutate': { schema: CartMutateSchema, channel: 'transient' },
    'scout.highlight': { schema: z.strictObject({ productId: z.string() }), channel: 'event' },
  },
});

const at = (seq: number, event: unknown) => envelopeOf(event, { seq, eventId: `evt_${seq}` });
const products = (ids: readonly string[]) => ({ type: 'scout.products', data: { products: ids.map((id) => ({ id })) } });
const highlight = (productId: string) => ({ type: 'scout.highlight', data: { productId } });

type ScoutState = Extract<ReturnType<typeof scout.parseChatState>, { ok: true }>['value'];

function applyAll(envelopes: readonly unknown[], state: ScoutState = createChatState('conv_1')): ScoutState {
  let current = state;
  for (const envelope of envelopes) {
    const parsed = scout.parseChatEnvelope(envelope);
    if (!parsed.ok) throw new Error(`${parsed.code}: ${parsed.message}`);
    const applied = scout.applyChatEvent(current, parsed.value);
    if (!applied.ok) throw new Error(`${applied.code}: ${applied.message}`);
    current = applied.state;
  }
  return current;
}

describe('product events: registration (DESIGN §3.3 "Product events", issue 13)', () => {
  it.each([
    ['a name without a namespace', 'products'],
    ['a base type', 'delta'],
    ['an upper-case segment', 'Scout.products'],
    ['an empty segment', 'scout..products'],
    ['a leading dot', '.products'],
    ['a trailing dot', 'scout.'],
    ['a space', 'scout.cart mutate'],
    ['__proto__', '__proto__'],
    ['a name past 256 characters', `scout.${'a'.repeat(251)}`],
  ])('a registration under %s throws TypeError at creation', (_name, name) => {
    expect(() => createChatCodec({ events: { [name]: { schema: ProductsSchema, channel: 'state' } } })).toThrow(TypeError);
    expect(isProductEventName(name)).toBe(false);
  });

  it('names are namespaced: lower-case segments joined by dots, up to 256 characters', () => {
    for (const name of ['scout.products', 'scout.cart_mutate', 'acme-billing.v2.invoice', `scout.${'a'.repeat(250)}`]) {
      expect(isProductEventName(name)).toBe(true);
    }
  });

  it('a channel outside event, state and transient, or a schema that is not a Standard Schema, throws TypeError', () => {
    expect(() => createChatCodec({ events: { 'scout.products': { schema: ProductsSchema, channel: 'history' as never } } })).toThrow(
      new TypeError('createChatCodec: events["scout.products"]: channel must be event, state or transient'),
    );
    expect(() => createChatCodec({ events: { 'scout.products': { schema: (() => true) as never, channel: 'state' } } })).toThrow(TypeError);
    expect(() => createChatCodec({ events: { 'scout.products': null as never } })).toThrow(TypeError);
    expect(() => createChatCodec({ events: [] as never })).toThrow(TypeError);
    const throwing = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    expect(() => createChatCodec({ events: throwing as never })).toThrow(TypeError);
  });

  it('a hand-written Standard Schema is enough: a product needs no zod', () => {
    const plain = createChatCodec({
      events: {
        'acme.billing': {
          schema: {
            '~standard': {
              version: 1,
              vendor: 'acme',
              validate: (value: unknown) =>
                typeof value === 'object' && value !== null && typeof (value as { credits?: unknown }).credits === 'number'
                  ? { value: value as { credits: number } }
                  : { issues: [{ message: 'expected credits', path: [{ key: 'credits' }] }] },
            },
          },
          channel: 'state',
        },
      },
    });
    expect(plain.parseChatEnvelope(at(1, { type: 'acme.billing', data: { credits: 3 } }))).toEqual({
      ok: true,
      value: at(1, { type: 'acme.billing', data: { credits: 3 } }),
    });
    expect(plain.parseChatEnvelope(at(1, { type: 'acme.billing', data: {} }))).toEqual({
      ok: false,
      code: 'invalid-event',
      message: 'event.data.credits: expected credits',
      issues: [{ path: ['event', 'data', 'credits'], message: 'expected credits' }],
    });
  });
});

describe('product events: parsing (DESIGN §3.3, §3.4)', () => {
  it('the base parser, encoder and reducer refuse a product event as unknown-event', () => {
    const envelope = at(1, products(['p1']));
    expect(parseChatEnvelope(envelope)).toMatchObject({ ok: false, code: 'unknown-event' });
    expect(encodeChatEnvelope(envelope)).toMatchObject({ ok: false, code: 'unknown-event' });
    expect(applyChatEvent(createChatState('conv_1'), envelope)).toEqual({
      ok: false,
      code: 'unknown-event',
      message: 'scout.products is not a registered event type',
      issues: [{ path: ['event', 'type'], message: 'unknown event type' }],
    });
  });

  it('a codec with card kinds only keeps refusing product events as unknown-event', () => {
    expect(createChatCodec({}).parseChatEnvelope(at(1, products(['p1'])))).toMatchObject({ ok: false, code: 'unknown-event' });
  });

  it('a registered event is accepted as sent, and a name the codec did not register is unknown-event', () => {
    expect(scout.parseChatEnvelope(JSON.stringify(at(1, products(['p1']))))).toEqual({ ok: true, value: at(1, products(['p1'])) });
    expect(scout.parseChatEnvelope(at(1, { type: 'scout.unknown', data: {} }))).toMatchObject({ ok: false, code: 'unknown-event' });
    expect(scout.parseChatEnvelope(at(1, { type: 'delta', text: 'base types still parse' }))).toMatchObject({ ok: true });
  });

  it.each([
    ['data the product schema refuses', { type: 'scout.products', data: { products: 'nope' } }, ['event', 'data', 'products']],
    ['no data', { type: 'scout.products' }, ['event', 'data']],
    ['a field beside type and data', { type: 'scout.products', data: { products: [] }, products: [] }, ['event', 'products']],
    ['a __proto__ key in the data', { type: 'scout.products', data: JSON.parse('{"products":[],"__proto__":{"x":1}}') }, ['event', 'data']],
    [
      'data nested past the JSON bound',
      { type: 'scout.products', data: { products: [JSON.parse(`${'['.repeat(80)}${']'.repeat(80)}`)] } },
      ['event', 'data'],
    ],
  ])('%s is invalid-event at the field', (_name, event, path) => {
    const result = scout.parseChatEnvelope(at(1, event));
    expect(result).toMatchObject({ ok: false, code: 'invalid-event' });
    if (!result.ok) expect(result.issues?.[0]?.path).toEqual(path);
  });

  it('a product schema that throws or is asynchronous refuses the event; the parser never throws', () => {
    const codec = createChatCodec({
      events: {
        'acme.throws': {
          schema: {
            '~standard': {
              version: 1,
              vendor: 'acme',
              validate: () => {
                throw new Error('boom');
              },
            },
          },
          channel: 'event',
        },
        'acme.async': { schema: { '~standard': { version: 1, vendor: 'acme', validate: async () => ({ value: 1 }) } }, channel: 'event' },
      },
    });
    expect(codec.parseChatEnvelope(at(1, { type: 'acme.throws', data: 1 }))).toMatchObject({
      ok: false,
      code: 'invalid-event',
      issues: [{ path: ['event', 'data'], message: 'the product schema threw' }],
    });
    expect(codec.parseChatEnvelope(at(1, { type: 'acme.async', data: 1 }))).toMatchObject({
      ok: false,
      code: 'invalid-event',
      issues: [{ path: ['event', 'data'], message: 'the product schema is asynchronous; a parser judges synchronously' }],
    });
  });

  it("the codec's encoder copies type and data only, and its allowlist names them", () => {
    const record = { ...at(1, { ...products(['p1']), secret: 'internal' }), schemaVersion: undefined, extra: 1 };
    const encoded = scout.encodeChatEnvelope(record);
    expect(encoded).toEqual({ ok: true, json: JSON.stringify(at(1, products(['p1']))), envelope: at(1, products(['p1'])) });
    expect(scout.eventFields['scout.products']).toEqual(['type', 'data']);
    expect(scout.eventFields.delta).toEqual(CHAT_EVENT_FIELDS.delta);
    expect(scout.encodeChatEnvelope(at(1, { type: 'scout.products', data: { products: 1 } }))).toMatchObject({
      ok: false,
      code: 'invalid-event',
    });
  });

  it('the codec frames product events as SSE and reads them back; the base framing refuses them', () => {
    const envelope = at(1, products(['p1']));
    const frame = scout.encodeChatSseFrame(envelope);
    expect(frame).toBe(`id: turn_1:1\nevent: scout.products\ndata: ${JSON.stringify(envelope)}\n\n`);
    expect(scout.parseChatSseMessage({ event: 'scout.products', data: JSON.stringify(envelope), id: 'turn_1:1' })).toEqual({
      ok: true,
      value: envelope,
    });
    expect(scout.parseChatSseMessage({ event: 'products', data: JSON.stringify(envelope), id: 'turn_1:1' })).toMatchObject({
      ok: false,
      code: 'event-mismatch',
    });
    expect(() => encodeChatSseFrame(envelope)).toThrow(new TypeError('encodeChatSseFrame: unknown-event: event.type: unknown event type'));
    expect(parseChatSseMessage({ event: 'scout.products', data: JSON.stringify(envelope), id: 'turn_1:1' })).toMatchObject({
      ok: false,
      code: 'unknown-event',
    });
  });

  it('channelOf gives each product event its declared channel, and each base type its own', () => {
    expect(scout.channelOf('scout.products')).toBe('state');
    expect(scout.channelOf('scout.cart_mutate')).toBe('transient');
    expect(scout.channelOf('scout.highlight')).toBe('event');
    expect(scout.channelOf('navigate')).toBe(channelOf('navigate'));
    expect(scout.channelOf('card')).toBe('state');
  });
});

describe('product events: the reducer keeps them by channel (DESIGN §3.3, §3.5)', () => {
  it('event channel: kept in order in the turn; state channel: last write wins per name; transient: the log only', () => {
    const state = applyAll([
      at(1, highlight('p1')),
      at(2, products(['p1', 'p2'])),
      at(3, { type: 'scout.broaden', data: { options: [{ label: 'Wider', prompt: 'wider', resultCount: 9 }] } }),
      at(4, { type: 'scout.cart_mutate', data: { action: 'add', productId: 'p1' } }),
      at(5, highlight('p2')),
      at(6, products(['p3'])),
    ]);
    const [turn] = state.turns;
    expect(turn).toMatchObject({
      lastSeq: 6,
      productEvents: [highlight('p1'), highlight('p2')],
      productState: {
        'scout.products': { products: [{ id: 'p3' }] },
        'scout.broaden': { options: [{ label: 'Wider', prompt: 'wider', resultCount: 9 }] },
      },
    });
    expect(Object.keys(turn?.productState ?? {})).toEqual(['scout.products', 'scout.broaden']);
    expect(turn?.eventLog.split('\n')).toHaveLength(6);
  });

  it('a turn without product events has none of their fields, so its snapshot is what it always was', () => {
    const state = applyAll([
      at(1, { type: 'delta', text: 'hi' }),
      at(2, { type: 'scout.cart_mutate', data: { action: 'remove', productId: 'p1' } }),
    ]);
    expect(Object.keys(state.turns[0] ?? {})).not.toContain('productEvents');
    expect(Object.keys(state.turns[0] ?? {})).not.toContain('productState');
    const base = applyChatEvent(createChatState('conv_1'), at(1, { type: 'delta', text: 'hi' }));
    expect(base.ok && JSON.stringify(base.state)).toBe(JSON.stringify(applyAll([at(1, { type: 'delta', text: 'hi' })])));
  });

  it('the idempotency memory covers them: a redelivery is duplicate, other data under the same id or seq conflicting-duplicate', () => {
    const state = applyAll([at(1, products(['p1']))]);
    const again = scout.parseChatEnvelope(at(1, products(['p1'])));
    const other = scout.parseChatEnvelope(at(1, products(['p2'])));
    if (!again.ok || !other.ok) throw new Error('expected valid envelopes');
    expect(scout.applyChatEvent(state, again.value)).toEqual({ ok: true, outcome: 'duplicate', state });
    expect(scout.applyChatEvent(state, other.value)).toMatchObject({ ok: false, code: 'conflicting-duplicate' });
    const sameSeq = scout.parseChatEnvelope(envelopeOf(products(['p1']), { seq: 1, eventId: 'evt_other' }));
    if (!sameSeq.ok) throw new Error('expected a valid envelope');
    expect(scout.applyChatEvent(state, sameSeq.value)).toMatchObject({ ok: false, code: 'conflicting-duplicate' });
  });

  it('snapshots are byte-identical: a state read back from its JSON continues exactly like the one never serialized', () => {
    const first = [
      at(1, highlight('p1')),
      at(2, products(['p1'])),
      at(3, { type: 'scout.cart_mutate', data: { action: 'add', productId: 'p1' } }),
    ];
    const rest = [at(4, products(['p2'])), at(5, highlight('p2')), at(6, { type: 'done', status: 'completed' })];
    const live = applyAll([...first, ...rest]);
    const restored = scout.parseChatState(JSON.stringify(applyAll(first)));
    if (!restored.ok) throw new Error(restored.message);
    expect(JSON.stringify(applyAll(rest, restored.value))).toBe(JSON.stringify(live));
    const redelivered = applyAll(rest.slice(0, 2), live);
    expect(JSON.stringify(redelivered)).toBe(JSON.stringify(live));
  });

  it('property: any stream of registered events, applied live or from a restored snapshot with redeliveries, gives the same JSON', () => {
    const eventArb = fc.oneof(
      fc.array(fc.string(), { maxLength: 3 }).map((ids) => products(ids)),
      fc.string().map((id) => highlight(id)),
      fc.record({ action: fc.constantFrom('add', 'remove'), productId: fc.string() }).map((data) => ({ type: 'scout.cart_mutate', data })),
      fc.string().map((text) => ({ type: 'delta', text })),
    );
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 12 }), fc.nat(), (events, cut) => {
        const envelopes = events.map((event, index) => at(index + 1, event));
        const split = cut % envelopes.length;
        const live = applyAll(envelopes);
        const restored = scout.parseChatState(JSON.parse(JSON.stringify(applyAll(envelopes.slice(0, split)))));
        if (!restored.ok) return false;
        const resumed = applyAll(envelopes.slice(Math.max(0, split - 2)), restored.value);
        return JSON.stringify(resumed) === JSON.stringify(live);
      }),
      { numRuns: runs(100) },
    );
  });
});

describe('product events in a stored state (DESIGN §3.5)', () => {
  const stored = () => JSON.parse(JSON.stringify(applyAll([at(1, highlight('p1')), at(2, products(['p1']))]))) as Record<string, never>;
  const turnOf = (state: { turns: Record<string, unknown>[] }) => state.turns[0] as Record<string, unknown>;

  it('the base state parser refuses a state holding product events as invalid-state', () => {
    expect(parseChatState(stored())).toMatchObject({ ok: false, code: 'invalid-state' });
  });

  it.each([
    [
      'an event-channel entry of an unregistered name',
      (turn: Record<string, unknown>) => {
        turn['productEvents'] = [{ type: 'scout.other', data: {} }];
      },
      ['turns', 0, 'productEvents', 0, 'type'],
    ],
    [
      'a state-channel name kept as an event',
      (turn: Record<string, unknown>) => {
        turn['productEvents'] = [products(['p1'])];
      },
      ['turns', 0, 'productEvents', 0, 'type'],
    ],
    [
      'an event-channel name kept as state',
      (turn: Record<string, unknown>) => {
        turn['productState'] = { 'scout.highlight': { productId: 'p1' } };
      },
      ['turns', 0, 'productState', 'scout.highlight'],
    ],
    [
      'data the product schema refuses',
      (turn: Record<string, unknown>) => {
        turn['productState'] = { 'scout.products': { products: 'nope' } };
      },
      ['turns', 0, 'productState', 'scout.products', 'products'],
    ],
    [
      'an empty list of events',
      (turn: Record<string, unknown>) => {
        turn['productEvents'] = [];
      },
      ['turns', 0, 'productEvents'],
    ],
    [
      'an empty product state',
      (turn: Record<string, unknown>) => {
        turn['productState'] = {};
      },
      ['turns', 0, 'productState'],
    ],
    [
      'a __proto__ key in the product state',
      (turn: Record<string, unknown>) => {
        turn['productState'] = JSON.parse('{"scout.products":{"products":[]},"__proto__":{"products":[]}}');
      },
      ['turns', 0, 'productState'],
    ],
  ])("the codec's state parser refuses %s as invalid-state", (_name, mutate, path) => {
    const state = stored() as unknown as { turns: Record<string, unknown>[] };
    mutate(turnOf(state));
    const result = scout.parseChatState(state);
    expect(result).toMatchObject({ ok: false, code: 'invalid-state' });
    if (!result.ok) expect(result.issues?.[0]?.path).toEqual(path);
  });
});
