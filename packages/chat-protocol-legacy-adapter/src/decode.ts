/**
 * Reading one received legacy frame (`{ event?, data, id? }`, as an SSE parser
 * hands it over) into its dialect's typed event. Tolerant where the legacy
 * reader always was, refusing where input is hostile or unusable. It owns no
 * v1 mapping: upgrading is the next step.
 */
import {
  CHAT_LIMITS,
  isSafeJson,
  refuse,
  type ChatRefusal,
  type ChatSseMessage,
  type ParseResult,
} from '@papercusp/chat-protocol-core';
import { readDialectOption, type CompiledDialect, type CompiledType, type LegacyDialect, type LegacyDialectDefinition, type LegacyEventOf } from './dialect.js';
import { INVALID, ownField, readField } from './fields.js';

/** Refusal codes of {@link decodeLegacyChatFrame}. */
export type DecodeLegacyChatFrameRefusalCode =
  | 'invalid-options'
  | 'invalid-frame'
  | 'too-large'
  | 'invalid-json'
  | 'unsafe-json'
  | 'unsupported-event'
  | 'invalid-event';

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
 * - `invalid-json`: `data` is not JSON. `unsafe-json`: JSON past the v1 bounds
 *   (`__proto__`/`constructor`/`prototype` keys, nesting past `maxJsonDepth`,
 *   control characters, numbers that overflow).
 * - `unsupported-event`: a type the dialect does not have — a product event
 *   (`products`, `cart_mutate`, …), a retired name, an SSE `message` without one.
 * - `invalid-event`: a known type without a required field, a data `type` that
 *   contradicts the SSE event name, or (when the data names the type) data
 *   that is not an object or an SSE event name other than absent, `message` or the type.
 *
 * A heartbeat named by the SSE event name is recognised without reading its data.
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
  return data.ok ? decodeData(dialect, message.value, data.value) : data;
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
 * data names the type, where the event name may repeat it): its data, often
 * empty, is never read.
 */
export function heartbeatByName(dialect: CompiledDialect, message: ChatSseMessage): DecodedFrame | undefined {
  const name = dialect.typeField === undefined ? (message.event ?? 'message') : message.event;
  const type = name === undefined ? undefined : dialect.byLegacyType.get(name);
  return type?.transport === 'heartbeat' ? { type, event: { type: type.legacy } } : undefined;
}

/** The JSON value of SSE data text, within the v1 bounds. */
export function parseData(data: string): ParseResult<unknown, 'too-large' | 'invalid-json' | 'unsafe-json'> {
  if (data.length > CHAT_LIMITS.maxEnvelopeLength) return refuse('too-large', `data longer than ${CHAT_LIMITS.maxEnvelopeLength} characters`);
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return refuse('invalid-json', 'data: not valid JSON');
  }
  return isSafeJson(value)
    ? { ok: true, value }
    : refuse('unsafe-json', 'data: JSON past the v1 bounds (forbidden keys, depth, control characters or overflowing numbers)');
}

/** Finds the type of a parsed frame and reads its fields. */
export function decodeData(
  dialect: CompiledDialect,
  message: ChatSseMessage,
  value: unknown,
): ParseResult<DecodedFrame, 'unsupported-event' | 'invalid-event'> {
  const record = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  let typeName: string;
  if (dialect.typeField === undefined) {
    typeName = message.event ?? 'message';
  } else {
    const declared = record === undefined ? undefined : ownField(record, dialect.typeField);
    if (typeof declared !== 'string') return refuse('invalid-event', `data.${dialect.typeField}: expected the event type`);
    if (message.event !== undefined && message.event !== 'message' && message.event !== declared) {
      return refuse('invalid-event', `event: SSE event ${JSON.stringify(message.event)} contradicts type ${JSON.stringify(declared)}`);
    }
    typeName = declared;
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
  const event: Record<string, unknown> = { type: typeName };
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
