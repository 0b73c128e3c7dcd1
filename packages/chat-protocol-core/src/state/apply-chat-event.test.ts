import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopeArb, eventArb, idArb, nameArb } from '../../../../test-support/v1-arbitraries.js';
import { APPLY_CHAT_EVENT_REFUSAL_CODES, CONVERSATION_ID, envelopeOf, RADIO_CARD, SAMPLE_SESSION } from '../../test/envelopes.js';
import { applyChatEvent } from './apply-chat-event.js';
import { digestEnvelope } from './digest.js';
import type { ChatEventEnvelope } from '../envelope/envelope.js';
import { DONE_STATUSES, type ChatEventV1 } from '../events/events.js';
import { buildStream, streamSpecArb, type StreamSpec } from '../../test/streams.js';
import { parseChatEnvelope } from '../envelope/parse-chat-envelope.js';
import { createChatState, parseChatState, type ChatStateV1, type ChatTurnState } from './state.js';
import { runs } from '../../../../test-support/property-runs.js';
import { reverseKeys } from '../../../../test-support/reverse-keys.js';

// ---------------------------------------------------------------------------
// Helpers

const pad = (value: number) => String(value).padStart(2, '0');

/** An envelope of turn_1 at `seq` with event id `evt_<seq>` and a timestamp that grows with seq. */
const at = (seq: number, event: unknown, overrides: Record<string, unknown> = {}): ChatEventEnvelope =>
  envelopeOf(event, { eventId: `evt_${seq}`, seq, occurredAt: `2026-11-29T12:00:${pad(seq)}.000Z`, ...overrides });

/** The idempotency memory line an envelope leaves in its turn's `eventLog`. */
const lineOf = (envelope: ChatEventEnvelope) => `${envelope.eventId} ${digestEnvelope(envelope)}`;
const logOf = (...envelopes: ChatEventEnvelope[]) => envelopes.map(lineOf).join('\n');

/** A fresh copy, as a redelivery over the wire would be. */
const copyOf = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function applied(state: ChatStateV1, envelope: ChatEventEnvelope): ChatStateV1 {
  const result = applyChatEvent(state, envelope);
  if (!result.ok || result.outcome !== 'applied') {
    throw new Error(`expected ${envelope.turnId}:${envelope.seq} to apply, got ${JSON.stringify(result)}`);
  }
  return result.state;
}

const replay = (envelopes: readonly ChatEventEnvelope[], state: ChatStateV1 = createChatState(CONVERSATION_ID)) =>
  envelopes.reduce(applied, state);

/** A turn as `newTurn` starts it, with `fields` on top. */
const turnOf = (fields: Partial<ChatTurnState>): ChatTurnState => ({
  turnId: 'turn_1',
  status: 'running',
  lastSeq: 0,
  text: '',
  reasoning: '',
  toolCalls: [],
  cards: [],
  hostState: null,
  provenance: null,
  stopReason: null,
  usage: null,
  error: null,
  eventLog: '',
  ...fields,
});

const stateOf = (...turns: ChatTurnState[]): ChatStateV1 => ({ schemaVersion: 1, conversationId: CONVERSATION_ID, turns });

function deepFreeze<T>(value: T, seen = new WeakSet<object>()): T {
  if (typeof value === 'object' && value !== null && !seen.has(value)) {
    seen.add(value);
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child, seen);
  }
  return value;
}

const HELLO = at(1, { type: 'delta', text: 'Hello' });
const WORLD = at(2, { type: 'delta', text: ', world' });
const SEARCH = at(3, { type: 'tool_call', callId: 'call_1', name: 'search', input: { query: 'fox', limit: 3 } });
const DONE = at(3, { type: 'done', status: 'completed' });
const FAILED = at(3, { type: 'error', code: 'internal', message: 'Broken', retryable: false });

// ---------------------------------------------------------------------------
// Rules

describe('applyChatEvent: ordering and idempotency (DESIGN §3.5)', () => {
  it('a turn appears with its seq-1 event; the memory records which event took the seq', () => {
    expect(applyChatEvent(createChatState(CONVERSATION_ID), HELLO)).toStrictEqual({
      ok: true,
      outcome: 'applied',
      state: stateOf(turnOf({ lastSeq: 1, text: 'Hello', eventLog: lineOf(HELLO) })),
    });
    expect(replay([HELLO, WORLD])).toStrictEqual(
      stateOf(turnOf({ lastSeq: 2, text: 'Hello, world', eventLog: `${lineOf(HELLO)}\n${lineOf(WORLD)}` })),
    );
  });

  it('redelivering an identical envelope is a no-op: outcome duplicate and the same state object', () => {
    const state = replay([HELLO, WORLD, SEARCH]);
    for (const envelope of [HELLO, WORLD, SEARCH]) {
      const result = applyChatEvent(state, copyOf(envelope));
      expect(result).toStrictEqual({ ok: true, state, outcome: 'duplicate' });
      expect(result.ok && result.state).toBe(state);
    }
  });

  it('key order of a redelivered event does not matter: same content with keys reordered is a duplicate', () => {
    const card = at(4, { type: 'card', card: { ...RADIO_CARD, expiresAt: '2026-11-29T13:00:00-01:30' } });
    const state = replay([HELLO, WORLD, SEARCH, card]);
    for (const envelope of [SEARCH, card]) {
      const reordered = reverseKeys(envelope) as ChatEventEnvelope;
      expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(envelope));
      const result = applyChatEvent(state, reordered);
      expect(result).toStrictEqual({ ok: true, state, outcome: 'duplicate' });
      expect(result.ok && result.state).toBe(state);
    }
  });

  it('the same event id at another seq is conflicting-duplicate (as the next seq and as an old one)', () => {
    const state = replay([HELLO, WORLD]);
    expect(applyChatEvent(state, { ...HELLO, seq: 3 })).toStrictEqual({
      ok: false,
      code: 'conflicting-duplicate',
      message: 'event id evt_1 was already applied at another position',
    });
    expect(applyChatEvent(state, { ...WORLD, seq: 1 })).toStrictEqual({
      ok: false,
      code: 'conflicting-duplicate',
      message: 'seq 1 of turn turn_1 was applied with other content',
    });
  });

  it.each<[string, ChatEventEnvelope]>([
    ['other text', { ...WORLD, event: { type: 'delta', text: ', moon' } }],
    ['another event type', { ...WORLD, event: { type: 'reasoning', text: ', world' } }],
    ['another timestamp', { ...WORLD, occurredAt: '2026-11-29T12:00:02.001Z' }],
    ['another event id', { ...WORLD, eventId: 'evt_other' }],
  ])('the same seq with different content is conflicting-duplicate: %s', (_name, envelope) => {
    const state = replay([HELLO, WORLD]);
    expect(applyChatEvent(state, envelope)).toStrictEqual({
      ok: false,
      code: 'conflicting-duplicate',
      message: 'seq 2 of turn turn_1 was applied with other content',
    });
  });

  it('the same seq with different content is conflicting-duplicate also after the turn ended', () => {
    const state = replay([HELLO, WORLD, DONE]);
    const refusal = (seq: number) => ({
      ok: false,
      code: 'conflicting-duplicate',
      message: `seq ${seq} of turn turn_1 was applied with other content`,
    });
    expect(applyChatEvent(state, { ...WORLD, event: { type: 'delta', text: '!' } })).toStrictEqual(refusal(2));
    expect(applyChatEvent(state, { ...DONE, event: { type: 'done', status: 'cancelled' } })).toStrictEqual(refusal(3));
    expect(applyChatEvent(state, FAILED)).toStrictEqual(refusal(3));
  });

  it('a gap is seq-gap with the expected seq and the cursor to replay after', () => {
    const state = replay([HELLO, WORLD]);
    expect(applyChatEvent(state, at(5, { type: 'delta', text: '!' }))).toStrictEqual({
      ok: false,
      code: 'seq-gap',
      message: 'expected seq 3 of turn turn_1, got 5',
      expectedSeq: 3,
      replayAfter: { turnId: 'turn_1', seq: 2 },
    });
  });

  it('an unknown turn whose first seq is not 1 is seq-gap, replaying after seq 0', () => {
    const state = replay([HELLO]);
    expect(applyChatEvent(state, at(3, { type: 'delta', text: 'x' }, { turnId: 'turn_9', eventId: 'evt_t9_3' }))).toStrictEqual({
      ok: false,
      code: 'seq-gap',
      message: 'expected seq 1 of turn turn_9, got 3',
      expectedSeq: 1,
      replayAfter: { turnId: 'turn_9', seq: 0 },
    });
  });

  it('event ids are unique across the turns of a conversation', () => {
    const state = replay([HELLO, WORLD]);
    const reused = at(1, { type: 'delta', text: 'Hello' }, { turnId: 'turn_2', eventId: 'evt_2' });
    expect(applyChatEvent(state, reused)).toStrictEqual({
      ok: false,
      code: 'conflicting-duplicate',
      message: 'event id evt_2 was already applied at another position',
    });
    // With a fresh id the same content is a new event of the new turn.
    const fresh = { ...reused, eventId: 'evt_t2_1' };
    expect(replay([fresh], state).turns.map((turn) => [turn.turnId, turn.text])).toStrictEqual([
      ['turn_1', 'Hello, world'],
      ['turn_2', 'Hello'],
    ]);
  });

  it('a refused envelope leaves no trace: its event id and seq stay free', () => {
    const state = replay([HELLO, WORLD]);
    const refused = at(3, { type: 'tool_result', callId: 'call_9', name: 'search', status: 'succeeded' });
    expect(applyChatEvent(state, refused)).toMatchObject({ ok: false, code: 'unknown-tool-call' });
    expect(applyChatEvent(state, at(3, { type: 'delta', text: '!' }))).toMatchObject({ ok: true, outcome: 'applied' });
  });

  it('an envelope of another conversation is foreign-conversation', () => {
    const state = replay([HELLO]);
    expect(applyChatEvent(state, { ...WORLD, conversationId: 'conv_other' })).toStrictEqual({
      ok: false,
      code: 'foreign-conversation',
      message: 'envelope belongs to conversation conv_other',
    });
    // Also for an envelope that would be a duplicate in its own conversation.
    expect(applyChatEvent(state, { ...HELLO, conversationId: 'conv_other' })).toMatchObject({ code: 'foreign-conversation' });
  });
});

describe('applyChatEvent: done and error are terminal and symmetric', () => {
  it('an error never overwrites done', () => {
    const state = replay([HELLO, WORLD, DONE]);
    expect(applyChatEvent(state, at(4, { type: 'error', code: 'internal', message: 'Broken', retryable: false }))).toStrictEqual({
      ok: false,
      code: 'turn-terminal',
      message: 'turn turn_1 already ended as completed',
    });
  });

  it('done never overwrites an error', () => {
    const state = replay([HELLO, WORLD, FAILED]);
    expect(applyChatEvent(state, at(4, { type: 'done', status: 'completed' }))).toStrictEqual({
      ok: false,
      code: 'turn-terminal',
      message: 'turn turn_1 already ended as failed',
    });
  });

  it.each<[string, ChatEventEnvelope]>([
    ['a delta', at(4, { type: 'delta', text: 'late' })],
    ['a second done with a new event id', at(4, { type: 'done', status: 'completed' })],
    ['a tool call', at(4, { type: 'tool_call', callId: 'call_2', name: 'now' })],
    ['an envelope past the next seq (no seq-gap after the end)', at(9, { type: 'delta', text: 'late' })],
    ['a known event id at a new seq', { ...HELLO, seq: 4 }],
  ])('anything new after done is turn-terminal: %s', (_name, envelope) => {
    const state = replay([HELLO, WORLD, DONE]);
    expect(applyChatEvent(state, envelope)).toStrictEqual({
      ok: false,
      code: 'turn-terminal',
      message: 'turn turn_1 already ended as completed',
    });
  });

  it('identical redelivery of the terminal event is still duplicate', () => {
    for (const terminal of [DONE, FAILED]) {
      const state = replay([HELLO, WORLD, terminal]);
      const result = applyChatEvent(state, copyOf(terminal));
      expect(result).toStrictEqual({ ok: true, state, outcome: 'duplicate' });
      expect(result.ok && result.state).toBe(state);
    }
  });

  it.each(DONE_STATUSES)('done with status %s sets the turn status, stop reason and usage', (status) => {
    const done = at(2, { type: 'done', status, stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 20 } });
    expect(replay([HELLO, done])).toStrictEqual(
      stateOf(
        turnOf({
          status,
          lastSeq: 2,
          text: 'Hello',
          stopReason: 'end_turn',
          usage: { inputTokens: 10, outputTokens: 20 },
          eventLog: logOf(HELLO, done),
        }),
      ),
    );
  });

  it('done without stop reason and usage records null for both', () => {
    const done = at(2, { type: 'done', status: 'interrupted' });
    expect(replay([HELLO, done]).turns[0]).toStrictEqual(
      turnOf({ status: 'interrupted', lastSeq: 2, text: 'Hello', eventLog: logOf(HELLO, done) }),
    );
  });

  it('error ends the turn as failed with its code, message and retry permission', () => {
    const retryable = at(2, { type: 'error', code: 'rate_limited', message: 'Slow down', retryable: true, retryAfterMs: 2000 });
    expect(replay([HELLO, retryable])).toStrictEqual(
      stateOf(
        turnOf({
          status: 'failed',
          lastSeq: 2,
          text: 'Hello',
          error: { code: 'rate_limited', message: 'Slow down', retryable: true, retryAfterMs: 2000 },
          eventLog: logOf(HELLO, retryable),
        }),
      ),
    );
    const final = at(2, { type: 'error', code: 'internal', message: 'Broken', retryable: false });
    expect(replay([HELLO, final]).turns[0]?.error).toStrictEqual({
      code: 'internal',
      message: 'Broken',
      retryable: false,
      retryAfterMs: null,
    });
  });
});

describe('applyChatEvent: user_input opens a turn (DESIGN §3.3, issue 13)', () => {
  const ASKED = at(1, { type: 'user_input', text: 'Find the fox document', source: 'voice_stt' });

  it('a user_input at seq 1 is held by the turn as userInput, written just before the event log', () => {
    const state = replay([ASKED, at(2, { type: 'delta', text: 'Looking.' })]);
    expect(state.turns[0]).toStrictEqual(
      turnOf({
        lastSeq: 2,
        userInput: { text: 'Find the fox document', source: 'voice_stt' },
        text: 'Looking.',
        eventLog: logOf(ASKED, at(2, { type: 'delta', text: 'Looking.' })),
      }),
    );
    expect(Object.keys(state.turns[0] ?? {}).slice(-2)).toEqual(['userInput', 'eventLog']);
  });

  it('an absent source stays absent in the state', () => {
    const state = replay([at(1, { type: 'user_input', text: 'Hi' })]);
    expect(state.turns[0]?.userInput).toStrictEqual({ text: 'Hi' });
  });

  it('a turn without user_input has no userInput key: its snapshot JSON is unchanged', () => {
    const state = replay([HELLO, WORLD]);
    expect(Object.keys(state.turns[0] ?? {})).not.toContain('userInput');
    expect(JSON.stringify(state)).toBe(
      JSON.stringify(stateOf(turnOf({ lastSeq: 2, text: 'Hello, world', eventLog: logOf(HELLO, WORLD) }))),
    );
  });

  it('a user_input after the first event is misplaced-user-input (so at most one per turn), and leaves no trace', () => {
    const state = replay([HELLO]);
    const late = at(2, { type: 'user_input', text: 'Again' });
    const result = applyChatEvent(state, late);
    expect(result).toMatchObject({ ok: false, code: 'misplaced-user-input' });
    expect(applyChatEvent(replay([ASKED]), at(2, { type: 'user_input', text: 'Second' }))).toMatchObject({
      ok: false,
      code: 'misplaced-user-input',
    });
    expect(applied(state, at(2, { type: 'delta', text: '!' })).turns[0]?.lastSeq).toBe(2);
  });

  it('the user input survives parseChatState and the restored state continues identically', () => {
    const live = replay([ASKED]);
    const restored = parseChatState(JSON.stringify(live));
    expect(restored.ok).toBe(true);
    if (!restored.ok) return;
    expect(restored.value).toStrictEqual(JSON.parse(JSON.stringify(live)));
    const next = at(2, { type: 'done', status: 'completed' });
    expect(JSON.stringify(applied(restored.value as ChatStateV1, next))).toBe(JSON.stringify(applied(live, next)));
  });
});

describe('applyChatEvent: tool calls, cards, host state, navigate, provenance', () => {
  const succeeded = at(4, {
    type: 'tool_result',
    callId: 'call_1',
    name: 'search',
    status: 'succeeded',
    summary: '1 hit',
    blocks: [{ kind: 'text', text: 'The fox', sources: [{ ref: 'doc:1', label: 'Doc 1' }] }],
  });

  it('a tool call records its input and then its result', () => {
    const state = replay([HELLO, WORLD, SEARCH, succeeded]);
    expect(state.turns[0]?.toolCalls).toStrictEqual([
      {
        callId: 'call_1',
        name: 'search',
        input: { query: 'fox', limit: 3 },
        result: {
          status: 'succeeded',
          summary: '1 hit',
          blocks: [{ kind: 'text', text: 'The fox', sources: [{ ref: 'doc:1', label: 'Doc 1' }] }],
        },
      },
    ]);
    const failed = at(5, { type: 'tool_call', callId: 'call_2', name: 'now' });
    const failure = at(6, { type: 'tool_result', callId: 'call_2', name: 'now', status: 'failed', error: 'timeout' });
    expect(replay([failed, failure], state).turns[0]?.toolCalls[1]).toStrictEqual({
      callId: 'call_2',
      name: 'now',
      input: null,
      result: { status: 'failed', error: 'timeout' },
    });
  });

  it('a result for a call the turn never made is unknown-tool-call', () => {
    const state = replay([HELLO, WORLD, SEARCH]);
    expect(applyChatEvent(state, at(4, { type: 'tool_result', callId: 'call_9', name: 'search', status: 'failed' }))).toStrictEqual({
      ok: false,
      code: 'unknown-tool-call',
      message: 'no tool call call_9 in this turn',
    });
  });

  it('tool calls belong to their turn: a result in another turn is unknown-tool-call', () => {
    const state = replay([HELLO, WORLD, SEARCH]);
    const elsewhere = at(
      1,
      { type: 'tool_result', callId: 'call_1', name: 'search', status: 'succeeded' },
      { turnId: 'turn_2', eventId: 'evt_t2_1' },
    );
    expect(applyChatEvent(state, elsewhere)).toStrictEqual({
      ok: false,
      code: 'unknown-tool-call',
      message: 'no tool call call_1 in this turn',
    });
  });

  it('the same call id twice in a turn is duplicate-tool-call', () => {
    const state = replay([HELLO, WORLD, SEARCH]);
    expect(applyChatEvent(state, at(4, { type: 'tool_call', callId: 'call_1', name: 'search' }))).toStrictEqual({
      ok: false,
      code: 'duplicate-tool-call',
      message: 'tool call call_1 was already made',
    });
  });

  it('a second result for a call is duplicate-tool-result', () => {
    const state = replay([HELLO, WORLD, SEARCH, succeeded]);
    expect(applyChatEvent(state, at(5, { type: 'tool_result', callId: 'call_1', name: 'search', status: 'failed' }))).toStrictEqual({
      ok: false,
      code: 'duplicate-tool-result',
      message: 'tool call call_1 already has a result',
    });
  });

  it('a result naming another tool than its call is tool-name-mismatch', () => {
    const state = replay([HELLO, WORLD, SEARCH]);
    expect(
      applyChatEvent(state, at(4, { type: 'tool_result', callId: 'call_1', name: 'delete_account', status: 'succeeded' })),
    ).toStrictEqual({
      ok: false,
      code: 'tool-name-mismatch',
      message: 'tool call call_1 called search, the result names delete_account',
    });
  });

  const card = at(2, { type: 'card', card: RADIO_CARD });
  const closed = at(3, { type: 'card_closed', correlationId: 'card_1', resolution: 'submitted' });

  it('a card is recorded open and closes with its resolution (absent resolution is null)', () => {
    expect(replay([HELLO, card]).turns[0]?.cards).toStrictEqual([{ card: RADIO_CARD, closed: false, resolution: null }]);
    expect(replay([HELLO, card, closed]).turns[0]?.cards).toStrictEqual([{ card: RADIO_CARD, closed: true, resolution: 'submitted' }]);
    const unreported = at(3, { type: 'card_closed', correlationId: 'card_1' });
    expect(replay([HELLO, card, unreported]).turns[0]?.cards).toStrictEqual([{ card: RADIO_CARD, closed: true, resolution: null }]);
  });

  it('closing a card the turn never asked is unknown-card', () => {
    const state = replay([HELLO, card]);
    expect(applyChatEvent(state, at(3, { type: 'card_closed', correlationId: 'card_9', resolution: 'declined' }))).toStrictEqual({
      ok: false,
      code: 'unknown-card',
      message: 'no card card_9 in this turn',
    });
  });

  it('asking the same card twice is duplicate-card', () => {
    const state = replay([HELLO, card]);
    expect(applyChatEvent(state, at(3, { type: 'card', card: { ...RADIO_CARD, prompt: 'Again?' } }))).toStrictEqual({
      ok: false,
      code: 'duplicate-card',
      message: 'card card_1 was already asked',
    });
  });

  it('closing a card twice (under another event id) is card-closed, whatever the resolution', () => {
    const state = replay([HELLO, card, closed]);
    for (const resolution of ['submitted', 'expired']) {
      expect(applyChatEvent(state, at(4, { type: 'card_closed', correlationId: 'card_1', resolution }))).toStrictEqual({
        ok: false,
        code: 'card-closed',
        message: 'card card_1 is already closed',
      });
    }
  });

  it('host state is last write wins with increasing versions (the first may be 0)', () => {
    const first = at(2, { type: 'state', version: 0, snapshot: { cart: [] } });
    const second = at(3, { type: 'state', version: 5, snapshot: { cart: ['pro'] } });
    expect(replay([HELLO, first]).turns[0]?.hostState).toStrictEqual({ version: 0, snapshot: { cart: [] } });
    expect(replay([HELLO, first, second]).turns[0]?.hostState).toStrictEqual({ version: 5, snapshot: { cart: ['pro'] } });
  });

  it.each([
    ['equal to', 5, 'state version 5 is not after 5'],
    ['lower than', 4, 'state version 4 is not after 5'],
  ])('a state version %s the current one is stale-state', (_name, version, message) => {
    const state = replay([HELLO, at(2, { type: 'state', version: 5, snapshot: { cart: [] } })]);
    expect(applyChatEvent(state, at(3, { type: 'state', version, snapshot: null }))).toStrictEqual({
      ok: false,
      code: 'stale-state',
      message,
    });
  });

  it('navigate changes nothing but lastSeq and the event log', () => {
    const before = replay([HELLO, WORLD, SEARCH]);
    const navigate = at(4, { type: 'navigate', href: '/orders/42?tab=items#top' });
    const [turn] = before.turns;
    expect(replay([navigate], before)).toStrictEqual(
      stateOf({ ...(turn as ChatTurnState), lastSeq: 4, eventLog: logOf(HELLO, WORLD, SEARCH, navigate) }),
    );
  });

  it('provenance is last write wins; an absent account route is null', () => {
    const first = at(1, { type: 'provenance', engine: 'papercup', model: 'provider_x/large', accountRoute: 'team-a' });
    const second = at(2, { type: 'provenance', engine: 'papercup', model: 'provider_y/small' });
    expect(replay([first]).turns[0]?.provenance).toStrictEqual({ engine: 'papercup', model: 'provider_x/large', accountRoute: 'team-a' });
    expect(replay([first, second]).turns[0]?.provenance).toStrictEqual({
      engine: 'papercup',
      model: 'provider_y/small',
      accountRoute: null,
    });
  });
});

describe('applyChatEvent: purity, branches, restore, determinism', () => {
  it('never mutates its input: deep-frozen states and envelopes, same JSON before and after', () => {
    let state = deepFreeze(createChatState(CONVERSATION_ID));
    const probes = (envelope: ChatEventEnvelope): ChatEventEnvelope[] => [
      envelope, // applied
      { ...envelope, seq: envelope.seq + 5 }, // gap (or terminal)
      { ...envelope, eventId: 'evt_probe' }, // applied on a branch that is dropped
      { ...envelope, conversationId: 'conv_other' },
    ];
    for (const envelope of SAMPLE_SESSION) {
      for (const probe of probes(envelope).reverse()) {
        const frozen = deepFreeze(copyOf(probe));
        const before = JSON.stringify([state, frozen]);
        const result = applyChatEvent(state, frozen);
        expect(JSON.stringify([state, frozen])).toBe(before);
        if (probe === envelope) {
          expect(result).toMatchObject({ ok: true, outcome: 'applied' });
          if (result.ok) state = deepFreeze(result.state);
        }
      }
      // Redelivery and a conflicting copy of what was just applied, against the frozen result.
      const before = JSON.stringify(state);
      expect(applyChatEvent(state, deepFreeze(copyOf(envelope)))).toMatchObject({ ok: true, outcome: 'duplicate' });
      expect(applyChatEvent(state, deepFreeze({ ...copyOf(envelope), occurredAt: '2030-01-01T00:00:00Z' }))).toMatchObject({
        ok: false,
        code: 'conflicting-duplicate',
      });
      expect(JSON.stringify(state)).toBe(before);
    }
  });

  it('branches from one state are independent: each knows only its own events', () => {
    const base = replay([HELLO]);
    const x = at(2, { type: 'delta', text: ' x' }, { eventId: 'evt_x' });
    const y = at(2, { type: 'delta', text: ' y' }, { eventId: 'evt_y' });
    const branchA = applied(base, x);
    const branchB = applied(base, y);
    expect(branchA).toStrictEqual(stateOf(turnOf({ lastSeq: 2, text: 'Hello x', eventLog: logOf(HELLO, x) })));
    expect(branchB).toStrictEqual(stateOf(turnOf({ lastSeq: 2, text: 'Hello y', eventLog: logOf(HELLO, y) })));
    expect(base).toStrictEqual(stateOf(turnOf({ lastSeq: 1, text: 'Hello', eventLog: logOf(HELLO) })));

    // Each branch knows its own event id and not the other's.
    const xAt3 = { ...x, seq: 3 };
    const yAt3 = { ...y, seq: 3 };
    expect(applyChatEvent(branchA, xAt3)).toMatchObject({ ok: false, code: 'conflicting-duplicate' });
    expect(applyChatEvent(branchB, yAt3)).toMatchObject({ ok: false, code: 'conflicting-duplicate' });
    expect(applied(branchB, xAt3).turns[0]).toStrictEqual(turnOf({ lastSeq: 3, text: 'Hello y x', eventLog: logOf(HELLO, y, xAt3) }));
    expect(applied(branchA, yAt3).turns[0]).toStrictEqual(turnOf({ lastSeq: 3, text: 'Hello x y', eventLog: logOf(HELLO, x, yAt3) }));
    // The base still knows neither, and its seq 2 is still free.
    expect(applyChatEvent(base, x)).toStrictEqual({ ok: true, outcome: 'applied', state: branchA });
    expect(applyChatEvent(base, y)).toStrictEqual({ ok: true, outcome: 'applied', state: branchB });
    // A branch that was extended and is then used again answers from its own log.
    const extended = applied(branchA, yAt3);
    expect(applyChatEvent(branchA, yAt3)).toStrictEqual({ ok: true, outcome: 'applied', state: extended });
    expect(applyChatEvent(branchA, copyOf(x))).toStrictEqual({ ok: true, outcome: 'duplicate', state: branchA });
    expect(applyChatEvent(extended, { ...y, seq: 4 })).toMatchObject({ ok: false, code: 'conflicting-duplicate' });
  });

  it('conversations applied alternately keep separate memories (event ids are unique per conversation)', () => {
    const other = (envelope: ChatEventEnvelope) => ({ ...envelope, conversationId: 'conv_2' });
    let first = createChatState(CONVERSATION_ID);
    let second = createChatState('conv_2');
    for (const envelope of [HELLO, WORLD, SEARCH]) {
      first = applied(first, envelope);
      second = applied(second, other(envelope)); // the same event ids, another conversation
      expect(applyChatEvent(first, copyOf(envelope))).toStrictEqual({ ok: true, state: first, outcome: 'duplicate' });
    }
    expect(applyChatEvent(second, other({ ...HELLO, seq: 4 }))).toMatchObject({ ok: false, code: 'conflicting-duplicate' });
    expect(JSON.stringify(second)).toBe(
      JSON.stringify(first).replace(`"conversationId":"${CONVERSATION_ID}"`, '"conversationId":"conv_2"'),
    );
  });

  it('a restored state continues exactly as the uninterrupted one, idempotency memory included', () => {
    const uninterrupted = replay(SAMPLE_SESSION);
    for (let cut = 0; cut <= SAMPLE_SESSION.length; cut++) {
      const snapshot = replay(SAMPLE_SESSION.slice(0, cut));
      const restored = parseChatState(JSON.parse(JSON.stringify(snapshot)));
      expect(restored.ok).toBe(true);
      if (!restored.ok) return;
      let state = restored.value;
      expect(state).not.toBe(snapshot);
      for (const earlier of SAMPLE_SESSION.slice(0, cut)) {
        // Redelivery after restore is duplicate, different content is conflicting-duplicate.
        expect(applyChatEvent(state, copyOf(earlier))).toStrictEqual({ ok: true, state, outcome: 'duplicate' });
        expect(applyChatEvent(state, { ...earlier, occurredAt: '2030-01-01T00:00:00Z' })).toStrictEqual({
          ok: false,
          code: 'conflicting-duplicate',
          message: `seq ${earlier.seq} of turn ${earlier.turnId} was applied with other content`,
        });
      }
      for (const later of SAMPLE_SESSION.slice(cut)) state = applied(state, later);
      expect(JSON.stringify(state)).toBe(JSON.stringify(uninterrupted));
    }
  });

  it('a restored state remembers event ids of every turn', () => {
    const state = parseChatState(JSON.parse(JSON.stringify(replay([HELLO, WORLD]))));
    expect(state.ok && applyChatEvent(state.value, { ...HELLO, seq: 3 })).toStrictEqual({
      ok: false,
      code: 'conflicting-duplicate',
      message: 'event id evt_1 was already applied at another position',
    });
    expect(
      state.ok && applyChatEvent(state.value, at(1, { type: 'delta', text: 'x' }, { turnId: 'turn_2', eventId: 'evt_2' })),
    ).toStrictEqual({
      ok: false,
      code: 'conflicting-duplicate',
      message: 'event id evt_2 was already applied at another position',
    });
  });

  it('is deterministic: the same inputs give byte-identical JSON', () => {
    const first = JSON.stringify(replay(copyOf(SAMPLE_SESSION)));
    const second = JSON.stringify(replay(copyOf(SAMPLE_SESSION)));
    expect(second).toBe(first);
    // And through the wire form: encode → parse gives the same state.
    const wire = SAMPLE_SESSION.map((envelope) => {
      const parsed = parseChatEnvelope(JSON.stringify(envelope));
      if (!parsed.ok) throw new Error(parsed.message);
      return parsed.value;
    });
    expect(JSON.stringify(replay(wire))).toBe(first);
  });
});

// ---------------------------------------------------------------------------
// Properties over generated valid streams

const RUNS = runs(1_000);
const PROPERTY_TIMEOUT = 120_000;

// What a stream of valid envelopes can be refused for: never the field guards, an unknown type or a card not awaited.
const VALID_STREAM_CODES = APPLY_CHAT_EVENT_REFUSAL_CODES.filter(
  (code) => !['invalid-envelope', 'invalid-event', 'unknown-event', 'card-not-awaiting'].includes(code),
);

describe('applyChatEvent: properties over generated valid streams', () => {
  it(
    'any shuffle-free redelivery pattern (overlapping replays, repeats) gives the clean stream state',
    () => {
      const deliveryArb = fc.array(fc.record({ repeat: fc.boolean(), rewindTo: fc.option(fc.nat(), { nil: undefined }) }), {
        maxLength: 40,
      });
      fc.assert(
        fc.property(streamSpecArb, deliveryArb, (spec, delivery) => {
          const stream = buildStream(spec);
          const clean = JSON.stringify(replay(stream));
          // After delivering index i: maybe repeat it, maybe restart from j ≤ i and replay j..i.
          const order: number[] = [];
          stream.forEach((_envelope, index) => {
            order.push(index);
            const action = delivery[index];
            if (action?.repeat === true) order.push(index);
            if (action?.rewindTo !== undefined) {
              for (let again = action.rewindTo % (index + 1); again <= index; again++) order.push(again);
            }
          });
          let state = createChatState(CONVERSATION_ID);
          let appliedCount = 0;
          for (const index of order) {
            const result = applyChatEvent(state, copyOf(stream[index] as ChatEventEnvelope));
            if (!result.ok) throw new Error(`redelivery refused: ${result.code}: ${result.message}`);
            if (result.outcome === 'duplicate') expect(result.state).toBe(state);
            else appliedCount++;
            state = result.state;
          }
          expect(appliedCount).toBe(stream.length);
          expect(JSON.stringify(state)).toBe(clean);
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'provider substitution: provider_x and provider_y sessions differ only in provenance',
    () => {
      // What provenance touches, and nothing else: the turn's `provenance` field,
      // and the digest on the eventLog line of each provenance event. The digest
      // hashes the event's content, so it must differ there; that is what makes a
      // redelivered provenance naming another provider a conflicting-duplicate.
      const normalize = (state: ChatStateV1, provenanceLines: ReadonlySet<string>) => ({
        ...state,
        turns: state.turns.map((turn) => ({
          ...turn,
          provenance: turn.provenance === null ? null : 'provenance',
          eventLog: turn.eventLog
            .split('\n')
            .map((line, index) => (provenanceLines.has(`${turn.turnId}:${index + 1}`) ? `${line.split(' ')[0]} <provenance>` : line))
            .join('\n'),
        })),
      });
      const provenanceArb = fc.record({
        type: fc.constant('provenance' as const),
        engine: nameArb,
        model: nameArb,
        accountRoute: fc.option(nameArb, { nil: null }),
      });
      fc.assert(
        fc.property(streamSpecArb, provenanceArb, fc.nat(), (spec, provenance, position) => {
          // Every run has at least one provenance event, in the first turn.
          const [first, ...rest] = spec.turns as [StreamSpec['turns'][number], ...StreamSpec['turns']];
          const events = first.events.slice();
          events.splice(position % (events.length + 1), 0, provenance);
          const withProvenance = { ...spec, turns: [{ ...first, events }, ...rest] };
          const streamX = buildStream(withProvenance, 'provider_x');
          const streamY = buildStream(withProvenance, 'provider_y');
          const provenanceLines = new Set(
            streamX.filter((envelope) => envelope.event.type === 'provenance').map((envelope) => `${envelope.turnId}:${envelope.seq}`),
          );
          const stateX = replay(streamX);
          const stateY = replay(streamY);
          const firstTurn = (state: ChatStateV1) => state.turns.find((turn) => turn.turnId === 'turn_1');
          expect(firstTurn(stateX)?.provenance?.model).toBe('provider_x/large');
          expect(firstTurn(stateY)?.provenance?.model).toBe('provider_y/large');
          expect(normalize(stateX, provenanceLines)).toStrictEqual(normalize(stateY, provenanceLines));
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'never throws for any valid envelope applied to a state built from a valid stream',
    () => {
      // The candidate is aimed at the state often enough to reach every rule:
      // mostly running turns, an existing turn at its next, an old or a gapped
      // seq, sometimes a known event id, call id or card, or a plain redelivery.
      const sometimes = fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.nat() });
      const aimArb = fc.record({
        envelope: envelopeArb,
        open: fc.boolean(),
        turn: fc.option(fc.nat(), { nil: undefined, freq: 10 }),
        seq: fc.constantFrom('next', 'next', 'next', 'old', 'gap', 'as generated'),
        eventId: sometimes,
        target: fc.option(fc.nat(), { nil: undefined, freq: 10 }),
        redeliver: sometimes,
      });
      fc.assert(
        fc.property(streamSpecArb, aimArb, (spec, aim) => {
          const stream = buildStream(aim.open ? { ...spec, turns: spec.turns.map(({ events }) => ({ events, end: undefined })) } : spec);
          const state = replay(stream);
          let envelope: ChatEventEnvelope = { ...aim.envelope, conversationId: state.conversationId };
          const turn = aim.turn === undefined ? undefined : state.turns[aim.turn % state.turns.length];
          if (turn !== undefined) {
            const seq = {
              next: turn.lastSeq + 1,
              old: 1 + (aim.envelope.seq % turn.lastSeq),
              gap: turn.lastSeq + 2,
              'as generated': envelope.seq,
            }[aim.seq];
            envelope = { ...envelope, turnId: turn.turnId, seq };
            const { event } = envelope;
            const call = turn.toolCalls[(aim.target ?? 0) % Math.max(turn.toolCalls.length, 1)];
            const card = turn.cards[(aim.target ?? 0) % Math.max(turn.cards.length, 1)];
            if (aim.target !== undefined && (event.type === 'tool_call' || event.type === 'tool_result') && call !== undefined) {
              envelope = { ...envelope, event: { ...event, callId: call.callId } };
            }
            if (aim.target !== undefined && event.type === 'card_closed' && card !== undefined) {
              envelope = { ...envelope, event: { ...event, correlationId: card.card.correlationId } };
            }
            if (aim.target !== undefined && event.type === 'card' && card !== undefined) {
              envelope = { ...envelope, event: { ...event, card: { ...event.card, correlationId: card.card.correlationId } } };
            }
            if (aim.target !== undefined && event.type === 'state' && turn.hostState !== null) {
              envelope = { ...envelope, event: { ...event, version: Math.max(0, turn.hostState.version - (aim.target % 2)) } };
            }
          }
          const known = stream[(aim.eventId ?? 0) % stream.length];
          if (aim.eventId !== undefined && known !== undefined) envelope = { ...envelope, eventId: known.eventId };
          const again = stream[(aim.redeliver ?? 0) % stream.length];
          if (aim.redeliver !== undefined && again !== undefined) envelope = copyOf(again);

          const before = JSON.stringify(state);
          const result = applyChatEvent(state, envelope);
          expect(JSON.stringify(state)).toBe(before);
          if (result.ok) {
            // Whatever it accepts is still a state parseChatState accepts.
            expect(parseChatState(JSON.stringify(result.state))).toMatchObject({ ok: true });
          } else {
            expect(VALID_STREAM_CODES).toContain(result.code);
          }
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('applyChatEvent: a restored state is the live state (issue 12: the memory is shared and built when read)', () => {
  /** What a caller can observe of a result: outcome or refusal, and the state's JSON. */
  const observed = (result: ReturnType<typeof applyChatEvent>) =>
    result.ok ? { outcome: result.outcome, state: JSON.stringify(result.state) } : { ...result };

  const probeArb = fc.record({
    at: fc.nat(),
    change: fc.constantFrom('none', 'none', 'occurredAt', 'seq', 'eventId', 'older state'),
  });

  it(
    'after parseChatState(JSON.stringify(state)), every envelope, redelivery and conflict answers exactly as on the live state',
    () => {
      fc.assert(
        fc.property(streamSpecArb, fc.nat(), fc.array(probeArb, { maxLength: 30 }), (spec, cutAt, probes) => {
          const stream = buildStream(spec);
          const cut = cutAt % (stream.length + 1);
          let live = replay(stream.slice(0, cut));
          const restoredResult = parseChatState(JSON.stringify(live));
          if (!restoredResult.ok) throw new Error(restoredResult.message);
          let restored = restoredResult.value;
          let olderLive = live;
          let olderRestored = restored;
          const rest = stream.slice(cut);
          for (let index = 0; index < Math.max(rest.length, probes.length); index++) {
            const probe = probes[index];
            const known = stream[(probe?.at ?? 0) % Math.max(stream.length, 1)];
            const candidates: ChatEventEnvelope[] = [];
            if (probe !== undefined && known !== undefined && probe.change !== 'older state') {
              candidates.push(
                probe.change === 'occurredAt'
                  ? { ...known, occurredAt: '2030-01-01T00:00:00Z' }
                  : probe.change === 'seq'
                    ? { ...known, seq: known.seq + 1 }
                    : probe.change === 'eventId'
                      ? { ...known, eventId: `${known.eventId}.again` }
                      : copyOf(known),
              );
            }
            const next = rest[index];
            if (next !== undefined) candidates.push(next);
            for (const candidate of candidates) {
              const fromLive = applyChatEvent(live, candidate);
              expect(observed(applyChatEvent(restored, candidate))).toStrictEqual(observed(fromLive));
              // An older state of each (a branch from it) answers alike too.
              expect(observed(applyChatEvent(olderRestored, candidate))).toStrictEqual(observed(applyChatEvent(olderLive, candidate)));
              if (fromLive.ok) {
                if (probe?.change === 'older state') [olderLive, olderRestored] = [live, restored];
                live = fromLive.state;
                const fromRestored = applyChatEvent(restored, candidate);
                if (fromRestored.ok) restored = fromRestored.state;
              }
            }
          }
          expect(JSON.stringify(restored)).toBe(JSON.stringify(live));
          expect(live).toStrictEqual(JSON.parse(JSON.stringify(live)));
        }),
        { numRuns: runs(300) },
      );
    },
    PROPERTY_TIMEOUT,
  );
});
