/**
 * @papercusp/chat-protocol-sse: the resumable SSE transport (DESIGN §10). Public exports, by name.
 */

// The server side: a turn's event log as a resumable event-stream Response, and its writer for Node http.
export {
  CHAT_SSE_CURSOR_QUERY_PARAMETER,
  DEFAULT_CHAT_SSE_HEARTBEAT_MS,
  DEFAULT_CHAT_SSE_MAX_UNREAD_BYTES,
  DEFAULT_CHAT_SSE_RETRY_MS,
  createChatSseResponse,
} from './create-chat-sse-response.js';
export type {
  ChatSseCursorRefusalBody,
  ChatSseFraming,
  ChatSseRefusalBody,
  ChatSseRefusalCode,
  CreateChatSseResponseOptions,
} from './create-chat-sse-response.js';
export { writeChatSseResponse } from './write-chat-sse-response.js';
// Client side (readChatStream, followChatTurn, EventSource helpers).
export { readChatStream } from './read-chat-stream.js';
export type {
  ChatStreamConnectedItem,
  ChatStreamEndReason,
  ChatStreamEndedItem,
  ChatStreamEnvelopeItem,
  ChatStreamFailure,
  ChatStreamFailureCode,
  ChatStreamFetch,
  ChatStreamFrameRefusalCode,
  ChatStreamInvalidFrameItem,
  ChatStreamItem,
  ChatStreamReconnectingItem,
  ChatStreamRefusedItem,
  ChatStreamRetryOptions,
  ReadChatStreamOptions,
} from './read-chat-stream.js';
export { followChatTurn } from './follow-chat-turn.js';
export type {
  ChatTurnEndedItem,
  ChatTurnRejectedItem,
  ChatTurnStateItem,
  FollowChatTurnItem,
  FollowChatTurnOptions,
} from './follow-chat-turn.js';
export { CHAT_SSE_EVENT_NAMES, parseChatMessageEvent } from './message-event.js';
export type { ChatMessageEventLike, ParseChatMessageEventRefusalCode } from './message-event.js';
