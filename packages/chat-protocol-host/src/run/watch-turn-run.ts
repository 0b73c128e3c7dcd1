/**
 * How a turn's run keeps its turn and learns it lost it (DESIGN §6 rule 12):
 * while it runs it re-reads its turn record every `pollMs` (a cancellation or
 * an interruption committed through another host process) and renews its run
 * lease every `renewEveryMs`, and it tells the run to stop once: `cancelled`
 * when the record says so, `interrupted` when the turn was interrupted, is
 * owned by another run, is gone, or when the lease's deadline passed without a
 * renewal (another process may take the turn over from then on). It owns the
 * schedule and that verdict; stopping the run and its effects is the caller's.
 */
import type { RenewRunLeaseResult, StoredTurn } from '@papercusp/chat-protocol-recovery';

/** Why a watched run must stop. */
export type RunStop = 'cancelled' | 'interrupted';

/** What {@link watchTurnRun} watches, how often, and whom it tells. */
export interface TurnRunWatch {
  readonly turnStore: { read(turnId: string): Promise<StoredTurn<unknown> | null> };
  readonly turnId: string;
  /** The run that owns the turn. */
  readonly runId: string;
  /** Renews the run's lease (recovery's `renewRunLease` for this turn and run). */
  readonly renew: () => Promise<RenewRunLeaseResult>;
  /** The lease's deadline when the watch starts, in epoch milliseconds. */
  readonly leaseExpiresAt: number;
  readonly pollMs: number;
  readonly renewEveryMs: number;
  /** The current instant in epoch milliseconds, on the clock the lease is judged on. */
  readonly now: () => number;
  readonly onStop: (stop: RunStop) => void;
}

// What the turn record says of the run: `null` while it still owns a running turn.
async function readStop(watch: TurnRunWatch): Promise<RunStop | null> {
  const stored = await watch.turnStore.read(watch.turnId);
  if (stored === null) return 'interrupted';
  const { status, run } = stored.record;
  if (status === 'cancelled') return 'cancelled';
  return status !== 'running' || run?.runId !== watch.runId ? 'interrupted' : null;
}

// A renewal refused for good: the turn ended or another run owns it; the record says which.
const FINAL_REFUSALS: ReadonlySet<string> = new Set(['turn-not-running', 'run-lease-lost', 'unknown-turn']);

/**
 * Starts watching; the returned function stops it (idempotent). Guarantees:
 * reads and renewals never overlap (the next is scheduled after the previous
 * answered); a committed cancellation or interruption is seen within `pollMs`
 * plus one read; a renewal refused for good stops the run (`cancelled` only
 * when the record then reads cancelled); a renewal or read that fails is
 * retried at the next tick, but once the deadline of the last lease it holds
 * has passed the run stops as `interrupted`; `onStop` is called at most once
 * and never after the stop. Never throws.
 */
export function watchTurnRun(watch: TurnRunWatch): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let deadline = watch.leaseExpiresAt;
  let renewedAt = watch.now();
  const intervalMs = Math.min(watch.pollMs, watch.renewEveryMs);
  const check = async (): Promise<RunStop | null> => {
    if (watch.now() - renewedAt < watch.renewEveryMs) return readStop(watch);
    const renewed = await watch.renew();
    if (renewed.ok) {
      deadline = Date.parse(renewed.run.leaseExpiresAt);
      renewedAt = watch.now();
      return null;
    }
    return FINAL_REFUSALS.has(renewed.code) ? ((await readStop(watch)) ?? 'interrupted') : null;
  };
  const tick = async (): Promise<void> => {
    let stop: RunStop | null = null;
    try {
      stop = await check();
    } catch {
      // The store did not answer: ask again at the next tick, while the lease lasts.
    }
    if (stop === null && !(watch.now() < deadline)) stop = 'interrupted';
    if (stopped) return;
    if (stop !== null) {
      stopped = true;
      watch.onStop(stop);
      return;
    }
    timer = setTimeout(() => void tick(), intervalMs);
  };
  timer = setTimeout(() => void tick(), intervalMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
