/**
 * The types of `createAgUiChatAgent`: the agent it returns, and what it needs of an AG-UI agent. The seam the agent
 * fits is core's (`ChatAgent` and its parts, DESIGN §11.1, declared once so the host and the adapters share it
 * without depending on each other): import those from `@papercusp/chat-protocol-core`. The AG-UI side is
 * structural: any `@ag-ui/client` `AbstractAgent` (an `HttpAgent`, or a subclass) fits, and nothing here imports
 * `@ag-ui/client`. Types only.
 */
import type { ChatAgent } from '@papercusp/chat-protocol-core';
import type { AgUiResumeEntry } from '../resume-entries.js';

/**
 * A remote AG-UI agent as core's `ChatAgent` (caller `unknown`): it declares no tools, and `run` streams one turn,
 * yielding `delta`, `reasoning`, `state`, `provenance`, `navigate`, `remote-tool`, `card` and `fail` steps.
 */
export type AgUiChatAgent = Pick<ChatAgent, 'run'>;

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
