/**
 * Building the wire form of a v1 envelope from a host's record. Only the fields
 * the contract allows for the event type are copied (CHAT_EVENT_FIELDS), then the
 * copy is validated and serialized, so a field the host forgot to strip never leaks.
 */
import type { ChatEventEnvelope } from './envelope.js';
import { CHAT_EVENT_FIELDS, isChatEventTypeV1 } from '../events/event-fields.js';
import { parseChatEnvelope, type ParseChatEnvelopeRefusalCode } from './parse-chat-envelope.js';
import { isPlainObject } from '../primitives/primitives.js';
import { refuse, type ChatRefusal, type ParseResult } from '../primitives/result.js';

const ENVELOPE_FIELDS = ['conversationId', 'turnId', 'eventId', 'seq', 'occurredAt'] as const;

/** What {@link encodeChatEnvelope} reads: an envelope whose `schemaVersion` may be left out, plus anything else. */
export interface ChatEnvelopeRecord {
  readonly schemaVersion?: unknown;
  readonly conversationId?: unknown;
  readonly turnId?: unknown;
  readonly eventId?: unknown;
  readonly seq?: unknown;
  readonly occurredAt?: unknown;
  readonly event?: unknown;
  readonly [extra: string]: unknown;
}

/** Refusal codes of {@link encodeChatEnvelope}: the parser's, since the copy is re-parsed. */
export type EncodeChatEnvelopeRefusalCode = ParseChatEnvelopeRefusalCode;

/** Result of {@link encodeChatEnvelope}: the JSON text and the envelope it denotes. */
export type EncodeChatEnvelopeResult =
  { readonly ok: true; readonly json: string; readonly envelope: ChatEventEnvelope } | ChatRefusal<EncodeChatEnvelopeRefusalCode>;

/**
 * Copies the allowed fields of `record` into a v1 envelope, validates it with
 * the strict parser and serializes it in a fixed field order. Extra top-level
 * fields of the envelope and of the event are dropped; nested values (card,
 * blocks, JSON payloads) are kept as given and must be valid. A `schemaVersion`
 * other than 1 is `unsupported-version`. Never throws.
 */
export function encodeChatEnvelope(record: ChatEnvelopeRecord): EncodeChatEnvelopeResult {
  return encodeEnvelopeWith(
    record,
    (type) => (isChatEventTypeV1(type) ? CHAT_EVENT_FIELDS[type] : undefined),
    parseChatEnvelope,
  ) as EncodeChatEnvelopeResult;
}

/**
 * {@link encodeChatEnvelope} with a reader's allowlist (`fieldsOf`: the fields
 * of a type, undefined for one it does not know) and its parser (a codec's,
 * see `createChatCodec`). The caller types the result.
 */
export function encodeEnvelopeWith(
  record: ChatEnvelopeRecord,
  fieldsOf: (type: unknown) => readonly string[] | undefined,
  parse: (json: string) => ParseResult<unknown, ParseChatEnvelopeRefusalCode>,
): { readonly ok: true; readonly json: string; readonly envelope: unknown } | ChatRefusal<EncodeChatEnvelopeRefusalCode> {
  try {
    // Inside the guard: a Proxy's getPrototypeOf trap may throw.
    if (!isPlainObject(record)) return refuse('invalid-envelope', 'expected an envelope object');
    if (record.schemaVersion !== undefined && record.schemaVersion !== 1) {
      return refuse('unsupported-version', 'schemaVersion must be 1');
    }
    const envelope: Record<string, unknown> = { schemaVersion: 1 };
    for (const field of ENVELOPE_FIELDS) envelope[field] = record[field];
    const event = record.event;
    if (!isPlainObject(event)) return refuse('invalid-event', 'event: expected an event object');
    const fields = fieldsOf(event['type']);
    if (fields === undefined) return refuse('unknown-event', 'event.type: unknown event type');
    const copy: Record<string, unknown> = {};
    for (const field of fields) {
      if (event[field] !== undefined) copy[field] = event[field];
    }
    envelope['event'] = copy;
    const json = JSON.stringify(envelope);
    const parsed = parse(json);
    return parsed.ok ? { ok: true, json, envelope: parsed.value } : parsed;
  } catch {
    return refuse('invalid-envelope', 'the record cannot be read or serialized');
  }
}
