/**
 * Interrupting a turn whose run is gone (DESIGN §6 rule 12, §11.2): whoever
 * meets a running turn past its run lease — a follower of its events, the
 * status route, a resend, the cards route, the sweeper — interrupts it
 * through recovery (one fenced write, which the old run can no longer undo)
 * and writes its tail to the log; a draining host does the same for the runs
 * it gives up. It owns judging whether a turn needs it and that order; the
 * tail itself is `close-turn-log.ts`'s.
 */
import { isRunLeaseExpired, type TurnRecord } from '@papercusp/chat-protocol-recovery';
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
 * Whether a turn's progress (or its record) calls for {@link interruptTurn} at `now`: it is
 * running past its run lease (or with no run named: a turn from before run
 * leases), or it was interrupted (and its log may have no terminal frame yet).
 */
export function needsInterruption(progress: Pick<TurnProgress | TurnRecord<unknown>, 'status' | 'run'>, now: string): boolean {
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
 * Interrupts the turn (writing its tail) when its record — `record`, or the
 * store's when not given — {@link needsInterruption}; nothing for a turn that
 * is not the conversation's or cannot be read. One record read at most, no
 * frame, unless it interrupts. Never rejects.
 */
export async function interruptIfRunGone(
  runtime: HostRuntime,
  request: Omit<InterruptTurnRequest, 'runId'>,
  record?: TurnRecord<unknown>,
): Promise<void> {
  let found = record;
  try {
    found ??= (await runtime.store.turnStore.read(request.turnId))?.record;
  } catch {
    return;
  }
  if (found?.conversationId === request.conversationId && needsInterruption(found, runtime.clock())) await interruptTurn(runtime, request);
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

// How long after a lease's deadline a follower looks again, so the owner's last renewal has had its chance.
const LEASE_GRACE_MS = 100;

/**
 * Watches the run lease of a turn a follower of this process streams: at the
 * lease's deadline it reads the turn record, and interrupts the turn (writing
 * its tail, which the stream then carries) when the lease ran out, or waits
 * for the renewed deadline; it stops once the turn is no longer running. So a
 * follower's stream ends within the lease (plus one read) of its run's death,
 * with no sweeper. The returned function stops it (idempotent). One record
 * read per lease period per open stream; never throws.
 */
export function watchFollowedTurn(runtime: HostRuntime, request: Omit<InterruptTurnRequest, 'runId'>, leaseExpiresAt: string): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (deadline: string): void => {
    if (stopped) return;
    const waitMs = Math.max(0, Date.parse(deadline) - Date.parse(runtime.clock())) + LEASE_GRACE_MS;
    timer = setTimeout(() => void look(), Number.isFinite(waitMs) ? waitMs : runtime.runLeaseMs);
    timer.unref?.();
  };
  const look = async (): Promise<void> => {
    let record: TurnRecord<unknown> | undefined;
    try {
      record = (await runtime.store.turnStore.read(request.turnId))?.record;
    } catch {
      // The store did not answer: look again a lease later.
      arm(new Date(Date.parse(runtime.clock()) + runtime.runLeaseMs).toISOString());
      return;
    }
    if (stopped || record === undefined || record.status === 'cancelled') return;
    if (needsInterruption(record, runtime.clock())) {
      await interruptTurn(runtime, request);
      return;
    }
    if (record.run !== undefined) arm(record.run.leaseExpiresAt);
  };
  arm(leaseExpiresAt);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
