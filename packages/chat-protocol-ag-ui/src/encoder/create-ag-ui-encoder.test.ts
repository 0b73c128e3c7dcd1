import { EventSchemas } from '@ag-ui/core/schemas';
import type { ChatEventEnvelope, ChatEventV1, ChatStateV1 } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { playThroughAgUiClient } from '../../test/ag-ui-client.js';
import { encodedGoldenSessions } from '../../test/golden-sessions.js';
import { createAgUiEncoder } from './create-ag-ui-encoder.js';
import { resumeEntryFromCardResponse } from '../resume-entries.js';

const sessions = encodedGoldenSessions();

function envelope(seq: number, event: ChatEventV1, occurredAt = `2026-12-01T10:00:0${seq}.000Z`): ChatEventEnvelope {
  return { schemaVersion: 1, conversationId: 'conv_1', turnId: 'turn_1', eventId: `evt_${seq}`, seq, occurredAt, event };
}

function typesOf(envelopes: readonly ChatEventEnvelope[]): string[] {
  const encoder = createAgUiEncoder();
  return envelopes.flatMap((item) => encoder.encode(item).events.map((event) => event.type));
}

/** What AG-UI's client should hold after a session, read from the v1 state core's reducer reached. */
function expectedMessages(state: ChatStateV1) {
  const turns = state.turns;
  return {
    user: turns.flatMap((turn) => (turn.userInput === undefined || turn.userInput === null ? [] : [turn.userInput.text])),
    assistantText: turns.map((turn) => turn.text).join(''),
    reasoning: turns.map((turn) => turn.reasoning).join(''),
    toolCalls: turns.flatMap((turn) =>
      turn.toolCalls.map((call) => ({
        id: call.callId,
        name: call.name,
        arguments: call.input === undefined ? '' : JSON.stringify(call.input),
      })),
    ),
    toolResults: turns.flatMap((turn) =>
      turn.toolCalls.flatMap((call) =>
        call.result === undefined || call.result === null ? [] : [{ toolCallId: call.callId, content: call.result.summary ?? '' }],
      ),
    ),
  };
}

describe('createAgUiEncoder: every golden session against AG-UI 1.0 itself (issue 18, DESIGN §12)', () => {
  it.each(sessions.map((session) => [session.name, session] as const))(
    '%s: every event passes @ag-ui/core EventSchemas',
    (_name, session) => {
      const refused = session.events.flatMap((event, index) => {
        const parsed = EventSchemas.safeParse(event);
        return parsed.success ? [] : [{ index, type: event.type, issues: parsed.error.issues }];
      });
      expect(refused).toStrictEqual([]);
      expect(session.events.length).toBeGreaterThan(0);
    },
  );

  it.each(sessions.map((session) => [session.name, session] as const))(
    "%s: @ag-ui/client's runAgent (verifyEvents, then defaultApplyEvents) reaches the expected messages",
    async (_name, session) => {
      const responses = session.replay.responses;
      const outcome = await playThroughAgUiClient(session.events, session.replay.state.conversationId, (ids) =>
        ids.map((id) => {
          const response = responses.find((candidate) => candidate.correlationId === id);
          return response === undefined
            ? { interruptId: id, status: 'cancelled' as const }
            : (resumeEntryFromCardResponse(response) as never);
        }),
      );
      const messages = outcome.messages;
      const expected = expectedMessages(session.replay.state);
      expect({
        user: messages.flatMap((message) => (message.role === 'user' ? [message.content] : [])),
        assistantText: messages.map((message) => (message.role === 'assistant' ? (message.content ?? '') : '')).join(''),
        reasoning: messages.map((message) => (message.role === 'reasoning' ? message.content : '')).join(''),
        toolCalls: messages.flatMap((message) =>
          message.role === 'assistant'
            ? (message.toolCalls ?? []).map((call) => ({ id: call.id, name: call.function.name, arguments: call.function.arguments }))
            : [],
        ),
        toolResults: messages.flatMap((message) =>
          message.role === 'tool' ? [{ toolCallId: message.toolCallId, content: message.content }] : [],
        ),
      }).toStrictEqual(expected);
      const lastState = session.replay.state.turns.flatMap((turn) => (turn.hostState === null ? [] : [turn.hostState.snapshot])).at(-1);
      expect(outcome.state).toStrictEqual(lastState ?? {});
    },
  );
});

describe('createAgUiEncoder: brackets (issue 18: the encoder opens and closes text, reasoning and tool brackets)', () => {
  it('opens a run at the first envelope of a turn and a text message at the first delta, and closes both at done', () => {
    expect(
      typesOf([
        envelope(1, { type: 'delta', text: 'Hel' }),
        envelope(2, { type: 'delta', text: 'lo' }),
        envelope(3, { type: 'done', status: 'completed' }),
      ]),
    ).toStrictEqual([
      'RUN_STARTED',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
  });

  it('closes reasoning before text, and text before a tool call', () => {
    expect(
      typesOf([
        envelope(1, { type: 'reasoning', text: 'think' }),
        envelope(2, { type: 'delta', text: 'say' }),
        envelope(3, { type: 'tool_call', callId: 'call_1', name: 'look', input: { q: 1 } }),
        envelope(4, { type: 'error', code: 'boom', message: 'it broke', retryable: false }),
      ]),
    ).toStrictEqual([
      'RUN_STARTED',
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'RUN_ERROR',
    ]);
  });

  it('yields nothing for an envelope a replay overlap redelivers (DESIGN §3.5)', () => {
    const encoder = createAgUiEncoder();
    const first = envelope(1, { type: 'delta', text: 'once' });
    expect(encoder.encode(first).events).toHaveLength(3);
    expect(encoder.encode(first)).toStrictEqual({ events: [], lost: [] });
  });

  it('states the outcome AG-UI has: cancelled, success, interrupts for awaited cards, none for interrupted', () => {
    const outcomeOf = (event: ChatEventV1) => {
      const encoder = createAgUiEncoder();
      const events = encoder.encode(envelope(1, event)).events;
      const finished = events.at(-1);
      return finished?.type === 'RUN_FINISHED' ? finished.outcome : 'not finished';
    };
    expect(outcomeOf({ type: 'done', status: 'cancelled' })).toStrictEqual({ type: 'cancelled' });
    expect(outcomeOf({ type: 'done', status: 'completed' })).toStrictEqual({ type: 'success' });
    expect(outcomeOf({ type: 'done', status: 'interrupted' })).toBeUndefined();
    expect(outcomeOf({ type: 'done', status: 'needs-reconciliation' })).toBeUndefined();
    const encoder = createAgUiEncoder();
    encoder.encode(
      envelope(1, {
        type: 'card',
        card: {
          correlationId: 'card_1',
          createdAt: '2026-12-01T10:00:01.000Z',
          prompt: 'Go ahead?',
          expiresAt: '2026-12-02T10:00:00.000Z',
        },
      }),
    );
    const finished = encoder.encode(envelope(2, { type: 'done', status: 'completed', awaiting: ['card_1'] })).events.at(-1);
    expect(finished).toStrictEqual({
      type: 'RUN_FINISHED',
      threadId: 'conv_1',
      runId: 'turn_1',
      timestamp: Date.parse('2026-12-01T10:00:02.000Z'),
      metadata: { papercusp: { status: 'completed' } },
      outcome: {
        type: 'interrupt',
        interrupts: [{ id: 'card_1', reason: 'papercusp.card', message: 'Go ahead?', expiresAt: '2026-12-02T10:00:00.000Z' }],
      },
    });
  });
});

describe('createAgUiEncoder: loss is data (issue 18)', () => {
  it('reports every field AG-UI cannot carry', () => {
    const encoder = createAgUiEncoder();
    const fields = (item: ChatEventEnvelope) => encoder.encode(item).lost.map((loss) => loss.field);
    expect(fields(envelope(1, { type: 'user_input', text: 'hi', source: 'voice_stt' }, '2026-12-01T11:00:01.000+01:00'))).toStrictEqual([
      'eventId',
      'seq',
      'occurredAt',
      'event.source',
    ]);
    expect(
      fields(
        envelope(2, {
          type: 'tool_result',
          callId: 'call_1',
          name: 'look',
          status: 'succeeded',
          summary: '',
          blocks: [{ kind: 'text', text: 'found' }],
        }),
      ),
    ).toStrictEqual(['eventId', 'seq', 'event.summary', 'event.blocks']);
    expect(fields(envelope(3, { type: 'done', status: 'completed', usage: { inputTokens: 1, costUsd: 0.5 } }))).toStrictEqual([
      'eventId',
      'seq',
      'event.usage.costUsd',
    ]);
    expect(fields(envelope(4, { type: 'delta', text: 'late' }))).toStrictEqual(['eventId', 'seq', 'event']);
  });

  it('carries a tool result status under metadata.papercusp, so it is stated, never inferred', () => {
    const encoder = createAgUiEncoder();
    const events = encoder.encode(
      envelope(1, { type: 'tool_result', callId: 'call_1', name: 'look', status: 'failed', error: 'timed out' }),
    ).events;
    expect(events.at(-1)).toStrictEqual({
      type: 'TOOL_CALL_RESULT',
      messageId: 'turn_1.result.call_1',
      toolCallId: 'call_1',
      content: '',
      role: 'tool',
      timestamp: Date.parse('2026-12-01T10:00:01.000Z'),
      metadata: { papercusp: { status: 'failed', error: 'timed out' } },
    });
  });
});
