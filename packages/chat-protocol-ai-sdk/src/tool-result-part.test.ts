/**
 * Failed, cancelled and unknown tool outcomes keep their v1 fields (issue 18:
 * "AI SDK failed tool results lose summary/blocks"): the encoder writes a
 * `data-tool-result` part before `tool-output-error` / `tool-output-denied`,
 * the AI SDK's own schema and reader accept it, and the decoder folds it back.
 */
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { readUIMessageStream, uiMessageChunkSchema, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { createAiSdkDecoder } from './decoder/create-ai-sdk-decoder.js';
import { createAiSdkEncoder } from './encoder/create-ai-sdk-encoder.js';
import { AI_SDK_TOOL_RESULT_PART } from './ui-message-chunk.js';

const envelope = (seq: number, event: ChatEventEnvelope['event']): ChatEventEnvelope => ({
  schemaVersion: 1,
  conversationId: 'conv_1',
  turnId: 'turn_1',
  eventId: `evt_${seq}`,
  seq,
  occurredAt: '2026-12-01T10:00:00Z',
  event,
});

const blocks = [{ kind: 'text' as const, text: 'The carrier API answered 503.' }];
type ResultFields = Omit<Extract<ChatEventEnvelope['event'], { type: 'tool_result' }>, 'type' | 'callId' | 'name'>;
const START_LOSS = { field: 'messageId', reason: "v1 has no place for a start chunk's messageId" };
const call = envelope(1, { type: 'tool_call', callId: 'call_1', name: 'track', input: { id: 'p_1' } });

function encode(events: readonly ChatEventEnvelope[]) {
  const encoder = createAiSdkEncoder();
  return events.map((input) => {
    const result = encoder.encode(input);
    if (!result.ok) throw new Error(result.message);
    return result;
  });
}

function decode(chunks: readonly unknown[]) {
  const decoder = createAiSdkDecoder({
    conversationId: 'conv_1',
    turnId: 'turn_1',
    identify: ({ seq }) => ({ eventId: `evt_${seq}`, occurredAt: '2026-12-01T10:00:00Z' }),
  });
  const results = chunks.map((chunk) => decoder.decode(chunk));
  return {
    events: results.flatMap((result) => (result.ok ? result.envelopes.map((decoded) => decoded.event) : [])),
    lost: results.flatMap((result) => (result.ok ? result.lost : [])),
    refused: results.flatMap((result) => (result.ok ? [] : [result.code])),
  };
}

async function readMessage(chunks: readonly unknown[]) {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk as UIMessageChunk);
      controller.close();
    },
  });
  let last: unknown;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return JSON.parse(JSON.stringify(last)) as { parts: unknown[] };
}

const schemaRefuses = async (chunks: readonly unknown[]) => {
  const refused: unknown[] = [];
  for (const chunk of chunks) if (!(await uiMessageChunkSchema().validate?.(chunk))?.success) refused.push(chunk);
  return refused;
};

describe('data-tool-result: the v1 fields a tool error or denial cannot hold (issue 18)', () => {
  it.each<[string, ResultFields, string]>([
    ['failed with a summary and blocks', { status: 'failed', summary: 'tracking failed', blocks, error: 'HTTP 503' }, 'tool-output-error'],
    ['failed without an error text', { status: 'failed', summary: 'tracking failed' }, 'tool-output-error'],
    ['needs-reconciliation', { status: 'needs-reconciliation', summary: 'the carrier may have been charged' }, 'tool-output-error'],
    ['cancelled with a summary', { status: 'cancelled', summary: 'stopped by the person' }, 'tool-output-denied'],
  ])(
    '%s: the part comes before the chunk, nothing is lost, and the decoder gives the result back whole',
    async (_name, fields, chunkType) => {
      const result = envelope(2, { type: 'tool_result', callId: 'call_1', name: 'track', ...fields });
      const [, encoded] = encode([call, result]);
      const { status: _status, ...rest } = fields;
      expect(encoded?.lost).toEqual([]);
      expect(encoded?.chunks.map((chunk) => chunk.type)).toEqual([AI_SDK_TOOL_RESULT_PART, chunkType]);
      expect(encoded?.chunks[0]).toEqual({ type: AI_SDK_TOOL_RESULT_PART, id: 'call_1', data: { status: fields.status, ...rest } });
      const chunks = encode([call, result]).flatMap((each) => each.chunks);
      expect(await schemaRefuses(chunks)).toEqual([]);
      // The only loss is the message id every stream's start carries (the host's turn id names the turn).
      expect(decode(chunks)).toEqual({ events: [call.event, result.event], lost: [START_LOSS], refused: [] });
      // The AI SDK's own reader keeps the part in the message beside the tool part, so a useChat view can show it.
      expect((await readMessage(chunks)).parts).toContainEqual({
        type: AI_SDK_TOOL_RESULT_PART,
        id: 'call_1',
        data: { status: fields.status, ...rest },
      });
    },
  );

  it('a failed result that the error chunk holds whole (an error text, no summary or blocks) writes no part', () => {
    const result = envelope(2, { type: 'tool_result', callId: 'call_1', name: 'track', status: 'failed', error: 'HTTP 503' });
    expect(encode([call, result])[1]?.chunks).toEqual([{ type: 'tool-output-error', toolCallId: 'call_1', errorText: 'HTTP 503' }]);
  });

  it('a part whose status does not fit the chunk after it is not read, and is reported lost', () => {
    const chunks = [
      { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'track', input: { id: 'p_1' } },
      { type: AI_SDK_TOOL_RESULT_PART, id: 'call_1', data: { status: 'cancelled', summary: 'stopped' } },
      { type: 'tool-output-error', toolCallId: 'call_1', errorText: 'HTTP 503' },
    ];
    expect(decode(chunks)).toEqual({
      events: [call.event, { type: 'tool_result', callId: 'call_1', name: 'track', status: 'failed', error: 'HTTP 503' }],
      lost: [{ field: AI_SDK_TOOL_RESULT_PART, reason: 'its status does not fit the tool-output-error chunk after it' }],
      refused: [],
    });
  });

  it('a failed-status part before a denial is not read either: a denial is cancelled', () => {
    const chunks = [
      { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'track', input: { id: 'p_1' } },
      { type: AI_SDK_TOOL_RESULT_PART, id: 'call_1', data: { status: 'failed', summary: 'broke' } },
      { type: 'tool-output-denied', toolCallId: 'call_1' },
    ];
    expect(decode(chunks).events.at(-1)).toEqual({ type: 'tool_result', callId: 'call_1', name: 'track', status: 'cancelled' });
  });

  it('a part with no string id or no data object is refused as invalid-chunk', () => {
    expect(decode([{ type: AI_SDK_TOOL_RESULT_PART, data: { status: 'failed' } }]).refused).toEqual(['invalid-chunk']);
    expect(decode([{ type: AI_SDK_TOOL_RESULT_PART, id: 'call_1', data: [] }]).refused).toEqual(['invalid-chunk']);
  });
});
