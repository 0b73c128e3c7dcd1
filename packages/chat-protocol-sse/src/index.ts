/**
 * @papercusp/chat-protocol-sse: the resumable SSE transport (DESIGN §10). Public exports, by name.
 */

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
export type { ChatMessageEventLike } from './message-event.js';
