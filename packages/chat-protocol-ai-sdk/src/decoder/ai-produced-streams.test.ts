import { readFileSync, writeFileSync } from 'node:fs';
import { applyChatEvent, createChatState, parseChatEnvelope, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { produceAiStream, type AiStreamScenario } from '../../test/ai-streams.js';
import { createAiSdkDecoder } from './create-ai-sdk-decoder.js';

// The streams below are what the `ai` package itself writes (test/ai-streams.ts).
// Each is committed under fixtures/ai-sdk-6/ (UPDATE_AI_SDK_FIXTURES=1 rewrites
// them), and the test fails when the installed `ai` writes something else.
async function produce(name: AiStreamScenario): Promise<unknown[]> {
  const chunks = await produceAiStream(name);
  const file = new URL(`../../fixtures/ai-sdk-6/${name}.jsonl`, import.meta.url);
  const jsonl = chunks.map((chunk) => `${JSON.stringify(chunk)}\n`).join('');
  if (process.env['UPDATE_AI_SDK_FIXTURES'] === '1') writeFileSync(file, jsonl);
  expect(jsonl).toBe(readFileSync(file, 'utf8'));
  return chunks;
}

function decodeAll(chunks: readonly unknown[]) {
  const decoder = createAiSdkDecoder({
    conversationId: 'conv_1',
    turnId: 'turn_1',
    identify: ({ seq }) => ({ eventId: `evt_${seq}`, occurredAt: `2026-12-01T10:00:${String(seq).padStart(2, '0')}.000Z` }),
  });
  const envelopes: ChatEventEnvelope[] = [];
  const refusals: string[] = [];
  for (const chunk of chunks) {
    const result = decoder.decode(chunk);
    if (result.ok) envelopes.push(...result.envelopes);
    else refusals.push(result.code);
  }
  return { envelopes, refusals, counts: decoder.counts() };
}

/** The strict parser and core's reducer both accept every envelope, in order. */
function expectAcceptedByCore(envelopes: readonly ChatEventEnvelope[]) {
  let state = createChatState('conv_1');
  for (const envelope of envelopes) {
    expect(parseChatEnvelope(JSON.stringify(envelope))).toEqual({ ok: true, value: envelope });
    const applied = applyChatEvent(state, envelope);
    expect(applied).toMatchObject({ ok: true, outcome: 'applied' });
    if (applied.ok) state = applied.state;
  }
  return state;
}

describe('the decoder reads streams the ai package produces (DESIGN §12)', () => {
  it('text and reasoning become delta and reasoning events; finish is done completed with its reason', async () => {
    const { envelopes, refusals, counts } = decodeAll(await produce('text-and-reasoning'));
    expect(refusals).toEqual([]);
    expect(envelopes.map((envelope) => envelope.event)).toEqual([
      { type: 'reasoning', text: 'The person greets me.' },
      { type: 'delta', text: 'Hello! ' },
      { type: 'delta', text: 'How can I help?' },
      { type: 'done', status: 'completed', stopReason: 'stop' },
    ]);
    expect(envelopes.map((envelope) => envelope.seq)).toEqual([1, 2, 3, 4]);
    expect(counts).toEqual({ decoded: 4, transport: 9, refused: 0, refusals: {} });
    const state = expectAcceptedByCore(envelopes);
    expect(state.turns[0]).toMatchObject({ status: 'completed', text: 'Hello! How can I help?', reasoning: 'The person greets me.' });
  });

  it('a tool call and its output become tool_call and a succeeded tool_result; foreign output is kept as one data block', async () => {
    const { envelopes, refusals } = decodeAll(await produce('tool-call-succeeded'));
    expect(refusals).toEqual([]);
    expect(envelopes.map((envelope) => envelope.event)).toEqual([
      { type: 'tool_call', callId: 'call_weather_1', name: 'weather', input: { city: 'Lyon' } },
      {
        type: 'tool_result',
        callId: 'call_weather_1',
        name: 'weather',
        status: 'succeeded',
        blocks: [{ kind: 'data', data: { city: 'Lyon', celsius: 21 } }],
      },
      { type: 'delta', text: 'It is 21 °C in Lyon.' },
      { type: 'done', status: 'completed', stopReason: 'stop' },
    ]);
    expectAcceptedByCore(envelopes);
  });

  it('a tool error is a failed tool_result with the error text, never a success', async () => {
    const { envelopes, refusals } = decodeAll(await produce('tool-call-failed'));
    expect(refusals).toEqual([]);
    expect(envelopes.map((envelope) => envelope.event).slice(0, 2)).toEqual([
      { type: 'tool_call', callId: 'call_weather_1', name: 'weather', input: { city: 'Lyon' } },
      { type: 'tool_result', callId: 'call_weather_1', name: 'weather', status: 'failed', error: 'the weather service is down' },
    ]);
    expect(expectAcceptedByCore(envelopes).turns[0]?.toolCalls[0]?.result?.status).toBe('failed');
  });

  it('an unknown tool and an invalid input: each call fails once; ai’s second failure of the call is refused and counted, and the turn goes on without a gap (DESIGN §12)', async () => {
    const { envelopes, refusals, counts } = decodeAll(await produce('tool-call-invalid'));
    expect(refusals).toEqual(['duplicate-tool-result', 'duplicate-tool-result']);
    expect(counts.refusals).toEqual({ 'duplicate-tool-result': 2 });
    expect(envelopes.map((envelope) => envelope.event)).toEqual([
      { type: 'tool_call', callId: 'call_unknown_1', name: 'launch', input: { target: 'moon' } },
      {
        type: 'tool_result',
        callId: 'call_unknown_1',
        name: 'launch',
        status: 'failed',
        error: "Model tried to call unavailable tool 'launch'. Available tools: forecast.",
      },
      { type: 'tool_call', callId: 'call_invalid_1', name: 'forecast', input: { city: 3 } },
      {
        type: 'tool_result',
        callId: 'call_invalid_1',
        name: 'forecast',
        status: 'failed',
        error: expect.stringContaining('Invalid input for tool forecast') as unknown as string,
      },
      { type: 'delta', text: 'I could not use those tools.' },
      { type: 'done', status: 'completed', stopReason: 'stop' },
    ]);
    expect(envelopes.map((envelope) => envelope.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(expectAcceptedByCore(envelopes).turns[0]).toMatchObject({ status: 'completed', text: 'I could not use those tools.' });
  });

  it('a tool approval request becomes an open confirm card with the approval, created at the host’s time', async () => {
    const { envelopes, refusals } = decodeAll(await produce('tool-approval-requested'));
    expect(refusals).toEqual([]);
    expect(envelopes.map((envelope) => envelope.event)).toEqual([
      { type: 'delta', text: 'I will deploy once you approve.' },
      { type: 'tool_call', callId: 'call_deploy_1', name: 'deploy', input: { service: 'api' } },
      {
        type: 'card',
        card: {
          correlationId: 'approval_deploy_1',
          createdAt: '2026-12-01T10:00:03.000Z',
          prompt: 'Allow deploy?',
          presentation: { kind: 'confirm' },
          approval: { title: 'deploy', question: 'Allow deploy?', body: ['{"service":"api"}'] },
          allowDecline: true,
        },
      },
      { type: 'done', status: 'completed', stopReason: 'tool-calls' },
    ]);
    expectAcceptedByCore(envelopes);
  });

  it('a model error is a terminal v1 error without retry permission; the finish after it closes the message only', async () => {
    const { envelopes, refusals, counts } = decodeAll(await produce('model-error'));
    expect(refusals).toEqual([]);
    expect(envelopes.map((envelope) => envelope.event)).toEqual([
      { type: 'delta', text: 'Let me' },
      { type: 'error', code: 'ai-sdk-error', message: 'model overloaded', retryable: false },
    ]);
    expect(counts.transport).toBe(5);
    expect(expectAcceptedByCore(envelopes).turns[0]?.status).toBe('failed');
  });
});
