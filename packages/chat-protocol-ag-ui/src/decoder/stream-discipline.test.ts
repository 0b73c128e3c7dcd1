/**
 * The AG-UI stream rules the conformance corpus showed the decoder did not hold (issue 18): a run that finishes over
 * an open bracket, a chunk or continuation that contradicts its opener, a malformed role or outcome, and an
 * interrupt that names no v1 card. Each is refused with a typed code or carried without inventing an outcome.
 */
import { applyChatEvent, createChatState, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { countingHost } from '../../test/counting-host.js';
import { createAgUiDecoder } from './create-ag-ui-decoder.js';

/** Decodes each event; per event `-` (no envelope), the v1 types joined by `+`, or `!code`. */
function play(events: readonly Record<string, unknown>[]): { rows: string[]; envelopes: ChatEventEnvelope[] } {
  const decoder = createAgUiDecoder(countingHost('thread_1'));
  const envelopes: ChatEventEnvelope[] = [];
  const rows = events.map((event) => {
    const result = decoder.decode(event);
    if (!result.ok) return `!${result.code}`;
    envelopes.push(...result.envelopes);
    return result.envelopes.length === 0 ? '-' : result.envelopes.map((envelope) => envelope.event.type).join('+');
  });
  return { rows, envelopes };
}

const start = { type: 'RUN_STARTED', threadId: 'thread_1', runId: 'run_1' };
const finish = { type: 'RUN_FINISHED', threadId: 'thread_1', runId: 'run_1' };

describe('createAgUiDecoder: AG-UI stream discipline (issue 18, conformance corpus)', () => {
  it('refuses RUN_FINISHED while a text message, a tool call or an announced subagent is still open (unclosed-brackets); the run stays open until they close', () => {
    expect(
      play([
        start,
        { type: 'TEXT_MESSAGE_START', messageId: 'msg_1', role: 'assistant' },
        finish,
        { type: 'TEXT_MESSAGE_END', messageId: 'msg_1' },
        { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'lookup' },
        finish,
        { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
        { type: 'SUBAGENT_STARTED', subagentRunId: 'sub_1', name: 'researcher' },
        finish,
        { type: 'SUBAGENT_FINISHED', subagentRunId: 'sub_1' },
        finish,
      ]).rows,
    ).toStrictEqual([
      '-',
      '-',
      '!unclosed-brackets',
      '-',
      '-',
      '!unclosed-brackets',
      'tool_call',
      '!unsupported-event',
      '!unclosed-brackets',
      '!unsupported-event',
      'done',
    ]);
  });

  it('refuses a continuation chunk that contradicts its lane (role, toolCallName) and accepts one that repeats it', () => {
    expect(
      play([
        start,
        { type: 'TEXT_MESSAGE_CHUNK', messageId: 'msg_1', role: 'assistant', delta: 'a' },
        { type: 'TEXT_MESSAGE_CHUNK', role: 'user', delta: 'b' },
        { type: 'TEXT_MESSAGE_CHUNK', role: 'assistant', delta: 'c' },
        { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', toolCallName: 'lookup', delta: '{}' },
        { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', toolCallName: 'delete' },
        { type: 'TOOL_CALL_CHUNK', toolCallId: 'call_1', toolCallName: 'lookup' },
        finish,
      ]).rows,
    ).toStrictEqual(['-', 'delta', '!invalid-event', 'delta', '-', '!invalid-event', '-', 'tool_call+done']);
  });

  it("refuses a continuation whose subagentRunId is not its opener's; one that names none continues it", () => {
    expect(
      play([
        start,
        { type: 'TEXT_MESSAGE_START', messageId: 'msg_1', role: 'assistant', subagentRunId: 'sub_1' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_1', delta: 'a' },
        { type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_1', delta: 'b', subagentRunId: 'sub_2' },
        { type: 'TEXT_MESSAGE_END', messageId: 'msg_1', subagentRunId: 'sub_1' },
        { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'lookup' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{}', subagentRunId: 'sub_1' },
        { type: 'TOOL_CALL_END', toolCallId: 'call_1', subagentRunId: 'sub_1' },
        { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
        finish,
      ]).rows,
    ).toStrictEqual(['-', '-', 'delta', '!invalid-event', '-', '-', '!invalid-event', '!invalid-event', 'tool_call', 'done']);
  });

  it('refuses a role AG-UI does not define (invalid-event), a system message it defines but v1 cannot carry (unsupported-event), and a reasoning message whose role is not "reasoning"', () => {
    expect(
      play([
        start,
        { type: 'TEXT_MESSAGE_START', messageId: 'msg_1', role: 'narrator' },
        { type: 'TEXT_MESSAGE_START', messageId: 'msg_2', role: 'system' },
        { type: 'REASONING_MESSAGE_START', messageId: 'msg_3', role: 'assistant' },
        { type: 'REASONING_MESSAGE_START', messageId: 'msg_4', role: 'reasoning' },
        { type: 'REASONING_MESSAGE_CONTENT', messageId: 'msg_4', delta: 'hm' },
      ]).rows,
    ).toStrictEqual(['-', '!invalid-event', '!unsupported-event', '!invalid-event', '-', 'reasoning']);
  });

  it('refuses a RUN_FINISHED outcome that is not an object (it could hide an interrupt); an unknown outcome type finishes the run with the outcome reported lost', () => {
    const decoder = createAgUiDecoder(countingHost('thread_1'));
    decoder.decode(start);
    expect(decoder.decode({ ...finish, outcome: [{ type: 'interrupt', interrupts: [{ id: 'int_1' }] }] })).toMatchObject({
      ok: false,
      code: 'invalid-event',
    });
    const paused = decoder.decode({ ...finish, outcome: { type: 'paused' } });
    expect(paused.ok && paused.envelopes.map((envelope) => envelope.event)).toStrictEqual([{ type: 'done', status: 'completed' }]);
    expect(paused.ok && paused.lost.map((loss) => loss.field)).toStrictEqual(['outcome']);
  });

  it('awaits an interrupt only when it names a card this run asked; any other interrupt ends the turn interrupted (never completed) and is reported lost', () => {
    const card = {
      type: 'card',
      card: { correlationId: 'card_1', createdAt: '2026-12-01T10:00:00.000Z', prompt: 'Proceed?', presentation: { kind: 'confirm' } },
    };
    const outcome = {
      type: 'interrupt',
      interrupts: [
        { id: 'card_1', reason: 'papercusp.card' },
        { id: 'approval_1', reason: 'approval' },
      ],
    };
    const decoder = createAgUiDecoder(countingHost('thread_1'));
    decoder.decode(start);
    const asked = decoder.decode({ type: 'CUSTOM', name: 'papercusp.event', value: card });
    const finished = decoder.decode({ ...finish, outcome });
    expect(finished.ok && finished.envelopes.map((envelope) => envelope.event)).toStrictEqual([
      { type: 'done', status: 'interrupted', awaiting: ['card_1'] },
    ]);
    expect(finished.ok && finished.lost.map((loss) => loss.field)).toStrictEqual(['outcome.interrupts[0].reason', 'outcome.interrupts[1]']);
    let state = createChatState('thread_1');
    for (const envelope of [...(asked.ok ? asked.envelopes : []), ...(finished.ok ? finished.envelopes : [])]) {
      const applied = applyChatEvent(state, envelope);
      expect(applied.ok).toBe(true);
      if (applied.ok) state = applied.state;
    }
  });
});
