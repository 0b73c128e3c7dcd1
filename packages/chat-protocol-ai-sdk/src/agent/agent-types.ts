/**
 * The agent seam v2 as this package produces it: the host's `ChatAgent` shapes (DESIGN §11.1), declared here
 * structurally because the host depends on this package and may not be imported by it. Each type mirrors the host's
 * type of the same name without the `AiSdk` prefix, the caller typed `unknown`; the host's type test pins that an
 * {@link AiSdkChatAgent} is assignable to its `ChatAgent`. It owns no behaviour.
 */
import type { ChatHistoryTurnV1, ChatResultBlock, ChatUsage, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { LanguageModel, ToolSet } from 'ai';

/** The ids the host allocated for the turn and the person's text (the host's `ChatAgentTurn`). */
export interface AiSdkChatAgentTurn {
  readonly conversationId: string;
  readonly turnId: string;
  readonly text: string;
}

/** What the host hands `run` beside the turn (the host's `ChatAgentContext`). */
export interface AiSdkChatAgentContext {
  /** The authenticated caller that started the turn: the host's caller, opaque to the agent. */
  readonly caller: unknown;
  /** The person's input as the turn's `user_input` frame carries it. */
  readonly userInput: { readonly text: string };
  /** The conversation's earlier turns, oldest first, bounded by the host. */
  readonly history: readonly ChatHistoryTurnV1[];
  /** How many earlier turns the host left out of `history` (0: it is complete). */
  readonly historyOmitted: number;
  /** Aborted when the turn is cancelled (from any process), when the host drains, or when the run loses its lease. */
  readonly signal: AbortSignal;
}

/** What a tool's `execute` receives from the host (the host's `ChatAgentToolExecution`). */
export interface AiSdkChatAgentToolExecution {
  /** Aborted by cancellation, drain or a lost lease. */
  readonly signal: AbortSignal;
  /** The call's id on the wire: the model's tool call id when it is a v1 id, else one the host minted. */
  readonly callId: string;
  /** The effect id the host minted from the turn and the call's ordinal. */
  readonly effectId: string;
}

/** A tool's outcome: a short bounded summary and optional result blocks; `status` defaults to `succeeded`. */
export interface AiSdkChatAgentToolOutcome {
  readonly status?: 'succeeded' | 'failed';
  readonly summary: string;
  readonly blocks?: readonly ChatResultBlock[];
}

/**
 * A tool the agent declares (the host's `ChatAgentTool`). It has an external effect unless `externalEffect` is
 * `false`: the host admits it through recovery, so it is launched at most once across retries and processes.
 */
export interface AiSdkChatAgentTool {
  readonly name: string;
  readonly externalEffect?: boolean;
  /** The host's own authorization of a call; `false` fails the call without running it. Default: allowed. */
  readonly authorize?: (request: {
    readonly caller: unknown;
    readonly turn: AiSdkChatAgentTurn;
    readonly input: unknown;
  }) => boolean | Promise<boolean>;
  /** Runs the call. Throwing, or answering `status: 'failed'`, is a failed result, fed back to the agent. */
  readonly execute: (input: unknown, execution: AiSdkChatAgentToolExecution) => Promise<AiSdkChatAgentToolOutcome>;
}

/** `done`'s stop reason and usage, as `run` returns them (the host's `ChatAgentCompletion`). */
export interface AiSdkChatAgentCompletion {
  readonly stopReason?: string;
  readonly usage?: ChatUsage;
}

/** A card without the ids the host allocates (the host's `ChatAgentCard`). */
export type AiSdkChatAgentCard = Omit<OpenCardSnapshotV1, 'correlationId' | 'createdAt'>;

/** One step of a turn (the host's `ChatAgentStep`). */
export type AiSdkChatAgentStep =
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  /** A call of a declared tool, by name; the host mints the effect id and runs the tool's `execute`. */
  | { readonly type: 'tool'; readonly name: string; readonly input?: unknown; readonly callId?: string }
  /** A call whose outcome is already known (it ran elsewhere, or never could): logged, never admitted. */
  | {
      readonly type: 'remote-tool';
      readonly name: string;
      readonly input?: unknown;
      readonly callId?: string;
      readonly outcome: AiSdkChatAgentToolOutcome;
    }
  | { readonly type: 'card'; readonly card: AiSdkChatAgentCard }
  | { readonly type: 'provenance'; readonly engine: string; readonly model: string; readonly accountRoute?: string | null }
  | { readonly type: 'state'; readonly snapshot: unknown }
  | { readonly type: 'navigate'; readonly href: string }
  | { readonly type: 'fail'; readonly code: string; readonly message: string; readonly retryable: boolean; readonly retryAfterMs?: number };

/** What the host sends back into the generator after a step (the host's `ChatAgentFeedback`). */
export type AiSdkChatAgentFeedback =
  | {
      readonly type: 'tool-result';
      readonly callId: string;
      readonly status: 'succeeded' | 'failed' | 'cancelled' | 'needs-reconciliation';
      readonly summary: string;
      readonly blocks?: readonly ChatResultBlock[];
    }
  | { readonly type: 'card-closed'; readonly resolution: 'submitted' | 'declined' | 'cancelled' | 'expired'; readonly value?: unknown }
  | undefined;

/** The agent `createAiSdkChatAgent` returns: its declared tools and `run` (the host's `ChatAgent`). */
export interface AiSdkChatAgent {
  readonly tools: readonly AiSdkChatAgentTool[];
  run(
    turn: AiSdkChatAgentTurn,
    context: AiSdkChatAgentContext,
  ): AsyncGenerator<AiSdkChatAgentStep, AiSdkChatAgentCompletion | void, AiSdkChatAgentFeedback>;
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
