/**
 * The envelope of one host-written frame: a turn's frames carry the event id
 * `evt_<turnId>_<seq>`, so whoever writes seq `n` of a turn (its run, or the
 * host closing an abandoned turn) claims the same id and the event log's
 * uniqueness lets exactly one of them commit it.
 */
import type { ChatEventEnvelope, ChatEventV1 } from '@papercusp/chat-protocol-core';

/** The v1 envelope of `event` at `seq` of the turn, dated now by `clock`. */
export function turnFrame(
  turn: { readonly conversationId: string; readonly turnId: string },
  seq: number,
  event: ChatEventV1,
  clock: () => string,
): ChatEventEnvelope {
  return {
    schemaVersion: 1,
    conversationId: turn.conversationId,
    turnId: turn.turnId,
    eventId: `evt_${turn.turnId}_${seq}`,
    seq,
    occurredAt: clock(),
    event,
  };
}
