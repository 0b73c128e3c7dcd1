/**
 * Reading one received legacy frame (`{ event?, data, id? }`, as an SSE parser
 * hands it over) into its dialect's typed event. Tolerant where the legacy
 * reader always was, refusing where input is hostile or unusable. It owns no
 * v1 mapping: upgrading is the next step.
 */
import {
  CHAT_LIMITS,
  isCleanText,
  isSafeJson,
  type ChatRefusal,
  type ChatSseMessage,
  type ParseResult,
} from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import {
  readDialectOption,
  type CompiledDialect,
  type CompiledType,
  type LegacyDialect,
  type LegacyDialectDefinition,
  type LegacyEventOf,
} from './define-legacy-dialect.js';
import { INVALID, isObjectRecord, ownField, readField, replaceUncleanText } from './field-kind-conversions.js';

/** Refusal codes of {@link decodeLegacyChatFrame}. */
export type DecodeLegacyChatFrameRefusalCode =
  'invalid-options' | 'invalid-frame' | 'too-large' | 'invalid-json' | 'unsafe-json' | 'unsupported-event' | 'invalid-event';

/** Result of {@link decodeLegacyChatFrame}: the dialect's typed event or a refusal. */
export type DecodeLegacyChatFrameResult<Definition extends LegacyDialectDefinition = LegacyDialectDefinition> = ParseResult<
  LegacyEventOf<Definition>,
  DecodeLegacyChatFrameRefusalCode
>;

/** A decoded frame with the compiled rules of its type. */
export interface DecodedFrame {
  readonly type: CompiledType;
  readonly event: Readonly<Record<string, unknown>>;
}

/**
 * Reads one legacy frame into the dialect's typed event. Never throws, on any
 * `frame` and any `options`.
 *
 * - `invalid-options`: `options` cannot be read (null, a throwing getter, a
 *   Proxy) or its `dialect` was not made by `defineLegacyDialect`.
 * - `invalid-frame`: not an object with a string `data` (and string `event`/`id` when present).
 * - `too-large`: `data` longer than `CHAT_LIMITS.maxEnvelopeLength`.
 * - `invalid-json`: `data` is not JSON, unless the type the SSE event name
 *   names reads plain text (`plainText`: papercup's `error`, the text is its
 *   message). `unsafe-json`: JSON past the v1 bounds
 *   (`__proto__`/`constructor`/`prototype` keys, nesting past `maxJsonDepth`,
 *   control characters, numbers that overflow); a type with
 *   `uncleanText: 'replace'` (both built-in errors) reads control characters
 *   and lone surrogates in strings (and plain text) as U+FFFD instead.
 * - `unsupported-event`: a type the dialect does not have — a product event
 *   (`products`, `cart_mutate`, …), a retired name, an SSE `message` without one.
 * - `invalid-event`: a known type without a required field, a data `type` that
 *   contradicts the SSE event name, or (when the data names the type) data
 *   that is not an object or an SSE event name other than absent, `message`,
 *   the type, or a name the dialect's `eventNames` list.
 *
 * A heartbeat named by the SSE event name is recognised without reading its
 * data (`{"tsMs":…}`, `{}` or nothing), in every dialect. In a dialect whose
 * data names the type, an SSE event name in `typeFrom.eventNames` names the
 * type on its own; the data may repeat it, never contradict it.
 * The result is a fresh object holding only the dialect's fields.
 */
export function decodeLegacyChatFrame<Definition extends LegacyDialectDefinition>(
  frame: unknown,
  options: { readonly dialect: LegacyDialect<Definition> },
): DecodeLegacyChatFrameResult<Definition> {
  const dialect = readDialectOption(options);
  if (dialect === undefined) return invalidOptions();
  const decoded = decodeFrame(dialect.compiled, frame);
  return decoded.ok ? { ok: true, value: decoded.value.event as LegacyEventOf<Definition> } : decoded;
}

/** The refusal of options that cannot be read or hold no dialect made by `defineLegacyDialect`. */
export function invalidOptions(): ChatRefusal<'invalid-options'> {
  return refuse('invalid-options', 'options: expected { dialect } with a dialect made by defineLegacyDialect');
}

/** {@link decodeLegacyChatFrame} on a compiled dialect, keeping the type's rules for the next step. */
export function decodeFrame(dialect: CompiledDialect, frame: unknown): ParseResult<DecodedFrame, DecodeLegacyChatFrameRefusalCode> {
  const message = readFrame(frame);
  if (!message.ok) return message;
  const heartbeat = heartbeatByName(dialect, message.value);
  if (heartbeat !== undefined) return { ok: true, value: heartbeat };
  const data = parseData(message.value.data);
  return data.ok ? decodeData(dialect, message.value, data.value) : readPlainText(dialect, message.value, data);
}

/** The frame's `event`, `data` and `id`, read once (a getter or Proxy cannot answer twice). */
export function readFrame(frame: unknown): ParseResult<ChatSseMessage, 'invalid-frame'> {
  if (typeof frame !== 'object' || frame === null) return refuse('invalid-frame', 'expected a frame { event?, data, id? }');
  let event: unknown;
  let data: unknown;
  let id: unknown;
  try {
    ({ event, data, id } = frame as Record<string, unknown>);
  } catch {
    return refuse('invalid-frame', 'the frame cannot be read');
  }
  if (typeof data !== 'string') return refuse('invalid-frame', 'data: expected the SSE data text');
  if (event !== undefined && typeof event !== 'string') return refuse('invalid-frame', 'event: expected a string when present');
  if (id !== undefined && typeof id !== 'string') return refuse('invalid-frame', 'id: expected a string when present');
  return { ok: true, value: { event, data, id } };
}

/**
 * A heartbeat the SSE event name alone identifies (also in a dialect whose
 * data names the type): its data, often empty or `{"tsMs":…}`, is never read.
 */
export function heartbeatByName(dialect: CompiledDialect, message: ChatSseMessage): DecodedFrame | undefined {
  const type = typeByName(dialect, message);
  return type?.transport === 'heartbeat' ? { type, event: { type: type.legacy } } : undefined;
}

/** The type the SSE event name names: always in a dialect that reads it there, else only a heartbeat or one of `eventNames`. */
function typeByName(dialect: CompiledDialect, message: ChatSseMessage): CompiledType | undefined {
  if (dialect.typeField === undefined) return dialect.byLegacyType.get(message.event ?? 'message');
  return message.event === undefined ? undefined : dialect.byEventName.get(message.event);
}

/** The JSON value of SSE data text; `unclean` when it is within the v1 bounds only with its strings' unclean characters replaced. */
export interface FrameData {
  readonly value: unknown;
  readonly unclean: boolean;
}

/**
 * The JSON value of SSE data text, within the v1 bounds, or with U+FFFD for
 * each character v1 text refuses in its strings (`unclean`), for the types
 * that read it so: which type the frame is, {@link decodeData} decides.
 */
export function parseData(data: string): ParseResult<FrameData, 'too-large' | 'invalid-json' | 'unsafe-json'> {
  if (data.length > CHAT_LIMITS.maxEnvelopeLength)
    return refuse('too-large', `data longer than ${CHAT_LIMITS.maxEnvelopeLength} characters`);
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return refuse('invalid-json', 'data: not valid JSON');
  }
  if (isSafeJson(value)) return { ok: true, value: { value, unclean: false } };
  let replaced: unknown;
  try {
    // Only unsafe data pays for the second parse; keys stay as written, so an unclean key still refuses.
    replaced = JSON.parse(data, (_key, item: unknown) => (typeof item === 'string' ? replaceUncleanText(item) : item));
  } catch {
    return unsafeJson();
  }
  return isSafeJson(replaced) ? { ok: true, value: { value: replaced, unclean: true } } : unsafeJson();
}

function unsafeJson(): ChatRefusal<'unsafe-json'> {
  return refuse('unsafe-json', 'data: JSON past the v1 bounds (forbidden keys, depth, control characters or overflowing numbers)');
}

/**
 * A frame whose data is not JSON, read whole into the `plainText` field of the
 * type its SSE event name names, by the same rule as JSON text: characters v1
 * text refuses are U+FFFD with `uncleanText: 'replace'`, else `unsafe-json`.
 * Any other refusal, or a type without `plainText`, stays the refusal it was.
 */
export function readPlainText<Code extends string>(
  dialect: CompiledDialect,
  message: ChatSseMessage,
  refusal: ChatRefusal<Code>,
): ParseResult<DecodedFrame, Code | 'invalid-event' | 'unsafe-json'> {
  const type = refusal.code === 'invalid-json' ? typeByName(dialect, message) : undefined;
  if (type?.plainText === undefined) return refusal;
  if (!type.replacesUncleanText && !isCleanText(message.data)) return unsafeJson();
  return readFields(type, { [type.plainText.legacy]: replaceUncleanText(message.data) });
}

/** Finds the type of a parsed frame and reads its fields. */
export function decodeData(
  dialect: CompiledDialect,
  message: ChatSseMessage,
  data: FrameData,
): ParseResult<DecodedFrame, 'unsupported-event' | 'invalid-event' | 'unsafe-json'> {
  const decoded = decodeValue(dialect, message, data.value);
  // Only a type that says so reads unclean text; any other frame with it is unsafe-json, whatever else is wrong.
  return data.unclean && !(decoded.ok && decoded.value.type.replacesUncleanText) ? unsafeJson() : decoded;
}

function decodeValue(
  dialect: CompiledDialect,
  message: ChatSseMessage,
  value: unknown,
): ParseResult<DecodedFrame, 'unsupported-event' | 'invalid-event'> {
  const record = isObjectRecord(value) ? value : undefined;
  let typeName: string;
  if (dialect.typeField === undefined) {
    typeName = message.event ?? 'message';
  } else {
    const declared = record === undefined ? undefined : ownField(record, dialect.typeField);
    const named = typeByName(dialect, message);
    if (named !== undefined && declared === undefined) {
      // A frame the SSE server writes around the dialect: its name is its type.
      typeName = named.legacy;
    } else {
      if (typeof declared !== 'string') return refuse('invalid-event', `data.${dialect.typeField}: expected the event type`);
      if (message.event !== undefined && message.event !== 'message' && message.event !== declared) {
        return refuse('invalid-event', `event: SSE event ${JSON.stringify(message.event)} contradicts type ${JSON.stringify(declared)}`);
      }
      typeName = declared;
    }
  }
  const type = dialect.byLegacyType.get(typeName);
  if (type === undefined) return refuse('unsupported-event', `${JSON.stringify(typeName)} is not an event of this dialect`);
  const fields = record ?? {};
  if (dialect.typeField === undefined) {
    // The legacy rule: data may repeat its type, never contradict it.
    const declared = ownField(fields, 'type');
    if (typeof declared === 'string' && declared !== typeName) {
      return refuse('invalid-event', `data.type: ${JSON.stringify(declared)} contradicts SSE event ${JSON.stringify(typeName)}`);
    }
  }
  return readFields(type, fields);
}

/** Reads a type's fields from its data record. */
function readFields(type: CompiledType, fields: Record<string, unknown>): ParseResult<DecodedFrame, 'invalid-event'> {
  const event: Record<string, unknown> = { type: type.legacy };
  for (const field of type.fields) {
    const read = readField(field.kind, ownField(fields, field.legacy));
    if (read === INVALID) return invalidField(field.legacy, field.kind);
    if (read !== undefined) event[field.legacy] = read;
  }
  return { ok: true, value: { type, event } };
}

function invalidField(name: string, kind: string): ChatRefusal<'invalid-event'> {
  const message = `expected ${kind === 'card' ? 'a card with string correlationId and prompt' : kind === 'name' ? 'a non-empty string' : 'a string'}`;
  return refuse('invalid-event', `data.${name}: ${message}`, [{ path: ['data', name], message }]);
}
