/**
 * The agent seam of the reference host (DESIGN §11.1): core's `ChatAgent`
 * types bound to the host's caller, `ChatHostCaller`. Core declares the shapes
 * once, so the agent adapters (the AI SDK's, AG-UI's) make agents this host runs
 * without depending on it; the host allocates and fences ids, seqs and effect
 * ids (§6 rule 1: it mints each call's effect id and declares it to recovery
 * under the caller's current authority). History is bounded by the host option
 * `maxHistoryTurns` (default 50).
 */
import type {
  ChatAgent as CoreChatAgent,
  ChatAgentContext as CoreChatAgentContext,
  ChatAgentTool as CoreChatAgentTool,
} from '@papercusp/chat-protocol-core';
import type { ChatHostCaller } from './chat-host-caller.js';

export type {
  ChatAgentCard,
  ChatAgentCompletion,
  ChatAgentFeedback,
  ChatAgentStep,
  ChatAgentToolExecution,
  ChatAgentToolOutcome,
  ChatAgentTurn,
} from '@papercusp/chat-protocol-core';

/** What the host hands `run` beside the turn: core's `ChatAgentContext` with the host's caller. */
export type ChatAgentContext = CoreChatAgentContext<ChatHostCaller>;

/** A tool the agent declares: core's `ChatAgentTool`, authorized against the host's caller. */
export type ChatAgentTool = CoreChatAgentTool<ChatHostCaller>;

/** The agent the host runs: core's `ChatAgent` with the host's caller (an adapter's `ChatAgent<unknown>` fits). */
export type ChatAgent = CoreChatAgent<ChatHostCaller>;
