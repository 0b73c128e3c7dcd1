/**
 * SSE framing of v1 envelopes: one message per envelope whose `id:` is the
 * replay cursor `<turnId>:<seq>` and whose `event:` is the event type.
 * Heartbeats are SSE comments, never envelopes. It owns no connection.
 */
import type { ChatEventEnvelope } from '../envelope/envelope.js';
import { encodeChatEnvelope, type ChatEnvelopeRecord } from '../envelope/encode-chat-envelope.js';
import { describeIssue, parseChatEnvelope, type ParseChatEnvelopeRefusalCode } from '../envelope/parse-chat-envelope.js';
import { isChatId, isCount } from '../primitives/primitives.js';
import { refuse, type ChatRefusal, type ParseResult } from '../primitives/result.js';

/** A position in a turn's log: replay resumes after `seq` (0 = from the start). */
export interface ChatCursor {
  readonly turnId: string;
  readonly seq: number;
}

/** The SSE comment a host writes to keep a connection open; clients ignore it and nothing persists it. */
export const CHAT_SSE_HEARTBEAT = ':\n\n';

const SEQ_TEXT = /^(?:0|[1-9]\d{0,15})$/;

/**
 * Formats a cursor as `<turnId>:<seq>`, the SSE `id:` and `Last-Event-ID`.
 * Throws `TypeError` when `turnId` is not an id or `seq` is not a non-negative safe integer.
 */
export function formatChatCursor(cursor: ChatCursor): string {
  let turnId: unknown;
  let seq: unknown;
  try {
    ({ turnId, seq } = cursor);
  } catch {
    // null, a throwing getter or a Proxy: the cursor cannot be read.
  }
  if (!isChatId(turnId) || !isCount(seq)) {
    throw new TypeError('formatChatCursor: expected { turnId: id, seq: non-negative safe integer }');
  }
  return `${turnId}:${seq}`;
}

/**
 * Reads a `Last-Event-ID`: split at the last `:` (turn ids may contain colons),
 * a valid turn id and a canonical non-negative safe integer. `null` when malformed.
 */
export function parseChatCursor(lastEventId: unknown): ChatCursor | null {
  if (typeof lastEventId !== 'string') return null;
  const colon = lastEventId.lastIndexOf(':');
  if (colon < 0) return null;
  const turnId = lastEventId.slice(0, colon);
  const seqText = lastEventId.slice(colon + 1);
  if (!isChatId(turnId) || !SEQ_TEXT.test(seqText)) return null;
  const seq = Number(seqText);
  return Number.isSafeInteger(seq) ? { turnId, seq } : null;
}

/**
 * Writes one SSE message: `id: <turnId>:<seq>`, `event: <type>`, `data: <json>`.
 * The envelope goes through `encodeChatEnvelope`, so the data line is the
 * canonical JSON (one line: JSON text never contains a raw newline).
 * Throws `TypeError` naming the problem when the envelope is invalid.
 */
export function encodeChatSseFrame(envelope: ChatEventEnvelope): string {
  return encodeSseFrameWith(envelope, encodeChatEnvelope);
}

/** {@link encodeChatSseFrame} through a reader's encoder (a codec's, see `createChatCodec`). */
export function encodeSseFrameWith(
  envelope: unknown,
  encode: (record: ChatEnvelopeRecord) => { readonly ok: true; readonly json: string; readonly envelope: unknown } | ChatRefusal<string>,
): string {
  const encoded = encode(envelope as ChatEnvelopeRecord);
  if (!encoded.ok) throw new TypeError(`encodeChatSseFrame: ${encoded.code}: ${encoded.message}`);
  const { turnId, seq, event } = encoded.envelope as ChatEventEnvelope;
  return `id: ${turnId}:${seq}\nevent: ${event.type}\ndata: ${encoded.json}\n\n`;
}

/** One decoded SSE message, as an SSE parser hands it over. */
export interface ChatSseMessage {
  readonly event?: string | undefined;
  readonly data: string;
  readonly id?: string | undefined;
}

/** Refusal codes of {@link parseChatSseMessage}. */
export type ParseChatSseMessageRefusalCode = ParseChatEnvelopeRefusalCode | 'event-mismatch' | 'id-mismatch';

/**
 * Validates one decoded SSE message: `data` parses as a v1 envelope, `event`
 * equals the event type and `id` equals the envelope's cursor. Never throws.
 */
export function parseChatSseMessage(message: ChatSseMessage): ParseResult<ChatEventEnvelope, ParseChatSseMessageRefusalCode> {
  return parseSseMessageWith(message, parseChatEnvelope) as ParseResult<ChatEventEnvelope, ParseChatSseMessageRefusalCode>;
}

/** {@link parseChatSseMessage} through a reader's parser (a codec's, see `createChatCodec`). The caller types the result. */
export function parseSseMessageWith(
  message: ChatSseMessage,
  parse: (input: unknown) => ParseResult<unknown, ParseChatEnvelopeRefusalCode>,
): ParseResult<unknown, ParseChatSseMessageRefusalCode> {
  let data: unknown;
  let eventName: unknown;
  let id: unknown;
  try {
    ({ data, event: eventName, id } = message);
  } catch {
    return refuse('invalid-json', 'the message cannot be read');
  }
  if (typeof data !== 'string') return refuse('invalid-json', 'data: expected the SSE data text');
  const parsed = parse(data);
  if (!parsed.ok) return parsed;
  const { turnId, seq, event } = parsed.value as ChatEventEnvelope;
  if (eventName !== event.type) {
    return refuse('event-mismatch', describeIssue(['event'], `SSE event is ${describeValue(eventName)}, envelope says ${event.type}`));
  }
  const cursor = `${turnId}:${seq}`;
  if (id !== cursor) {
    return refuse('id-mismatch', describeIssue(['id'], `SSE id is ${describeValue(id)}, envelope cursor is ${cursor}`));
  }
  return parsed;
}

// A received value in a message: strings as they are (cut short), anything else by its type.
function describeValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value) : typeof value;
}
