/**
 * Lifting a legacy frame into a v1 envelope. The frame supplies the event; the
 * host's context supplies every identity the frame lacks (conversation, turn,
 * event id, seq, time, call ids), and the result passes the strict v1 encoder.
 * Transport frames (session, heartbeat) yield no envelope and are never stored;
 * a resync is refused, so a host always learns the stream has a gap.
 */
import {
  encodeChatEnvelope,
  type ChatEventEnvelope,
  type ChatEventEnvelopeOf,
  type ChatRefusal,
  type OpenCardSnapshotV1,
} from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { decodeFrame, invalidOptions, type DecodedFrame, type DecodeLegacyChatFrameRefusalCode } from './decode.js';
import {
  readDialectOption,
  type CompiledDialect,
  type LegacyDialect,
  type LegacyDialectDefinition,
  type LegacyEventOf,
} from './define-legacy-dialect.js';
import { upgradeField, upgradeUsage } from './field-kind-conversions.js';
import { isLegacyCardRefusal, type LegacyCardRefusal } from './legacy-card.js';
import { liftProductFrame, readProductEvents, type CompiledProductEvents, type LegacyProductEvents } from './product-frames.js';

/** What a call-id mapping is asked: the tool event that arrived without a call id. */
export interface LegacyCallIdRequest {
  readonly type: 'tool_call' | 'tool_result';
  /** The tool's name, as the frame gave it. */
  readonly name: string;
  /** The seq the envelope will have. */
  readonly seq: number;
}

/**
 * The host's stable call-id mapping: the v1 `callId` of a tool event whose
 * frame carries none (the same call must always get the same id, and a result
 * the id of its call), or `undefined` when the host cannot say.
 */
export type LegacyCallIdMapping = (request: LegacyCallIdRequest) => string | undefined;

/** The identity of one envelope, which the host allocates: parsers never do. */
export interface LegacyEnvelopeIdentity {
  readonly conversationId: string;
  readonly turnId: string;
  readonly eventId: string;
  readonly seq: number;
  /** RFC 3339 with an offset: the time the host records for the frame. */
  readonly occurredAt: string;
}

/** What {@link upgradeLegacyChatFrame} needs besides the frame. */
export interface LegacyUpgradeContext<
  Definition extends LegacyDialectDefinition = LegacyDialectDefinition,
  Events = Record<never, never>,
> extends LegacyEnvelopeIdentity {
  readonly dialect: LegacyDialect<Definition>;
  /** Consulted only for a tool frame without its own call id. */
  readonly callId?: LegacyCallIdMapping | undefined;
  /** The product events the host lifts the dialect's domain frames into; without it they stay `unsupported-event`. */
  readonly products?: LegacyProductEvents<Events> | undefined;
}

/** Refusal codes of {@link upgradeLegacyChatFrame}. */
export type UpgradeLegacyChatFrameRefusalCode =
  | DecodeLegacyChatFrameRefusalCode
  | 'missing-call-identity'
  | 'unknown-status'
  | 'resync-required'
  | 'unsupported-card'
  | 'invalid-envelope';

/** A frame that lifted to a v1 envelope (one of the host's product events, when it registered them). */
export interface LegacyUpgradedEnvelope<Event, Envelope = ChatEventEnvelope> {
  readonly ok: true;
  readonly kind: 'envelope';
  readonly envelope: Envelope;
  /** The decoded legacy event it came from. */
  readonly event: Event;
}

/** A session or heartbeat frame: transport only, no envelope, nothing to persist. */
export interface LegacyTransportFrame<Event> {
  readonly ok: true;
  readonly kind: 'transport';
  readonly transport: 'session' | 'heartbeat';
  readonly event: Event;
}

/** Result of {@link upgradeLegacyChatFrame}; with product events `Events`, an envelope may be one of them. */
export type UpgradeLegacyChatFrameResult<
  Definition extends LegacyDialectDefinition = LegacyDialectDefinition,
  Events = Record<never, never>,
> =
  | LegacyUpgradedEnvelope<LegacyEventOf<Definition>>
  | ([keyof Events] extends [never]
      ? never
      : LegacyUpgradedEnvelope<
          { readonly type: string } & Readonly<Record<string, unknown>>,
          ChatEventEnvelopeOf<OpenCardSnapshotV1, Events>
        >)
  | LegacyTransportFrame<LegacyEventOf<Definition>>
  | ChatRefusal<Exclude<UpgradeLegacyChatFrameRefusalCode, 'unsupported-card'>>
  | LegacyCardRefusal;

/**
 * Decodes a legacy frame and lifts it into a v1 envelope with the host's
 * identities. Never throws, on any `frame` and any `context` (a `callId`
 * mapping that throws is the host's exception, passed on).
 *
 * Besides the decode refusals (`invalid-options` here: the context cannot be
 * read, its `dialect` was not made by `defineLegacyDialect`, or its `callId` is
 * neither a function nor absent):
 * - `resync-required`: the SSE server's `resync` control frame; it could not
 *   replay what the connection missed (`gap`) or its ids restarted (`ahead`).
 *   Nothing of the turn after it can be trusted to follow what the host holds:
 *   discard the turn's state and read it again from the start;
 * - `missing-call-identity`: a tool frame without a call id, and the context
 *   has no mapping or the mapping returned `undefined`;
 * - `unknown-status`: a tool result whose outcome (`ok`) is absent or not a
 *   boolean; it is never read as a success;
 * - `unsupported-card`: a card no documented rule can read (`reason` says why:
 *   see `LegacyCardRefusalReason`); the loose shapes real Papercusp cards carry
 *   are normalized instead (see `upgradeLegacyCard`);
 * - `invalid-envelope`: the lifted envelope fails the strict v1 encoder (the
 *   issues name the field: an id or time from the context, or a frame value v1
 *   does not accept, such as a card option with an unknown `style`).
 *
 * With `products` (the host's chat codec and `{ legacyType: productEventName }`),
 * a frame of a type the dialect lacks and the host mapped becomes that
 * product event: its JSON data without the type field is the event's `data`,
 * which the codec's product schema judges (`invalid-envelope` when it
 * refuses). Without `products`, or for a type it does not map, such a frame
 * is `unsupported-event`. Products that cannot be used (a name the codec did
 * not register, one mapped twice, a type the dialect has) are `invalid-options`.
 *
 * A value v1 cannot hold in an optional field (an error's code that is not a
 * v1 id, a retry delay out of bounds or without `retryable: true`) is dropped
 * and an error's message is made one v1 holds (see `LegacyFieldKind`), never
 * a reason to refuse: an error is never lost. The envelope comes from `encodeChatEnvelope`: fields in the
 * contract's order, a fresh object sharing nothing with the frame.
 */
export function upgradeLegacyChatFrame<Definition extends LegacyDialectDefinition, Events = Record<never, never>>(
  frame: unknown,
  context: LegacyUpgradeContext<Definition, Events>,
): UpgradeLegacyChatFrameResult<Definition, Events> {
  const read = readUpgradeContext(context);
  if (read === undefined) return invalidOptions();
  const decoded = decodeFrame(read.dialect, frame);
  if (!decoded.ok) {
    const lifted =
      decoded.code === 'unsupported-event' && read.products !== undefined
        ? liftProductFrame(read.dialect, read.products, frame, () => read.identity)
        : undefined;
    if (lifted === undefined) return decoded;
    return ('envelope' in lifted ? { ok: true, kind: 'envelope', ...lifted } : lifted) as UpgradeLegacyChatFrameResult<Definition, Events>;
  }
  const lifted = decoded.value.type.v1 === undefined ? transportOf(decoded.value) : liftEvent(decoded.value, read.identity, read.callId);
  return lifted as UpgradeLegacyChatFrameResult<Definition, Events>;
}

// The context is read once, here, so a getter or a Proxy cannot throw (or
// answer differently) later; the identity is judged by the strict encoder.
function readUpgradeContext(context: unknown):
  | {
      readonly dialect: CompiledDialect;
      readonly identity: LegacyEnvelopeIdentity;
      readonly callId: LegacyCallIdMapping | undefined;
      readonly products: CompiledProductEvents | undefined;
    }
  | undefined {
  const dialect = readDialectOption(context);
  if (dialect === undefined) return undefined;
  try {
    const { conversationId, turnId, eventId, seq, occurredAt, callId, products } = context as LegacyUpgradeContext;
    if (callId !== undefined && typeof callId !== 'function') return undefined;
    const compiled = readProductEvents(products, dialect.compiled);
    if (compiled === null) return undefined;
    return { dialect: dialect.compiled, identity: { conversationId, turnId, eventId, seq, occurredAt }, callId, products: compiled };
  } catch {
    return undefined;
  }
}

/** The result for a decoded transport frame: a session or heartbeat, or the refusal of a resync. */
export function transportOf(
  decoded: DecodedFrame,
): LegacyTransportFrame<Readonly<Record<string, unknown>>> | ChatRefusal<'resync-required'> {
  const { transport } = decoded.type;
  if (transport === 'session' || transport === 'heartbeat') return { ok: true, kind: 'transport', transport, event: decoded.event };
  const reason = decoded.event['reason'];
  return refuse(
    'resync-required',
    `the server could not resume this stream${typeof reason === 'string' ? ` (${reason})` : ''}: discard the turn's state and read it again`,
  );
}

/** Lifts a decoded event frame: the step {@link upgradeLegacyChatFrame} and the frame decoder share. */
export function liftEvent(
  decoded: DecodedFrame,
  identity: LegacyEnvelopeIdentity,
  callIdMapping: LegacyCallIdMapping | undefined,
): LegacyUpgradedEnvelope<Readonly<Record<string, unknown>>> | ChatRefusal<UpgradeLegacyChatFrameRefusalCode> {
  const { type, event } = decoded;
  const v1: Record<string, unknown> = { type: type.v1 };
  let callIdField: string | undefined;
  for (const field of type.fields) {
    if (field.key !== undefined) continue;
    const legacy = event[field.legacy];
    // A value v1 cannot hold upgrades to undefined: the field reads as absent.
    const value = legacy === undefined ? undefined : upgradeField(field.kind, legacy);
    if (isLegacyCardRefusal(value)) return value;
    if (value !== undefined) v1[field.v1] = value;
    else if (field.kind === 'outcome')
      return refuse('unknown-status', `${field.legacy}: the outcome is not reported, and v1 never assumes one`);
    else if (field.kind === 'call-id') callIdField = field.legacy;
    else if (field.default !== undefined) v1[field.v1] = field.default;
  }
  Object.assign(v1, type.fixed);
  for (const field of type.fields) {
    const value = event[field.legacy];
    if (field.key === undefined || value === undefined) continue;
    const object = (v1[field.v1] ?? {}) as Record<string, unknown>;
    // The object's own value wins: it is what the producer wrote in v1's place.
    if (Object.prototype.hasOwnProperty.call(object, field.key)) continue;
    const merged = { ...object, [field.key]: value };
    // A keyed value joins a usage under the usage's own rule (a done is never refused for its usage).
    const usage = type.fields.some((other) => other.key === undefined && other.v1 === field.v1 && other.kind === 'usage?');
    const upgraded = usage ? upgradeUsage(merged) : merged;
    if (upgraded === undefined) delete v1[field.v1];
    else v1[field.v1] = upgraded;
  }
  for (const field of type.fields) {
    // A value v1 holds only beside another it did not get is dropped too.
    if (field.when !== undefined && Object.entries(field.when).some(([other, value]) => v1[other] !== value)) delete v1[field.v1];
  }
  if (callIdField !== undefined) {
    const mapped = callIdMapping?.({ type: type.v1 as LegacyCallIdRequest['type'], name: String(v1['name']), seq: identity.seq });
    if (mapped === undefined) {
      return refuse('missing-call-identity', `${callIdField}: the frame has no call id and the host mapped none`);
    }
    v1['callId'] = mapped;
  }
  const { conversationId, turnId, eventId, seq, occurredAt } = identity;
  const encoded = encodeChatEnvelope({ conversationId, turnId, eventId, seq, occurredAt, event: v1 });
  if (!encoded.ok) return refuse('invalid-envelope', encoded.message, encoded.issues);
  return { ok: true, kind: 'envelope', envelope: encoded.envelope, event };
}
