/**
 * The AI SDK decoder's public types: what the host tells it about the stream, what one chunk decodes to, its refusal
 * codes and its counts. Types only; nothing here runs. The decoding is `create-ai-sdk-decoder.ts`' and the modules
 * it composes.
 */
import type { ChatEventEnvelope, ChatRefusal } from '@papercusp/chat-protocol-core';
import type { AiSdkLoss } from '../ui-message-chunk.js';

/** What the host tells the decoder about the stream. */
export interface AiSdkDecoderContext {
  readonly conversationId: string;
  /** The turn the stream's message belongs to (the stream's `messageId` is not a v1 id). */
  readonly turnId: string;
  /** The seq of the first envelope; 1 unless the turn already has envelopes. */
  readonly firstSeq?: number | undefined;
  /**
   * The host's event id and time for the envelope about to be made at `seq`
   * from `chunk`. Called only for chunks that decode; the seq advances only
   * when an envelope is produced, so a refused chunk never uses one up.
   */
  readonly identify: (request: { readonly seq: number; readonly chunk: Readonly<Record<string, unknown>> }) => {
    readonly eventId: string;
    readonly occurredAt: string;
  };
  /**
   * The correlation ids of the cards earlier turns of the conversation left
   * waiting (their `done.awaiting`, not closed since): a `data-card-closed` or
   * an approval response of this stream may close them (DESIGN §3.3). Any
   * other card the stream did not ask is `unknown-card`.
   */
  readonly awaitingCards?: readonly string[] | undefined;
}

/** Refusal codes of {@link AiSdkDecoder.decode}. */
export type AiSdkDecodeRefusalCode =
  /** Not a UI message chunk: not an object with a string `type`, or a field of the wrong type. */
  | 'invalid-chunk'
  /** A chunk with no v1 meaning (sources, files, message metadata, a `data-*` part this package does not write, an unknown type). */
  | 'unsupported-chunk'
  /** A tool output, error, denial or approval request for a call the stream never announced (a call of an earlier stream included). */
  | 'unknown-tool-call'
  /** A `data-card-closed` or AI SDK 7 `tool-approval-response` for a card or approval the stream never asked (nor one the context names waiting). */
  | 'unknown-card'
  /** A second `tool-input-available` or `tool-input-error` for a call. */
  | 'duplicate-tool-call'
  /** A second outcome for a call: `ai` writes `tool-input-error` then `tool-output-error` for an unknown tool or an invalid input. */
  | 'duplicate-tool-result'
  /** A `data-card` for a card already asked (by a `data-card`, an approval request, or an earlier turn still waiting for it). */
  | 'duplicate-card'
  /** A `data-card-closed` or approval response for a card already closed. */
  | 'card-closed'
  /** A `data-state` whose version is not after the last one. */
  | 'stale-state'
  /** A `data-user-input` that would not be the turn's first envelope (seq 1). */
  | 'misplaced-user-input'
  /** A preliminary tool output: it states no outcome, so it is never read as a success. */
  | 'unknown-status'
  /** A chunk after the turn's terminal chunk (`finish`, `abort`, `error`). */
  | 'turn-terminal'
  /** The lifted envelope fails the strict v1 encoder (the issues name the field). */
  | 'invalid-envelope';

/** What one chunk decoded to: zero or more envelopes (a `tool-input-error` is a call and its failure). */
export type AiSdkDecodeResult =
  | {
      readonly ok: true;
      readonly envelopes: readonly ChatEventEnvelope[];
      readonly lost: readonly AiSdkLoss[];
    }
  | ChatRefusal<AiSdkDecodeRefusalCode>;

/** Running counts of a decoder. Every chunk lands in exactly one of `decoded`, `transport`, `refused`. */
export interface AiSdkDecoderCounts {
  /** Chunks read for their meaning: envelopes, or none for an approval request a `data-card` already announced. */
  readonly decoded: number;
  /** Structural chunks (`start`, `start-step`, part starts and ends, input streaming): no envelope. */
  readonly transport: number;
  readonly refused: number;
  readonly refusals: Readonly<Partial<Record<AiSdkDecodeRefusalCode, number>>>;
}

/** A stateful reader for one UI message stream: see `createAiSdkDecoder`. */
export interface AiSdkDecoder {
  /** Decodes one chunk (the parsed JSON of one SSE `data:` line). Never throws on any input. */
  decode(chunk: unknown): AiSdkDecodeResult;
  /** A snapshot of the counts so far. */
  counts(): AiSdkDecoderCounts;
}
