/**
 * The agent seam of the reference host: what a model (or a script) produces for
 * one turn, as steps the host turns into v1 frames. It owns the step shapes and
 * the feedback the host sends back (a tool's result, a card's answer); it does
 * not own ids, seqs, authority or storage: the host allocates and fences those.
 */
import type { ChatResultBlock, ChatUsage, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';

/** The turn an agent is asked to answer: ids the host allocated and the person's text. */
export interface ChatAgentTurn {
  readonly conversationId: string;
  readonly turnId: string;
  readonly text: string;
}

/** What a tool with an external effect receives: the abort signal cancellation reaches. */
export interface ChatAgentToolExecution {
  readonly signal: AbortSignal;
}

/**
 * A tool's outcome as the host reports it in `tool_result`: a short bounded
 * summary and, optionally, core's grounded result blocks (`text` or `data`,
 * with `sources`). Recovery stores it as the effect's result, so a retried or
 * reconciled call reports the same blocks.
 */
export interface ChatAgentToolOutcome {
  readonly summary: string;
  readonly blocks?: readonly ChatResultBlock[];
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
 * One step of a turn. `tool` is a call with an external effect: the host runs
 * `execute` through `TurnRecovery` (claimed, admitted, completed), so it runs at
 * most once whatever retries, and a cancellation reaches it through the signal.
 * `provenance` names the engine and model; `state` is a host-state snapshot the
 * host versions itself (1, 2, … within the turn, so versions always increase);
 * `navigate` asks the client to show an app-relative path or `https:` URL.
 * The host checks each event it writes from a step with core's parser and
 * limits: a step that would make an invalid frame ends the turn with a
 * non-retryable `error { code: 'invalid-agent-step' }` instead.
 */
export type ChatAgentStep =
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | {
      readonly type: 'tool';
      readonly callId: string;
      readonly name: string;
      readonly input?: unknown;
      readonly execute: (execution: ChatAgentToolExecution) => Promise<ChatAgentToolOutcome>;
    }
  | { readonly type: 'card'; readonly card: ChatAgentCard }
  | { readonly type: 'provenance'; readonly engine: string; readonly model: string; readonly accountRoute?: string | null }
  | { readonly type: 'state'; readonly snapshot: unknown }
  | { readonly type: 'navigate'; readonly href: string }
  | { readonly type: 'fail'; readonly code: string; readonly message: string; readonly retryable: boolean; readonly retryAfterMs?: number };

/**
 * What the host sends back into the agent's generator after a step: the tool's
 * outcome after a `tool` step, the card's closing after a `card` step, nothing
 * after the others.
 */
export type ChatAgentFeedback =
  | {
      readonly type: 'tool-result';
      readonly status: 'succeeded' | 'failed';
      readonly summary: string;
      readonly blocks?: readonly ChatResultBlock[];
    }
  | { readonly type: 'card-closed'; readonly resolution: 'submitted' | 'declined' | 'cancelled' | 'expired'; readonly value?: unknown }
  | undefined;

/**
 * The agent interface. `effects` names, before the turn starts, the call ids of
 * the tools with external effects it may run (recovery authorizes exactly
 * those); `run` yields the turn's steps and ends when the turn is complete,
 * optionally returning a {@link ChatAgentCompletion} for `done`.
 * A step whose tool call id `effects` did not name is refused by the host and
 * fails the turn.
 */
export interface ChatAgent {
  effects(turn: ChatAgentTurn): readonly string[];
  run(turn: ChatAgentTurn): AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback>;
}
