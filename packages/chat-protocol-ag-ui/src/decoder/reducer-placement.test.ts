/**
 * Issue 24, DESIGN §12: a decoder never emits an envelope core's reducer would refuse for the stream it has decoded
 * so far. What it cannot place it refuses with a typed code and counts, it asks the host for no identity for it, and
 * the run goes on: every test folds what the decoder emitted through `applyChatEvent` and checks the seqs.
 */
import { applyChatEvent, createChatState, type ChatEventEnvelope, type ChatStateV1 } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { countingHost } from '../../test/counting-host.js';
import { createAgUiDecoder } from './create-ag-ui-decoder.js';
import type { AgUiDecoderContext } from './decoder-types.js';
import { createAgUiEncoder } from '../encoder/create-ag-ui-encoder.js';

const THREAD = 'conv_1';
const started = (runId: string, input?: unknown) => ({
  type: 'RUN_STARTED',
  threadId: THREAD,
  runId,
  ...(input === undefined ? {} : { input }),
});
const finished = (runId: string) => ({ type: 'RUN_FINISHED', threadId: THREAD, runId });
const call = (toolCallId: string, args?: string) => [
  { type: 'TOOL_CALL_START', toolCallId, toolCallName: 'lookup' },
  ...(args === undefined ? [] : [{ type: 'TOOL_CALL_ARGS', toolCallId, delta: args }]),
  { type: 'TOOL_CALL_END', toolCallId },
];
const result = (toolCallId: string) => ({
  type: 'TOOL_CALL_RESULT',
  messageId: `${toolCallId}.result`,
  toolCallId,
  content: 'found',
  metadata: { papercusp: { status: 'succeeded' } },
});
const text = (messageId: string, delta: string, role = 'assistant') => [
  { type: 'TEXT_MESSAGE_START', messageId, role },
  { type: 'TEXT_MESSAGE_CONTENT', messageId, delta },
  { type: 'TEXT_MESSAGE_END', messageId },
];
const carried = (value: unknown) => ({ type: 'CUSTOM', name: 'papercusp.event', value });
const card = (correlationId: string) => ({
  type: 'card',
  card: { correlationId, createdAt: '2026-12-01T10:00:00.000Z', prompt: 'Go ahead?', presentation: { kind: 'confirm' } },
});

/** Decodes every event (the decoder keeps going after a refusal), folds every envelope and returns what happened. */
function play(events: readonly unknown[], extra: Partial<AgUiDecoderContext> = {}) {
  const decoder = createAgUiDecoder(countingHost(THREAD, extra));
  const codes: string[] = [];
  const envelopes: ChatEventEnvelope[] = [];
  let state: ChatStateV1 = createChatState(THREAD);
  for (const event of events) {
    const decoded = decoder.decode(event);
    codes.push(decoded.ok ? decoded.envelopes.map((envelope) => envelope.event.type).join('+') || '-' : `!${decoded.code}`);
    if (!decoded.ok) continue;
    for (const envelope of decoded.envelopes) {
      const applied = applyChatEvent(state, envelope);
      if (!applied.ok) throw new Error(`the reducer refused ${envelope.turnId}:${envelope.seq} ${envelope.event.type}: ${applied.code}`);
      state = applied.state;
      envelopes.push(envelope);
    }
  }
  return { codes, envelopes, state, refusals: decoder.refusals() };
}

const seqsOf = (envelopes: readonly ChatEventEnvelope[]) => envelopes.map((envelope) => `${envelope.turnId}:${envelope.seq}`);

describe('a refused tool call is not made (issue 24)', () => {
  it('a TOOL_CALL_END refused as invalid-tool-arguments registers no call: its result is unknown-tool-call, counted, and the run goes on', () => {
    const played = play([started('run_1'), ...call('call_1', '{"q":'), result('call_1'), ...text('msg_1', 'Sorry.'), finished('run_1')]);
    expect(played.codes).toStrictEqual(['-', '-', '-', '!invalid-tool-arguments', '!unknown-tool-call', '-', 'delta', '-', 'done']);
    expect(played.refusals).toStrictEqual({ 'invalid-tool-arguments': 1, 'unknown-tool-call': 1 });
    expect(seqsOf(played.envelopes)).toStrictEqual(['run_1:1', 'run_1:2']);
    expect(played.state.turns[0]?.toolCalls).toStrictEqual([]);
  });

  it('a call id named again in its run is duplicate-tool-call, a second result duplicate-tool-result', () => {
    const played = play([
      started('run_1'),
      ...call('call_1', '{}'),
      ...call('call_1', '{}'),
      result('call_1'),
      result('call_1'),
      finished('run_1'),
    ]);
    expect(played.codes).toStrictEqual([
      '-',
      '-',
      '-',
      'tool_call',
      '!duplicate-tool-call',
      '!unknown-tool-call',
      '!unknown-tool-call',
      'tool_result',
      '!duplicate-tool-result',
      'done',
    ]);
    expect(seqsOf(played.envelopes)).toStrictEqual(['run_1:1', 'run_1:2', 'run_1:3']);
  });
});

describe('a tool result of an earlier run: AG-UI client-side tools (issue 24, DESIGN §12)', () => {
  it('is refused as earlier-run-tool-call and counted; the later run goes on without a seq gap', () => {
    const played = play([
      started('run_1'),
      ...call('call_1', '{"city":"Oslo"}'),
      finished('run_1'),
      // The front end ran the tool and sends its result with the next run.
      started('run_2'),
      result('call_1'),
      ...text('msg_2', 'It is sunny in Oslo.'),
      finished('run_2'),
    ]);
    expect(played.codes).toStrictEqual(['-', '-', '-', 'tool_call', 'done', '-', '!earlier-run-tool-call', '-', 'delta', '-', 'done']);
    expect(played.refusals).toStrictEqual({ 'earlier-run-tool-call': 1 });
    expect(seqsOf(played.envelopes)).toStrictEqual(['run_1:1', 'run_1:2', 'run_2:1', 'run_2:2']);
    expect(played.state.turns.map((turn) => [turn.status, turn.text])).toStrictEqual([
      ['completed', ''],
      ['completed', 'It is sunny in Oslo.'],
    ]);
  });
});

describe('an event that does not fit the turn takes no identity (issue 24)', () => {
  it('a user message after the turn has events is misplaced-user-input (user_input opens its turn)', () => {
    const played = play([started('run_1'), ...text('msg_1', 'Hi'), ...text('msg_2', 'Hello?', 'user'), finished('run_1')]);
    expect(played.codes).toStrictEqual(['-', '-', 'delta', '-', '-', '-', '!misplaced-user-input', 'done']);
    expect(seqsOf(played.envelopes)).toStrictEqual(['run_1:1', 'run_1:2']);
  });

  it('an event the strict parser refuses is invalid-envelope and asks the host for no seq', () => {
    const asked: string[] = [];
    const host = countingHost(THREAD);
    const played = play(
      [
        started('run_1'),
        { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'x'.repeat(300) },
        { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
        ...text('msg_1', 'Hi'),
        finished('run_1'),
      ],
      {
        identify: (request) => {
          asked.push(request.type);
          return host.identify(request);
        },
      },
    );
    expect(played.codes).toStrictEqual(['-', '-', '!invalid-envelope', '-', 'delta', '-', 'done']);
    expect(asked).toStrictEqual(['delta', 'done']);
    expect(seqsOf(played.envelopes)).toStrictEqual(['run_1:1', 'run_1:2']);
  });

  it('a RUN_STARTED of a run that already finished is outside-run: its turn ended (turn-terminal in the reducer)', () => {
    const played = play([started('run_1'), finished('run_1'), started('run_1'), ...text('msg_1', 'again'), finished('run_1')]);
    expect(played.codes).toStrictEqual(['-', 'done', '!outside-run', '!outside-run', '!outside-run', '!outside-run', '!outside-run']);
    expect(seqsOf(played.envelopes)).toStrictEqual(['run_1:1']);
  });

  it('a CUSTOM papercusp.event never carries an event AG-UI has natively (a done there would end the turn behind the run)', () => {
    const played = play([
      started('run_1'),
      carried({ type: 'done', status: 'completed' }),
      carried({ type: 'delta', text: 'x' }),
      ...text('msg_1', 'Hi'),
      finished('run_1'),
    ]);
    expect(played.codes).toStrictEqual(['-', '!invalid-event', '!invalid-event', '-', 'delta', '-', 'done']);
  });

  it('cards: asked twice is duplicate-card, closed twice card-closed, never asked unknown-card, asked by a run that did not wait card-not-awaiting', () => {
    const played = play([
      started('run_1'),
      carried(card('card_a')),
      carried(card('card_a')),
      carried({ type: 'card_closed', correlationId: 'card_a', resolution: 'submitted' }),
      carried({ type: 'card_closed', correlationId: 'card_a', resolution: 'submitted' }),
      carried({ type: 'card_closed', correlationId: 'card_z' }),
      carried(card('card_b')),
      finished('run_1'),
      started('run_2'),
      carried({ type: 'card_closed', correlationId: 'card_b', resolution: 'cancelled' }),
      finished('run_2'),
    ]);
    expect(played.codes).toStrictEqual([
      '-',
      'card',
      '!duplicate-card',
      'card_closed',
      '!card-closed',
      '!unknown-card',
      'card',
      'done',
      '-',
      '!card-not-awaiting',
      'done',
    ]);
    expect(played.refusals).toStrictEqual({ 'duplicate-card': 1, 'card-closed': 1, 'unknown-card': 1, 'card-not-awaiting': 1 });
  });

  it('an interrupt naming a card already closed is not awaited: the turn ends interrupted and the interrupt is reported lost', () => {
    const decoder = createAgUiDecoder(countingHost(THREAD));
    for (const event of [started('run_1'), carried(card('card_a')), carried({ type: 'card_closed', correlationId: 'card_a' })])
      decoder.decode(event);
    const done = decoder.decode({ ...finished('run_1'), outcome: { type: 'interrupt', interrupts: [{ id: 'card_a' }, { id: 'card_a' }] } });
    expect(done.ok && done.envelopes.map((envelope) => envelope.event)).toStrictEqual([{ type: 'done', status: 'interrupted' }]);
    expect(done.ok && done.lost.map((loss) => loss.field)).toStrictEqual(['outcome.interrupts[0]', 'outcome.interrupts[1]']);
  });

  it('a resume entry that answers no card this stream left waiting makes no card_closed: it is reported lost with the code', () => {
    const resume = [
      { interruptId: 'card_a', status: 'cancelled' },
      { interruptId: 'card_a', status: 'cancelled' },
      { interruptId: 'card_z', status: 'cancelled' },
    ];
    const decoder = createAgUiDecoder(countingHost(THREAD));
    const events = [
      started('run_1'),
      carried(card('card_a')),
      { ...finished('run_1'), outcome: { type: 'interrupt', interrupts: [{ id: 'card_a' }] } },
    ];
    for (const event of events) decoder.decode(event);
    const next = decoder.decode(started('run_2', { resume }));
    expect(next.ok && next.envelopes.map((envelope) => envelope.event)).toStrictEqual([
      { type: 'card_closed', correlationId: 'card_a', resolution: 'cancelled' },
    ]);
    expect(next.ok && next.lost).toStrictEqual([
      { field: 'input.resume[1]', reason: 'it answers no card this stream left waiting (card-closed)' },
      { field: 'input.resume[2]', reason: 'it answers no card this stream left waiting (unknown-card)' },
    ]);
  });
});

describe('a turn that has not ended never comes back completed through a round trip (issue 24, DESIGN §12)', () => {
  const base = { schemaVersion: 1 as const, conversationId: THREAD, occurredAt: '2026-12-01T10:00:00.000Z' };
  const envelope = (turnId: string, seq: number, event: ChatEventEnvelope['event']): ChatEventEnvelope => ({
    ...base,
    turnId,
    seq,
    eventId: `${turnId}.${seq}`,
    event,
  });

  it('the encoder marks the run it closes for an unended turn, and the decoder makes no done for it', () => {
    const encoder = createAgUiEncoder();
    const input = [
      envelope('turn_1', 1, { type: 'delta', text: 'Let me' }),
      envelope('turn_2', 1, { type: 'delta', text: 'Hello' }),
      envelope('turn_2', 2, { type: 'done', status: 'completed' }),
    ];
    const encoded = input.map((item) => encoder.encode(item));
    const closing = encoded[1]?.events[1];
    expect(closing).toStrictEqual({
      type: 'RUN_FINISHED',
      threadId: THREAD,
      runId: 'turn_1',
      timestamp: Date.parse(base.occurredAt),
      metadata: { papercusp: { turnEnded: false } },
    });
    expect(encoded[1]?.lost.map((loss) => loss.field)).toContain('turnId');
    const played = play(encoded.flatMap((item) => item.events));
    expect(played.envelopes.map((item) => `${item.turnId}:${item.event.type}`)).toStrictEqual([
      'turn_1:delta',
      'turn_2:delta',
      'turn_2:done',
    ]);
    expect(played.state.turns.map((turn) => [turn.turnId, turn.status])).toStrictEqual([
      ['turn_1', 'running'],
      ['turn_2', 'completed'],
    ]);
  });

  it('a turn that comes back after another continues its run, and an envelope of an ended turn yields nothing', () => {
    const encoder = createAgUiEncoder();
    const input = [
      envelope('turn_1', 1, { type: 'delta', text: 'Let me ' }),
      envelope('turn_2', 1, { type: 'done', status: 'completed' }),
      envelope('turn_1', 2, { type: 'delta', text: 'check.' }),
      envelope('turn_1', 3, { type: 'done', status: 'completed' }),
      envelope('turn_2', 2, { type: 'delta', text: 'late' }),
    ];
    const encoded = input.map((item) => encoder.encode(item));
    expect(encoded[4]).toStrictEqual({
      events: [],
      lost: expect.arrayContaining([{ field: 'event', reason: expect.stringContaining('already ended') }]),
    });
    const played = play(encoded.flatMap((item) => item.events));
    expect(played.refusals).toStrictEqual({});
    expect(played.state.turns.map((turn) => [turn.turnId, turn.status, turn.text])).toStrictEqual([
      ['turn_1', 'completed', 'Let me check.'],
      ['turn_2', 'completed', ''],
    ]);
  });
});
