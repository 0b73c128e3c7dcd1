/**
 * The two `data-*` parts this package's encoder writes just before a chunk, with the v1 fields the chunk cannot hold:
 * `data-turn-end` before a turn's terminal chunk (a done's usage, awaiting cards, an error's retry) and
 * `data-tool-result` before a failed or cancelled tool outcome (its summary, blocks and status). The decoder holds
 * each part and folds it into the envelope of the chunk after it; what does not fit is dropped and reported lost,
 * never costing the turn its end or the call its result. It owns the held parts and that folding.
 */
import { CHAT_EVENT_FIELDS, encodeChatEnvelope, type EncodeChatEnvelopeResult } from '@papercusp/chat-protocol-core';
import { AI_SDK_TOOL_RESULT_PART, AI_SDK_TURN_END_PART, type AiSdkLoss } from '../ui-message-chunk.js';
import type { ChunkRefusal, TurnPlacement } from './placement.js';
import { isRecord, type Fields } from './read-chunk.js';

/** The parts held for the chunks after them. */
export interface CarriedParts {
  turnEnd: Fields | undefined;
  // The v1 fields of a failed or cancelled tool result, by call id, from the part written before its chunk.
  readonly toolResults: Map<string, Fields>;
}

/** No part held. */
export function createCarriedParts(): CarriedParts {
  return { turnEnd: undefined, toolResults: new Map() };
}

/** Holds a part chunk: `held`, its refusal when malformed, or `undefined` when the chunk is no part this module holds. */
export function holdPart(parts: CarriedParts, chunk: Fields, type: string): 'held' | ChunkRefusal | undefined {
  if (type === AI_SDK_TURN_END_PART) {
    const data = chunk['data'];
    if (!isRecord(data)) return { code: 'invalid-chunk', message: 'a data-turn-end part needs a data object' };
    parts.turnEnd = data;
    return 'held';
  }
  if (type === AI_SDK_TOOL_RESULT_PART) {
    const data = chunk['data'];
    const id = chunk['id'];
    if (!isRecord(data) || typeof id !== 'string')
      return { code: 'invalid-chunk', message: 'a data-tool-result part needs a string id and a data object' };
    parts.toolResults.set(id, data);
    return 'held';
  }
  return undefined;
}

/**
 * Encodes `event` in `record` with the held part folded in: the turn-end fields into a terminal event, the tool
 * result part into the result of the same call when its status agrees with the chunk's. `readDetail` says whether
 * the chunk's tool result read its part. What the part or the chunk adds that v1 cannot hold is dropped and reported.
 */
export function encodeWithParts(
  parts: CarriedParts,
  placement: TurnPlacement,
  record: Omit<Parameters<typeof encodeChatEnvelope>[0], 'event'>,
  event: Record<string, unknown>,
  type: string,
  lost: AiSdkLoss[],
): { readonly encoded: EncodeChatEnvelopeResult; readonly readDetail: boolean } {
  const terminalEvent = event['type'] === 'done' || event['type'] === 'error';
  const detail = event['type'] === 'tool_result' ? toolResultDetail(parts, event, type) : undefined;
  const merged =
    terminalEvent && parts.turnEnd !== undefined
      ? { ...event, ...placedTurnEnd(placement, parts.turnEnd, event, lost), type: event['type'] }
      : detail !== undefined
        ? // The call's id and name are the chunk's: a part cannot move the result to another call.
          { ...detail, type: 'tool_result', callId: event['callId'], name: event['name'] }
        : event;
  let encoded = encodeChatEnvelope({ ...record, event: merged });
  // What the turn-end part or the chunk adds that v1 cannot hold never costs the turn its end: it is dropped and reported.
  if (!encoded.ok && merged !== event) {
    encoded = encodeChatEnvelope({ ...record, event });
    const part = detail === undefined ? AI_SDK_TURN_END_PART : AI_SDK_TOOL_RESULT_PART;
    if (encoded.ok) lost.push({ field: part, reason: `its fields do not fit the ${String(event['type'])} event` });
  }
  if (!encoded.ok && event['type'] === 'done' && event['stopReason'] !== undefined) {
    const { stopReason: _stopReason, ...withoutReason } = event;
    encoded = encodeChatEnvelope({ ...record, event: withoutReason });
    if (encoded.ok) lost.push({ field: type === 'finish' ? 'finishReason' : 'reason', reason: 'not a v1 stop reason' });
  }
  if (encoded.ok && merged !== event && detail === undefined) lost.push(...turnEndLost(merged));
  return { encoded, readDetail: detail !== undefined };
}

/**
 * After a tool outcome chunk's envelopes were made: its call's held part is dropped, and reported lost when the
 * chunk did not read it (its status did not fit).
 */
export function dropToolResultPart(parts: CarriedParts, chunk: Fields, type: string, readDetail: boolean, lost: AiSdkLoss[]): void {
  const stale = typeof chunk['toolCallId'] === 'string' && type.startsWith('tool-output-') ? chunk['toolCallId'] : undefined;
  if (stale !== undefined && parts.toolResults.delete(stale) && !readDetail) {
    lost.push({ field: AI_SDK_TOOL_RESULT_PART, reason: `its status does not fit the ${type} chunk after it` });
  }
}

// The part's fields for the failed or cancelled result of the same call, when its status agrees with the chunk's.
function toolResultDetail(parts: CarriedParts, event: Fields, type: string): Fields | undefined {
  const detail = parts.toolResults.get(event['callId'] as string);
  if (detail === undefined) return undefined;
  const agrees =
    type === 'tool-output-denied'
      ? detail['status'] === 'cancelled'
      : type === 'tool-output-error' && (detail['status'] === 'failed' || detail['status'] === 'needs-reconciliation');
  return agrees ? detail : undefined;
}

// The turn-end fields the terminal event may take: a done awaits only cards this stream asked and left open.
function placedTurnEnd(placement: TurnPlacement, fields: Fields, event: Fields, lost: AiSdkLoss[]): Fields {
  const awaiting = fields['awaiting'];
  if (event['type'] !== 'done' || !Array.isArray(awaiting)) return fields;
  const open = awaiting.every((correlationId) => {
    const card = typeof correlationId === 'string' ? placement.cards.get(correlationId) : undefined;
    return card !== undefined && card.own && !card.closed;
  });
  if (open) return fields;
  lost.push({ field: `${AI_SDK_TURN_END_PART}.awaiting`, reason: 'it names a card this stream did not ask or already closed' });
  const { awaiting: _awaiting, ...rest } = fields;
  return rest;
}

/** Turn-end fields the terminal event does not have (the strict encoder drops them). */
function turnEndLost(event: Fields): AiSdkLoss[] {
  const type = event['type'] as 'done' | 'error';
  const allowed: readonly string[] = CHAT_EVENT_FIELDS[type];
  return Object.keys(event)
    .filter((field) => !allowed.includes(field))
    .map((field) => ({ field: `${AI_SDK_TURN_END_PART}.${field}`, reason: `a v1 ${type} event has no ${field}` }));
}
