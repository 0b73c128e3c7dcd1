/**
 * The cancel-a-turn use case (`POST /turns/:turnId/cancel`): recovery's
 * `cancelTurn` commits the cancellation, then this process's run is stopped;
 * a run another process holds sees the record, and a run that is gone has
 * its log closed after the grace. It owns that order; the caller's authority
 * is the route's first check (and recovery's, on the turn).
 */
import type { ChatHostCaller } from '../chat-host-caller.js';
import { closeTurnLog } from '../run/close-turn-log.js';
import { NOT_FOUND, hostRefusal, type HostResult } from './host-refusal.js';
import type { HostRuntime } from './host-runtime.js';
import { readTurnProgress } from './turn-progress.js';

/** The turn to cancel, and who asks. */
export interface CancelTurnRequest {
  readonly caller: ChatHostCaller;
  readonly conversationId: string;
  readonly turnId: string;
}

/** What a committed cancellation answers: recovery's `committed` and the effect ids still in flight. */
export interface CancelledTurn {
  readonly turnId: string;
  readonly committed: boolean;
  readonly inFlight: readonly string[];
}

/**
 * Cancels a running (or already cancelled) turn. Refusals: `not-found` (no
 * such turn in the conversation, or recovery refuses the caller),
 * `turn-finished` with `{ turnId, status }` for a turn that ended otherwise,
 * `store-unavailable`. Never rejects.
 */
export async function cancelTurn(runtime: HostRuntime, request: CancelTurnRequest): Promise<HostResult<CancelledTurn>> {
  const { caller, conversationId, turnId } = request;
  const progress = await readTurnProgress(runtime.store, conversationId, turnId);
  if (progress === 'unavailable') return hostRefusal('store-unavailable', 'the turn could not be read');
  if (progress === null) return NOT_FOUND;
  if (progress.status !== 'running' && progress.status !== 'cancelled') {
    return hostRefusal('turn-finished', `the turn already ended: ${progress.status}`, { turnId, status: progress.status });
  }
  const cancelled = await runtime.recovery.cancelTurn({ caller, conversationId, turnId });
  if (!cancelled.ok) {
    return cancelled.code === 'forbidden' || cancelled.code === 'unknown-turn'
      ? NOT_FOUND
      : hostRefusal('store-unavailable', cancelled.message);
  }
  // The cancellation committed: now stop this process's run, which writes the turn's `done { status: 'cancelled' }`.
  const run = runtime.runs.get(turnId);
  run?.stop('cancelled');
  // Another process's run sees the record within cancelPollMs; if none wrote the terminal frame by the grace, its run is gone.
  if (run === undefined) {
    const { store, resolver, clock } = runtime;
    const timer = setTimeout(() => {
      void closeTurnLog({ conversationId, turnId, caller, eventLog: store.eventLog, resolver, clock }, { status: 'cancelled' }).catch(
        () => undefined,
      );
    }, runtime.abandonedTurnGraceMs);
    timer.unref?.();
  }
  return { ok: true, value: { turnId, committed: cancelled.committed, inFlight: cancelled.inFlight } };
}
