import { describe, expectTypeOf, it } from 'vitest';
import type {
  ApplyChatEventResult,
  CardResponse,
  ChatEventEnvelope,
  ChatEventV1,
  ChatEventV1Of,
  ChatHistoryPageV1,
  ChatHistoryTurnV1,
  ChatStateV1,
  ChatTurnState,
  OpenCardSnapshotV1,
  ParseChatEnvelopeResult,
} from './index.js';
import * as z from 'zod/v4/mini';
import {
  applyChatEvent,
  channelOf,
  createCardCodec,
  createChatCodec,
  createChatState,
  defineCardKind,
  historyFromChatState,
  negotiateChatVersion,
  parseChatHistoryPage,
  parseChatEnvelope,
  requireChatCapabilities,
  type ChatStateOf,
} from './index.js';

describe('public types', () => {
  it('the envelope carries the whole event union, discriminated on type', () => {
    expectTypeOf<ChatEventEnvelope['event']>().toEqualTypeOf<ChatEventV1>();
    expectTypeOf<ChatEventEnvelope['schemaVersion']>().toEqualTypeOf<1>();
    expectTypeOf<ChatEventV1['type']>().toEqualTypeOf<
      | 'user_input'
      | 'delta'
      | 'reasoning'
      | 'tool_call'
      | 'tool_result'
      | 'provenance'
      | 'card'
      | 'card_closed'
      | 'state'
      | 'navigate'
      | 'done'
      | 'error'
    >();
    expectTypeOf<ChatEventV1Of<'card'>['card']>().toEqualTypeOf<OpenCardSnapshotV1>();
  });

  it('results narrow on ok to a value or a typed refusal code', () => {
    const result = parseChatEnvelope('{}');
    expectTypeOf(result).toEqualTypeOf<ParseChatEnvelopeResult>();
    if (result.ok) expectTypeOf(result.value).toEqualTypeOf<ChatEventEnvelope>();
    else {
      expectTypeOf(result.code).toEqualTypeOf<
        'invalid-json' | 'too-large' | 'unsupported-version' | 'invalid-envelope' | 'unknown-event' | 'invalid-event'
      >();
    }
  });

  it('a seq gap carries the cursor to replay after', () => {
    const result = applyChatEvent({} as ChatStateV1, {} as ChatEventEnvelope);
    expectTypeOf(result).toEqualTypeOf<ApplyChatEventResult>();
    if (!result.ok && result.code === 'seq-gap') {
      expectTypeOf(result.replayAfter).toEqualTypeOf<{ readonly turnId: string; readonly seq: number }>();
      expectTypeOf(result.expectedSeq).toEqualTypeOf<number>();
    }
  });

  it('fixed functions keep their shapes', () => {
    const negotiated = negotiateChatVersion('1');
    if (negotiated.ok) expectTypeOf(negotiated.version).toEqualTypeOf<0 | 1>();
    else expectTypeOf(negotiated.code).toEqualTypeOf<'unsupported-version'>();
    const required = requireChatCapabilities({}, ['connectionReplay']);
    if (!required.ok && required.code === 'unsupported-capability') {
      expectTypeOf(required.missing).toEqualTypeOf<
        readonly ('connectionReplay' | 'persistedHistory' | 'persistedDecisions' | 'completedToolCheckpoints' | 'interruptedTurnRecovery')[]
      >();
    }
    expectTypeOf(channelOf).parameter(0).toEqualTypeOf<ChatEventV1['type']>();
    expectTypeOf<CardResponse['action']>().toEqualTypeOf<'submit' | 'decline' | 'cancel'>();
  });

  it('a product card vocabulary is typed from the codec through the envelope to the state', () => {
    const rating = defineCardKind({
      presentation: z.strictObject({ maxStars: z.int() }),
      value: z.strictObject({ stars: z.int() }),
    });
    const chat = createChatCodec({ cards: createCardCodec({ kinds: { rating } }) });
    const parsed = chat.parseChatEnvelope('{}');
    if (!parsed.ok) return;
    const { event } = parsed.value;
    if (event.type !== 'card') return;
    expectTypeOf(event.card.presentation?.kind).toEqualTypeOf<
      'text' | 'radio' | 'select' | 'checkbox' | 'confirm' | 'date' | 'slider' | 'rating' | undefined
    >();
    type ProductCard = typeof event.card;
    const state: ChatStateOf<ProductCard> = createChatState('conv_1');
    // A product's cards apply through its codec's reducer, which holds them to its vocabulary.
    const applied = chat.applyChatEvent(state, parsed.value);
    if (applied.ok) expectTypeOf(applied.state).toEqualTypeOf<ChatStateOf<ProductCard>>();
    // @ts-expect-error the base reducer holds cards to the base kinds (issue 24)
    applyChatEvent(state, parsed.value);
    // The base parser's envelopes keep the base types.
    const base = parseChatEnvelope('{}');
    if (base.ok) expectTypeOf(applyChatEvent(createChatState('conv_1'), base.value)).toEqualTypeOf<ApplyChatEventResult>();
  });

  it('user_input and persisted history are typed (issue 13)', () => {
    expectTypeOf<ChatEventV1Of<'user_input'>>().toEqualTypeOf<{
      type: 'user_input';
      text: string;
      source?: 'text_typed' | 'voice_stt' | 'system';
    }>();
    expectTypeOf<ChatTurnState['userInput']>().toEqualTypeOf<
      { text: string; source?: 'text_typed' | 'voice_stt' | 'system' } | undefined
    >();
    expectTypeOf(historyFromChatState).returns.toEqualTypeOf<ChatHistoryTurnV1[]>();
    expectTypeOf<ChatHistoryTurnV1['source']>().toEqualTypeOf<'text_typed' | 'voice_stt' | 'system' | 'voice_tts' | undefined>();
    expectTypeOf<ChatHistoryTurnV1['role']>().toEqualTypeOf<'user' | 'assistant' | 'system'>();
    const product = z.strictObject({ planSlug: z.string() });
    const parsed = parseChatHistoryPage('{}', { product });
    if (parsed.ok) expectTypeOf(parsed.value.turns[0]?.product).toEqualTypeOf<{ planSlug: string } | undefined>();
    const plain = parseChatHistoryPage('{}');
    if (plain.ok) expectTypeOf(plain.value).toEqualTypeOf<ChatHistoryPageV1>();
  });
});
