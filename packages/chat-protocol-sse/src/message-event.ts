/**
 * For `EventSource` users: every frame is a named event (its `event.type`), so
 * `onmessage` never fires; listen for each of {@link CHAT_SSE_EVENT_NAMES} and
 * parse what arrives with {@link parseChatMessageEvent}. It owns no connection
 * and no reconnect policy (the browser's `EventSource` has its own).
 */
import {
  CHAT_EVENT_TYPES_V1,
  parseChatSseMessage,
  type ChatEventEnvelope,
  type ChatEventTypeV1,
  type ParseChatSseMessageRefusalCode,
  type ParseResult,
} from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';

/** The SSE `event:` names of v1 frames, one per event type; a product's events are named by their own type. */
export const CHAT_SSE_EVENT_NAMES: readonly ChatEventTypeV1[] = CHAT_EVENT_TYPES_V1;

/** What {@link parseChatMessageEvent} reads of a `MessageEvent` (the DOM's and Node's both fit). */
export interface ChatMessageEventLike {
  readonly type: string;
  readonly data: unknown;
  readonly lastEventId: string;
}

/**
 * Refusal codes of {@link parseChatMessageEvent}: `parseChatSseMessage`'s, and
 * `not-a-message-event` for an event without `data`, such as the plain `Event`
 * named `error` that `EventSource` dispatches on a connection failure.
 */
export type ParseChatMessageEventRefusalCode = ParseChatSseMessageRefusalCode | 'not-a-message-event';

/**
 * Strictly parses a `MessageEvent` as `EventSource` delivers it: `type` is the
 * SSE `event:` name, `data` the envelope JSON and `lastEventId` the frame's
 * `id:`, checked with `parseChatSseMessage` (event name and cursor must match
 * the envelope). A frame named `error` (the v1 `error` event) is a
 * `MessageEvent` with `data`; `EventSource`'s own connection error, delivered
 * to the same `error` listener, is a plain `Event` without it and is
 * `not-a-message-event`. Never throws: an event that cannot be read is `invalid-json`.
 */
export function parseChatMessageEvent(event: ChatMessageEventLike): ParseResult<ChatEventEnvelope, ParseChatMessageEventRefusalCode> {
  let name: unknown;
  let data: unknown;
  let id: unknown;
  try {
    ({ type: name, data, lastEventId: id } = event);
  } catch {
    return refuse('invalid-json', 'the message event cannot be read');
  }
  if (data === undefined)
    return refuse('not-a-message-event', "the event carries no data: not a message (EventSource's own error or open event)");
  // parseChatSseMessage refuses data that is not text itself, as `invalid-json`.
  return parseChatSseMessage({
    data: data as string,
    event: typeof name === 'string' ? name : undefined,
    id: typeof id === 'string' ? id : undefined,
  });
}
