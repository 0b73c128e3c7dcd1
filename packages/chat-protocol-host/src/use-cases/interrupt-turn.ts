/**
 * Interrupting a turn whose run is gone (DESIGN §6 rule 12, §11.2): whoever
 * meets a running turn past its run lease — a follower of its events, the
 * status route, a resend, the cards route, the sweeper — interrupts it
 * through recovery (one fenced write, which the old run can no longer undo)
 * and writes its tail to the log; a draining host does the same for the runs
 * it gives up. It owns judging whether a turn needs it and that order; the
 * tail itself is `close-turn-log.ts`'s.
 */
import { isRunLeaseExpired } from '@papercusp/chat-protocol-recovery';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { closeTurnLog } from '../run/close-turn-log.js';
import type { HostRuntime } from './host-runtime.js';
import { readTurnProgress, type TurnProgress } from './turn-progress.js';

/** The turn to interrupt, and the caller whose authority it is done under. */
export interface InterruptTurnRequest {
  readonly caller: ChatHostCaller;
  readonly conversationId: string;
  readonly turnId: string;
  /** The run of this process that gives the turn up before its lease ends (a drain); without it, only past the lease. */
  readonly runId?: string;
}

/**
 * How it went: `interrupted` (the turn is interrupted, by this call or an
 * earlier one, and its tail was written if it could be), `lease-held` (its
 * run still holds the lease: nothing written), `not-running` (cancelled or
 * gone), `unavailable` (recovery could not answer).
 */
export type InterruptTurnOutcome = 'interrupted' | 'lease-held' | 'not-running' | 'unavailable';

/**
 * Whether a turn's progress calls for {@link interruptTurn} at `now`: it is
 * running past its run lease (or with no run named: a turn from before run
 * leases), or it was interrupted and its log has no terminal frame yet.
 */
export function needsInterruption(progress: TurnProgress, now: string): boolean {
  if (progress.status === 'interrupted') return true;
  if (progress.status !== 'running') return false;
  return isRunLeaseExpired(progress, now);
}

/**
 * Interrupts the turn and writes its tail. Guarantees: recovery decides
 * (`run-lease-held` before the deadline, unless `runId` names the owning
 * run); once the turn is interrupted — by this call or any earlier one, in
 * any process — this process's run of it stops writing, and the tail is
 * written after whatever the log holds (nothing twice: it folds the log
 * first), so a call after an interrupter that died before its tail still
 * ends the log. Never rejects.
 */
export async function interruptTurn(runtime: HostRuntime, request: InterruptTurnRequest): Promise<InterruptTurnOutcome> {
  const { caller, conversationId, turnId } = request;
  const interrupted = await runtime.recovery.interruptTurn(request);
  if (!interrupted.ok) {
    if (interrupted.code === 'run-lease-held') return 'lease-held';
    return interrupted.code === 'turn-not-running' || interrupted.code === 'unknown-turn' ? 'not-running' : 'unavailable';
  }
  runtime.runs.get(turnId)?.stop('interrupted');
  const { store, resolver, clock } = runtime;
  await closeTurnLog(
    { conversationId, turnId, caller, eventLog: store.eventLog, resolver, clock },
    { status: 'interrupted', effects: interrupted.turn.effects },
  );
  return 'interrupted';
}

/**
 * The turn's progress as {@link readTurnProgress} reads it, after
 * interrupting the turn (and writing its tail) when it
 * {@link needsInterruption}: what the status route, a resend, the cards route
 * and a follower of the turn's events go by, so whoever meets a turn whose run
 * is gone ends it. A turn recovery would not interrupt (its lease renewed
 * meanwhile, or a clock that disagrees) is answered as read. Never rejects.
 */
export async function readSettledProgress(
  runtime: HostRuntime,
  request: Omit<InterruptTurnRequest, 'runId'>,
): Promise<TurnProgress | null | 'unavailable'> {
  const { conversationId, turnId } = request;
  const progress = await readTurnProgress(runtime.store, conversationId, turnId);
  if (progress === null || progress === 'unavailable' || !needsInterruption(progress, runtime.clock())) return progress;
  return (await interruptTurn(runtime, request)) === 'interrupted' ? readTurnProgress(runtime.store, conversationId, turnId) : progress;
}
