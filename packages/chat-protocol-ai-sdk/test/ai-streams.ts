/**
 * Test support: UI message streams the `ai` package itself writes (its own
 * `MockLanguageModelV3` from `ai/test`, `streamText`, then
 * `toUIMessageStream`), by scenario. The fixture test pins each one to its
 * committed file under fixtures/ai-sdk-6/; the placement property mutates them.
 */
import { jsonSchema, simulateReadableStream, stepCountIs, streamText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';

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

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'tool error');

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
  }).toUIMessageStream({ onError: errorText });
}

/** Each scenario's stream, made afresh by the installed `ai`. */
export const AI_STREAM_SCENARIOS = {
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
  // A tool the model may not call and an input the tool's schema refuses: `ai` writes a
  // tool-input-error and then a tool-output-error for each of those calls.
  'tool-call-invalid': () =>
    streamText({
      model: model([
        [
          { type: 'tool-call', toolCallId: 'call_unknown_1', toolName: 'launch', input: '{"target":"moon"}' },
          { type: 'tool-call', toolCallId: 'call_invalid_1', toolName: 'forecast', input: '{"city":3}' },
          finish('tool-calls'),
        ],
        [...text('t1', 'I could not use those tools.'), finish('stop')],
      ]),
      prompt: 'weather in Lyon?',
      tools: { forecast: tool({ inputSchema: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, celsius: 21 }) }) },
      stopWhen: stepCountIs(2),
    }).toUIMessageStream({ onError: errorText }),
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

/** A scenario's name. */
export type AiStreamScenario = keyof typeof AI_STREAM_SCENARIOS;

/** The chunks of a scenario's stream as its SSE lines carry them (each through JSON text). */
export async function produceAiStream(name: AiStreamScenario): Promise<unknown[]> {
  const chunks: unknown[] = [];
  for await (const chunk of AI_STREAM_SCENARIOS[name]()) chunks.push(JSON.parse(JSON.stringify(chunk)) as unknown);
  return chunks;
}
