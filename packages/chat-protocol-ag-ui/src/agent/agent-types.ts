/**
 * The types of `createAgUiChatAgent`: the host's agent seam (issue 26, DESIGN §11.1) as this package declares it,
 * and what it needs of an AG-UI agent. The host depends on this package, so this package cannot import the host's
 * `ChatAgent`: it declares the same shapes under its own names (the caller is `unknown` here), and the host's type
 * test pins that an `AgUiChatAgent` is a `ChatAgent`. The AG-UI side is structural too: any `@ag-ui/client`
 * `AbstractAgent` (an `HttpAgent`, or a subclass) fits, and nothing here imports `@ag-ui/client`. Types only.
 */
import type { ChatHistoryTurnV1, ChatResultBlock, ChatUsage, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { AgUiResumeEntry } from '../resume-entries.js';

/** The turn the host asks the agent to answer: the ids the host allocated and the person's text (the host's `ChatAgentTurn`). */
export interface AgUiChatAgentTurn {
  readonly conversationId: string;
  readonly turnId: string;
  readonly text: string;
}

/** What the host hands `run` beside the turn (the host's `ChatAgentContext`). */
export interface AgUiChatAgentContext {
  /** The authenticated caller that started the turn (the host's `ChatHostCaller`); this adapter does not read it. */
  readonly caller: unknown;
  /** The person's input as the turn's `user_input` frame carries it. */
  readonly userInput: { readonly text: string };
  /** The conversation's earlier turns, oldest first / newest last, as the host bounds them. */
  readonly history: readonly ChatHistoryTurnV1[];
  /** How many earlier turns were left out of `history` (0: it is complete). */
  readonly historyOmitted: number;
  /** Aborted when the turn is cancelled, when the host drains, or when the run loses its lease. */
  readonly signal: AbortSignal;
}

/** A tool's outcome: a short bounded summary and optional result blocks; `status` defaults to `succeeded` (the host's `ChatAgentToolOutcome`). */
export interface AgUiChatAgentToolOutcome {
  readonly status?: 'succeeded' | 'failed';
  readonly summary: string;
  readonly blocks?: readonly ChatResultBlock[];
}

/** `done`'s stop reason and usage, as the generator returns them (the host's `ChatAgentCompletion`). */
export interface AgUiChatAgentCompletion {
  readonly stopReason?: string;
  readonly usage?: ChatUsage;
}

/** A card the agent asks, without the `correlationId` and `createdAt` the host allocates (the host's `ChatAgentCard`). */
export type AgUiChatAgentCard = Omit<OpenCardSnapshotV1, 'correlationId' | 'createdAt'>;

/**
 * One step of a turn (the host's `ChatAgentStep`). This adapter yields `delta`, `reasoning`, `state`, `provenance`,
 * `navigate`, `remote-tool`, `card` and `fail`; `tool` (a call of a tool the agent declares) is part of the seam,
 * and an AG-UI agent declares none.
 */
export type AgUiChatAgentStep =
  | { readonly type: 'delta'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'tool'; readonly name: string; readonly input?: unknown; readonly callId?: string }
  | {
      readonly type: 'remote-tool';
      readonly name: string;
      readonly input?: unknown;
      readonly callId?: string;
      readonly outcome: AgUiChatAgentToolOutcome;
    }
  | { readonly type: 'card'; readonly card: AgUiChatAgentCard }
  | { readonly type: 'provenance'; readonly engine: string; readonly model: string; readonly accountRoute?: string | null }
  | { readonly type: 'state'; readonly snapshot: unknown }
  | { readonly type: 'navigate'; readonly href: string }
  | { readonly type: 'fail'; readonly code: string; readonly message: string; readonly retryable: boolean; readonly retryAfterMs?: number };

/** What the host sends back into the generator after a step (the host's `ChatAgentFeedback`). */
export type AgUiChatAgentFeedback =
  | {
      readonly type: 'tool-result';
      readonly callId: string;
      readonly status: 'succeeded' | 'failed' | 'cancelled' | 'needs-reconciliation';
      readonly summary: string;
      readonly blocks?: readonly ChatResultBlock[];
    }
  | { readonly type: 'card-closed'; readonly resolution: 'submitted' | 'declined' | 'cancelled' | 'expired'; readonly value?: unknown }
  | undefined;

/** A remote AG-UI agent as the host's `ChatAgent`: it declares no tools, and `run` streams one turn. */
export interface AgUiChatAgent {
  run(
    turn: AgUiChatAgentTurn,
    context: AgUiChatAgentContext,
  ): AsyncGenerator<AgUiChatAgentStep, AgUiChatAgentCompletion | void, AgUiChatAgentFeedback>;
}

/** A message of a run's input: the conversation's text as AG-UI 1.0 user, assistant and system messages. */
export type AgUiMessage =
  | { readonly id: string; readonly role: 'user'; readonly content: string }
  | { readonly id: string; readonly role: 'assistant'; readonly content: string }
  | { readonly id: string; readonly role: 'system'; readonly content: string };

/** What one run is started with: a subset of `@ag-ui/client`'s `RunAgentParameters`. */
export interface AgUiRunAgentParameters {
  readonly runId: string;
  /** The answers to the interrupts the previous run of the turn finished with. */
  readonly resume?: AgUiResumeEntry[];
}

/** The subscriber the adapter hands `runAgent`: a subset of `@ag-ui/client`'s `AgentSubscriber`. */
export interface AgUiAgentSubscriber {
  onEvent(params: { readonly event: unknown }): void;
}

/**
 * The copy of the agent one turn runs on: the members of `@ag-ui/client`'s `AbstractAgent` the adapter uses. Its
 * thread, messages, state, pending interrupts and (for an `HttpAgent`) abort controller are the turn's own.
 */
export interface AgUiRunnableAgent {
  threadId: string;
  setMessages(messages: AgUiMessage[]): void;
  setState(state: Readonly<Record<string, unknown>>): void;
  /** Runs the agent through `@ag-ui/client`'s pipeline (middlewares, chunk expansion, `verifyEvents`), each event to `subscriber.onEvent`. */
  runAgent(parameters: AgUiRunAgentParameters, subscriber: AgUiAgentSubscriber): Promise<unknown>;
  /** Stops the run at its source (an `HttpAgent` aborts its request). */
  abortRun(): void;
  /** Stops delivering the run's events. */
  detachActiveRun(): Promise<void>;
}

/** What `createAgUiChatAgent` takes as its agent: anything with `AbstractAgent.clone()`, so an `HttpAgent` or any `AbstractAgent`. */
export interface AgUiAgentLike {
  clone(): AgUiRunnableAgent;
}

/** The options of `createAgUiChatAgent`. */
export interface AgUiChatAgentOptions {
  /** The remote agent: `new HttpAgent({ url })` or any `@ag-ui/client` `AbstractAgent`; each turn runs on its own `clone()`. */
  readonly agent: AgUiAgentLike;
}
