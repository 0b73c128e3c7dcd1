/**
 * `readTurnStatus`: where a turn stands, as a turn-status response (DESIGN
 * §6, the host's `GET /turns/by-client-id/:clientTurnId`), read from the
 * store's turn record and the event log's newest frame with no side effect.
 * It owns the rule that joins the two: the log's terminal frame says how the
 * turn ended, the record says whether it exists in this conversation and
 * whether its cancellation or interruption committed and which run owns it
 * until when. It authorizes nothing: the host checks
 * the caller first, as it does before every read.
 */
import { type ChatRefusal, type ChatTurnStatus } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { ReplayWindow, ReplayWindowRequest, TurnStore } from './adapter.js';
import { readTurnRequest } from './turn-requests.js';
import { isFinishedTurnStatus, type RunLease } from './turn-record.js';

/** What {@link readTurnStatus} reads: the store's turn records and the turn's replay window (a `ChatEventLog`'s or the adapter's). */
export interface TurnStatusSource {
  readonly store: Pick<TurnStore<unknown, never>, 'read'>;
  replayWindow(request: ReplayWindowRequest): Promise<ReplayWindow>;
}

/** Which turn: its conversation and id. */
export interface ReadTurnStatusRequest {
  readonly conversationId: string;
  readonly turnId: string;
}

/**
 * A turn-status response (`TurnStatusResponse`) in which a stored turn always
 * carries `lastSeq`, the seq of its newest frame (0: none yet), and a running
 * turn whose record names its run carries `run` (§6 rule 12).
 */
export type TurnStatusReading =
  | { readonly turnId: string; readonly status: ChatTurnStatus; readonly lastSeq: number; readonly run?: RunLease }
  | { readonly turnId: string; readonly status: 'not-found' };

/** Refusal codes of {@link readTurnStatus}: `invalid-request` (no v1 ids, or unreadable), `store-unavailable` (a read threw). */
export type ReadTurnStatusRefusalCode = 'invalid-request' | 'store-unavailable';

/** The answer of {@link readTurnStatus}. */
export type ReadTurnStatusResult = { readonly ok: true; readonly value: TurnStatusReading } | ChatRefusal<ReadTurnStatusRefusalCode>;

/**
 * Reads the status of `request.turnId` in `request.conversationId`.
 * Guarantees: `not-found` for a turn the store does not hold, or one of
 * another conversation (nothing leaks about it); otherwise the newest frame
 * decides: `done` gives its `status`, `error` gives `failed`; without a
 * terminal frame the turn is `cancelled` once its cancellation committed,
 * `interrupted` once its interruption did, or `running` (with the owning
 * `run` and its lease deadline when the record names one: a deadline in the
 * past tells the caller it may interrupt the turn). `lastSeq` is the seq of the newest frame. It writes nothing and
 * reads only the record and the newest frame. The request is read once; one
 * that cannot be read is `invalid-request`; a read that throws is
 * `store-unavailable`. Never rejects.
 */
export async function readTurnStatus(source: TurnStatusSource, request: ReadTurnStatusRequest): Promise<ReadTurnStatusResult> {
  const fields = readTurnRequest(request, []);
  if (fields === null) return refuse('invalid-request', 'expected v1 ids for the conversation and turn');
  const { conversationId, turnId } = fields;
  try {
    const stored = await source.store.read(turnId);
    if (stored === null || stored.record.conversationId !== conversationId) return { ok: true, value: { turnId, status: 'not-found' } };
    // The newest seq first, then the window from just before it: the frame at the end of that window is the newest.
    const { latestSeq } = await source.replayWindow({ conversationId, turnId, after: Number.MAX_SAFE_INTEGER });
    const newest =
      latestSeq === 0 ? undefined : (await source.replayWindow({ conversationId, turnId, after: latestSeq - 1 })).frames.at(-1);
    const event = newest?.event;
    const recorded = stored.record.status;
    // Without a terminal frame (none yet, or pruned) the record says how the turn ended; anything else is running.
    const status: ChatTurnStatus =
      event?.type === 'done'
        ? event.status
        : event?.type === 'error'
          ? 'failed'
          : recorded === 'cancelled' || recorded === 'interrupted' || isFinishedTurnStatus(recorded)
            ? recorded
            : 'running';
    const { run } = stored.record;
    const owner = status === 'running' && run !== undefined ? { run: { runId: run.runId, leaseExpiresAt: run.leaseExpiresAt } } : {};
    return { ok: true, value: { turnId, status, lastSeq: latestSeq, ...owner } };
  } catch {
    return refuse('store-unavailable', 'the turn or its log could not be read');
  }
}
