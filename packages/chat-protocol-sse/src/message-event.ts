/**
 * For `EventSource` users: every frame is a named event (its `event.type`), so
 * `onmessage` never fires; listen for each of {@link CHAT_SSE_EVENT_NAMES} and
 * parse what arrives with {@link parseChatMessageEvent}. It owns no connection
 * and no reconnect policy (the browser's `EventSource` has its own).
 */
import {
  CHAT_EVENT_TYPES_V1,
  parseChatSseMessage,
  refuse,
  type ChatEventEnvelope,
  type ChatEventTypeV1,
  type ParseChatSseMessageRefusalCode,
  type ParseResult,
} from '@papercusp/chat-protocol-core';

/** The SSE `event:` names of v1 frames, one per event type; a product's events are named by their own type. */
export const CHAT_SSE_EVENT_NAMES: readonly ChatEventTypeV1[] = CHAT_EVENT_TYPES_V1;

/** What {@link parseChatMessageEvent} reads of a `MessageEvent` (the DOM's and Node's both fit). */
export interface ChatMessageEventLike {
  readonly type: string;
  readonly data: unknown;
  readonly lastEventId: string;
}

/**
 * Strictly parses a `MessageEvent` as `EventSource` delivers it: `type` is the
 * SSE `event:` name, `data` the envelope JSON and `lastEventId` the frame's
 * `id:`, checked with `parseChatSseMessage` (event name and cursor must match
 * the envelope). Never throws: an event that cannot be read is `invalid-json`.
 */
export function parseChatMessageEvent(event: ChatMessageEventLike): ParseResult<ChatEventEnvelope, ParseChatSseMessageRefusalCode> {
  let name: unknown;
  let data: unknown;
  let id: unknown;
  try {
    ({ type: name, data, lastEventId: id } = event);
  } catch {
    return refuse('invalid-json', 'the message event cannot be read');
  }
  // parseChatSseMessage refuses data that is not text itself, as `invalid-json`.
  return parseChatSseMessage({
    data: data as string,
    event: typeof name === 'string' ? name : undefined,
    id: typeof id === 'string' ? id : undefined,
  });
}
