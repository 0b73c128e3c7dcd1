/**
 * The agent seam of the reference host (DESIGN §11.1, the seam v2 of issue 26):
 * what a model (or a script) produces for one turn, as steps the host turns
 * into v1 frames, the context it runs in, and the tools it declares. It owns
 * the shapes; it does not own ids, seqs, effect ids, authority or storage: the
 * host allocates and fences those (§6 rule 1: the host mints each call's
 * effect id and declares it to recovery under the caller's current authority).
 */
import type { ChatHistoryTurnV1, ChatResultBlock, ChatUsage, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { ChatHostCaller } from './chat-host-caller.js';

/** The turn an agent is asked to answer: ids the host allocated and the person's text. */
export interface ChatAgentTurn {
  readonly conversationId: string;
  readonly turnId: string;
  readonly text: string;
}

/** What the host hands `run` beside the turn. */
export interface ChatAgentContext {
  /** The authenticated caller that started the turn (adapters that cannot import the host type it `unknown`). */
  readonly caller: ChatHostCaller;
  /** The person's input as the turn's `user_input` frame carries it. */
  readonly userInput: { readonly text: string };
  /**
   * The conversation's earlier turns as core's history turns (a v1 turn gives its `user_input` and its answer),
   * oldest first, newest last, never the current turn; at most the host option `maxHistoryTurns` (default 50) of
   * them, the newest, and never starting with an answer whose question was left out.
   */
  readonly history: readonly ChatHistoryTurnV1[];
  /** How many earlier history turns were left out of `history` (0: it is complete); a pruned v1 turn counts as 2. */
  readonly historyOmitted: number;
  /** Aborted when the turn is cancelled, from any host process. Pass it to the model call so a cancellation reaches the provider. */
  readonly signal: AbortSignal;
}

/** What a tool's `execute` receives beside its input. */
export interface ChatAgentToolExecution {
  /** Aborted by the turn's cancellation (from any host process). */
  readonly signal: AbortSignal;
  /** The turn that made the call (the tools are declared once for every turn). */
  readonly turn: ChatAgentTurn;
  /** The call's id on the wire (`tool_call.callId`). */
  readonly callId: string;
  /**
   * The effect id the host minted for this call (`effect_<turnId>_<ordinal>`, the ordinal of the `tool` step in
   * the turn, from 1): the same on a retried run of the turn, unique across turns, so it can serve as the
   * idempotency key of the external call. A tool without an external effect gets one too, though nothing is declared.
   */
  readonly effectId: string;
}

/**
 * A tool's outcome: a short bounded summary (core's `maxSummaryLength`) and, optionally, core's grounded result
 * blocks (`text` or `data`, with `sources`). `status` defaults to `succeeded`; `failed` is a result like any other
 * (stored, written as `tool_result { status: 'failed' }`, fed back). Recovery stores the outcome as the effect's
 * result, so a retried or reconciled call reports the same.
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
export interface ChatAgentTool {
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
    readonly caller: ChatHostCaller;
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
 * How a turn ended, as the agent's generator returns it: `done`'s `stopReason`
 * and `usage` (core's `ChatUsage`). Returning nothing writes a bare
 * `done { status: 'completed' }`.
 */
export interface ChatAgentCompletion {
  readonly stopReason?: string;
  readonly usage?: ChatUsage;
}

/** A card the agent asks, without its `correlationId` and `createdAt` (the host allocates both). */
export type ChatAgentCard = Omit<OpenCardSnapshotV1, 'correlationId' | 'createdAt'>;

/**
 * One step of a turn. `tool` calls a declared tool by name: `callId`, when given and a v1 id, is the wire's
 * `tool_call.callId` (a model's tool call id), else the host mints one; the effect id is always the host's,
 * from the turn and the call's ordinal. A name the agent did not declare gets `tool_call` then
 * `tool_result { status: 'failed', summary: 'unknown tool' }`, fed back. `remote-tool` is a call that already
 * ran elsewhere (a remote agent's own tool): logged as `tool_call` and `tool_result`, never admitted here, fed
 * back. `provenance` names the engine and model; `state` is a host-state snapshot the host versions itself (1,
 * 2, … within the turn); `navigate` asks the client to show an app-relative path or `https:` URL; `fail` ends
 * the turn with its own `error`. The host checks each event it writes from a step with core's parser and
 * limits: a step that would make an invalid frame ends the turn with a non-retryable
 * `error { code: 'invalid-agent-step' }` instead.
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
       * `succeeded` or `failed` from this host: a call cancelled or whose outcome is unknown is never fed back; it
       * ends the turn (`done` cancelled or needs-reconciliation) and the generator's `return()` runs.
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
export interface ChatAgent {
  readonly tools?: readonly ChatAgentTool[];
  run(turn: ChatAgentTurn, context: ChatAgentContext): AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback>;
}
