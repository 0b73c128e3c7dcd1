/** Small builders of valid v1 envelopes shared by the core tests. */
import type { ApplyChatEventRefusalCode, ChatEventEnvelope, ChatEventV1 } from '../src/index.js';

export const CONVERSATION_ID = 'conv_1';

// Every refusal code of the reducer, once: a code added to the union and not here fails to compile.
const REFUSAL_CODES: Readonly<Record<ApplyChatEventRefusalCode, true>> = {
  'foreign-conversation': true,
  'seq-gap': true,
  'conflicting-duplicate': true,
  'turn-terminal': true,
  'misplaced-user-input': true,
  'unknown-tool-call': true,
  'duplicate-tool-call': true,
  'duplicate-tool-result': true,
  'tool-name-mismatch': true,
  'unknown-card': true,
  'duplicate-card': true,
  'card-closed': true,
  'card-not-awaiting': true,
  'stale-state': true,
  'invalid-envelope': true,
  'invalid-event': true,
  'unknown-event': true,
};

/** The codes `applyChatEvent` may answer, for properties that accept any refusal. */
export const APPLY_CHAT_EVENT_REFUSAL_CODES = Object.keys(REFUSAL_CODES) as readonly ApplyChatEventRefusalCode[];

/** A valid envelope around `event`; fields can be overridden (also with invalid values). */
export function envelopeOf(event: unknown, overrides: Record<string, unknown> = {}): ChatEventEnvelope {
  return {
    schemaVersion: 1,
    conversationId: CONVERSATION_ID,
    turnId: 'turn_1',
    eventId: 'evt_1',
    seq: 1,
    occurredAt: '2026-11-29T12:00:00.000Z',
    event,
    ...overrides,
  } as ChatEventEnvelope;
}

/** A valid open card. */
export const RADIO_CARD = {
  correlationId: 'card_1',
  createdAt: '2026-11-29T12:00:00Z',
  prompt: 'Which plan?',
  presentation: {
    kind: 'radio',
    options: [
      { id: 'basic', label: 'Basic' },
      { id: 'pro', label: 'Pro' },
    ],
  },
  allowDecline: true,
} as const;

/** One valid example of every v1 event type. */
export const VALID_EVENTS: readonly ChatEventV1[] = [
  { type: 'user_input', text: 'Find the fox document' },
  { type: 'user_input', text: 'Find the fox document', source: 'text_typed' },
  { type: 'user_input', text: 'find the fox', source: 'voice_stt' },
  { type: 'user_input', text: 'Daily digest', source: 'system' },
  { type: 'delta', text: 'Hello' },
  { type: 'delta', text: '' },
  { type: 'reasoning', text: 'thinking' },
  { type: 'tool_call', callId: 'call_1', name: 'search', input: { query: 'fox', limit: 3 } },
  { type: 'tool_call', callId: 'call_2', name: 'now' },
  {
    type: 'tool_result',
    callId: 'call_1',
    name: 'search',
    status: 'succeeded',
    summary: '2 hits',
    blocks: [
      { kind: 'text', text: 'The fox', sources: [{ ref: 'doc:1', label: 'Doc 1' }] },
      { kind: 'data', data: { hits: [1, 2] } },
    ],
  },
  { type: 'tool_result', callId: 'call_2', name: 'now', status: 'failed', error: 'timeout' },
  { type: 'tool_result', callId: 'call_3', name: 'pay', status: 'needs-reconciliation' },
  { type: 'tool_result', callId: 'call_4', name: 'pay', status: 'cancelled' },
  { type: 'provenance', engine: 'papercup', model: 'provider_x/large' },
  { type: 'provenance', engine: 'papercup', model: 'provider_x/large', accountRoute: null },
  { type: 'provenance', engine: 'papercup', model: 'provider_x/large', accountRoute: 'team-a' },
  { type: 'card', card: RADIO_CARD },
  { type: 'card_closed', correlationId: 'card_1', resolution: 'submitted' },
  { type: 'card_closed', correlationId: 'card_1' },
  { type: 'state', version: 0, snapshot: { cart: [] } },
  { type: 'state', version: 3, snapshot: null },
  { type: 'navigate', href: '/orders/42?tab=items#top' },
  { type: 'navigate', href: 'https://example.com/help' },
  { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 20 } },
  { type: 'done', status: 'cancelled' },
  { type: 'done', status: 'interrupted' },
  { type: 'done', status: 'needs-reconciliation' },
  { type: 'error', code: 'rate_limited', message: 'Slow down', retryable: true, retryAfterMs: 2000 },
  { type: 'error', code: 'internal', message: 'Broken', retryable: false },
] as ChatEventV1[];

const sampleEnvelope = (turnId: string, seq: number, second: number, event: unknown): ChatEventEnvelope =>
  envelopeOf(event, {
    turnId,
    eventId: `evt_${turnId}_${seq}`,
    seq,
    occurredAt: `2026-11-29T12:00:${String(second).padStart(2, '0')}.000Z`,
  });

/**
 * A valid two-turn session of `CONVERSATION_ID` that uses every v1 event type:
 * turn_1 ends with `done` (14 envelopes), turn_2 with `error` (2 envelopes).
 */
export const SAMPLE_SESSION: readonly ChatEventEnvelope[] = [
  sampleEnvelope('turn_1', 1, 0, { type: 'provenance', engine: 'papercup', model: 'provider_x/large', accountRoute: 'team-a' }),
  sampleEnvelope('turn_1', 2, 1, { type: 'reasoning', text: 'The user wants the fox document.' }),
  sampleEnvelope('turn_1', 3, 2, { type: 'delta', text: 'Looking that up. ' }),
  sampleEnvelope('turn_1', 4, 3, { type: 'tool_call', callId: 'call_1', name: 'search', input: { query: 'fox', limit: 3 } }),
  sampleEnvelope('turn_1', 5, 4, { type: 'tool_call', callId: 'call_2', name: 'now' }),
  sampleEnvelope('turn_1', 6, 5, {
    type: 'tool_result',
    callId: 'call_1',
    name: 'search',
    status: 'succeeded',
    summary: '2 hits',
    blocks: [
      { kind: 'text', text: 'The fox', sources: [{ ref: 'doc:1', label: 'Doc 1' }] },
      { kind: 'data', data: { hits: [1, 2] } },
    ],
  }),
  sampleEnvelope('turn_1', 7, 6, { type: 'tool_result', callId: 'call_2', name: 'now', status: 'failed', error: 'timeout' }),
  sampleEnvelope('turn_1', 8, 7, { type: 'state', version: 1, snapshot: { cart: [] } }),
  sampleEnvelope('turn_1', 9, 8, { type: 'navigate', href: '/orders/42' }),
  sampleEnvelope('turn_1', 10, 9, { type: 'card', card: RADIO_CARD }),
  sampleEnvelope('turn_1', 11, 10, { type: 'card_closed', correlationId: 'card_1', resolution: 'submitted' }),
  sampleEnvelope('turn_1', 12, 11, { type: 'state', version: 2, snapshot: { cart: ['pro'] } }),
  sampleEnvelope('turn_1', 13, 12, { type: 'delta', text: 'Done.' }),
  sampleEnvelope('turn_1', 14, 13, {
    type: 'done',
    status: 'completed',
    stopReason: 'end_turn',
    usage: { inputTokens: 10, outputTokens: 20 },
  }),
  sampleEnvelope('turn_2', 1, 14, { type: 'delta', text: 'Second ' }),
  sampleEnvelope('turn_2', 2, 15, { type: 'error', code: 'rate_limited', message: 'Slow down', retryable: true, retryAfterMs: 2000 }),
];
