import { readFileSync, writeFileSync } from 'node:fs';
import { applyChatEvent, createChatState, parseChatEnvelope, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { jsonSchema, simulateReadableStream, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createAiSdkDecoder } from './create-ai-sdk-decoder.js';

// The streams below are what the `ai` package itself writes: its own mock
// language model, `streamText`, then `toUIMessageStream`. Each is committed
// under fixtures/ai-sdk-6/ (UPDATE_AI_SDK_FIXTURES=1 rewrites them), and the
// test fails when the installed `ai` writes something else.
type LanguageModelV3StreamPart =
  Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;
const usage = { inputTokens: { total: 3, noCache: 3, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
const finish = (unified: 'stop' | 'tool-calls') => ({ type: 'finish', finishReason: { unified, raw: undefined }, usage });
const text = (id: string, delta: string) => [
  { type: 'text-start', id },
  { type: 'text-delta', id, delta },
  { type: 'text-end', id },
];

function model(steps: readonly (readonly unknown[])[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: steps.map((chunks) => ({
      stream: simulateReadableStream({ chunks: chunks as LanguageModelV3StreamPart[], chunkDelayInMs: null }),
    })),
  });
}

const lookup = (fail: boolean) =>
  tool({
    inputSchema: jsonSchema<{ city: string }>({ type: 'object', properties: { city: { type: 'string' } } }),
    execute: async ({ city }) => {
      if (fail) throw new Error('the weather service is down');
      return { city, celsius: 21 };
    },
  });

/** A weather tool call over two steps: the tool's `execute` returns or throws, then the model answers. */
function weatherCall(fail: boolean, answer: string) {
  return streamText({
    model: model([
      [{ type: 'tool-call', toolCallId: 'call_weather_1', toolName: 'weather', input: '{"city":"Lyon"}' }, finish('tool-calls')],
      [...text('t1', answer), finish('stop')],
    ]),
    prompt: 'weather in Lyon?',
    tools: { weather: lookup(fail) },
    stopWhen: stepCountIs(2),
  }).toUIMessageStream({ onError: (error) => (error instanceof Error ? error.message : 'tool error') });
}

const SCENARIOS = {
  'text-and-reasoning': () =>
    streamText({
      model: model([
        [
          { type: 'reasoning-start', id: 'r1' },
          { type: 'reasoning-delta', id: 'r1', delta: 'The person greets me.' },
          { type: 'reasoning-end', id: 'r1' },
          ...text('t1', 'Hello! '),
          ...text('t2', 'How can I help?'),
          finish('stop'),
        ],
      ]),
      prompt: 'hi',
    }).toUIMessageStream({ sendReasoning: true }),
  'tool-call-succeeded': () => weatherCall(false, 'It is 21 °C in Lyon.'),
  'tool-call-failed': () => weatherCall(true, 'I could not reach the weather service.'),
  'tool-approval-requested': () =>
    streamText({
      model: model([
        [
          ...text('t1', 'I will deploy once you approve.'),
          { type: 'tool-call', toolCallId: 'call_deploy_1', toolName: 'deploy', input: '{"service":"api"}' },
          finish('tool-calls'),
        ],
      ]),
      prompt: 'deploy the api',
      tools: {
        deploy: tool({
          inputSchema: jsonSchema<{ service: string }>({ type: 'object' }),
          needsApproval: true,
          execute: async () => 'deployed',
        }),
      },
      _internal: { generateId: () => 'approval_deploy_1' },
    }).toUIMessageStream(),
  'model-error': () =>
    streamText({
      model: model([[...text('t1', 'Let me').slice(0, 2), { type: 'error', error: new Error('model overloaded') }]]),
      prompt: 'hi',
      onError: () => {},
    }).toUIMessageStream({ onError: (error) => (error instanceof Error ? error.message : 'error') }),
} as const;

async function produce(name: keyof typeof SCENARIOS): Promise<unknown[]> {
  const chunks: unknown[] = [];
  for await (const chunk of SCENARIOS[name]()) chunks.push(JSON.parse(JSON.stringify(chunk)) as unknown);
  const file = new URL(`../fixtures/ai-sdk-6/${name}.jsonl`, import.meta.url);
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
