/**
 * A product's domain frames (scout's `products`, `broaden`, `cart_mutate`)
 * crossing to the product events a host registered in its chat codec, and
 * back. The rule is one for every frame: the frame's JSON data, without the
 * field that names its type, is the product event's `data`; the product's
 * own schema judges it. Without a registration such a frame stays
 * `unsupported-event`, as it always was.
 */
import {
  isProductEventName,
  type ChatCodec,
  type ChatEnvelopeRecord,
  type ChatEventEnvelopeOf,
  type ChatRefusal,
  type OpenCardSnapshotV1,
  type ChatSseMessage,
  type ParseChatEnvelopeRefusalCode,
  type ParseChatSseMessageRefusalCode,
  type ParseResult,
} from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { parseData, readFrame } from './decode.js';
import type { CompiledDialect } from './define-legacy-dialect.js';
import { ownField } from './field-kind-conversions.js';

/**
 * The product events a host lifts legacy frames into: its chat codec (which
 * registered them) and, per legacy type, the product event name it becomes
 * (`{ products: 'scout.products' }`). One name per legacy type and one legacy
 * type per name, so both directions are one mapping.
 */
export interface LegacyProductEvents<Events = Readonly<Record<string, unknown>>> {
  readonly codec: Pick<
    ChatCodec<OpenCardSnapshotV1, Events>,
    'parseChatEnvelope' | 'parseChatSseMessage' | 'encodeChatEnvelope' | 'eventFields'
  >;
  readonly events: Readonly<Record<string, keyof Events & string>>;
}

/** A registration read once and checked: legacy type → name, and back. */
export interface CompiledProductEvents {
  readonly parse: (input: unknown) => ParseResult<unknown, ParseChatEnvelopeRefusalCode>;
  readonly parseSse: (message: ChatSseMessage) => ParseResult<unknown, ParseChatSseMessageRefusalCode>;
  readonly encode: (
    record: ChatEnvelopeRecord,
  ) => { readonly ok: true; readonly envelope: unknown } | ChatRefusal<ParseChatEnvelopeRefusalCode>;
  readonly byLegacyType: ReadonlyMap<string, string>;
  readonly byName: ReadonlyMap<string, string>;
}

/**
 * Reads `products` as {@link LegacyProductEvents}: `undefined` when absent,
 * `null` when it cannot be used (not readable, a codec without the functions,
 * a name that is not a product event the codec registered, a name or legacy
 * type mapped twice, a legacy type the dialect already has). Never throws.
 */
export function readProductEvents(products: unknown, dialect: CompiledDialect): CompiledProductEvents | undefined | null {
  if (products === undefined) return undefined;
  try {
    const { codec, events } = products as LegacyProductEvents;
    const { parseChatEnvelope, parseChatSseMessage, encodeChatEnvelope, eventFields } = codec;
    const functions = [parseChatEnvelope, parseChatSseMessage, encodeChatEnvelope];
    if (functions.some((value) => typeof value !== 'function') || typeof eventFields !== 'object' || eventFields === null) return null;
    if (typeof events !== 'object' || events === null || Array.isArray(events)) return null;
    const byLegacyType = new Map<string, string>();
    const byName = new Map<string, string>();
    for (const [legacy, name] of Object.entries(events)) {
      const registered = isProductEventName(name) && Object.prototype.hasOwnProperty.call(eventFields, name);
      if (!registered || byName.has(name) || dialect.byLegacyType.has(legacy) || legacy === dialect.typeField) return null;
      byLegacyType.set(legacy, name);
      byName.set(name, legacy);
    }
    return { parse: parseChatEnvelope, parseSse: parseChatSseMessage, encode: encodeChatEnvelope, byLegacyType, byName };
  } catch {
    return null;
  }
}

/** What an envelope's identity is made of, as the upgrade context gives it. */
interface Identity {
  readonly conversationId: string;
  readonly turnId: string;
  readonly eventId: string;
  readonly seq: number;
  readonly occurredAt: string;
}

/** A product frame lifted: the envelope and the legacy event as read (its type and fields). */
export interface LiftedProductFrame {
  readonly envelope: ChatEventEnvelopeOf<OpenCardSnapshotV1, Readonly<Record<string, unknown>>>;
  readonly event: Readonly<Record<string, unknown>>;
}

/**
 * Lifts a frame the dialect does not know into the registered product event,
 * or `undefined` when its type is not registered (the caller keeps its
 * `unsupported-event`). `invalid-envelope` when the product's schema or the
 * envelope's identity refuses it; the issues say where.
 */
export function liftProductFrame(
  dialect: CompiledDialect,
  products: CompiledProductEvents,
  frame: unknown,
  identify: () => Identity,
): LiftedProductFrame | ChatRefusal<'invalid-envelope'> | undefined {
  const message = readFrame(frame);
  if (!message.ok) return undefined;
  // Called only for a frame the decoder found well-formed and clean, of a type the dialect lacks.
  const parsed = parseData(message.value.data);
  if (!parsed.ok || parsed.value.unclean) return undefined;
  const { value } = parsed.value;
  let legacyType: string | undefined;
  let data: unknown;
  if (dialect.typeField === undefined) {
    legacyType = message.value.event ?? 'message';
    data = value;
  } else {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const declared = ownField(value as Record<string, unknown>, dialect.typeField);
    if (typeof declared !== 'string') return undefined;
    legacyType = declared;
    data = Object.fromEntries(Object.entries(value).filter(([key]) => key !== dialect.typeField));
  }
  const name = products.byLegacyType.get(legacyType);
  if (name === undefined) return undefined;
  // The identity is asked for only once the frame is known to become an envelope.
  const encoded = products.encode({ ...identify(), event: { type: name, data } });
  if (!encoded.ok) return refuse('invalid-envelope', encoded.message, encoded.issues);
  const event = dialect.typeField === undefined ? { type: legacyType, data } : { type: legacyType, ...(data as Record<string, unknown>) };
  return { envelope: encoded.envelope as LiftedProductFrame['envelope'], event };
}

/**
 * A product event projected down: the legacy type and the frame's JSON data
 * (`{ [typeField]: legacy type, ...data }` in a dialect whose data names the
 * type, `data` itself otherwise). `unsupported-event` when the name is not
 * mapped, or the dialect names the type in the data and `data` is not an
 * object, or already has that field.
 */
export function projectProductEvent(
  dialect: CompiledDialect,
  products: CompiledProductEvents,
  event: { readonly type: string; readonly data: unknown },
): { readonly ok: true; readonly legacy: string; readonly data: unknown } | ChatRefusal<'unsupported-event'> {
  const legacy = products.byName.get(event.type);
  if (legacy === undefined) return refuse('unsupported-event', `${event.type} has no legacy type in the host's product events`);
  if (dialect.typeField === undefined) return { ok: true, legacy, data: event.data };
  const { data } = event;
  if (typeof data !== 'object' || data === null || Array.isArray(data) || Object.prototype.hasOwnProperty.call(data, dialect.typeField)) {
    return refuse('unsupported-event', `${event.type}: data must be an object without ${dialect.typeField} to travel as a ${legacy} frame`);
  }
  return { ok: true, legacy, data: { [dialect.typeField]: legacy, ...data } };
}
