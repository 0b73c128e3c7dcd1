/**
 * Issue 24: `applyChatEvent` is typed to take parsed envelopes, yet a caller
 * can hand it one that was never parsed. Whatever it is given, it never throws,
 * and a state it returns is one `parseChatState` accepts: a reducer never
 * produces a state its own parser refuses. The envelopes here are valid ones
 * aimed at a generated state, then corrupted field by field (wrong types, huge
 * values, extra keys, NaN, negative seqs, zone-less times, unknown types), by
 * the JSON mutations of `v1-arbitraries.ts`, or by the throwing getters and
 * Proxies of `hostile-values.ts`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileArgumentsArbitrary, syncOutcomeOf, throwHostile } from '../../../../test-support/hostile-values.js';
import { runs } from '../../../../test-support/property-runs.js';
import { envelopeArb, mutate, mutationArb } from '../../../../test-support/v1-arbitraries.js';
import { APPLY_CHAT_EVENT_REFUSAL_CODES, CONVERSATION_ID, envelopeOf } from '../../test/envelopes.js';
import { buildStream, streamSpecArb } from '../../test/streams.js';
import { applyChatEvent, type ApplyChatEventRefusalCode } from './apply-chat-event.js';
import type { ChatEventEnvelope } from '../envelope/envelope.js';
import { createChatState, parseChatState, type ChatStateV1 } from './state.js';

/** Values no field of a parsed envelope holds where they are planted. */
const WRONG_VALUES: readonly unknown[] = [
  undefined,
  null,
  true,
  0,
  -0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  Number.MAX_VALUE,
  10n,
  '',
  ' ',
  'a b',
  'x'.repeat(257),
  'x'.repeat(70_000),
  'a\ud800',
  '\udc00',
  'a\u0000b',
  'tür',
  'yesterday',
  '2026-11-29T12:00:00',
  '2026-11-29T12:00:00-00:00',
  '2026-02-30T12:00:00Z',
  'no_such_type',
  'scout.products',
  'javascript:alert(1)',
  [],
  ['x'],
  {},
  { extra: 1 },
];

/** Every path to a value inside `value` (objects and arrays), the root excluded. */
function pathsOf(value: unknown, prefix: readonly (string | number)[] = []): (readonly (string | number)[])[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    return [path, ...pathsOf(child, path)];
  });
}

type Corruption = 'replace' | 'delete' | 'extra-key';

/** A copy of `envelope` with `path` replaced by `wrong`, deleted, or given an extra key beside it. */
function corrupted(envelope: ChatEventEnvelope, path: readonly (string | number)[], how: Corruption, wrong: unknown): unknown {
  const copy = structuredClone(envelope) as unknown as Record<string | number, unknown>;
  const parent = path.slice(0, -1).reduce<Record<string | number, unknown>>((node, key) => node[key] as Record<string, unknown>, copy);
  const key = path[path.length - 1] as string | number;
  if (how === 'replace') parent[key] = wrong;
  else if (how === 'delete') delete parent[key];
  else parent['extra'] = wrong;
  return copy;
}

/** One hostile call: the state (a valid one), the envelope, and how it prints in a counterexample. */
interface HostileApply {
  readonly state: ChatStateV1;
  readonly envelope: unknown;
  readonly label: string;
}

function printable(state: ChatStateV1, envelope: unknown, label: string): HostileApply {
  return { state, envelope, label, [fc.toStringMethod]: () => label } as HostileApply;
}

/**
 * A valid state and a valid envelope aimed at it, so corruptions reach the
 * rules behind the first checks: a redelivery of one of its envelopes, the next
 * seq of one of its turns (with a known call or card when the event names
 * one), or seq 1 of a new turn.
 */
const aimedArb = fc
  .record({
    spec: streamSpecArb,
    open: fc.boolean(),
    envelope: envelopeArb,
    target: fc.constantFrom('redeliver', 'next', 'next', 'next', 'new-turn'),
    pick: fc.nat(),
  })
  .map(({ spec, open, envelope, target, pick }) => {
    const stream = buildStream(open ? { ...spec, turns: spec.turns.map(({ events }) => ({ events, end: undefined })) } : spec);
    let state = createChatState(CONVERSATION_ID);
    for (const next of stream) {
      const result = applyChatEvent(state, next);
      if (!result.ok) throw new Error(`the generated stream was refused: ${result.code}`);
      state = result.state;
    }
    const turn = state.turns[pick % state.turns.length];
    let aimed: ChatEventEnvelope = { ...envelope, conversationId: CONVERSATION_ID };
    if (target === 'redeliver' && stream.length > 0) {
      aimed = structuredClone(stream[pick % stream.length] as ChatEventEnvelope);
    } else if (target === 'new-turn' || turn === undefined) {
      aimed = { ...aimed, turnId: 'turn_new', seq: 1 };
    } else {
      aimed = { ...aimed, turnId: turn.turnId, seq: turn.lastSeq + 1 };
      const { event } = aimed;
      const call = turn.toolCalls[pick % Math.max(turn.toolCalls.length, 1)];
      const card = turn.cards[pick % Math.max(turn.cards.length, 1)];
      if (event.type === 'tool_result' && call !== undefined)
        aimed = { ...aimed, event: { ...event, callId: call.callId, name: call.name } };
      if (event.type === 'card_closed' && card !== undefined) {
        aimed = { ...aimed, event: { ...event, correlationId: card.card.correlationId } };
      }
    }
    return { state, envelope: aimed };
  });

const hostileApplyArb: fc.Arbitrary<HostileApply> = aimedArb.chain(({ state, envelope }) => {
  const paths = pathsOf(envelope);
  const byField = fc
    .record({
      path: fc.constantFrom(...paths),
      how: fc.constantFrom<Corruption>('replace', 'replace', 'replace', 'delete', 'extra-key'),
      wrong: fc.constantFrom(...WRONG_VALUES),
    })
    .map(({ path, how, wrong }) => {
      const value = corrupted(envelope, path, how, wrong);
      return printable(state, value, `${how} ${path.join('.')} with ${fc.stringify(wrong).slice(0, 40)}: ${fc.stringify(value)}`);
    });
  const byJsonMutation = fc.array(mutationArb, { minLength: 1, maxLength: 2 }).map((mutations) => {
    const value = mutations.reduce<unknown>((current, mutation) => mutate(current, mutation), envelope);
    return printable(state, value, `JSON mutations: ${fc.stringify(value)}`);
  });
  // A throwing getter or Proxy: printed by its label, since printing it would throw.
  const byHostileValue = hostileArgumentsArbitrary([envelope]).map((hostile) =>
    printable(state, hostile.args[0], `${hostile.label} of ${fc.stringify(envelope)}`),
  );
  return fc.oneof({ weight: 4, arbitrary: byField }, { weight: 2, arbitrary: byJsonMutation }, { weight: 1, arbitrary: byHostileValue });
});

describe('applyChatEvent on envelopes that were never parsed (issue 24)', () => {
  it('never throws, never changes its state, and every state it returns is one parseChatState accepts', () => {
    fc.assert(
      fc.property(hostileApplyArb, ({ state, envelope }) => {
        const before = JSON.stringify(state);
        const outcome = syncOutcomeOf(() => applyChatEvent(state, envelope as ChatEventEnvelope));
        if ('threw' in outcome) throw new Error(`applyChatEvent threw ${outcome.threw}`);
        const result = outcome.returned as ReturnType<typeof applyChatEvent>;
        expect(JSON.stringify(state)).toBe(before);
        if (result.ok) {
          expect(parseChatState(result.state)).toMatchObject({ ok: true });
        } else {
          expect(APPLY_CHAT_EVENT_REFUSAL_CODES).toContain(result.code);
        }
      }),
      { numRuns: runs(5_000) },
    );
  }, 300_000);
});

// ---------------------------------------------------------------------------
// Counterexamples the property found, pinned. Each one made the reducer throw
// or return a state parseChatState refuses before issue 24.

const HELLO = envelopeOf({ type: 'delta', text: 'Hello' });
const STARTED = ((): ChatStateV1 => {
  const result = applyChatEvent(createChatState(CONVERSATION_ID), HELLO);
  if (!result.ok) throw new Error(result.message);
  return result.state;
})();
/** Seq 2 of turn_1 around `event`, with `overrides` (invalid values welcome). */
const second = (event: unknown, overrides: Record<string, unknown> = {}): ChatEventEnvelope =>
  envelopeOf(event, { eventId: 'evt_2', seq: 2, occurredAt: '2026-11-29T12:00:01.000Z', ...overrides });
const DELTA = { type: 'delta', text: ', world' };

const withThrowingGetter = (envelope: ChatEventEnvelope, key: string): ChatEventEnvelope =>
  Object.defineProperty({ ...envelope }, key, { enumerable: true, get: throwHostile }) as ChatEventEnvelope;

interface Pinned {
  readonly name: string;
  readonly envelope: ChatEventEnvelope;
  readonly code: ApplyChatEventRefusalCode;
  readonly message: string;
  readonly path?: readonly (string | number)[];
}

const PINNED: readonly Pinned[] = [
  {
    name: 'an event id that is a number (it became a malformed eventLog line)',
    envelope: second(DELTA, { eventId: 2 ** 53 }),
    code: 'invalid-envelope',
    message: 'eventId: expected a v1 id',
    path: ['eventId'],
  },
  {
    name: 'an event id with a non-ASCII character',
    envelope: second(DELTA, { eventId: 'tür' }),
    code: 'invalid-envelope',
    message: 'eventId: expected a v1 id',
    path: ['eventId'],
  },
  {
    name: 'a new turn whose id is a number (the turn kept it)',
    envelope: envelopeOf(DELTA, { turnId: 1.5, eventId: 'evt_2' }),
    code: 'invalid-envelope',
    message: 'turnId: expected a v1 id',
    path: ['turnId'],
  },
  {
    name: 'a conversation id that is no id is invalid, not foreign',
    envelope: second(DELTA, { conversationId: { id: 'conv_1' } }),
    code: 'invalid-envelope',
    message: 'conversationId: expected a v1 id',
    path: ['conversationId'],
  },
  {
    name: 'a negative seq (it was conflicting-duplicate)',
    envelope: second(DELTA, { seq: -1 }),
    code: 'invalid-envelope',
    message: 'seq: expected a positive safe integer',
    path: ['seq'],
  },
  {
    name: 'a NaN seq (it was seq-gap)',
    envelope: second(DELTA, { seq: Number.NaN }),
    code: 'invalid-envelope',
    message: 'seq: expected a positive safe integer',
    path: ['seq'],
  },
  {
    name: 'a timestamp that is an array (the digest threw)',
    envelope: second(DELTA, { occurredAt: [null, true] }),
    code: 'invalid-envelope',
    message: 'occurredAt: expected a timestamp string',
    path: ['occurredAt'],
  },
  {
    name: 'no event at all (it threw reading its type)',
    envelope: second(undefined),
    code: 'invalid-event',
    message: 'event: expected an event object',
    path: ['event'],
  },
  {
    name: 'a card event without its card (it threw reading the correlation id)',
    envelope: second({ type: 'card' }),
    code: 'invalid-event',
    message: 'event: required',
    path: ['event', 'card'],
  },
  {
    name: 'a delta whose text has a lone surrogate (the turn text was no longer well-formed)',
    envelope: second({ type: 'delta', text: 'a\ud800' }),
    code: 'invalid-event',
    message: 'event: expected clean text of 0–65536 characters',
    path: ['event', 'text'],
  },
  {
    name: 'a provenance whose model is a number (the state kept it)',
    envelope: second({ type: 'provenance', engine: 'claude', model: 2 ** 53 }),
    code: 'invalid-event',
    message: 'event: expected non-empty clean text of at most 256 characters',
    path: ['event', 'model'],
  },
  {
    name: 'an error without retryable (the state held a turn failed without a retry permission)',
    envelope: second({ type: 'error', code: 'internal', message: 'Broken' }),
    code: 'invalid-event',
    message: 'event: required',
    path: ['event', 'retryable'],
  },
  {
    name: 'a done whose awaiting is a number (it threw: not iterable)',
    envelope: second({ type: 'done', status: 'completed', awaiting: 0 }),
    code: 'invalid-event',
    message: 'event: expected an array',
    path: ['event', 'awaiting'],
  },
  {
    name: 'a done whose usage holds a BigInt (the digest threw)',
    envelope: second({ type: 'done', status: 'completed', usage: { inputTokens: 10n } }),
    code: 'invalid-event',
    message: 'event: expected a non-negative integer',
    path: ['event', 'usage', 'inputTokens'],
  },
  {
    name: 'a state event whose version is a string',
    envelope: second({ type: 'state', version: 'v2', snapshot: null }),
    code: 'invalid-event',
    message: 'event: expected a non-negative integer',
    path: ['event', 'version'],
  },
  {
    name: 'an unknown event type',
    envelope: second({ type: 'no_such_type' }),
    code: 'unknown-event',
    message: 'no_such_type is not a registered event type',
    path: ['event', 'type'],
  },
  {
    name: 'an envelope that is null (it threw)',
    envelope: null as unknown as ChatEventEnvelope,
    code: 'invalid-envelope',
    message: 'expected an envelope object',
  },
  {
    name: 'a state snapshot that is an empty Proxy whose get throws (the state kept it, and JSON.stringify threw reading toJSON)',
    envelope: second({ type: 'state', version: 1, snapshot: new Proxy({}, { get: throwHostile }) }),
    code: 'invalid-event',
    message: 'event: expected bounded JSON data',
    path: ['event', 'snapshot'],
  },
  {
    name: 'an envelope whose event is a throwing getter (it threw)',
    envelope: withThrowingGetter(second(DELTA), 'event'),
    code: 'invalid-envelope',
    message: 'the envelope cannot be read (a getter or a Proxy trap threw)',
  },
];

describe('applyChatEvent: pinned counterexamples of envelopes that were never parsed (issue 24)', () => {
  it.each(PINNED)('$name is $code', ({ envelope, code, message, path }) => {
    const before = JSON.stringify(STARTED);
    const result = applyChatEvent(STARTED, envelope);
    expect(result).toEqual(
      path === undefined
        ? { ok: false, code, message }
        : { ok: false, code, message, issues: [{ path, message: expect.any(String) as string }] },
    );
    // Nothing of it stays behind: the state is unchanged and its next event still applies.
    expect(JSON.stringify(STARTED)).toBe(before);
    expect(applyChatEvent(STARTED, second(DELTA))).toMatchObject({ ok: true, outcome: 'applied' });
  });

  it('a delta whose text getter answers differently on each read applies its first answer, a state parseChatState accepts', () => {
    for (const type of ['delta', 'reasoning'] as const) {
      let reads = 0;
      const event = {
        type,
        get text(): string {
          reads += 1;
          // Clean when first read; a control character afterwards, which the state would then keep.
          return reads === 1 ? 'ok' : 'bad\u0000';
        },
      };
      const result = applyChatEvent(STARTED, second(event));
      expect(reads).toBe(1);
      if (!result.ok) throw new Error(result.message);
      const turn = result.state.turns.at(-1);
      const kept = type === 'delta' ? turn?.text : turn?.reasoning;
      expect([kept?.endsWith('ok'), kept?.includes('\u0000')]).toEqual([true, false]);
      expect(parseChatState(JSON.parse(JSON.stringify(result.state)))).toMatchObject({ ok: true });
    }
  });

  it('a tool result with an extra field is invalid-event (the extra field was copied into the state)', () => {
    const call = envelopeOf({ type: 'tool_call', callId: 'call_1', name: 'search' });
    const called = applyChatEvent(createChatState(CONVERSATION_ID), call);
    if (!called.ok) throw new Error(called.message);
    const result = applyChatEvent(
      called.state,
      second({ type: 'tool_result', callId: 'call_1', name: 'search', status: 'succeeded', secret: 'leaked' }),
    );
    expect(result).toEqual({
      ok: false,
      code: 'invalid-event',
      message: 'event: unknown property',
      issues: [{ path: ['event', 'secret'], message: 'unknown property' }],
    });
  });
});
