/**
 * Where a turn stands, read from the stores without side effects: recovery's
 * `readTurnStatus` (the turn record says whether it exists in this
 * conversation and whether its cancellation committed; the event log's newest
 * frame says how it ended), in the shape the host's routes use. It is
 * recovery's `TurnStatusResponse` without the turn id.
 */
import type { ChatTurnStatus } from '@papercusp/chat-protocol-core';
import { readTurnStatus, type ChatEventLog, type RunLease, type TurnStore } from '@papercusp/chat-protocol-recovery';

/** A turn's status, the seq of its latest frame (0: none yet), and for a running turn the run that owns it until when. */
export interface TurnProgress {
  readonly status: ChatTurnStatus;
  readonly lastSeq: number;
  readonly run?: RunLease;
}

/**
 * The progress of `turnId` in `conversationId`: `null` when no such turn is in
 * this conversation (a turn of another conversation is `null` too), and
 * `'unavailable'` when a store could not answer. Reads only the latest frame.
 * Never rejects.
 */
export async function readTurnProgress(
  store: { readonly turnStore: TurnStore<unknown, never>; readonly eventLog: ChatEventLog },
  conversationId: string,
  turnId: string,
): Promise<TurnProgress | null | 'unavailable'> {
  const read = await readTurnStatus(
    { store: store.turnStore, replayWindow: (request) => store.eventLog.replayWindow(request) },
    { conversationId, turnId },
  );
  // The host passes ids its routes validated, so a refusal here is the store's: unavailable.
  if (!read.ok) return 'unavailable';
  const { value } = read;
  if (value.status === 'not-found') return null;
  const { status, lastSeq, run } = value;
  return run === undefined ? { status, lastSeq } : { status, lastSeq, run };
}
