/**
 * v1 envelopes to the AI SDK 6 UI message stream. One turn is one assistant
 * UI message: the encoder opens it with `start`, opens and closes the text and
 * reasoning parts around the deltas, and ends it with `finish`, `abort` or
 * `error`. v1 events the stream has no chunk for travel as `data-*` parts.
 * What a chunk cannot carry is returned as loss; it owns no transport.
 */
import {
  isProductEventName,
  parseChatEnvelope,
  type ChatEventEnvelope,
  type ChatEventV1,
  type ChatRefusal,
  type ParseChatEnvelopeRefusalCode,
} from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import {
  AI_SDK_DATA_PARTS,
  AI_SDK_FINISH_REASONS,
  AI_SDK_TOOL_RESULT_PART,
  AI_SDK_TURN_END_PART,
  type AiSdkFinishReason,
  type AiSdkLoss,
  type AiSdkUiMessageChunk,
} from '../ui-message-chunk.js';

/** Refusal codes of {@link AiSdkEncoder.encode}: the strict parser's, for an input that is not a v1 envelope. */
export type AiSdkEncodeRefusalCode = ParseChatEnvelopeRefusalCode;

/** What one envelope became. */
export type AiSdkEncodeResult =
  | {
      readonly ok: true;
      /** `encoded`, or `duplicate` for an envelope at or below the turn's last seq (replay overlap: no chunks). */
      readonly outcome: 'encoded' | 'duplicate';
      readonly chunks: readonly AiSdkUiMessageChunk[];
      readonly lost: readonly AiSdkLoss[];
    }
  | ChatRefusal<AiSdkEncodeRefusalCode>;

/** A stateful encoder for one conversation's stream: see {@link createAiSdkEncoder}. */
export interface AiSdkEncoder {
  /** Encodes one v1 envelope. Never throws on any input. */
  encode(envelope: unknown): AiSdkEncodeResult;
  /** The chunks that close the open text or reasoning part, for a stream that ends without a terminal event. */
  close(): readonly AiSdkUiMessageChunk[];
}

interface TurnBrackets {
  readonly turnId: string;
  lastSeq: number;
  parts: number;
  open: { readonly kind: 'text' | 'reasoning'; readonly id: string } | null;
  /** Calls of this message in order, with whether their result was written. */
  readonly calls: Map<string, { readonly name: string; resulted: boolean }>;
}

const FINISH_REASONS: readonly string[] = AI_SDK_FINISH_REASONS;

/**
 * Creates the encoder for one conversation's envelopes in delivery order.
 *
 * Guarantees:
 * - every chunk passes the AI SDK 6 `uiMessageChunkSchema` as the JSON text it
 *   travels in (no field is `undefined`), and the chunks of
 *   one turn drive the AI SDK's `readUIMessageStream` to one assistant message
 *   (message id = the turn id);
 * - text and reasoning parts are opened before their first delta and closed
 *   before any other chunk; a tool result or approval request refers only to
 *   a tool call written in the same message;
 * - a redelivered envelope (seq at or below the turn's last) yields no chunks
 *   (`duplicate`), so replay overlap never repeats text;
 * - what a chunk cannot carry is listed in `lost` (see the README's table);
 *   nothing is dropped silently and the input is never mutated.
 */
export function createAiSdkEncoder(): AiSdkEncoder {
  const turns = new Map<string, TurnBrackets>();
  let current: TurnBrackets | null = null;

  function closeOpen(chunks: AiSdkUiMessageChunk[]): void {
    if (current?.open) {
      chunks.push({ type: current.open.kind === 'text' ? 'text-end' : 'reasoning-end', id: current.open.id });
      current.open = null;
    }
  }

  function openPart(kind: 'text' | 'reasoning', turn: TurnBrackets, chunks: AiSdkUiMessageChunk[]): string {
    if (turn.open?.kind === kind) return turn.open.id;
    closeOpen(chunks);
    turn.parts += 1;
    const id = `${turn.turnId}:${kind}:${turn.parts}`;
    turn.open = { kind, id };
    chunks.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', id });
    return id;
  }

  return {
    encode(input) {
      const parsed = parseChatEnvelope(input);
      if (!parsed.ok) {
        if (parsed.code === 'unknown-event' && isProductEventName(productType(input))) {
          return {
            ok: true,
            outcome: 'encoded',
            chunks: [],
            lost: [{ field: 'event', reason: 'a product event has no UI message chunk' }],
          };
        }
        return refuse(parsed.code, parsed.message, parsed.issues);
      }
      const envelope: ChatEventEnvelope = parsed.value;
      const known = turns.get(envelope.turnId);
      if (known !== undefined && envelope.seq <= known.lastSeq) return { ok: true, outcome: 'duplicate', chunks: [], lost: [] };
      const chunks: AiSdkUiMessageChunk[] = [];
      let turn = known;
      if (turn === undefined || turn !== current) {
        closeOpen(chunks);
        if (turn === undefined) {
          turn = { turnId: envelope.turnId, lastSeq: 0, parts: 0, open: null, calls: new Map() };
          turns.set(envelope.turnId, turn);
        }
        current = turn;
        chunks.push({ type: 'start', messageId: envelope.turnId });
      }
      turn.lastSeq = envelope.seq;
      const lost: AiSdkLoss[] = [];
      encodeEvent(envelope.event, turn, chunks, lost);
      return { ok: true, outcome: 'encoded', chunks, lost };
    },
    close() {
      const chunks: AiSdkUiMessageChunk[] = [];
      closeOpen(chunks);
      return chunks;
    },
  };

  function encodeEvent(event: ChatEventV1, turn: TurnBrackets, chunks: AiSdkUiMessageChunk[], lost: AiSdkLoss[]): void {
    if (event.type === 'delta' || event.type === 'reasoning') {
      const id = openPart(event.type === 'delta' ? 'text' : 'reasoning', turn, chunks);
      chunks.push({ type: event.type === 'delta' ? 'text-delta' : 'reasoning-delta', id, delta: event.text });
      return;
    }
    closeOpen(chunks);
    switch (event.type) {
      case 'user_input':
        chunks.push({ type: AI_SDK_DATA_PARTS.user_input, data: withoutType(event) });
        return;
      case 'provenance':
        chunks.push({ type: AI_SDK_DATA_PARTS.provenance, id: 'provenance', data: withoutType(event) });
        return;
      case 'state':
        chunks.push({ type: AI_SDK_DATA_PARTS.state, id: 'state', data: withoutType(event) });
        return;
      case 'navigate':
        chunks.push({ type: AI_SDK_DATA_PARTS.navigate, data: withoutType(event), transient: true });
        return;
      case 'card': {
        chunks.push({ type: AI_SDK_DATA_PARTS.card, id: event.card.correlationId, data: event.card });
        const callId = event.card.approval === undefined ? undefined : lastOpenCall(turn);
        if (callId !== undefined) chunks.push({ type: 'tool-approval-request', approvalId: event.card.correlationId, toolCallId: callId });
        return;
      }
      case 'card_closed':
        chunks.push({ type: AI_SDK_DATA_PARTS.card_closed, id: event.correlationId, data: withoutType(event) });
        return;
      case 'tool_call':
        turn.calls.set(event.callId, { name: event.name, resulted: false });
        // The AI SDK's schema requires the input key, which JSON drops from an undefined value; null is what
        // core's state holds for a call without input, and the absence itself is reported.
        if (event.input === undefined)
          lost.push({ field: 'event.input', reason: 'absent, and a tool-input-available chunk needs an input: written as null' });
        chunks.push({ type: 'tool-input-available', toolCallId: event.callId, toolName: event.name, input: event.input ?? null });
        return;
      case 'tool_result':
        encodeToolResult(event, turn, chunks, lost);
        return;
      case 'done':
        encodeDone(event, chunks);
        return;
      case 'error': {
        const { type: _type, message, ...rest } = event;
        chunks.push({ type: AI_SDK_TURN_END_PART, data: rest });
        chunks.push({ type: 'error', errorText: message });
        return;
      }
    }
  }
}

function encodeToolResult(
  event: Extract<ChatEventV1, { type: 'tool_result' }>,
  turn: TurnBrackets,
  chunks: AiSdkUiMessageChunk[],
  lost: AiSdkLoss[],
): void {
  const call = turn.calls.get(event.callId);
  if (call === undefined) {
    lost.push({ field: 'event', reason: 'the tool call is not in this message, and a tool output must follow its call' });
    return;
  }
  call.resulted = true;
  if (event.status === 'succeeded') {
    const output: { summary?: string; blocks?: unknown } = {};
    if (event.summary !== undefined) output.summary = event.summary;
    if (event.blocks !== undefined) output.blocks = event.blocks;
    chunks.push({ type: 'tool-output-available', toolCallId: event.callId, output });
    if (event.error !== undefined) lost.push({ field: 'event.error', reason: 'a tool output has no error beside it' });
    return;
  }
  // A denial carries nothing and an error only its text: the rest of the v1 result travels in the part before it.
  const { type: _type, callId: _callId, name: _name, ...result } = event;
  const whole =
    event.status === 'cancelled'
      ? event.summary === undefined && event.blocks === undefined && event.error === undefined
      : event.status === 'failed' && event.error !== undefined && event.summary === undefined && event.blocks === undefined;
  if (!whole) chunks.push({ type: AI_SDK_TOOL_RESULT_PART, id: event.callId, data: result });
  if (event.status === 'cancelled') {
    chunks.push({ type: 'tool-output-denied', toolCallId: event.callId });
    return;
  }
  const errorText =
    event.error ?? event.summary ?? (event.status === 'failed' ? 'the tool failed' : 'the tool outcome needs reconciliation');
  chunks.push({ type: 'tool-output-error', toolCallId: event.callId, errorText });
}

function encodeDone(event: Extract<ChatEventV1, { type: 'done' }>, chunks: AiSdkUiMessageChunk[]): void {
  // What the terminal chunk cannot hold travels in the turn-end part before it.
  const rest: Record<string, unknown> = {};
  if (event.usage !== undefined) rest['usage'] = event.usage;
  if (event.awaiting !== undefined) rest['awaiting'] = event.awaiting;
  const finishReason = event.stopReason !== undefined && FINISH_REASONS.includes(event.stopReason) ? event.stopReason : undefined;
  if (event.status === 'completed' && event.stopReason !== undefined && finishReason === undefined) rest['stopReason'] = event.stopReason;
  if (event.status !== 'completed' && event.status !== 'cancelled') rest['status'] = event.status;
  if (Object.keys(rest).length > 0) chunks.push({ type: AI_SDK_TURN_END_PART, data: rest });
  if (event.status === 'completed') {
    chunks.push(finishReason === undefined ? { type: 'finish' } : { type: 'finish', finishReason: finishReason as AiSdkFinishReason });
    return;
  }
  chunks.push(event.stopReason === undefined ? { type: 'abort' } : { type: 'abort', reason: event.stopReason });
}

function lastOpenCall(turn: TurnBrackets): string | undefined {
  let found: string | undefined;
  for (const [callId, call] of turn.calls) if (!call.resulted) found = callId;
  return found;
}

function withoutType<Event extends { readonly type: string }>(event: Event): Omit<Event, 'type'> {
  const { type: _type, ...rest } = event;
  return rest;
}

function productType(input: unknown): unknown {
  try {
    const record = typeof input === 'string' ? (JSON.parse(input) as unknown) : input;
    if (typeof record !== 'object' || record === null) return undefined;
    const event = (record as { readonly event?: unknown }).event;
    return typeof event === 'object' && event !== null ? (event as { readonly type?: unknown }).type : undefined;
  } catch {
    return undefined;
  }
}
