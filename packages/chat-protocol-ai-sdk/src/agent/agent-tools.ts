/**
 * The AI SDK tool definitions as the agent declares them to the host (name, external effect, `execute`) and offers
 * them to the model (the same tools without `execute`, so the AI SDK stops at each call and the host runs it). It
 * owns the creation-time checks of the tools, the input check at execution and the outcome of a run; the host owns
 * admission, effect ids and authorization.
 */
import { CHAT_LIMITS, isCleanText, type ChatAgentTool, type ChatAgentToolOutcome } from '@papercusp/chat-protocol-core';
import { asSchema, jsonSchema, type ModelMessage, type Schema, type Tool, type ToolExecutionOptions, type ToolSet } from 'ai';
import { failedOutcome, outcomeOfOutput } from './tool-outcome.js';

/** The agent's tools: what the host runs, what the model is offered, and the model messages of calls in flight. */
export interface AgentTools {
  /** The tools declared to the host, one per AI SDK tool with an `execute`. */
  readonly declared: readonly ChatAgentTool[];
  /** The tools offered to the model: without `execute`, with their JSON schema only (the input is checked at execution). */
  readonly offered: ToolSet;
  /**
   * Gives the AI SDK tool's `execute` the model messages of the step that made call `callId` until the returned
   * release runs. A call id held by two runs at once (two conversations whose models use the same ids) is
   * ambiguous, and its tools get no messages rather than another conversation's.
   */
  hold(callId: string, messages: readonly ModelMessage[]): () => void;
}

/** What a tool's execute receives beside its input, once the host's execution is known. */
type ExecuteOptions = Pick<ToolExecutionOptions, 'toolCallId' | 'messages' | 'abortSignal'>;
type AiSdkExecute = (input: unknown, options: ExecuteOptions) => unknown;

const CALLER = 'createAiSdkChatAgent';

/**
 * The agent's tools from `tools` (an AI SDK `ToolSet`) and the names in `readOnlyTools`. Throws a `TypeError` for
 * `tools` that is not an object of tools, a tool name v1 cannot carry, a tool with `needsApproval` (ask through a
 * card instead), a function tool without `execute` (a client-side tool: model it as a card), and a `readOnlyTools`
 * name that is not a tool with `execute`.
 */
export function agentToolsOf(tools: unknown, readOnlyTools: unknown): AgentTools {
  if (tools !== undefined && !isRecord(tools))
    throw new TypeError(`${CALLER}: tools must be an object of AI SDK tools, not ${typeNameOf(tools)}`);
  const readOnly = readOnlyNamesOf(readOnlyTools);
  const holds = new Map<string, { messages: readonly ModelMessage[] | undefined; holders: number }>();
  const messagesOf = (callId: string): ModelMessage[] => [...(holds.get(callId)?.messages ?? [])];
  const declared: ChatAgentTool[] = [];
  const offered: Record<string, Tool> = {};
  for (const [name, tool] of Object.entries(tools ?? {})) {
    if (name === '' || name.length > CHAT_LIMITS.maxNameLength || !isCleanText(name)) {
      throw new TypeError(`${CALLER}: a tool name must be clean text of 1 to ${CHAT_LIMITS.maxNameLength} characters`);
    }
    if (!isRecord(tool)) throw new TypeError(`${CALLER}: tool "${name}" must be an AI SDK tool, not ${typeNameOf(tool)}`);
    const definition = tool as Tool;
    if (definition.needsApproval !== undefined && definition.needsApproval !== false) {
      throw new TypeError(`${CALLER}: tool "${name}" has needsApproval; ask the person through a card instead`);
    }
    const execute: unknown = definition.execute;
    if (execute === undefined) {
      if (definition.type !== 'provider') throw new TypeError(`${CALLER}: tool "${name}" has no execute; a client-side tool is a card`);
      offered[name] = definition;
      continue;
    }
    if (typeof execute !== 'function') throw new TypeError(`${CALLER}: tool "${name}" has an execute that is not a function`);
    const schema = asSchema(definition.inputSchema);
    declared.push(declaredToolOf(name, schema, execute as AiSdkExecute, !readOnly.delete(name), messagesOf));
    offered[name] = offeredToolOf(definition, schema);
  }
  const [unknownName] = readOnly;
  if (unknownName !== undefined) throw new TypeError(`${CALLER}: readOnlyTools names "${unknownName}", which is not a tool with execute`);
  return {
    declared: Object.freeze(declared),
    offered,
    hold(callId, messages) {
      const held = holds.get(callId);
      if (held === undefined) holds.set(callId, { messages, holders: 1 });
      else holds.set(callId, { messages: undefined, holders: held.holders + 1 });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const current = holds.get(callId);
        if (current === undefined || current.holders <= 1) holds.delete(callId);
        else holds.set(callId, { messages: current.messages, holders: current.holders - 1 });
      };
    },
  };
}

function declaredToolOf(
  name: string,
  schema: Schema<unknown>,
  execute: AiSdkExecute,
  externalEffect: boolean,
  messagesOf: (callId: string) => ModelMessage[],
): ChatAgentTool {
  return Object.freeze({
    name,
    externalEffect,
    async execute(input: unknown, execution: { readonly signal: AbortSignal; readonly callId: string }): Promise<ChatAgentToolOutcome> {
      const checked = await checkedInput(schema, input);
      if (!checked.ok) return failedOutcome(`the input does not match the tool's input schema: ${checked.message}`);
      try {
        const output = await finalValueOf(
          execute(checked.value, { toolCallId: execution.callId, messages: messagesOf(execution.callId), abortSignal: execution.signal }),
        );
        return outcomeOfOutput(output);
      } catch (error) {
        // Thrown by a cancellation, the outcome is unknown: the host decides (needs-reconciliation), not a failure.
        if (execution.signal.aborted) throw error;
        return failedOutcome(messageOf(error, 'the tool failed'));
      }
    },
  });
}

// The model is offered the tool's JSON schema only, so the AI SDK passes the model's input on unchanged: the host
// logs the model's own JSON, and the schema (with its transforms) is applied once, when the host runs the call.
function offeredToolOf(tool: Tool, schema: Schema<unknown>): Tool {
  const offered: Record<string, unknown> = { ...tool, inputSchema: jsonSchema(() => schema.jsonSchema) };
  for (const key of ['execute', 'needsApproval', 'toModelOutput', 'onInputStart', 'onInputDelta', 'onInputAvailable']) delete offered[key];
  return offered as Tool;
}

type CheckedInput = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

async function checkedInput(schema: Schema<unknown>, input: unknown): Promise<CheckedInput> {
  if (schema.validate === undefined) return { ok: true, value: input };
  try {
    const result = await schema.validate(input);
    return result.success ? { ok: true, value: result.value } : { ok: false, message: messageOf(result.error, 'invalid input') };
  } catch (error) {
    return { ok: false, message: messageOf(error, 'invalid input') };
  }
}

// An AI SDK tool may stream preliminary outputs as an async iterable: its last value is the output.
async function finalValueOf(result: unknown): Promise<unknown> {
  const value = await result;
  if (!isAsyncIterable(value)) return value;
  let last: unknown;
  for await (const item of value) last = item;
  return last;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' && value !== null && typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] === 'function'
  );
}

/** An error's message (a thrown string as itself), or `fallback` when it has none or cannot be read. */
export function messageOf(error: unknown, fallback: string): string {
  try {
    if (typeof error === 'string' && error !== '') return error;
    if (error instanceof Error && typeof error.message === 'string' && error.message !== '') return error.message;
  } catch {
    // A Proxy or a getter that throws: the message cannot be read.
  }
  return fallback;
}

function readOnlyNamesOf(readOnlyTools: unknown): Set<string> {
  if (readOnlyTools === undefined) return new Set();
  if (!Array.isArray(readOnlyTools) || !readOnlyTools.every((name) => typeof name === 'string')) {
    throw new TypeError(`${CALLER}: readOnlyTools must be an array of tool names`);
  }
  return new Set(readOnlyTools as string[]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeNameOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}
