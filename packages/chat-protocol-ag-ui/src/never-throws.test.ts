/**
 * Hostile input is normal input (DESIGN §2.1, §2.7; issues 12 and 24): the decoder's `decode` and
 * `cardResponseFromResumeEntry` take unknown input and never throw on any value of the hostile catalogue, in any
 * state of the stream, nor on near-valid events with a getter, a Proxy or an inherited name planted anywhere in
 * them; each case gets a typed refusal (exact outcomes below). The host's own callbacks may throw: that propagates.
 */
import { HttpAgent } from '@ag-ui/client';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { everyTrapThrows, throwHostile } from '../../../test-support/hostile-values.js';
import { anyArguments, describeHostileContract, type HostileTarget } from '../../../test-support/never-throws.js';
import { countingHost } from '../test/counting-host.js';
import { encodedGoldenSessions } from '../test/golden-sessions.js';
import { createAgUiChatAgent } from './agent/create-ag-ui-chat-agent.js';
import { createAgUiDecoder } from './decoder/create-ag-ui-decoder.js';
import type { AgUiDecoderContext, DecodeAgUiEventRefusalCode } from './decoder/decoder-types.js';
import * as agUi from './index.js';
import { cardResponseFromResumeEntry } from './resume-entries.js';

const CODES: readonly DecodeAgUiEventRefusalCode[] = [
  'invalid-event',
  'unsupported-event',
  'outside-run',
  'foreign-thread',
  'unknown-message',
  'invalid-tool-arguments',
  'unknown-tool-status',
  'unknown-state',
  'invalid-patch',
  'invalid-envelope',
  'unclosed-brackets',
  'misplaced-user-input',
  'duplicate-tool-call',
  'unknown-tool-call',
  'earlier-run-tool-call',
  'duplicate-tool-result',
  'unknown-card',
  'duplicate-card',
  'card-closed',
  'card-not-awaiting',
];

const goldenEvents = encodedGoldenSessions().flatMap((session) => session.events) as unknown[];
// AG-UI-shaped records with hostile field values, golden events, and anything at all.
const eventLike = fc.oneof(
  fc.constantFrom(...goldenEvents),
  fc
    .record(
      {
        type: fc.constantFrom(
          'RUN_STARTED',
          'TEXT_MESSAGE_START',
          'TEXT_MESSAGE_CONTENT',
          'TOOL_CALL_END',
          'TOOL_CALL_RESULT',
          'CUSTOM',
          'RUN_FINISHED',
          'STATE_SNAPSHOT',
          'STATE_DELTA',
        ),
      },
      { requiredKeys: [] },
    )
    .chain((base) =>
      fc
        .dictionary(
          fc.constantFrom('threadId', 'runId', 'messageId', 'delta', 'toolCallId', 'name', 'value', 'metadata', 'snapshot', '__proto__'),
          fc.anything(),
        )
        .map((extra) => ({ ...extra, ...base })),
    ),
  fc.anything(),
);

describe('hostile input is normal input (DESIGN §2.7)', () => {
  it('the decoder never throws: every event decodes or is refused with a code of its union, and refusals are counted', () => {
    fc.assert(
      fc.property(fc.array(eventLike, { maxLength: 30 }), (events) => {
        let seq = 0;
        const decoder = createAgUiDecoder({
          conversationId: 'conv_1',
          identify: ({ runId }) => ({ turnId: runId, eventId: `evt_${++seq}`, seq, occurredAt: '2026-12-01T10:00:00.000Z' }),
        });
        let refused = 0;
        for (const event of events) {
          const result = decoder.decode(event);
          if (!result.ok) {
            refused += 1;
            expect(CODES).toContain(result.code);
          }
        }
        expect(Object.values(decoder.refusals()).reduce((sum, count) => sum + count, 0)).toBe(refused);
      }),
    );
  });

  it('cardResponseFromResumeEntry never throws', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record({
            interruptId: fc.string(),
            status: fc.constantFrom('resolved', 'cancelled'),
            payload: fc.anything(),
            metadata: fc.anything(),
          }),
        ),
        (entry) => {
          const result = cardResponseFromResumeEntry(entry);
          expect(typeof result.ok).toBe('boolean');
        },
      ),
    );
  });
});

const THREAD = 'conv_1';
const getter = (base: object, key: string) =>
  Object.defineProperty({ ...base }, key, { enumerable: true, configurable: true, get: throwHostile });
const card = {
  type: 'CUSTOM',
  name: 'papercusp.event',
  value: {
    type: 'card',
    card: { correlationId: 'card_1', createdAt: '2026-12-01T10:00:00.000Z', prompt: 'Go ahead?', presentation: { kind: 'confirm' } },
  },
};
const callMade = [
  { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'lookup' },
  { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{"q":"a"}' },
  { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
];
const runOne = { type: 'RUN_STARTED', threadId: THREAD, runId: 'run_1', input: { messages: [] } };
const awaitingRun = [
  runOne,
  card,
  { type: 'RUN_FINISHED', threadId: THREAD, runId: 'run_1', outcome: { type: 'interrupt', interrupts: [{ id: 'card_1' }] } },
];

// `decode` after `prefix`, on a fresh decoder whose host maps tool statuses (so the host is asked with the event's fields).
function decodeAfter(prefix: readonly unknown[]): (...args: unknown[]) => unknown {
  return (event) => {
    const context: AgUiDecoderContext = countingHost(THREAD, { toolResultStatus: () => 'succeeded' });
    const decoder = createAgUiDecoder(context);
    for (const earlier of prefix) decoder.decode(earlier);
    return decoder.decode(event);
  };
}

const decodeTargets: Readonly<Record<string, HostileTarget>> = {
  'createAgUiDecoder().decode (a RUN_STARTED resuming a card)': {
    call: decodeAfter(awaitingRun),
    valid: [
      {
        type: 'RUN_STARTED',
        threadId: THREAD,
        runId: 'run_2',
        input: { resume: [{ interruptId: 'card_1', status: 'resolved', payload: { confirmed: true } }] },
      },
    ],
    returns: 'result',
  },
  'createAgUiDecoder().decode (a TOOL_CALL_RESULT the host maps)': {
    call: decodeAfter([runOne, ...callMade]),
    valid: [
      {
        type: 'TOOL_CALL_RESULT',
        messageId: 'msg_r',
        toolCallId: 'call_1',
        content: [{ type: 'text', text: 'found' }],
        metadata: { trace: 1 },
      },
    ],
    returns: 'result',
  },
  'createAgUiDecoder().decode (a RUN_FINISHED awaiting a card)': {
    call: decodeAfter([runOne, card]),
    valid: [
      {
        type: 'RUN_FINISHED',
        threadId: THREAD,
        runId: 'run_1',
        outcome: { type: 'interrupt', interrupts: [{ id: 'card_1', reason: 'x' }] },
        usage: [{ inputTokens: 1 }],
      },
    ],
    returns: 'result',
  },
  'createAgUiDecoder().decode (a CUSTOM card and a STATE_DELTA)': {
    call: decodeAfter([runOne, { type: 'STATE_SNAPSHOT', snapshot: { items: [1] } }]),
    valid: [card],
    returns: 'result',
  },
  'createAgUiDecoder().decode (a STATE_DELTA)': {
    call: decodeAfter([runOne, { type: 'STATE_SNAPSHOT', snapshot: { items: [1] } }]),
    valid: [{ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/items/-', value: 2 }] }],
    returns: 'result',
  },
  'createAgUiDecoder().decode (a chunk continuing its lane)': {
    call: decodeAfter([runOne, { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', toolCallName: 'lookup', delta: '{"q":' }]),
    valid: [{ type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', delta: '"a"}', metadata: { papercusp: {} } }],
    returns: 'result',
  },
  'createAgUiDecoder().refusals': {
    call: anyArguments(createAgUiDecoder(countingHost(THREAD)).refusals),
    valid: [undefined],
    returns: 'value',
  },
};

describeHostileContract('ag-ui', agUi, {
  neverThrowing: {
    cardResponseFromResumeEntry: {
      call: anyArguments(cardResponseFromResumeEntry),
      valid: [{ interruptId: 'card_1', status: 'cancelled', metadata: { papercusp: { action: 'decline', reason: 'later' } } }],
      returns: 'result',
    },
    ...decodeTargets,
  },
  throwing: {
    createAgUiDecoder: { call: anyArguments(createAgUiDecoder), valid: [countingHost(THREAD)] },
    createAgUiChatAgent: {
      call: anyArguments(createAgUiChatAgent),
      valid: [{ agent: new HttpAgent({ url: 'http://127.0.0.1:1/agent' }) }],
    },
  },
  others: {
    createAgUiEncoder: 'takes no argument',
    resumeEntryFromCardResponse: 'takes a v1 CardResponse the host built (typed), total over it: checked in resume-entries.test.ts',
  },
});

describe('the decoder reads each event once, as plain data (issue 24: getters, Proxies and inherited names)', () => {
  it('createAgUiDecoder throws TypeError, never the trap’s error, for a context it cannot read or use, and reads it once', () => {
    const problem = new TypeError(
      'createAgUiDecoder needs { conversationId: string, identify: function, toolResultStatus?: function, parseChatEnvelope?: function }',
    );
    expect(() => createAgUiDecoder(everyTrapThrows as never)).toThrow(problem);
    expect(() => createAgUiDecoder(getter(countingHost(THREAD), 'identify') as never)).toThrow(problem);
    expect(() => createAgUiDecoder({ ...countingHost(THREAD), toolResultStatus: 'succeeded' } as never)).toThrow(problem);
    const context = { ...countingHost(THREAD), conversationId: THREAD };
    const decoder = createAgUiDecoder(context);
    context.conversationId = 'conv_2';
    expect(decoder.decode(runOne)).toStrictEqual({
      ok: true,
      envelopes: [],
      lost: [{ field: 'input.messages', reason: "a run's request is not a v1 event" }],
    });
  });

  const unreadable = {
    ok: false,
    code: 'invalid-event',
    message: 'an AG-UI event is plain JSON data (no getters, Proxies or class instances)',
  };
  it('refuses a getter or a Proxy anywhere in an event as invalid-event, before the host is asked anything', () => {
    const asked: string[] = [];
    const decoder = createAgUiDecoder(
      countingHost(THREAD, {
        toolResultStatus: (request) => {
          asked.push(request.toolCallId);
          return 'succeeded';
        },
      }),
    );
    for (const event of [runOne, ...callMade]) decoder.decode(event);
    const resultEvent = { type: 'TOOL_CALL_RESULT', messageId: 'msg_r', toolCallId: 'call_1', content: 'found' };
    for (const hostile of [
      getter(resultEvent, 'content'),
      getter(resultEvent, 'type'),
      { ...resultEvent, content: everyTrapThrows },
      { ...resultEvent, metadata: { papercusp: everyTrapThrows } },
      { ...resultEvent, content: [getter({ type: 'text', text: 'x' }, 'text')] },
      new Proxy(resultEvent, { getOwnPropertyDescriptor: throwHostile }),
      everyTrapThrows,
    ])
      expect(decoder.decode(hostile)).toStrictEqual(unreadable);
    expect(asked).toStrictEqual([]);
    // Read through its own data properties only: a Proxy's get trap never runs.
    expect(decoder.decode(new Proxy(resultEvent, { get: throwHostile }))).toMatchObject({
      ok: true,
      envelopes: [{ event: { type: 'tool_result', summary: 'found' } }],
    });
    expect(asked).toStrictEqual(['call_1']);
    expect(decoder.refusals()).toStrictEqual({ 'invalid-event': 7 });
  });

  it('finds nothing inherited: a type such as toString or constructor is not an AG-UI type, and an id that is not a string names no message', () => {
    const decoder = createAgUiDecoder(countingHost(THREAD));
    decoder.decode(runOne);
    for (const type of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])
      expect(decoder.decode({ type, name: 'papercusp.event', value: { type: 'navigate', href: '/x' }, messageId: 'm' })).toStrictEqual({
        ok: false,
        code: 'invalid-event',
        message: `${type} is not an AG-UI 1.0 event type`,
      });
    decoder.decode({ type: 'TEXT_MESSAGE_START', messageId: '[object Object]' });
    expect(decoder.decode({ type: 'TEXT_MESSAGE_CONTENT', messageId: {}, delta: 'x' })).toMatchObject({
      ok: false,
      code: 'unknown-message',
    });
    expect(decoder.decode({ type: 'TEXT_MESSAGE_START', messageId: 'm', role: { toString: 'x' } })).toStrictEqual({
      ok: false,
      code: 'invalid-event',
      message: 'object is not an AG-UI text message role',
    });
    // An own __proto__ key is a field v1 has no place for, never the event's prototype.
    const started = decoder.decode(JSON.parse('{"type":"TEXT_MESSAGE_START","messageId":"m2","__proto__":{"role":"user"}}'));
    expect(started).toStrictEqual({ ok: true, envelopes: [], lost: [{ field: '__proto__', reason: 'v1 has no field for it' }] });
    expect(({} as Record<string, unknown>)['role']).toBeUndefined();
  });
});
