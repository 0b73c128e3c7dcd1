/**
 * Projecting a v1 envelope down to a legacy frame for readers not yet
 * migrated. Nothing is dropped silently: an event, or a value in it, that the
 * dialect cannot carry is `unsupported-event`, and the host picks a deliberate
 * fallback. It owns no transport; the result is the frame and its SSE text.
 */
import {
  isProductEventName,
  parseChatEnvelope,
  type ChatRefusal,
  type ChatSseMessage,
  type ParseChatEnvelopeRefusalCode,
} from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { readDialectOption, type CompiledDialect, type LegacyDialect } from './define-legacy-dialect.js';
import { projectProductEvent, readProductEvents, type CompiledProductEvents, type LegacyProductEvents } from './product-frames.js';
import { encodeField, isNoLegacyForm } from './field-kind-conversions.js';

/** A legacy frame as it goes on the wire. `id` is the v1 cursor (or, with `ids: 'seq'`, the turn's seq), so a reconnecting reader resumes. */
export interface LegacyChatFrame extends ChatSseMessage {
  readonly id: string;
}

/**
 * What a projected frame's SSE `id:` holds. `cursor` (the default) is the v1
 * cursor `<turnId>:<seq>`, which `parseChatCursor` reads back. `seq` is the
 * envelope's seq alone: numeric and increasing within a turn, for Papercusp's
 * un-migrated SSE clients, which keep `Math.max(last, Number(id))` (a cursor
 * reads as `NaN` there, so they never resume) and send that number back as
 * `Last-Event-ID`; the host reads it with `parseLegacyLastEventId` and knows
 * the turn from its own route (Papercusp's turn-id response header).
 */
export type LegacyFrameIds = 'cursor' | 'seq';

/** Options of {@link encodeLegacyChatFrame}; `Events` are the host's product events, when it registered some. */
export interface EncodeLegacyChatFrameOptions<Events = Record<never, never>> {
  readonly dialect: LegacyDialect;
  /** What the SSE `id:` holds: see {@link LegacyFrameIds}. Absent is `cursor`. */
  readonly ids?: LegacyFrameIds | undefined;
  /** The host's product events, as `upgradeLegacyChatFrame` takes them: a mapped one is projected as its legacy type. */
  readonly products?: LegacyProductEvents<Events> | undefined;
}

/** Refusal codes of {@link encodeLegacyChatFrame}: the strict parser's, `unsupported-event` and `invalid-options`. */
export type EncodeLegacyChatFrameRefusalCode = ParseChatEnvelopeRefusalCode | 'unsupported-event' | 'invalid-options';

/** Result of {@link encodeLegacyChatFrame}: the frame and the SSE message text that carries it. */
export type EncodeLegacyChatFrameResult =
  { readonly ok: true; readonly frame: LegacyChatFrame; readonly sse: string } | ChatRefusal<EncodeLegacyChatFrameRefusalCode>;

/**
 * Projects a v1 envelope onto the dialect's legacy frame. The envelope is
 * checked by the strict v1 parser first (its refusal codes pass through).
 * Never throws, on any `envelope` and any `options`: options that cannot be
 * read, or whose `dialect` was not made by `defineLegacyDialect`, are
 * `invalid-options`.
 *
 * `unsupported-event` when the dialect has no type for the event (`reasoning`
 * in every built-in dialect; `tool_result`, `provenance`, `state` and
 * `navigate` in `scout`), when a field has no place in the legacy type, when a
 * value differs from the one the legacy type stands for (a `done` that is not
 * `completed`), or when a value has no legacy form (a tool status other than
 * `succeeded`/`failed`, a card time finer than a millisecond).
 *
 * With `products` (as `upgradeLegacyChatFrame` takes them), the envelope is
 * read by the host's codec, and a product event it maps is written as its
 * legacy type with its `data` as the frame's data (beside the type field in
 * a dialect whose data names the type: `unsupported-event` when that data is
 * not an object or has the field). A product event it does not map is
 * `unsupported-event`; without `products`, any product event is the base
 * parser's `unknown-event`.
 *
 * Fields equal to their declared default are left out, so a frame upgraded and
 * encoded again is the frame it was.
 *
 * `options.ids` picks the SSE id: the v1 cursor (default) or, with `'seq'`,
 * the envelope's seq as a decimal number, so a reader that keeps the highest
 * numeric id resumes (see {@link LegacyFrameIds}). Any other value is
 * `invalid-options`.
 */
export function encodeLegacyChatFrame<Events = Record<never, never>>(
  envelope: unknown,
  options: EncodeLegacyChatFrameOptions<Events>,
): EncodeLegacyChatFrameResult {
  const option = readDialectOption(options);
  if (option === undefined) return refuse('invalid-options', 'options: expected { dialect } with a dialect made by defineLegacyDialect');
  const ids = readIdsOption(options);
  if (ids === undefined) return refuse('invalid-options', "options.ids: expected 'cursor' or 'seq' when present");
  const { dialect: named, compiled: dialect } = option;
  const products = readProducts(options, dialect);
  if (products === null)
    return refuse('invalid-options', 'options.products: expected { codec, events } naming product events the codec registered');
  const parsed = products === undefined ? parseChatEnvelope(envelope) : (products.parse(envelope) as ReturnType<typeof parseChatEnvelope>);
  if (!parsed.ok) return parsed;
  const { turnId, seq, event } = parsed.value;
  const id = ids === 'seq' ? String(seq) : `${turnId}:${seq}`;
  if (products !== undefined && isProductEventName(event.type)) {
    const projected = projectProductEvent(dialect, products, event as unknown as { readonly type: string; readonly data: unknown });
    return projected.ok ? legacyFrame(dialect, projected.legacy, projected.data, id) : projected;
  }
  const type = dialect.byV1Type.get(event.type);
  if (type === undefined) return unsupported(`${named.name} has no legacy form of ${event.type}`);
  const values = event as unknown as Readonly<Record<string, unknown>>;
  for (const field of Object.keys(values)) {
    const placed =
      field === 'type' || type.fields.some((mapped) => mapped.v1 === field) || Object.prototype.hasOwnProperty.call(type.fixed, field);
    if (!placed) return unsupported(`${event.type}.${field} has no place in ${named.name} ${type.legacy}`);
  }
  for (const [field, value] of Object.entries(type.fixed)) {
    if (values[field] !== value) {
      return unsupported(`${named.name} ${type.legacy} stands for ${event.type}.${field} ${JSON.stringify(value)}`);
    }
  }
  const data: Record<string, unknown> = dialect.typeField === undefined ? {} : { [dialect.typeField]: type.legacy };
  for (const field of type.fields) {
    const value = values[field.v1];
    // A keyed field travels back inside its object field.
    if (value === undefined || value === field.default || field.key !== undefined) continue;
    const legacy = encodeField(field.kind, value);
    if (isNoLegacyForm(legacy)) return unsupported(`${named.name} ${type.legacy}: ${legacy.noLegacyForm}`);
    data[field.legacy] = legacy;
  }
  return legacyFrame(dialect, type.legacy, data, id);
}

/** The frame and SSE text of `data` as the dialect's `legacy` type, with SSE id `id`. */
function legacyFrame(dialect: CompiledDialect, legacy: string, data: unknown, id: string): EncodeLegacyChatFrameResult {
  const json = JSON.stringify(data);
  const frame: LegacyChatFrame = dialect.typeField === undefined ? { event: legacy, data: json, id } : { data: json, id };
  const eventLine = frame.event === undefined ? '' : `event: ${frame.event}\n`;
  return { ok: true, frame, sse: `id: ${id}\n${eventLine}data: ${json}\n\n` };
}

// Read once, after the dialect: a getter or a Proxy that throws is invalid options, never a throw.
function readIdsOption(options: unknown): LegacyFrameIds | undefined {
  let ids: unknown;
  try {
    ids = (options as { readonly ids?: unknown }).ids;
  } catch {
    return undefined;
  }
  return ids === undefined || ids === 'cursor' ? 'cursor' : ids === 'seq' ? 'seq' : undefined;
}

// The options are read once; products that cannot be used are null (invalid-options).
function readProducts(options: unknown, dialect: CompiledDialect): CompiledProductEvents | undefined | null {
  try {
    return readProductEvents((options as { readonly products?: unknown }).products, dialect);
  } catch {
    return null;
  }
}

function unsupported(message: string): ChatRefusal<'unsupported-event'> {
  return refuse('unsupported-event', message);
}
