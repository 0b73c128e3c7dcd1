/**
 * Where a turn stands, read from the stores without side effects: the turn
 * record says whether it exists in this conversation and whether its
 * cancellation committed; the event log's last frame says how it ended. It is
 * recovery's `TurnStatusResponse` without the turn id.
 */
import type { ChatTurnStatus } from '@papercusp/chat-protocol-core';
import type { ChatEventLog, TurnStore } from '@papercusp/chat-protocol-recovery';

/** A turn's status and the seq of its latest frame (0: none yet). */
export interface TurnProgress {
  readonly status: ChatTurnStatus;
  readonly lastSeq: number;
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
  try {
    const stored = await store.turnStore.read(turnId);
    if (stored === null || stored.record.conversationId !== conversationId) return null;
    const latest = await store.eventLog.replayWindow({ conversationId, turnId, after: Number.MAX_SAFE_INTEGER });
    const lastSeq = latest.latestSeq;
    const last =
      lastSeq === 0 ? undefined : (await store.eventLog.replayWindow({ conversationId, turnId, after: lastSeq - 1 })).frames.at(-1);
    const event = last?.event;
    if (event?.type === 'done') return { status: event.status, lastSeq };
    if (event?.type === 'error') return { status: 'failed', lastSeq };
    return { status: stored.record.status === 'cancelled' ? 'cancelled' : 'running', lastSeq };
  } catch {
    return 'unavailable';
  }
}
