/**
 * The AI SDK 6 UI message stream to strict v1 envelopes. One stream is one
 * assistant message, so one turn; the host's context supplies the
 * conversation, the turn, each event id and time, and the seq (as the legacy
 * adapter's decoder context does). Chunks with no v1 meaning are refused and
 * counted; an outcome the stream does not state is never made a success; and
 * a chunk whose envelope core's reducer would refuse after the ones already
 * made is refused here instead, so one bad chunk never costs the rest of the turn.
 *
 * This module owns the pipeline and the decoder's counts: a chunk is read once, judged against the turn so far, its
 * envelopes made with the host's identities, and only then is the turn's record changed. What each chunk means is
 * `chunk-events.ts`', the reducer's rules are `placement.ts`', the held `data-*` parts are `carried-parts.ts`'.
 */
import { type ChatEventEnvelope, type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { createCarriedParts, dropToolResultPart, encodeWithParts, holdPart } from './carried-parts.js';
import { AI_SDK_ERROR_CODE, eventsOf } from './chunk-events.js';
import { TRANSPORT, dataLost, lostFields } from './chunk-vocabulary.js';
import type { AiSdkDecodeRefusalCode, AiSdkDecodeResult, AiSdkDecoder, AiSdkDecoderContext } from './decoder-types.js';
import { commitEvent, createTurnPlacement, placementRefusal } from './placement.js';
import { readChunk, readDecoderHost, type Fields } from './read-chunk.js';

/**
 * Creates the reader for one UI message stream (one assistant message, one
 * v1 turn).
 *
 * Guarantees:
 * - every envelope passes the strict v1 encoder, with the context's ids, time
 *   and a contiguous seq from `firstSeq`;
 * - core's `applyChatEvent`, given the envelopes in order (after the earlier
 *   turns the context's `awaitingCards` come from), applies every one: a
 *   chunk whose envelope it would refuse (a second outcome for a call, a card
 *   asked twice or closed unasked, a stale state, a misplaced user input) is
 *   refused here with the reducer's code, counted, and uses up no seq;
 * - `tool-output-available` (final) is `succeeded`, `tool-output-error` and
 *   `tool-input-error` are `failed`, `tool-output-denied` is `cancelled`; a
 *   preliminary output is refused (`unknown-status`): no outcome is invented;
 * - an `error` chunk is a v1 `error` with `retryable: false` (the chunk grants
 *   no retry) and the code {@link AI_SDK_ERROR_CODE}; `finish` is `done`
 *   completed (its reason the `stopReason`), `abort` is `done` cancelled;
 * - a chunk's fields v1 cannot hold are listed in `lost`; a refused chunk
 *   yields nothing and is counted by its code;
 * - `decode` never throws: a chunk is read once, as its JSON text carries it,
 *   so getters and Proxy traps run only there and a failing read is
 *   `invalid-chunk`.
 *
 * Throws `TypeError` at creation only, when the context cannot be read, has
 * no `identify` function, or has `awaitingCards` that are not strings; the
 * context is read once, here.
 */
export function createAiSdkDecoder(context: AiSdkDecoderContext): AiSdkDecoder {
  const { conversationId, turnId, identify, firstSeq, awaitingCards } = readDecoderHost(context);
  // What the envelopes made so far told core's reducer: the rules in placement.ts refuse what it would.
  const placement = createTurnPlacement(firstSeq, awaitingCards);
  const parts = createCarriedParts();
  // A card made from an approval request is created when the host records its envelope.
  const approvalCards = new WeakSet<object>();
  const counts = { decoded: 0, transport: 0, refused: 0 };
  const refusals: Partial<Record<AiSdkDecodeRefusalCode, number>> = {};

  function refused(code: AiSdkDecodeRefusalCode, message: string, issues?: ChatRefusal<string>['issues']): AiSdkDecodeResult {
    counts.refused += 1;
    refusals[code] = (refusals[code] ?? 0) + 1;
    return refuse(code, message, issues);
  }

  function decodeChunk(chunk: Fields, type: string): AiSdkDecodeResult {
    const lost = lostFields(chunk, type);
    if (placement.terminal) {
      if (type === 'finish' || type === 'finish-step') {
        counts.transport += 1;
        return { ok: true, envelopes: [], lost };
      }
      return refused('turn-terminal', `a ${type} chunk after the turn ended`);
    }
    if (TRANSPORT.has(type)) {
      counts.transport += 1;
      return { ok: true, envelopes: [], lost };
    }
    const held = holdPart(parts, chunk, type);
    if (held !== undefined) {
      if (held !== 'held') return refused(held.code, held.message);
      counts.transport += 1;
      return { ok: true, envelopes: [], lost };
    }
    const events = eventsOf(chunk, type, lost, placement, approvalCards);
    if (!Array.isArray(events)) return refused(events.code, events.message);
    const misplaced = placementRefusal(placement, events);
    if (misplaced !== undefined) return refused(misplaced.code, misplaced.message);
    const envelopes: ChatEventEnvelope[] = [];
    // Whether the chunk's tool result read the part written before it (or reported why not).
    let readDetail = false;
    const { seq } = placement;
    for (const [index, event] of events.entries()) {
      const { eventId, occurredAt } = identify({ seq: seq + index, chunk });
      if (approvalCards.has(event)) (event['card'] as Record<string, unknown>)['createdAt'] = occurredAt;
      const record = { schemaVersion: 1, conversationId, turnId, eventId, seq: seq + index, occurredAt };
      const made = encodeWithParts(parts, placement, record, event, type, lost);
      if (made.readDetail) readDetail = true;
      const { encoded } = made;
      if (!encoded.ok) return refused('invalid-envelope', encoded.message, encoded.issues);
      envelopes.push(encoded.envelope);
    }
    placement.seq += envelopes.length;
    for (const envelope of envelopes) commitEvent(placement, envelope.event);
    dropToolResultPart(parts, chunk, type, readDetail, lost);
    counts.decoded += 1;
    return { ok: true, envelopes, lost: [...lost, ...dataLost(chunk, type)] };
  }

  return {
    decode(input) {
      const chunk = readChunk(input);
      if (chunk === undefined) return refused('invalid-chunk', 'a UI message chunk is a JSON object with a string type');
      return decodeChunk(chunk, chunk['type'] as string);
    },
    counts() {
      return { ...counts, refusals: { ...refusals } };
    },
  };
}
