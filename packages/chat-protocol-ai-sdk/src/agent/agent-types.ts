/**
 * The types of `createAiSdkChatAgent`: the agent it returns, its options and its fail codes. The seam the agent
 * fits is core's (`ChatAgent` and its parts, DESIGN §11.1, declared once so the host and the adapters share it
 * without depending on each other): import those from `@papercusp/chat-protocol-core`. It owns no behaviour.
 */
import type { ChatAgent, ChatAgentTool } from '@papercusp/chat-protocol-core';
import type { LanguageModel, ToolSet } from 'ai';

/** The agent `createAiSdkChatAgent` returns: core's `ChatAgent` (caller `unknown`), its declared tools always listed. */
export interface AiSdkChatAgent extends ChatAgent {
  readonly tools: readonly ChatAgentTool[];
}

/** The codes of the `fail` steps the agent yields for provider errors. */
export type AiSdkChatAgentFailCode = 'provider-rate-limited' | 'provider-failed';

/** Options of `createAiSdkChatAgent`. */
export interface AiSdkChatAgentOptions<TOOLS extends ToolSet = ToolSet> {
  /** Any AI SDK language model (specification v2 or v3, or a gateway model id): every provider package's models. */
  readonly model: LanguageModel;
  /**
   * AI SDK tool definitions. Each tool with an `execute` is declared to the host and runs through its tool step;
   * a provider-executed tool (`type: 'provider'` without `execute`) is offered to the model and its results are
   * logged as remote calls. A function tool without `execute`, or one with `needsApproval`, is a `TypeError`.
   */
  readonly tools?: TOOLS;
  /** The system prompt. */
  readonly system?: string;
  /** The most model calls in one turn (default 8); a turn that reaches it with tool calls pending ends `max-steps`. */
  readonly maxSteps?: number;
  /** Tools without an external effect: declared `externalEffect: false`, so the host runs them without admission. */
  readonly readOnlyTools?: readonly (keyof TOOLS & string)[];
  /**
   * How often the AI SDK retries a model call that fails before streaming (default 0: the error ends the turn at
   * once with its retry permission, and the client retries the turn).
   */
  readonly maxRetries?: number;
  /** Called with each provider error the agent turns into a `fail` step (whose message names only the status), for logs. */
  readonly onProviderError?: (error: unknown) => void;
}
