/**
 * One reader for a connection that carries v1 envelopes and legacy frames
 * side by side while a host migrates. v1 messages go through core's strict SSE
 * check; legacy frames are upgraded with the host's identities and numbered
 * after the last seq the connection showed for the turn. It counts what it
 * decoded and what it refused, and never yields part of a malformed frame.
 */
import {
  parseChatSseMessage,
  type ChatEventEnvelope,
  type ChatEventEnvelopeOf,
  type ChatRefusal,
  type OpenCardSnapshotV1,
  type ParseChatSseMessageRefusalCode,
} from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { readControlMessage, type LegacyControlMessage } from './control-frame.js';
import { decodeData, heartbeatByName, parseData, readFrame, readPlainText } from './decode.js';
import {
  readDialectOption,
  type CompiledDialect,
  type LegacyDialect,
  type LegacyDialectDefinition,
  type LegacyEventOf,
} from './define-legacy-dialect.js';
import { ownField } from './field-kind-conversions.js';
import { liftProductFrame, readProductEvents, type CompiledProductEvents, type LegacyProductEvents } from './product-frames.js';
import {
  liftEvent,
  transportOf,
  type LegacyCallIdMapping,
  type LegacyTransportFrame,
  type UpgradeLegacyChatFrameRefusalCode,
} from './upgrade.js';

/** What the host tells the decoder about the connection. */
export interface ChatFrameDecoderContext<Events = Record<never, never>> {
  /** The conversation this connection streams; a v1 envelope of another one is refused. */
  readonly conversationId: string;
  /** The turn legacy frames belong to (they do not say). */
  readonly turnId: string;
  /**
   * The host's event id and time for the legacy frame about to become the
   * envelope at `seq` (`id` is the frame's SSE id, if it had one). Called for
   * each legacy event frame that decoded; the seq advances only when the
   * envelope is produced, so a refused frame never uses one up.
   */
  readonly identify: (frame: { readonly seq: number; readonly id: string | undefined }) => {
    readonly eventId: string;
    readonly occurredAt: string;
  };
  /** The stable call-id mapping for tool frames without a call id. */
  readonly callId?: LegacyCallIdMapping | undefined;
  /** The product events the host lifts domain frames into (as `upgradeLegacyChatFrame` takes them). */
  readonly products?: LegacyProductEvents<Events> | undefined;
}

/** Refusal codes of a frame decoder: either path's, and `foreign-conversation`. */
export type ChatFrameDecoderRefusalCode = UpgradeLegacyChatFrameRefusalCode | ParseChatSseMessageRefusalCode | 'foreign-conversation';

/** What one message decoded to. */
export type ChatFrameDecoderResult<Definition extends LegacyDialectDefinition = LegacyDialectDefinition, Events = Record<never, never>> =
  | {
      readonly ok: true;
      readonly kind: 'envelope';
      readonly source: 'v1' | 'legacy';
      readonly envelope: ChatEventEnvelope | ([keyof Events] extends [never] ? never : ChatEventEnvelopeOf<OpenCardSnapshotV1, Events>);
    }
  | LegacyTransportFrame<LegacyEventOf<Definition>>
  | LegacyControlMessage
  | ChatRefusal<ChatFrameDecoderRefusalCode>;

/** Running counts of a frame decoder. Every message lands in exactly one of the four totals. */
export interface ChatFrameDecoderCounts {
  /** v1 envelopes passed through. */
  readonly v1: number;
  /** Legacy frames upgraded to envelopes. */
  readonly legacy: number;
  /**
   * Session and heartbeat frames, in every form (a named `heartbeat` with
   * `{"tsMs":…}` included), and the comments and retry hints the host passes on
   * from its SSE parser: no envelope.
   */
  readonly transport: number;
  /** Messages refused, of either kind. */
  readonly unsupported: number;
  /** The refused messages by refusal code. */
  readonly refusals: Readonly<Partial<Record<ChatFrameDecoderRefusalCode, number>>>;
}

/** A stateful reader for one connection: see {@link createChatFrameDecoder}. */
export interface ChatFrameDecoder<Definition extends LegacyDialectDefinition = LegacyDialectDefinition, Events = Record<never, never>> {
  /** Decodes one SSE message (`{ event?, data, id? }`). Never throws on any input. */
  decode(message: unknown): ChatFrameDecoderResult<Definition, Events>;
  /** A snapshot of the counts so far. */
  counts(): ChatFrameDecoderCounts;
}

/**
 * Creates the reader for one connection that may carry both v1 envelopes and
 * the dialect's legacy frames. A message whose data is a JSON object with a
 * `schemaVersion` is v1 and must pass `parseChatSseMessage` (SSE `event` and
 * `id` agree with the envelope) and belong to the context's conversation;
 * anything else is read as a legacy frame and upgraded. Legacy envelopes take
 * the seq after the highest the connection has shown for the context's turn,
 * v1 envelopes of that turn included. Session and heartbeat frames are
 * counted as transport, never as refusals. A refused message of either kind
 * (a `resync` control frame is `resync-required`) is counted as unsupported
 * and yields nothing. With `context.products` (as `upgradeLegacyChatFrame`
 * takes them), v1 messages are read by the host's codec and legacy domain
 * frames it maps lift into its product events.
 *
 * Throws `TypeError` (a programming error, at creation only) when the options
 * cannot be read, the dialect was not made by `defineLegacyDialect`, the
 * context has no `identify` function, or its `products` cannot be used; the
 * context is read once, here. The
 * decoder's `decode` never throws on any message (an `identify` or `callId`
 * that throws is the host's exception, passed on).
 *
 * ```ts
 * let seq = 0;
 * const decoder = createChatFrameDecoder({
 *   dialect: scout,
 *   context: { conversationId, turnId, identify: ({ seq }) => ({ eventId: `${turnId}.${seq}`, occurredAt: clock() }) },
 * });
 * for (const message of messages) {
 *   const result = decoder.decode(message);
 *   if (result.ok && result.kind === 'envelope') state = applyChatEvent(state, result.envelope);
 * }
 * ```
 */
export function createChatFrameDecoder<Definition extends LegacyDialectDefinition, Events = Record<never, never>>(options: {
  readonly dialect: LegacyDialect<Definition>;
  readonly context: ChatFrameDecoderContext<Events>;
}): ChatFrameDecoder<Definition, Events> {
  const { dialect, context, products } = readDecoderOptions(options);
  const totals = { v1: 0, legacy: 0, transport: 0, unsupported: 0 };
  const refusals: Partial<Record<ChatFrameDecoderRefusalCode, number>> = {};
  let lastSeq = 0;

  const refused = (refusal: ChatRefusal<ChatFrameDecoderRefusalCode>): ChatRefusal<ChatFrameDecoderRefusalCode> => {
    totals.unsupported++;
    refusals[refusal.code] = (refusals[refusal.code] ?? 0) + 1;
    return refusal;
  };

  const decodeV1 = (message: { readonly event?: string | undefined; readonly data: string; readonly id?: string | undefined }) => {
    // With the host's product events, a v1 message is read by its codec, so its product envelopes pass too.
    const parsed = products === undefined ? parseChatSseMessage(message) : products.parseSse(message);
    if (!parsed.ok) return refused(parsed);
    const envelope = parsed.value as ChatEventEnvelope;
    if (envelope.conversationId !== context.conversationId) {
      return refused(refuse('foreign-conversation', `conversationId: ${envelope.conversationId} is not this connection's conversation`));
    }
    if (envelope.turnId === context.turnId && envelope.seq > lastSeq) lastSeq = envelope.seq;
    totals.v1++;
    return { ok: true, kind: 'envelope', source: 'v1', envelope } as const;
  };

  const identityAt = (seq: number, id: string | undefined) => {
    const { eventId, occurredAt } = context.identify({ seq, id });
    return { conversationId: context.conversationId, turnId: context.turnId, eventId, seq, occurredAt };
  };

  const decode = (input: unknown): ChatFrameDecoderResult<Definition, Events> => {
    const control = controlOf(input);
    if (control === 'invalid')
      return refused(refuse('invalid-frame', 'expected { comment: single-line text } or { retry: a non-negative integer }, alone'));
    if (control !== undefined) {
      totals.transport++;
      return control;
    }
    const message = readFrame(input);
    if (!message.ok) return refused(message);
    let decoded = heartbeatByName(dialect, message.value);
    if (decoded === undefined) {
      const data = parseData(message.value.data);
      const value = data.ok ? data.value.value : undefined;
      if (
        typeof value === 'object' &&
        value !== null &&
        !Array.isArray(value) &&
        ownField(value as Record<string, unknown>, 'schemaVersion') !== undefined
      ) {
        // The strict parser reads the data as sent: text replaced for a legacy error never makes a v1 envelope.
        return decodeV1(message.value);
      }
      const read = data.ok ? decodeData(dialect, message.value, data.value) : readPlainText(dialect, message.value, data);
      if (!read.ok && read.code === 'unsupported-event' && products !== undefined) {
        const seq = lastSeq + 1;
        const product = liftProductFrame(dialect, products, input, () => identityAt(seq, message.value.id));
        if (product !== undefined) {
          if (!('envelope' in product)) return refused(product);
          lastSeq = seq;
          totals.legacy++;
          return { ok: true, kind: 'envelope', source: 'legacy', envelope: product.envelope } as ChatFrameDecoderResult<Definition, Events>;
        }
      }
      if (!read.ok) return refused(read);
      decoded = read.value;
    }
    if (decoded.type.v1 === undefined) {
      const transport = transportOf(decoded);
      if (!transport.ok) return refused(transport);
      totals.transport++;
      return transport as LegacyTransportFrame<LegacyEventOf<Definition>>;
    }
    const seq = lastSeq + 1;
    const lifted = liftEvent(decoded, identityAt(seq, message.value.id), context.callId);
    if (!lifted.ok) return refused(lifted);
    lastSeq = seq;
    totals.legacy++;
    return { ok: true, kind: 'envelope', source: 'legacy', envelope: lifted.envelope };
  };

  return {
    decode,
    counts: () => ({ ...totals, refusals: { ...refusals } }),
  };
}

// A comment or retry hint the SSE parser reported; unreadable input is left to readFrame, which refuses it.
function controlOf(input: unknown): LegacyControlMessage | 'invalid' | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  try {
    return readControlMessage(input as Readonly<Record<string, unknown>>);
  } catch {
    return undefined;
  }
}

// Read once at creation, so a getter or a Proxy in the options can neither
// throw nor answer differently later; bad options are a programming error.
function readDecoderOptions(options: unknown): {
  readonly dialect: CompiledDialect;
  readonly context: ChatFrameDecoderContext;
  readonly products: CompiledProductEvents | undefined;
} {
  const dialect = readDialectOption(options);
  let context: ChatFrameDecoderContext | undefined;
  let products: CompiledProductEvents | undefined | null = null;
  try {
    const given = (options as { readonly context: ChatFrameDecoderContext }).context;
    const { conversationId, turnId, identify, callId } = given;
    products = dialect === undefined ? null : readProductEvents(given.products, dialect.compiled);
    if (typeof identify === 'function' && (callId === undefined || typeof callId === 'function')) {
      // `identify` keeps the host's context as its receiver.
      const identifyFrame: ChatFrameDecoderContext['identify'] = (frame) => identify.call(given, frame);
      context =
        callId === undefined
          ? { conversationId, turnId, identify: identifyFrame }
          : { conversationId, turnId, identify: identifyFrame, callId };
    }
  } catch {
    // Unreadable: refused below.
  }
  if (dialect === undefined || context === undefined || products === null) {
    throw new TypeError(
      'createChatFrameDecoder needs { dialect: a dialect made by defineLegacyDialect, context: { conversationId, turnId, identify, callId?, products? } }',
    );
  }
  return { dialect: dialect.compiled, context, products };
}
