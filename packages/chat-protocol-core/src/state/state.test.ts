import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileValueArb, mutate, mutationArb } from '../../../../test-support/v1-arbitraries.js';
import { CONVERSATION_ID, SAMPLE_SESSION } from '../../test/envelopes.js';
import { replaySession } from '../../test/streams.js';
import { applyChatEvent } from './apply-chat-event.js';
import type { ChatEventEnvelope } from '../envelope/envelope.js';
import { createChatState, parseChatState, type ChatStateV1, type ChatTurnState, type ParseChatStateRefusalCode } from './state.js';
import { runs } from '../../../../test-support/property-runs.js';

const RUNS = runs(1_000);
const PROPERTY_TIMEOUT = 60_000;

const replay = replaySession;

/** A real state: turn_1 completed with tool calls, a card, host state and provenance; turn_2 failed. */
const REAL_STATE = replay(SAMPLE_SESSION);
/** A real state in the middle of turn_1 (still running). */
const RUNNING_STATE = replay(SAMPLE_SESSION.slice(0, 9));

/** A mutable deep copy of the real state, in JSON form. */
/** A deep copy of a state to operate on. */
const copy = (state: ChatStateV1 = REAL_STATE): ChatStateV1 => JSON.parse(JSON.stringify(state)) as ChatStateV1;
/** Turn `index` of `state`, which the test knows exists. */
const turnAt = (state: ChatStateV1, index: number): ChatTurnState => {
  const turn = state.turns[index];
  if (turn === undefined) throw new Error(`no turn ${index}`);
  return turn;
};
/** Element `index` of a list the test knows is long enough. */
const nth = <Item>(items: readonly Item[] | undefined, index: number): Item => {
  const item = items?.[index];
  if (item === undefined) throw new Error(`no item ${index}`);
  return item;
};

/** The refusal for a state whose fields disagree with each other. */
const consistency = (path: (string | number)[], message: string) => ({
  ok: false,
  code: 'invalid-state',
  message,
  issues: [{ path, message }],
});

const PARSE_CODES: readonly ParseChatStateRefusalCode[] = ['invalid-json', 'unsupported-version', 'invalid-state'];

describe('createChatState', () => {
  it('creates an empty conversation', () => {
    expect(createChatState('conv_01JDQ3W8Z5')).toStrictEqual({ schemaVersion: 1, conversationId: 'conv_01JDQ3W8Z5', turns: [] });
  });

  it.each<[string, unknown]>([
    ['empty', ''],
    ['with a space', 'conv 1'],
    ['257 characters', 'c'.repeat(257)],
    ['non-ASCII', 'conv_ü'],
    ['with a newline', 'conv\n1'],
    ['not a string', 42],
  ])('throws TypeError for an invalid id: %s', (_name, conversationId) => {
    let thrown: unknown;
    try {
      createChatState(conversationId as string);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TypeError);
    expect((thrown as TypeError).message).toBe('createChatState: conversationId must be 1–256 printable ASCII characters without spaces');
  });

  it('accepts an id of exactly 256 characters', () => {
    expect(createChatState('c'.repeat(256)).conversationId).toBe('c'.repeat(256));
  });
});

describe('parseChatState: accepts real states', () => {
  it.each([
    ['an empty conversation', createChatState(CONVERSATION_ID)],
    ['a running turn', RUNNING_STATE],
    ['a completed and a failed turn', REAL_STATE],
  ])('%s, as an object and as JSON text', (_name, state) => {
    expect(parseChatState(state)).toStrictEqual({ ok: true, value: state });
    expect(parseChatState(JSON.stringify(state))).toStrictEqual({ ok: true, value: state });
  });

  it('returns a fresh copy that keeps key order, so later JSON texts stay byte-identical', () => {
    const result = parseChatState(REAL_STATE);
    expect(result.ok && result.value).not.toBe(REAL_STATE);
    expect(result.ok && JSON.stringify(result.value)).toBe(JSON.stringify(REAL_STATE));
  });
});

describe('parseChatState: refusals', () => {
  const circular: Record<string, unknown> = {};
  circular['self'] = circular;

  it.each<[string, unknown]>([
    ['text that is not JSON', '{"schemaVersion":1,'],
    ['an empty string', ''],
    ['undefined', undefined],
    ['a function', () => REAL_STATE],
    ['a BigInt', 1n],
    ['a circular object', circular],
  ])('invalid-json: %s', (_name, input) => {
    expect(parseChatState(input)).toStrictEqual({
      ok: false,
      code: 'invalid-json',
      message: 'not JSON, or not serializable as JSON',
    });
  });

  it.each<[string, unknown]>([
    ['schemaVersion missing', { conversationId: CONVERSATION_ID, turns: [] }],
    ['schemaVersion 2', { ...REAL_STATE, schemaVersion: 2 }],
    ['schemaVersion 0', { ...REAL_STATE, schemaVersion: 0 }],
    ['schemaVersion "1"', { ...REAL_STATE, schemaVersion: '1' }],
    ['null', null],
    ['JSON text null', 'null'],
    ['an array', [REAL_STATE]],
    ['a number', 1],
  ])('unsupported-version: %s', (_name, input) => {
    expect(parseChatState(input)).toStrictEqual({
      ok: false,
      code: 'unsupported-version',
      message: 'expected schemaVersion 1',
    });
  });

  // The path leads to the unknown key at the level that refused it.
  const result = (state: ChatStateV1) => nth(turnAt(state, 0).toolCalls, 0).result ?? {};
  const block = (state: ChatStateV1) => nth((result(state) as { blocks?: object[] }).blocks, 0);
  const card = (state: ChatStateV1) => nth(turnAt(state, 0).cards, 0);
  it.each<[string, (string | number)[], (state: ChatStateV1) => object | null]>([
    ['the state', [], (state) => state],
    ['a turn', ['turns', 0], (state) => turnAt(state, 0)],
    ['a tool call', ['turns', 0, 'toolCalls', 0], (state) => nth(turnAt(state, 0).toolCalls, 0)],
    ['a tool result', ['turns', 0, 'toolCalls', 0, 'result'], result],
    ['a result block', ['turns', 0, 'toolCalls', 0, 'result', 'blocks', 0], block],
    [
      'a source',
      ['turns', 0, 'toolCalls', 0, 'result', 'blocks', 0, 'sources', 0],
      (state) => nth((block(state) as { sources?: object[] }).sources, 0),
    ],
    ['a card entry', ['turns', 0, 'cards', 0], card],
    ['a card', ['turns', 0, 'cards', 0, 'card'], (state) => card(state).card],
    ['a card presentation', ['turns', 0, 'cards', 0, 'card', 'presentation'], (state) => card(state).card.presentation ?? null],
    [
      'a card option',
      ['turns', 0, 'cards', 0, 'card', 'presentation', 'options', 0],
      (state) => nth((card(state).card.presentation as { options?: object[] }).options, 0),
    ],
    ['host state', ['turns', 0, 'hostState'], (state) => turnAt(state, 0).hostState],
    ['provenance', ['turns', 0, 'provenance'], (state) => turnAt(state, 0).provenance],
    ['an error', ['turns', 1, 'error'], (state) => turnAt(state, 1).error],
  ])('invalid-state: an unknown key in %s', (_name, path, target) => {
    const state = copy();
    Object.assign(target(state) ?? {}, { extra: 1 });
    expect(parseChatState(state)).toStrictEqual({
      ok: false,
      code: 'invalid-state',
      message: 'not a valid ChatStateV1',
      issues: [{ path: [...path, 'extra'], message: 'unknown key "extra"' }],
    });
  });

  it.each<[string, unknown, (string | number)[]]>([
    ['an unknown key in the user input', { text: 'Hi', extra: 1 }, ['turns', 0, 'userInput', 'extra']],
    ['an empty user input text', { text: '' }, ['turns', 0, 'userInput', 'text']],
    ['a user input source voice_tts', { text: 'Hi', source: 'voice_tts' }, ['turns', 0, 'userInput', 'source']],
  ])('invalid-state: %s (issue 13: the turn holds its user_input strictly)', (_name, userInput, path) => {
    const state = copy();
    Object.assign(turnAt(state, 0), { userInput });
    const result = parseChatState(state);
    expect(result).toMatchObject({ ok: false, code: 'invalid-state', message: 'not a valid ChatStateV1' });
    expect(result.ok ? [] : result.issues?.map((issue) => issue.path)).toEqual([path]);
  });

  it('a turn holding its user input parses (issue 13)', () => {
    const state = copy();
    Object.assign(turnAt(state, 0), { userInput: { text: 'Find the fox document', source: 'text_typed' } });
    expect(parseChatState(state)).toStrictEqual({ ok: true, value: state });
  });

  it('invalid-state: a __proto__ key in the JSON text', () => {
    const text = JSON.stringify(REAL_STATE).replace('{"schemaVersion":1,', '{"schemaVersion":1,"__proto__":{"polluted":true},');
    expect(parseChatState(text)).toStrictEqual({
      ok: false,
      code: 'invalid-state',
      message: 'not a valid ChatStateV1',
      issues: [{ path: ['__proto__'], message: 'unknown key "__proto__"' }],
    });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('invalid-state: a turn with lastSeq 0 (a turn appears with its seq-1 event)', () => {
    const state = copy();
    turnAt(state, 1).lastSeq = 0;
    turnAt(state, 1).eventLog = '';
    expect(parseChatState(state)).toStrictEqual({
      ok: false,
      code: 'invalid-state',
      message: 'not a valid ChatStateV1',
      issues: [{ path: ['turns', 1, 'lastSeq'], message: expect.any(String) }],
    });
  });

  it('invalid-state: an event log with fewer lines than lastSeq', () => {
    const state = copy();
    turnAt(state, 0).eventLog = turnAt(state, 0).eventLog.split('\n').slice(0, 13).join('\n');
    expect(parseChatState(state)).toStrictEqual(consistency(['turns', 0, 'eventLog'], 'expected 14 lines, one per seq'));
  });

  it('invalid-state: an event log with more lines than lastSeq', () => {
    const state = copy();
    turnAt(state, 1).lastSeq = 1;
    expect(parseChatState(state)).toStrictEqual(consistency(['turns', 1, 'eventLog'], 'expected 1 lines, one per seq'));
  });

  it.each([
    ['no digest', 'evt_x'],
    ['an upper-case digest', 'evt_x 4D9B4819396D09F0'],
    ['a short digest', 'evt_x 4d9b4819'],
    ['a space in the event id', 'evt x 4d9b4819396d09f0'],
    ['an empty line', ''],
    ['trailing whitespace', 'evt_x 4d9b4819396d09f0 '],
    ['a 257-character event id', `${'e'.repeat(257)} 4d9b4819396d09f0`],
  ])('invalid-state: a malformed event log line (%s)', (_name, line) => {
    const state = copy();
    const lines = turnAt(state, 0).eventLog.split('\n');
    lines[1] = line;
    turnAt(state, 0).eventLog = lines.join('\n');
    expect(parseChatState(state)).toStrictEqual(consistency(['turns', 0, 'eventLog'], 'malformed line'));
  });

  it('invalid-state: the same event id in two turns', () => {
    const state = copy();
    turnAt(state, 1).eventLog = turnAt(state, 1).eventLog.replace('evt_turn_2_1 ', 'evt_turn_1_3 ');
    expect(parseChatState(state)).toStrictEqual(consistency(['turns', 1, 'eventLog'], 'event id evt_turn_1_3 used twice'));
  });

  it('invalid-state: the same event id twice in one turn', () => {
    const state = copy();
    turnAt(state, 0).eventLog = turnAt(state, 0).eventLog.replace('evt_turn_1_2 ', 'evt_turn_1_1 ');
    expect(parseChatState(state)).toStrictEqual(consistency(['turns', 0, 'eventLog'], 'event id evt_turn_1_1 used twice'));
  });

  it('invalid-state: the same turn id twice', () => {
    const state = copy();
    turnAt(state, 1).turnId = 'turn_1';
    expect(parseChatState(state)).toStrictEqual(consistency(['turns', 1, 'turnId'], 'duplicate turn id'));
  });

  it('invalid-state: the same call id twice in a turn', () => {
    const state = copy();
    nth(turnAt(state, 0).toolCalls, 1).callId = 'call_1';
    expect(parseChatState(state)).toStrictEqual(consistency(['turns', 0, 'toolCalls'], 'duplicate call id'));
  });

  it('invalid-state: the same card twice in a turn', () => {
    const state = copy();
    turnAt(state, 0).cards.push(nth(turnAt(state, 0).cards, 0));
    expect(parseChatState(state)).toStrictEqual(consistency(['turns', 0, 'cards'], 'duplicate card'));
  });
});

describe('parseChatState: fields the reducer writes together must agree', () => {
  it.each<[string, ChatStateV1, (string | number)[], string]>([
    [
      'a failed turn without an error',
      (() => {
        const state = copy();
        turnAt(state, 1).error = null;
        return state;
      })(),
      ['turns', 1, 'error'],
      'a turn has an error exactly when its status is failed',
    ],
    [
      'a completed turn with an error',
      (() => {
        const state = copy();
        turnAt(state, 0).error = turnAt(state, 1).error;
        return state;
      })(),
      ['turns', 0, 'error'],
      'a turn has an error exactly when its status is failed',
    ],
    [
      'a running turn with a stop reason',
      (() => {
        const state = copy(RUNNING_STATE);
        turnAt(state, 0).stopReason = 'end_turn';
        return state;
      })(),
      ['turns', 0, 'stopReason'],
      'only a turn ended by done has a stop reason',
    ],
    [
      'a failed turn with usage',
      (() => {
        const state = copy();
        turnAt(state, 1).usage = { inputTokens: 1 };
        return state;
      })(),
      ['turns', 1, 'usage'],
      'only a turn ended by done has usage',
    ],
    [
      'an open card with a resolution',
      (() => {
        const state = copy();
        nth(turnAt(state, 0).cards, 0).closed = false;
        return state;
      })(),
      ['turns', 0, 'cards', 0, 'resolution'],
      'an open card has no resolution',
    ],
  ])('invalid-state: %s', (_name, state, path, message) => {
    expect(parseChatState(state)).toStrictEqual(consistency(path, message));
  });
});

describe('parseChatState never throws', () => {
  const isResult = (result: ReturnType<typeof parseChatState>) =>
    result.ok ? typeof result.value === 'object' : PARSE_CODES.includes(result.code);

  it(
    'for arbitrary values and strings',
    () => {
      const anythingArb = fc.oneof(hostileValueArb, fc.string(), fc.json());
      fc.assert(
        fc.property(anythingArb, (input) => {
          expect(isResult(parseChatState(input))).toBe(true);
        }),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );

  it('for deeply nested input', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    expect(parseChatState(deep)).toMatchObject({ ok: false });
    const nested = (depth: number): unknown => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
    const state = copy();
    turnAt(state, 0).hostState = { version: 1, snapshot: nested(1_500) };
    expect(parseChatState(state)).toStrictEqual({
      ok: false,
      code: 'invalid-state',
      message: 'not a valid ChatStateV1',
      issues: [{ path: ['turns', 0, 'hostState', 'snapshot'], message: 'not bounded JSON data' }],
    });
    // Deeper than JSON.stringify can go: refused as not serializable, not thrown.
    turnAt(state, 0).hostState = { version: 1, snapshot: nested(50_000) };
    expect(parseChatState(state)).toMatchObject({ ok: false, code: 'invalid-json' });
  });

  it(
    'for mutated real states; a state it accepts is one the reducer can continue',
    () => {
      const probes = (state: ChatStateV1): ChatEventEnvelope[] => [
        ...SAMPLE_SESSION,
        ...state.turns.map((turn) => ({
          ...(SAMPLE_SESSION[2] as ChatEventEnvelope),
          turnId: turn.turnId,
          eventId: 'evt_probe',
          seq: turn.lastSeq + 1,
        })),
      ];
      fc.assert(
        fc.property(
          fc.constantFrom(REAL_STATE, RUNNING_STATE),
          fc.array(mutationArb, { minLength: 1, maxLength: 3 }),
          fc.boolean(),
          (state, mutations, asText) => {
            const candidate = mutations.reduce<unknown>((value, mutation) => mutate(value, mutation), state);
            const result = parseChatState(asText ? JSON.stringify(candidate) : candidate);
            expect(isResult(result)).toBe(true);
            if (result.ok) for (const envelope of probes(result.value)) applyChatEvent(result.value, envelope);
          },
        ),
        { numRuns: RUNS },
      );
    },
    PROPERTY_TIMEOUT,
  );
});
