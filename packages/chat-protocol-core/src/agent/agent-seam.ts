/**
 * The agent seam (DESIGN §11.1): what a model, a remote agent or a script
 * produces for one turn, as steps a host turns into v1 frames, the context it
 * runs in, and the tools it declares. Declared once here, types only, so the
 * host that runs agents and the adapters that make them (the AI SDK's and
 * AG-UI's, §12.1) share one definition without depending on each other. It owns
 * the shapes; ids, seqs, effect ids, authority and storage are the host's.
 */
import type { OpenCardSnapshotV1 } from '../cards/card-schemas.js';
import type { ChatResultBlock, ChatUsage } from '../events/events.js';
import type { ChatHistoryTurnV1 } from '../state/history.js';

/** The turn an agent is asked to answer: ids the host allocated and the person's text. */
export interface ChatAgentTurn {
  readonly conversationId: string;
  readonly turnId: string;
  readonly text: string;
}

/** What the host hands `run` beside the turn; `Caller` is the host's caller type (opaque to adapters). */
export interface ChatAgentContext<Caller = unknown> {
  /** The authenticated caller that started the turn. */
  readonly caller: Caller;
  /** The person's input as the turn's `user_input` frame carries it. */
  readonly userInput: { readonly text: string };
  /**
   * The conversation's earlier turns as history turns (a v1 turn gives its `user_input` and its answer), oldest
   * first, newest last, never the current turn; the newest ones, as many as the host's bound allows, and never
   * starting with an answer whose question was left out.
   */
  readonly history: readonly ChatHistoryTurnV1[];
  /** How many earlier history turns were left out of `history` (0: it is complete); a v1 turn left out counts as 2. */
  readonly historyOmitted: number;
  /**
   * Aborted when the turn is cancelled (from any host process), when the host drains, or when the run loses its
   * lease. Pass it to the model call so a cancellation reaches the provider.
   */
  readonly signal: AbortSignal;
}

/** What a tool's `execute` receives beside its input. */
export interface ChatAgentToolExecution {
  /** Aborted with the turn's signal (see {@link ChatAgentContext.signal}). */
  readonly signal: AbortSignal;
  /** The turn that made the call (the tools are declared once for every turn). */
  readonly turn: ChatAgentTurn;
  /** The call's id on the wire (`tool_call.callId`). */
  readonly callId: string;
  /**
   * The effect id the host minted for this call from the turn and the call's ordinal: the same on a retried run
   * of the turn, unique across turns, so it can serve as the idempotency key of the external call.
   */
  readonly effectId: string;
}

/**
 * A tool's outcome: a short bounded summary (`CHAT_LIMITS.maxSummaryLength`) and, optionally, grounded result
 * blocks. `status` defaults to `succeeded`; `failed` is a result like any other (stored, written as
 * `tool_result { status: 'failed' }`, fed back).
 */
export interface ChatAgentToolOutcome {
  readonly status?: 'succeeded' | 'failed';
  readonly summary: string;
  readonly blocks?: readonly ChatResultBlock[];
}

/**
 * A tool the agent declares. The host mints each call's effect id; a tool has an external effect unless it says
 * `externalEffect: false`.
 */
export interface ChatAgentTool<Caller = unknown> {
  /** The name `tool` steps call it by (unique among the agent's tools; the first of a repeated name wins). */
  readonly name: string;
  /**
   * Default `true`: admitted through recovery (declared under the caller's current authority, claimed, admitted,
   * completed), so it is launched at most once across retries and processes. `false`: it runs without admission
   * (no store round trip), still logged as `tool_call` and `tool_result`.
   */
  readonly externalEffect?: boolean;
  /**
   * The host's own authorization of this call for this caller; `false` (or a throw) makes the call's result
   * `failed` ("not authorized") without running it. Default: allowed.
   */
  readonly authorize?: (request: {
    readonly caller: Caller;
    readonly turn: ChatAgentTurn;
    readonly input: unknown;
  }) => boolean | Promise<boolean>;
  /**
   * Runs the call. Throwing, or answering `status: 'failed'`, is a failed result: stored as the effect's result
   * (never relaunched), written as `tool_result { status: 'failed' }`, fed back. A throw after the execution's
   * signal was aborted is an unknown outcome instead (`needs-reconciliation`).
   */
  readonly execute: (input: unknown, execution: ChatAgentToolExecution) => Promise<ChatAgentToolOutcome>;
}

/**
 * How a turn ended, as the agent's generator returns it: `done`'s `stopReason` and `usage`. Returning nothing
 * writes a bare `done { status: 'completed' }`.
 */
export interface ChatAgentCompletion {
  readonly stopReason?: string;
  readonly usage?: ChatUsage;
}

/** A card the agent asks, without its `correlationId` and `createdAt` (the host allocates both). */
export type ChatAgentCard = Omit<OpenCardSnapshotV1, 'correlationId' | 'createdAt'>;

/**
 * One step of a turn. `tool` calls a declared tool by name: `callId`, when given and a v1 id, is the wire's
 * `tool_call.callId` (a model's tool call id), else the host mints one; the effect id is always the host's. A
 * name the agent did not declare gets `tool_call` then `tool_result { status: 'failed', summary: 'unknown tool' }`,
 * fed back. `remote-tool` is a call that already ran elsewhere (a remote agent's own tool): logged as `tool_call`
 * and `tool_result`, never admitted, fed back. `provenance` names the engine and model; `state` is a host-state
 * snapshot the host versions itself; `navigate` asks the client to show an app-relative path or `https:` URL;
 * `fail` ends the turn with its own `error`. A step that would make an invalid frame ends the turn with a
 * non-retryable `error { code: 'invalid-agent-step' }`.
 */
export type ChatAgentStep =
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'tool'; readonly name: string; readonly input?: unknown; readonly callId?: string }
  | {
      readonly type: 'remote-tool';
      readonly name: string;
      readonly input?: unknown;
      readonly callId?: string;
      readonly outcome: ChatAgentToolOutcome;
    }
  | { readonly type: 'card'; readonly card: ChatAgentCard }
  | { readonly type: 'provenance'; readonly engine: string; readonly model: string; readonly accountRoute?: string | null }
  | { readonly type: 'state'; readonly snapshot: unknown }
  | { readonly type: 'navigate'; readonly href: string }
  | { readonly type: 'fail'; readonly code: string; readonly message: string; readonly retryable: boolean; readonly retryAfterMs?: number };

/**
 * What the host sends back into the agent's generator after a step: the call's result after a `tool` or
 * `remote-tool` step, the card's closing after a `card` step, nothing after the others.
 */
export type ChatAgentFeedback =
  | {
      readonly type: 'tool-result';
      readonly callId: string;
      /**
       * `succeeded` or `failed` from the reference host: a call cancelled or whose outcome is unknown is never fed
       * back; it ends the turn (`done` cancelled or needs-reconciliation) and the generator's `return()` runs.
       */
      readonly status: 'succeeded' | 'failed' | 'cancelled' | 'needs-reconciliation';
      readonly summary: string;
      readonly blocks?: readonly ChatResultBlock[];
    }
  | { readonly type: 'card-closed'; readonly resolution: 'submitted' | 'declined' | 'cancelled' | 'expired'; readonly value?: unknown }
  | undefined;

/**
 * The agent: its tools (optional: an agent with only `run` is valid) and `run`, which yields the turn's steps
 * and ends when the turn is complete, optionally returning a {@link ChatAgentCompletion} for `done`. After a
 * cancellation the host calls the generator's `return()`, so its `finally` blocks run; a generator that throws
 * ends the turn with `error { code: 'agent-failed', retryable: false }`.
 */
export interface ChatAgent<Caller = unknown> {
  readonly tools?: readonly ChatAgentTool<Caller>[];
  run(turn: ChatAgentTurn, context: ChatAgentContext<Caller>): AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback>;
}
