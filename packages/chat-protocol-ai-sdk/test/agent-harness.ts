/**
 * Test support for `createAiSdkChatAgent`: scripted `MockLanguageModelV3` models (the `ai` package's own, from
 * `ai/test`) and a small in-test host loop that drives the agent's generator the way the seam's host does: it runs a
 * `tool` step through the agent's declared tool, feeds the outcome back as `tool-result`, and checks that every step
 * and the completion make a v1 frame core's strict parser accepts (the host refuses any other).
 */
import {
  parseChatEnvelope,
  type ChatAgentCompletion,
  type ChatAgentContext,
  type ChatAgentFeedback,
  type ChatAgentStep,
  type ChatAgentToolExecution,
  type ChatAgentToolOutcome,
} from '@papercusp/chat-protocol-core';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { AiSdkChatAgent } from '../src/agent.js';

type DoStream = MockLanguageModelV3['doStream'];
/** What a mock model's `doStream` is called with. */
export type StreamCallOptions = Parameters<DoStream>[0];
/** A chunk a mock model streams (a LanguageModelV3 stream part). */
export type ModelChunk = Awaited<ReturnType<DoStream>>['stream'] extends ReadableStream<infer Part> ? Part : never;

/** A model call's usage in the LanguageModelV3 shape. */
export type ModelUsage = Extract<ModelChunk, { type: 'finish' }>['usage'];

/** A model's usage in the LanguageModelV3 shape: `input` and `output` token totals. */
export function usage(input: number, output: number): ModelUsage {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  };
}

/** The chunks of one text part. */
export function text(id: string, ...deltas: string[]): ModelChunk[] {
  return [{ type: 'text-start', id }, ...deltas.map((delta): ModelChunk => ({ type: 'text-delta', id, delta })), { type: 'text-end', id }];
}

/** The chunks of one reasoning part. */
export function reasoning(id: string, delta: string): ModelChunk[] {
  return [
    { type: 'reasoning-start', id },
    { type: 'reasoning-delta', id, delta },
    { type: 'reasoning-end', id },
  ];
}

/** A tool call chunk whose input is the JSON text `input`. */
export function toolCall(toolCallId: string, toolName: string, input: string): ModelChunk {
  return { type: 'tool-call', toolCallId, toolName, input };
}

/** A finish chunk. */
export function finish(reason: 'stop' | 'tool-calls' | 'length', used: ModelUsage = usage(1, 1)): ModelChunk {
  return { type: 'finish', finishReason: { unified: reason, raw: reason }, usage: used };
}

/** One model call's answer: the chunks it streams, or its own `doStream`. */
export type ScriptedCall = readonly ModelChunk[] | DoStream;

/** A mock model that answers its n-th call with `calls[n]` (and fails the test past the script). */
export function scriptedModel(calls: readonly ScriptedCall[]): MockLanguageModelV3 {
  let index = 0;
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    doStream: async (options) => {
      const call = calls[index];
      index += 1;
      if (call === undefined) throw new Error(`the script has no model call ${index}`);
      if (typeof call === 'function') return call(options);
      return { stream: simulateReadableStream({ chunks: [...call], chunkDelayInMs: null }) };
    },
  });
  return model;
}

/** The turn the harness runs, with the person's text of `context`. */
const harnessTurn = (context: ChatAgentContext) => ({ conversationId: 'conv_1', turnId: 'turn_1', text: context.userInput.text });

/** What the host hands a tool's `execute`: the turn's `signal`, and the call's ids (call_1 / effect_1 by default). */
export function toolExecution(
  signal: AbortSignal = new AbortController().signal,
  overrides: Partial<ChatAgentToolExecution> = {},
): ChatAgentToolExecution {
  return { signal, turn: { conversationId: 'conv_1', turnId: 'turn_1', text: 'Go' }, callId: 'call_1', effectId: 'effect_1', ...overrides };
}

/** A context for one turn, with the person's `text`. */
export function turnContext(text: string, overrides: Partial<ChatAgentContext> = {}): ChatAgentContext {
  return {
    caller: { tenantId: 'tenant_1', principalId: 'user_1' },
    userInput: { text },
    history: [],
    historyOmitted: 0,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** What the in-test host saw of one run. */
export interface HostRun {
  readonly steps: ChatAgentStep[];
  readonly feedback: ChatAgentFeedback[];
  readonly completion: ChatAgentCompletion | void;
}

/** How the in-test host runs a `tool` step: by default, the agent's declared tool's `execute`. */
export type HostToolRunner = (step: Extract<ChatAgentStep, { type: 'tool' }>, ordinal: number) => Promise<ChatAgentToolOutcome> | undefined;

/**
 * Drives `agent.run` to its end as the seam's host does: each `tool` step runs (the host's own `runTool` decides
 * first, when given), a thrown tool is a failed outcome, a tool the agent did not declare is `unknown tool`; the
 * outcome is fed back as `tool-result`, as is a `remote-tool` step's. `onStep` sees each step as it arrives.
 */
export async function runTurn(
  agent: AiSdkChatAgent,
  context: ChatAgentContext,
  options: { readonly runTool?: HostToolRunner; readonly onStep?: (step: ChatAgentStep) => void } = {},
): Promise<HostRun> {
  const steps: ChatAgentStep[] = [];
  const feedback: ChatAgentFeedback[] = [];
  const run = agent.run(harnessTurn(context), context);
  let ordinal = 0;
  let next = await run.next();
  while (next.done !== true) {
    const step = next.value;
    steps.push(step);
    expectFrame(frameOfStep(step, steps.length));
    options.onStep?.(step);
    let answer: ChatAgentFeedback = undefined;
    if (step.type === 'tool' || step.type === 'remote-tool') {
      ordinal += 1;
      const callId = step.callId ?? `call_minted_${ordinal}`;
      const outcome =
        step.type === 'remote-tool' ? step.outcome : await hostOutcome(agent, context, step, ordinal, callId, options.runTool);
      expectFrame({
        type: 'tool_result',
        callId,
        name: step.name,
        status: outcome.status ?? 'succeeded',
        summary: outcome.summary,
        ...(outcome.blocks ? { blocks: outcome.blocks } : {}),
      });
      answer = {
        type: 'tool-result',
        callId,
        status: outcome.status ?? 'succeeded',
        summary: outcome.summary,
        ...(outcome.blocks ? { blocks: outcome.blocks } : {}),
      };
    }
    feedback.push(answer);
    next = await run.next(answer);
  }
  const completion = next.value;
  if (steps.at(-1)?.type !== 'fail') expectFrame({ type: 'done', status: 'completed', ...(completion ?? {}) });
  return { steps, feedback, completion };
}

async function hostOutcome(
  agent: AiSdkChatAgent,
  context: ChatAgentContext,
  step: Extract<ChatAgentStep, { type: 'tool' }>,
  ordinal: number,
  callId: string,
  runTool: HostToolRunner | undefined,
): Promise<ChatAgentToolOutcome> {
  const decided = runTool?.(step, ordinal);
  if (decided !== undefined) return decided;
  const tool = agent.tools.find((declared) => declared.name === step.name);
  if (tool === undefined) return { status: 'failed', summary: 'unknown tool' };
  try {
    return await tool.execute(
      step.input,
      toolExecution(context.signal, { turn: harnessTurn(context), callId, effectId: `effect_turn_1_${ordinal}` }),
    );
  } catch {
    return { status: 'failed', summary: 'the tool threw' };
  }
}

/** The v1 event the host writes for a step. */
function frameOfStep(step: ChatAgentStep, ordinal: number): Record<string, unknown> {
  switch (step.type) {
    case 'tool':
    case 'remote-tool':
      return {
        type: 'tool_call',
        callId: step.callId ?? `call_minted_${ordinal}`,
        name: step.name,
        ...(step.input === undefined ? {} : { input: step.input }),
      };
    case 'fail':
      return {
        type: 'error',
        code: step.code,
        message: step.message,
        retryable: step.retryable,
        ...(step.retryAfterMs === undefined ? {} : { retryAfterMs: step.retryAfterMs }),
      };
    default:
      return step;
  }
}

let seq = 0;

/** Fails unless `event` is a v1 event core's strict parser accepts in an envelope, as JSON text. */
export function expectFrame(event: Record<string, unknown>): void {
  seq += 1;
  const envelope = {
    schemaVersion: 1,
    conversationId: 'conv_1',
    turnId: 'turn_1',
    eventId: `evt_${seq}`,
    seq,
    occurredAt: '2026-12-01T10:00:00Z',
    event,
  };
  const parsed = parseChatEnvelope(JSON.stringify(envelope));
  if (!parsed.ok) throw new Error(`the host would refuse ${String(event['type'])}: ${JSON.stringify(parsed)}`.slice(0, 2000));
}

/** A model call that streams `chunks` and then hangs, and what it observed: the call's abort signal, its stream's cancel. */
export interface HangingCall {
  readonly call: DoStream;
  /** Resolves when the call's abort signal aborts. */
  readonly aborted: Promise<void>;
  /** Resolves when the call's stream is cancelled by its reader. */
  readonly cancelled: Promise<void>;
}

/**
 * A hanging model call. With `honoursAbort` its stream errors with the signal's reason when the call is aborted, as a
 * fetch body does; without, it ignores the abort (a provider that never answers it).
 */
export function hangingCall(chunks: readonly ModelChunk[], honoursAbort: boolean): HangingCall {
  let abort = () => {};
  let cancel = () => {};
  const aborted = new Promise<void>((resolve) => (abort = resolve));
  const cancelled = new Promise<void>((resolve) => (cancel = resolve));
  const call: DoStream = async (options) => ({
    stream: new ReadableStream<ModelChunk>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        options.abortSignal?.addEventListener('abort', () => {
          abort();
          if (honoursAbort) controller.error(options.abortSignal?.reason);
        });
      },
      cancel,
    }),
  });
  return { call, aborted, cancelled };
}
