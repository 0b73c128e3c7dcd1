import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { createUIMessageStreamResponse, UI_MESSAGE_STREAM_HEADERS, uiMessageChunkSchema, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../../test-support/property-runs.js';
import { eventArb } from '../../../../test-support/v1-arbitraries.js';
import { createAiSdkEncoder } from './create-ai-sdk-encoder.js';
import {
  AI_SDK_SSE_DONE,
  AI_SDK_UI_MESSAGE_STREAM_HEADER,
  AI_SDK_UI_MESSAGE_STREAM_HEADERS,
  encodeAiSdkSseFrame,
} from './ui-message-stream-sse.js';

let seq = 0;
function envelope(event: ChatEventEnvelope['event'], turnId = 'turn_1'): ChatEventEnvelope {
  seq += 1;
  return { schemaVersion: 1, conversationId: 'conv_1', turnId, eventId: `evt_${seq}`, seq, occurredAt: '2026-12-01T10:00:00Z', event };
}

describe('the encoder (issue 18: stateful brackets, loss as data)', () => {
  it('opens the message and the text part before the first delta, and closes the part before any other chunk', () => {
    seq = 0;
    const encoder = createAiSdkEncoder();
    const chunks = [
      envelope({ type: 'delta', text: 'Hel' }),
      envelope({ type: 'delta', text: 'lo' }),
      envelope({ type: 'reasoning', text: 'hmm' }),
      envelope({ type: 'tool_call', callId: 'call_1', name: 'weather' }),
      envelope({ type: 'done', status: 'completed', stopReason: 'stop' }),
    ].flatMap((input) => {
      const result = encoder.encode(input);
      return result.ok ? result.chunks : [];
    });
    expect(chunks).toEqual([
      { type: 'start', messageId: 'turn_1' },
      { type: 'text-start', id: 'turn_1:text:1' },
      { type: 'text-delta', id: 'turn_1:text:1', delta: 'Hel' },
      { type: 'text-delta', id: 'turn_1:text:1', delta: 'lo' },
      { type: 'text-end', id: 'turn_1:text:1' },
      { type: 'reasoning-start', id: 'turn_1:reasoning:2' },
      { type: 'reasoning-delta', id: 'turn_1:reasoning:2', delta: 'hmm' },
      { type: 'reasoning-end', id: 'turn_1:reasoning:2' },
      { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'weather', input: null },
      { type: 'finish', finishReason: 'stop' },
    ]);
  });

  it('a tool call without input is written with input null, the value core’s state holds for it, and the absence is reported lost (issue 24)', () => {
    seq = 0;
    const result = createAiSdkEncoder().encode(envelope({ type: 'tool_call', callId: 'call_1', name: 'weather' }));
    expect(result).toEqual({
      ok: true,
      outcome: 'encoded',
      chunks: [
        { type: 'start', messageId: 'turn_1' },
        { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'weather', input: null },
      ],
      lost: [{ field: 'event.input', reason: 'absent, and a tool-input-available chunk needs an input: written as null' }],
    });
    // Once serialized the chunk still has its input, so the AI SDK's schema (and useChat after it) accepts it.
    expect(JSON.stringify(result.ok ? result.chunks[1] : null)).toBe(
      '{"type":"tool-input-available","toolCallId":"call_1","toolName":"weather","input":null}',
    );
  });

  it('a redelivered envelope is a duplicate with no chunks (replay overlap never repeats text)', () => {
    seq = 0;
    const encoder = createAiSdkEncoder();
    const first = envelope({ type: 'delta', text: 'Hi' });
    expect(encoder.encode(first)).toMatchObject({ ok: true, outcome: 'encoded' });
    expect(encoder.encode(first)).toEqual({ ok: true, outcome: 'duplicate', chunks: [], lost: [] });
  });

  it('an approval card for the open tool call is a data-card part and a tool approval request', () => {
    seq = 0;
    const encoder = createAiSdkEncoder();
    encoder.encode(envelope({ type: 'tool_call', callId: 'call_1', name: 'deploy' }));
    const card = {
      correlationId: 'card_1',
      createdAt: '2026-12-01T10:00:00Z',
      prompt: 'Deploy?',
      approval: { title: 'deploy', question: 'Deploy?', body: [] },
      allowDecline: true,
    };
    expect(encoder.encode(envelope({ type: 'card', card }))).toEqual({
      ok: true,
      outcome: 'encoded',
      chunks: [
        { type: 'data-card', id: 'card_1', data: card },
        { type: 'tool-approval-request', approvalId: 'card_1', toolCallId: 'call_1' },
      ],
      lost: [],
    });
  });

  it('a tool result for a call not in this message is reported lost, not written (the AI SDK needs the call first)', () => {
    seq = 0;
    const encoder = createAiSdkEncoder();
    expect(encoder.encode(envelope({ type: 'tool_result', callId: 'call_9', name: 'x', status: 'succeeded' }))).toEqual({
      ok: true,
      outcome: 'encoded',
      chunks: [{ type: 'start', messageId: 'turn_1' }],
      lost: [{ field: 'event', reason: 'the tool call is not in this message, and a tool output must follow its call' }],
    });
  });

  it('an interrupted done is an abort after a turn-end part with the status, so nothing is lost', () => {
    seq = 0;
    const encoder = createAiSdkEncoder();
    expect(encoder.encode(envelope({ type: 'done', status: 'interrupted', usage: { inputTokens: 3 } }))).toEqual({
      ok: true,
      outcome: 'encoded',
      chunks: [
        { type: 'start', messageId: 'turn_1' },
        { type: 'data-turn-end', data: { usage: { inputTokens: 3 }, status: 'interrupted' } },
        { type: 'abort' },
      ],
      lost: [],
    });
  });

  it('refuses what is not a strict v1 envelope with the parser’s code, and never mutates its input', () => {
    const encoder = createAiSdkEncoder();
    expect(encoder.encode({ type: 'delta', text: 'x' })).toMatchObject({ ok: false, code: 'unsupported-version' });
    seq = 0;
    const input = envelope({ type: 'delta', text: 'x' });
    const copy = structuredClone(input);
    encoder.encode(input);
    expect(input).toEqual(copy);
  });
});

describe('the encoder never throws (DESIGN §2.7)', () => {
  it('answers every input with chunks or a typed refusal', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.anything(), fc.record({ schemaVersion: fc.constant(1), event: fc.anything() }))), (inputs) => {
        const encoder = createAiSdkEncoder();
        for (const input of inputs) {
          const result = encoder.encode(input);
          expect(result.ok || typeof result.code === 'string').toBe(true);
        }
      }),
    );
  });
});

/** v1 streams over two turns, in order, whose tool results mostly answer a call written earlier in their turn. */
const v1StreamArb = fc.array(fc.tuple(fc.constantFrom('turn_1', 'turn_2'), eventArb, fc.nat()), { maxLength: 25 }).map((drawn) => {
  const seqs = new Map<string, number>();
  const calls = new Map<string, { callId: string; name: string }[]>();
  return drawn.map(([turnId, drawnEvent, pick]): ChatEventEnvelope => {
    const turnCalls = calls.get(turnId) ?? [];
    let event = drawnEvent;
    const answered = turnCalls[pick % (turnCalls.length + 1)];
    if (event.type === 'tool_result' && answered !== undefined) event = { ...event, ...answered };
    if (event.type === 'tool_call') calls.set(turnId, [...turnCalls, { callId: event.callId, name: event.name }]);
    const next = (seqs.get(turnId) ?? 0) + 1;
    seqs.set(turnId, next);
    return {
      schemaVersion: 1,
      conversationId: 'conv_1',
      turnId,
      eventId: `${turnId}_${next}`,
      seq: next,
      occurredAt: '2026-12-01T10:00:00Z',
      event,
    };
  });
});

describe('the encoder against the AI SDK’s own chunk schema, as JSON text (issue 24)', () => {
  it('every chunk written for any v1 stream passes uiMessageChunkSchema once serialized and parsed', async () => {
    const schema = uiMessageChunkSchema();
    await fc.assert(
      fc.asyncProperty(v1StreamArb, async (envelopes) => {
        const encoder = createAiSdkEncoder();
        const chunks = envelopes.flatMap((input) => {
          const result = encoder.encode(input);
          expect(result.ok).toBe(true);
          return result.ok ? result.chunks : [];
        });
        for (const chunk of [...chunks, ...encoder.close()]) {
          const wire: unknown = JSON.parse(JSON.stringify(chunk));
          const verdict = await schema.validate?.(wire);
          expect(verdict?.success ? 'valid' : wire).toBe('valid');
        }
      }),
      { numRuns: runs(200) },
    );
  });
});

describe('SSE framing (the AI SDK’s own transport)', () => {
  it('frames chunks byte for byte as the AI SDK’s createUIMessageStreamResponse does, and ends with data: [DONE]', async () => {
    const chunks: UIMessageChunk[] = [
      { type: 'start', messageId: 'turn_1' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: 'line one\nline two "quoted"' },
      { type: 'text-end', id: 't' },
      { type: 'finish' },
    ];
    const response = createUIMessageStreamResponse({
      stream: new ReadableStream({
        start(controller) {
          for (const chunk of chunks) controller.enqueue(chunk);
          controller.close();
        },
      }),
    });
    const ours = chunks.map((chunk) => encodeAiSdkSseFrame(chunk as never)).join('') + AI_SDK_SSE_DONE;
    expect(await response.text()).toBe(ours);
    expect(response.headers.get(AI_SDK_UI_MESSAGE_STREAM_HEADER.name)).toBe(AI_SDK_UI_MESSAGE_STREAM_HEADER.value);
    expect(AI_SDK_UI_MESSAGE_STREAM_HEADERS).toEqual(UI_MESSAGE_STREAM_HEADERS);
  });
});

describe('the committed fixtures are named in the README', () => {
  it('lists every fixture file with its source', () => {
    const readme = readFileSync(new URL('../../fixtures/README.md', import.meta.url), 'utf8');
    for (const name of [
      'text-and-reasoning',
      'tool-call-succeeded',
      'tool-call-failed',
      'tool-call-invalid',
      'tool-approval-requested',
      'model-error',
    ]) {
      expect(readme).toContain(`ai-sdk-6/${name}.jsonl`);
    }
  });
});
