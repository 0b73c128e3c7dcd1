/**
 * @papercusp/chat-protocol-host: the reference host (DESIGN §11): web-standard
 * routes that start, stream, cancel and answer chat turns on the durable store
 * and the SSE transport, and a scripted agent. Every export is listed by name;
 * `index.test.ts` pins the list.
 */
export { createChatHost } from './create-chat-host.js';
export { MAX_TURN_TEXT_LENGTH } from './use-cases/start-turn.js';
export type { ChatHostCloseOptions, ChatHostHandler, ChatHostOptions, ChatHostStore } from './create-chat-host.js';
export type { ChatHostSweepOptions, ChatHostSweepResult } from './use-cases/sweep-expired-turns.js';
export type { ChatHostCaller } from './chat-host-caller.js';
export type {
  ChatHostConversationLogReader,
  ConversationLogTurnView,
  ConversationStateAnswer,
  PrunedTurn,
  RunningTurnCursor,
} from './use-cases/conversation-state.js';
export { CHAT_HOST_REFUSAL_STATUS } from './routes/host-responses.js';
export type { ChatHostRefusalCode } from './use-cases/host-refusal.js';
export type {
  ChatAgent,
  ChatAgentCard,
  ChatAgentCompletion,
  ChatAgentContext,
  ChatAgentFeedback,
  ChatAgentStep,
  ChatAgentTool,
  ChatAgentToolExecution,
  ChatAgentToolOutcome,
  ChatAgentTurn,
} from './chat-agent.js';
export type { ChatHostEvent, ChatHostStoreOperation, ChatHostTurnEndStatus } from './chat-host-event.js';
// OpenTelemetry (DESIGN §11.1): what the host calls on `@opentelemetry/api`, which it imports nothing of.
export type {
  ChatHostOpenTelemetry,
  ChatHostSpan,
  ChatHostSpanAttributes,
  ChatHostTraceContext,
  ChatHostTracer,
} from './chat-host-open-telemetry.js';
export { createNodeRequestListener } from './node/node-request-listener.js';
export { isRouteId } from './routes/route-ids.js';
export { SCRIPTED_REFUND_CALL_ID, createScriptedChatAgent } from './scripted/scripted-agent.js';
// The peers' formats and routes (DESIGN §11, §12): `?format=` on the events route, AG-UI's and the AI SDK's own routes.
export type { ChatStreamFormat } from './use-cases/peer-stream.js';
export { AG_UI_RUN_PATH } from './routes/ag-ui-route.js';
export { AI_SDK_CHAT_PATH } from './routes/ai-sdk-routes.js';
export type { ScriptedChatAgentOptions } from './scripted/scripted-agent.js';
