import { readFileSync } from 'node:fs';
import {
  applyChatEvent,
  createChatCodec,
  createChatState,
  parseChatEnvelope,
  type ChatEventEnvelope,
  type ChatStateV1,
} from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { countingHost } from '../../test/counting-host.js';
import { encodedGoldenSessions, type EncodedGoldenSession } from '../../test/golden-sessions.js';
import { createAgUiDecoder } from './create-ag-ui-decoder.js';
import type { AgUiDecoderContext, DecodeAgUiEventRefusalCode } from './decoder-types.js';
import type { AgUiLoss } from '../loss.js';

// AG-UI's own named event streams (see fixtures/README.md for the source).
const streams = JSON.parse(readFileSync(new URL('../../fixtures/ag-ui-dart-sdk-events.json', import.meta.url), 'utf8')) as Record<
  string,
  Record<string, unknown>[]
>;

type Verdict = { accepted: number } | { refused: DecodeAgUiEventRefusalCode; at: number };

function decodeStream(name: string, extra: Partial<AgUiDecoderContext> = {}): { verdict: Verdict; envelopes: ChatEventEnvelope[] } {
  const events = streams[name] ?? [];
  const first = events[0];
  const decoder = createAgUiDecoder(countingHost(typeof first?.['threadId'] === 'string' ? first['threadId'] : 'thread', extra));
  const envelopes: ChatEventEnvelope[] = [];
  for (const [index, event] of events.entries()) {
    const result = decoder.decode(event);
    if (!result.ok) return { verdict: { refused: result.code, at: index }, envelopes };
    envelopes.push(...result.envelopes);
  }
  return { verdict: { accepted: envelopes.length }, envelopes };
}

function reduce(conversationId: string, envelopes: readonly ChatEventEnvelope[], apply = applyChatEvent): ChatStateV1 {
  let state = createChatState(conversationId);
  for (const envelope of envelopes) {
    const applied = apply(state, envelope);
    if (!applied.ok) throw new Error(`the reducer refused ${envelope.event.type}: ${applied.code}`);
    state = applied.state;
  }
  return state;
}

describe("createAgUiDecoder: AG-UI's own published streams (issue 18)", () => {
  // Each stream is accepted whole or refused at its first event with no v1 meaning, with a typed reason.
  const verdicts: Record<string, Verdict> = {
    simple_text_message: { accepted: 3 },
    tool_call_sequence: { refused: 'unknown-tool-status', at: 7 },
    state_management: { accepted: 4 },
    messages_snapshot: { refused: 'unsupported-event', at: 1 },
    messages_snapshot_activity_reasoning: { refused: 'unsupported-event', at: 1 },
    multiple_runs: { accepted: 4 },
    thinking_events: { refused: 'invalid-event', at: 1 },
    step_events: { refused: 'unsupported-event', at: 1 },
    error_handling: { refused: 'outside-run', at: 5 },
    custom_events: { refused: 'unsupported-event', at: 1 },
    concurrent_messages: { refused: 'unsupported-event', at: 2 },
    // Chunks expand as @ag-ui/client's transformChunks expands them (issue 18).
    text_message_chunk: { accepted: 2 },
    activity_events: { refused: 'unsupported-event', at: 1 },
    reasoning_events: { refused: 'unsupported-event', at: 6 },
    thinking_text_message_legacy: { refused: 'invalid-event', at: 1 },
  };

  it('covers every stream in the fixture', () => {
    expect(Object.keys(verdicts).sort()).toStrictEqual(Object.keys(streams).sort());
  });

  it.each(Object.entries(verdicts))('%s: %j', (name, expected) => {
    const { verdict, envelopes } = decodeStream(name);
    expect(verdict).toStrictEqual(expected);
    // Whatever was accepted passes the strict parser and core's reducer.
    for (const envelope of envelopes) expect(parseChatEnvelope(JSON.stringify(envelope))).toStrictEqual({ ok: true, value: envelope });
    if (envelopes[0] !== undefined) expect(reduce(envelopes[0].conversationId, envelopes).turns.length).toBeGreaterThan(0);
  });

  it("reads a tool result that states no outcome only through the host's explicit mapping (issue 18: never a fabricated success)", () => {
    const { verdict, envelopes } = decodeStream('tool_call_sequence', { toolResultStatus: () => 'succeeded' });
    expect(verdict).toStrictEqual({ accepted: 5 });
    const state = reduce(envelopes[0]?.conversationId ?? '', envelopes);
    expect(state.turns[0]?.toolCalls[0]).toMatchObject({ callId: 'tool_01', name: 'search', result: { status: 'succeeded' } });
    expect(decodeStream('tool_call_sequence', { toolResultStatus: () => undefined }).verdict).toStrictEqual({
      refused: 'unknown-tool-status',
      at: 7,
    });
  });
});

describe('createAgUiDecoder: refusals are typed and counted (DESIGN §12)', () => {
  it('refuses malformed input, events with no v1 meaning and events outside a run, and counts each', () => {
    const decoder = createAgUiDecoder(countingHost('conv_1'));
    const codes = [
      null,
      { type: 'NOT_AN_EVENT' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' },
      { type: 'RUN_STARTED', threadId: 'conv_other', runId: 'run_1' },
      { type: 'RUN_STARTED', threadId: 'conv_1', runId: 'run_1' },
      { type: 'STEP_STARTED', stepName: 'plan' },
      { type: 'CUSTOM', name: 'someone.else', value: 1 },
      { type: 'TEXT_MESSAGE_START', messageId: 'm', role: 'system' },
      { type: 'TEXT_MESSAGE_CONTENT', messageId: 'unknown', delta: 'x' },
      { type: 'TOOL_CALL_RESULT', messageId: 'r', toolCallId: 'never', content: 'ok' },
      { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'look' },
      { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{not json' },
      { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
      { type: 'CUSTOM', name: 'papercusp.event', value: { type: 'navigate', href: 'javascript:alert(1)' } },
    ].map((event) => {
      const result = decoder.decode(event);
      return result.ok ? 'ok' : result.code;
    });
    expect(codes).toStrictEqual([
      'invalid-event',
      'invalid-event',
      'outside-run',
      'foreign-thread',
      'ok',
      'unsupported-event',
      'unsupported-event',
      'unsupported-event',
      'unknown-message',
      'unknown-tool-call',
      'ok',
      'ok',
      'invalid-tool-arguments',
      'invalid-envelope',
    ]);
    expect(decoder.refusals()).toStrictEqual({
      'invalid-event': 2,
      'outside-run': 1,
      'foreign-thread': 1,
      'unsupported-event': 3,
      'unknown-message': 1,
      'unknown-tool-call': 1,
      'invalid-tool-arguments': 1,
      'invalid-envelope': 1,
    });
  });

  it('never throws on hostile input', () => {
    const decoder = createAgUiDecoder(countingHost('conv_1'));
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
      },
    );
    expect(decoder.decode(hostile)).toMatchObject({ ok: false, code: 'invalid-event' });
  });

  it('reports what v1 cannot hold from a foreign event', () => {
    const decoder = createAgUiDecoder(countingHost('conv_1'));
    decoder.decode({ type: 'RUN_STARTED', threadId: 'conv_1', runId: 'run_1', input: { threadId: 'conv_1' } });
    const finished = decoder.decode({
      type: 'RUN_FINISHED',
      threadId: 'conv_1',
      runId: 'run_1',
      metadata: { trace: 'abc' },
      usage: [{ provider: 'openai', inputTokens: 3 }, { outputTokens: 4 }],
    });
    expect(finished).toMatchObject({ ok: true });
    if (!finished.ok) return;
    expect(finished.envelopes.map((item) => item.event)).toStrictEqual([
      { type: 'done', status: 'completed', usage: { inputTokens: 3, outputTokens: 4 } },
    ]);
    expect(finished.lost.map((loss) => loss.field)).toStrictEqual(['metadata.trace', 'usage[0].provider']);
  });
});

/** The envelope with every field its encoding lost taken out. */
function withoutLost(envelope: ChatEventEnvelope, lost: readonly AgUiLoss[]): unknown {
  const copy = JSON.parse(JSON.stringify(envelope)) as Record<string, Record<string, unknown>>;
  for (const { field } of lost) {
    const [head, tail] = field.split('.', 2);
    if (head === 'event' && tail !== undefined && copy['event'] !== undefined) delete copy['event'][tail.split('.')[0] ?? ''];
  }
  return copy;
}

// What the testkit registers to read a session's product events: any data, on the channel the session names.
const ANY_DATA = { '~standard': { version: 1, vendor: 'golden', validate: (value: unknown) => ({ value }) } } as const;

/** The strict parser and reducer of a session: the base ones, or a codec of its product events. */
function readersOf(session: EncodedGoldenSession) {
  const names = Object.entries(session.replay.productEvents);
  if (names.length === 0)
    return {
      parseChatEnvelope,
      reduce: (envelopes: readonly ChatEventEnvelope[]) => reduce(session.replay.state.conversationId, envelopes),
    };
  const codec = createChatCodec({ events: Object.fromEntries(names.map(([name, channel]) => [name, { schema: ANY_DATA, channel }])) });
  return {
    parseChatEnvelope: codec.parseChatEnvelope as typeof parseChatEnvelope,
    // As the testkit reads them: a codec's reducer over the base state shape.
    reduce: (envelopes: readonly ChatEventEnvelope[]) =>
      reduce(session.replay.state.conversationId, envelopes, codec.applyChatEvent as unknown as typeof applyChatEvent),
  };
}

describe('round trip v1 → AG-UI → v1 (issue 18)', () => {
  const sessions = encodedGoldenSessions();

  it.each(sessions.map((session) => [session.name, session] as const))(
    '%s: equals the original apart from the reported loss, and reduces to the same state when nothing of the events was lost',
    (_name, session) => {
      let next = 0;
      const readers = readersOf(session);
      const decoder = createAgUiDecoder({
        conversationId: session.replay.state.conversationId,
        // The host re-allocates the identities AG-UI does not carry: here, the original ones.
        identify: () => {
          const original = session.envelopes[next++];
          if (original === undefined) throw new Error('more envelopes than the original');
          return { turnId: original.turnId, eventId: original.eventId, seq: original.seq, occurredAt: original.occurredAt };
        },
        parseChatEnvelope: readers.parseChatEnvelope,
      });
      const decoded: ChatEventEnvelope[] = [];
      for (const event of session.events) {
        const result = decoder.decode(event);
        if (!result.ok) throw new Error(`${event.type}: ${result.code} ${result.message}`);
        decoded.push(...result.envelopes);
      }
      expect(decoded.map((item, index) => withoutLost(item, session.lost[index] ?? []))).toStrictEqual(
        session.envelopes.map((item, index) => withoutLost(item, session.lost[index] ?? [])),
      );
      const state = readers.reduce(decoded);
      const eventLoss = session.lost.flat().filter((loss) => loss.field.startsWith('event'));
      if (eventLoss.length === 0) expect(state).toStrictEqual(session.replay.state);
      else expect(state.turns.map((turn) => turn.status)).toStrictEqual(session.replay.state.turns.map((turn) => turn.status));
    },
  );
});

describe('the host owns its callbacks (DESIGN §12)', () => {
  it("lets an exception of the host's identify propagate instead of refusing the event", () => {
    const decoder = createAgUiDecoder({
      conversationId: 'conv_1',
      identify: () => {
        throw new RangeError('the host ran out of ids');
      },
    });
    decoder.decode({ type: 'RUN_STARTED', threadId: 'conv_1', runId: 'run_1' });
    expect(() => decoder.decode({ type: 'TEXT_MESSAGE_START', messageId: 'm' })).not.toThrow();
    expect(() => decoder.decode({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'm', delta: 'x' })).toThrow(RangeError);
    expect(decoder.refusals()).toStrictEqual({});
  });
});

describe('createAgUiDecoder: STATE_DELTA patches the last snapshot into the next v1 state (DESIGN §3.5: last write wins)', () => {
  it('emits the patched snapshot as the next version, and refuses a delta with no snapshot or a bad patch', () => {
    const decoder = createAgUiDecoder(countingHost('conv_1'));
    const events = (input: unknown) => {
      const result = decoder.decode(input);
      return result.ok ? result.envelopes.map((item) => item.event) : result.code;
    };
    events({ type: 'RUN_STARTED', threadId: 'conv_1', runId: 'run_1' });
    expect(events({ type: 'STATE_DELTA', delta: [{ op: 'add', path: '/a', value: 1 }] })).toBe('unknown-state');
    const snapshot = { count: 0, items: [] as string[] };
    expect(events({ type: 'STATE_SNAPSHOT', snapshot })).toStrictEqual([{ type: 'state', version: 0, snapshot: { count: 0, items: [] } }]);
    expect(
      events({
        type: 'STATE_DELTA',
        delta: [
          { op: 'replace', path: '/count', value: 1 },
          { op: 'add', path: '/items/-', value: 'item1' },
        ],
      }),
    ).toStrictEqual([{ type: 'state', version: 1, snapshot: { count: 1, items: ['item1'] } }]);
    expect(events({ type: 'STATE_DELTA', delta: [{ op: 'remove', path: '/missing' }] })).toBe('invalid-patch');
    expect(events({ type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/count', value: 2 }] })).toStrictEqual([
      { type: 'state', version: 2, snapshot: { count: 2, items: ['item1'] } },
    ]);
    expect(snapshot).toStrictEqual({ count: 0, items: [] });
  });
});
