/**
 * `createAiSdkChatAgent` (DESIGN §12.1): any AI SDK language model as the host's agent. It owns the multi-step tool
 * loop on `streamText`, one model call per step: text and reasoning stream out as they arrive, each tool call is a
 * `tool` step the host runs (admitted as an external effect unless read-only) and feeds back, and the loop goes on
 * until a step makes no call or the step limit is reached. It does not run tools itself, retry turns, or own ids.
 */
import {
  CHAT_LIMITS,
  isCleanText,
  isSafeJson,
  type ChatAgentCompletion,
  type ChatAgentContext,
  type ChatAgentFeedback,
  type ChatAgentStep,
  type ChatAgentToolOutcome,
  type ChatHistoryTurnV1,
  type ChatUsage,
} from '@papercusp/chat-protocol-core';
import {
  streamText,
  type LanguageModelUsage,
  type ModelMessage,
  type TextStreamPart,
  type ToolContent,
  type ToolSet,
  type TypedToolCall,
} from 'ai';
import type { AiSdkChatAgent, AiSdkChatAgentOptions } from './agent-types.js';
import { agentToolsOf, messageOf, type AgentTools } from './agent-tools.js';
import { boundedText, splitText } from './bounded-text.js';
import { providerFailStepOf } from './provider-failure.js';
import { failedOutcome, modelOutputOf, outcomeOfOutput } from './tool-outcome.js';

const DEFAULT_MAX_STEPS = 8;
const MAX_STEPS_STOP_REASON = 'max-steps';
const CALLER = 'createAiSdkChatAgent';

type Part = TextStreamPart<ToolSet>;
type PartReader = ReadableStreamDefaultReader<Part>;
type PartRead = Awaited<ReturnType<PartReader['read']>>;
type Generator<Result> = AsyncGenerator<ChatAgentStep, Result, ChatAgentFeedback>;

/** What the agent needs for every model call of every turn. */
interface CallSettings {
  readonly model: AiSdkChatAgentOptions['model'];
  readonly system: string | undefined;
  readonly tools: AgentTools;
  readonly maxRetries: number;
  readonly onProviderError: ((error: unknown) => void) | undefined;
}

/** How one model call ended: with its response (and the calls it made), or the turn ended (aborted, or a `fail` step). */
type StepEnd =
  | {
      readonly ended: false;
      readonly finishReason: string | undefined;
      readonly usage: LanguageModelUsage | undefined;
      readonly response: readonly ModelMessage[];
      readonly calls: readonly TypedToolCall<ToolSet>[];
    }
  | { readonly ended: true };

/**
 * An AI SDK language model as a chat agent. `run(turn, context)`:
 * - sends `system`, then the history as model messages (each user and assistant turn's text, oldest first; system
 *   turns, empty texts, and the turns' tools, cards, reports, provenance and errors are left out), then the person's
 *   message (`context.userInput.text`), with `context.signal` as the call's abort signal;
 * - yields each text and reasoning delta as it arrives (`delta`, `reasoning`; a delta past v1's text bound in pieces);
 * - after each model call, yields a `tool` step per tool call (`callId` the model's tool call id) and reads the
 *   host's `tool-result` feedback, which the model then reads as the call's result; a call the AI SDK refused
 *   (unparsable input, a tool the agent does not have) or whose input is not v1 JSON data is a `remote-tool` step
 *   with a failed outcome (logged, never run) and the model reads why; a provider-executed tool's result is a
 *   `remote-tool` step too;
 * - ends when a call makes no tool call, returning `{ stopReason, usage }`: the call's finish reason and the usage of
 *   every call summed (a count no call reported stays absent); a step that reaches `maxSteps` with calls pending
 *   returns `stopReason: 'max-steps'` and runs none of them;
 * - ends on a provider error with a `fail` step after the text already yielded (see `providerFailStepOf`): an
 *   `APICallError` keeps its retry permission and `retry-after`; any other `Error` is thrown (the host ends the turn
 *   `agent-failed`);
 * - returns as soon as `context.signal` aborts, without waiting for the provider, and cancels the model's stream.
 * `tools` are declared from the AI SDK tools with `execute` (`externalEffect: false` for `readOnlyTools`); each
 * runs the AI SDK tool's own `execute(input, { toolCallId, messages, abortSignal })` after checking the input against
 * its schema (see `agentToolsOf`, `outcomeOfOutput`). Throws a `TypeError` for options it cannot use.
 */
export function createAiSdkChatAgent<TOOLS extends ToolSet>(options: AiSdkChatAgentOptions<TOOLS>): AiSdkChatAgent {
  if (typeof options !== 'object' || options === null) throw new TypeError(`${CALLER}: options must be an object`);
  const { model, system, maxSteps = DEFAULT_MAX_STEPS, maxRetries = 0, onProviderError } = options;
  if (typeof model !== 'string' && (typeof model !== 'object' || model === null)) {
    throw new TypeError(`${CALLER}: model must be an AI SDK language model or model id`);
  }
  if (system !== undefined && typeof system !== 'string') throw new TypeError(`${CALLER}: system must be a string`);
  if (!Number.isSafeInteger(maxSteps) || maxSteps < 1) throw new TypeError(`${CALLER}: maxSteps must be a positive integer`);
  if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) throw new TypeError(`${CALLER}: maxRetries must be a non-negative integer`);
  if (onProviderError !== undefined && typeof onProviderError !== 'function')
    throw new TypeError(`${CALLER}: onProviderError must be a function`);
  const tools = agentToolsOf(options.tools, options.readOnlyTools);
  const settings: CallSettings = { model, system, tools, maxRetries, onProviderError };
  const agent: AiSdkChatAgent = {
    tools: tools.declared,
    async *run(_turn, context) {
      let messages: readonly ModelMessage[] = [...historyMessagesOf(context.history), { role: 'user', content: context.userInput.text }];
      let usage: ChatUsage = {};
      for (let step = 1; ; step += 1) {
        if (context.signal.aborted) return;
        const end = yield* modelCall(settings, messages, context);
        if (end.ended) return;
        usage = addUsage(usage, end.usage);
        if (end.calls.length === 0) return completionOf(end.finishReason, usage);
        if (step >= maxSteps) return completionOf(MAX_STEPS_STOP_REASON, usage);
        const results: ToolContent = [];
        for (const call of end.calls) {
          if (context.signal.aborted) return;
          results.push(yield* toolCall(settings.tools, call, messages));
        }
        messages = [...messages, ...end.response, { role: 'tool', content: results }];
      }
    },
  };
  return Object.freeze(agent);
}

/** The history as model messages: user and assistant text, in order. */
function historyMessagesOf(history: readonly ChatHistoryTurnV1[]): ModelMessage[] {
  const messages: ModelMessage[] = [];
  for (const turn of history) {
    if (turn.text === '') continue;
    if (turn.role === 'user') messages.push({ role: 'user', content: turn.text });
    else if (turn.role === 'assistant') messages.push({ role: 'assistant', content: turn.text });
  }
  return messages;
}

/** One model call: streams its deltas out and answers how it ended. Its `finally` cancels the model's stream. */
async function* modelCall(settings: CallSettings, messages: readonly ModelMessage[], context: ChatAgentContext): Generator<StepEnd> {
  const { signal } = context;
  const result = streamText({
    model: settings.model,
    ...(settings.system === undefined ? {} : { system: settings.system }),
    messages: [...messages],
    tools: settings.tools.offered,
    abortSignal: signal,
    maxRetries: settings.maxRetries,
    // The errors arrive as `error` parts below; the AI SDK's default would log them to the console.
    onError: () => {},
  });
  const reader = result.fullStream.getReader();
  const calls: TypedToolCall<ToolSet>[] = [];
  let finish: Extract<Part, { type: 'finish' }> | undefined;
  try {
    for (;;) {
      const read = await readUnlessAborted(reader, signal);
      if (read === undefined || signal.aborted) return { ended: true };
      if (read.done) break;
      const part = read.value;
      switch (part.type) {
        case 'text-delta':
        case 'reasoning-delta':
          for (const text of splitText(part.text, CHAT_LIMITS.maxTextLength))
            yield { type: part.type === 'text-delta' ? 'delta' : 'reasoning', text };
          break;
        case 'tool-call':
          if (part.providerExecuted !== true) calls.push(part);
          break;
        case 'tool-result':
        case 'tool-error':
          // A provider-executed tool ran at the provider: logged as a remote call. The model already holds its result.
          if (part.providerExecuted === true) {
            const outcome =
              part.type === 'tool-result' ? outcomeOfOutput(part.output) : failedOutcome(messageOf(part.error, 'the provider tool failed'));
            yield remoteToolStep(part.toolName, part.toolCallId, part.input, outcome);
          }
          break;
        case 'error': {
          const fail = providerFailStepOf(part.error, Date.now());
          if (fail === undefined) throw part.error;
          settings.onProviderError?.(part.error);
          yield fail;
          return { ended: true };
        }
        case 'abort':
          return { ended: true };
        case 'finish':
          finish = part;
          break;
        default:
          // Sources, files, tool input deltas, step brackets and raw chunks have no step of their own.
          break;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const response = (await result.response).messages.filter((message) => message.role === 'assistant');
  return { ended: false, finishReason: finish?.finishReason, usage: finish?.totalUsage, response, calls };
}

/** One tool call of a finished model call: its step, the host's feedback, and the tool result the model reads. */
async function* toolCall(
  tools: AgentTools,
  call: TypedToolCall<ToolSet>,
  messages: readonly ModelMessage[],
): Generator<ToolContent[number]> {
  const { toolCallId, toolName } = call;
  const refusal =
    call.invalid === true
      ? messageOf(call.error, 'the AI SDK refused the call')
      : isSafeJson(call.input)
        ? undefined
        : 'the tool input is not JSON data the chat protocol can carry';
  if (refusal !== undefined) {
    const outcome = failedOutcome(refusal);
    yield remoteToolStep(toolName, toolCallId, call.input, outcome);
    return { type: 'tool-result', toolCallId, toolName, output: { type: 'error-text', value: outcome.summary } };
  }
  const release = tools.hold(toolCallId, messages);
  let feedback: ChatAgentFeedback;
  try {
    feedback = yield { type: 'tool', name: toolName, input: call.input, callId: toolCallId };
  } finally {
    release();
  }
  if (feedback?.type !== 'tool-result') throw new TypeError(`${CALLER}: the host answered a tool step without a tool-result`);
  return { type: 'tool-result', toolCallId, toolName, output: modelOutputOf(feedback) };
}

/** A call whose outcome the agent already knows, with its name and input as v1 can carry them. */
function remoteToolStep(name: string, callId: string, input: unknown, outcome: ChatAgentToolOutcome): ChatAgentStep {
  const shownName =
    name !== '' && name.length <= CHAT_LIMITS.maxNameLength && isCleanText(name)
      ? name
      : boundedText(name || 'unnamed', CHAT_LIMITS.maxNameLength);
  return { type: 'remote-tool', name: shownName, callId, ...(isSafeJson(input) ? { input } : {}), outcome };
}

/** The next part, or `undefined` as soon as `signal` aborts: a provider that ignores the abort cannot hold the turn. */
function readUnlessAborted(reader: PartReader, signal: AbortSignal): Promise<PartRead | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    reader.read().then(
      (read) => {
        signal.removeEventListener('abort', onAbort);
        resolve(read);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Sums usage the AI SDK's way: a count is absent only when no call reported it. Counts v1 cannot carry are skipped. */
function addUsage(total: ChatUsage, usage: LanguageModelUsage | undefined): ChatUsage {
  if (usage === undefined) return total;
  return {
    ...addCount(total, 'inputTokens', usage.inputTokens),
    ...addCount(total, 'outputTokens', usage.outputTokens),
    ...addCount(total, 'totalTokens', usage.totalTokens),
  };
}

function addCount(total: ChatUsage, field: 'inputTokens' | 'outputTokens' | 'totalTokens', count: unknown): ChatUsage {
  const sum = total[field];
  const added = typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? (sum ?? 0) + count : sum;
  const kept = added !== undefined && Number.isSafeInteger(added) ? added : sum;
  return kept === undefined ? {} : { [field]: kept };
}

function completionOf(stopReason: string | undefined, usage: ChatUsage): ChatAgentCompletion {
  return {
    ...(stopReason === undefined ? {} : { stopReason }),
    ...(Object.keys(usage).length === 0 ? {} : { usage }),
  };
}
