/**
 * The AG-UI decoder's public types: what it asks of the host (the context, an envelope's identity, a tool result's
 * status), what one event decodes to, and its refusal codes. Types only; nothing here runs. The decoding itself is
 * `create-ag-ui-decoder.ts`'s and the modules it composes.
 */
import type { ChatEventEnvelope, ChatEventTypeV1, ChatRefusal, ParseResult, TOOL_RESULT_STATUSES } from '@papercusp/chat-protocol-core';
import type { AgUiLoss } from '../loss.js';
import type { PlacementRefusalCode } from './reducer-view.js';

/** A v1 tool result status. */
export type ToolResultStatus = (typeof TOOL_RESULT_STATUSES)[number];

/** What the host is asked for each envelope the decoder builds. */
export interface AgUiEnvelopeRequest {
  /** The AG-UI run the event belongs to. */
  readonly runId: string;
  /** The v1 event type the envelope will carry. */
  readonly type: ChatEventTypeV1;
  /** The AG-UI event's `timestamp` (epoch milliseconds), when it had one. */
  readonly timestamp: number | undefined;
}

/** The identity the host allocates for one envelope: parsers never do. */
export interface AgUiEnvelopeIdentity {
  readonly turnId: string;
  readonly eventId: string;
  readonly seq: number;
  /** RFC 3339 with an offset. */
  readonly occurredAt: string;
}

/** An AG-UI tool result that stated no v1 status, as the host's mapping sees it. */
export interface AgUiToolResultRequest {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: unknown;
  readonly metadata: unknown;
}

/** What `createAgUiDecoder` needs from the host; `Envelope` is what its parser returns. */
export interface AgUiDecoderContext<Envelope = ChatEventEnvelope> {
  /** The v1 conversation the stream belongs to; an AG-UI `threadId` must equal it. */
  readonly conversationId: string;
  /** Allocates each envelope's turn id, event id, seq and time. */
  readonly identify: (request: AgUiEnvelopeRequest) => AgUiEnvelopeIdentity;
  /**
   * The host's explicit mapping for a tool result that states no status
   * (every tool result a generic AG-UI producer writes), or `undefined` when
   * it cannot say; without it such a result is `unknown-tool-status`.
   */
  readonly toolResultStatus?: ((request: AgUiToolResultRequest) => ToolResultStatus | undefined) | undefined;
  /**
   * The strict parser every envelope passes: core's `parseChatEnvelope` by
   * default; a product's `createChatCodec(...).parseChatEnvelope` to accept its
   * product events (which the encoder carries in `CUSTOM` events).
   */
  readonly parseChatEnvelope?: ((input: unknown) => ParseResult<Envelope>) | undefined;
}

/** Refusal codes of {@link AgUiDecoder.decode}. */
export type DecodeAgUiEventRefusalCode =
  | 'invalid-event'
  | 'unsupported-event'
  | 'outside-run'
  | 'foreign-thread'
  | 'unknown-message'
  | 'unknown-tool-call'
  | 'invalid-tool-arguments'
  | 'unknown-tool-status'
  | 'unknown-state'
  | 'invalid-patch'
  | 'invalid-envelope'
  | 'unclosed-brackets'
  | PlacementRefusalCode;

/** What one AG-UI event decoded to: zero or more envelopes (brackets yield none), and what was not carried. */
export interface AgUiDecoded<Envelope = ChatEventEnvelope> {
  readonly ok: true;
  readonly envelopes: readonly Envelope[];
  readonly lost: readonly AgUiLoss[];
}

/** Result of {@link AgUiDecoder.decode}. */
export type DecodeAgUiEventResult<Envelope = ChatEventEnvelope> = AgUiDecoded<Envelope> | ChatRefusal<DecodeAgUiEventRefusalCode>;

/** A stateful AG-UI → v1 decoder for one conversation's stream. */
export interface AgUiDecoder<Envelope = ChatEventEnvelope> {
  /**
   * Decodes one AG-UI event (unknown input). Never throws on its input (it is read once, as plain data); an
   * exception of the host's own callbacks propagates.
   */
  decode(event: unknown): DecodeAgUiEventResult<Envelope>;
  /** How many events were refused so far, by code. */
  refusals(): Readonly<Partial<Record<DecodeAgUiEventRefusalCode, number>>>;
}
