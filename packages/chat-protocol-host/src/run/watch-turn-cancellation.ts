/**
 * How a turn's run learns that its cancellation committed in another host
 * process: it re-reads its turn record every `intervalMs` while it runs (one
 * indexed read per running turn per interval) and calls `onCancelled` once
 * when the record says `cancelled`. It owns only the polling; stopping the
 * run and its effects is the caller's.
 */
import type { TurnStore } from '@papercusp/chat-protocol-recovery';

/** What {@link watchTurnCancellation} watches and whom it tells. */
export interface TurnCancellationWatch {
  readonly turnStore: Pick<TurnStore<unknown, never>, 'read'>;
  readonly turnId: string;
  readonly intervalMs: number;
  readonly onCancelled: () => void;
}

/**
 * Starts watching; the returned function stops it (idempotent). Guarantees:
 * reads never overlap (the next is scheduled after the previous answered); a
 * committed cancellation is seen within `intervalMs` plus one read's round
 * trip; `onCancelled` is called at most once and never after the stop; a
 * read that fails (or a missing record) is retried at the next tick. Never throws.
 */
export function watchTurnCancellation(watch: TurnCancellationWatch): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async (): Promise<void> => {
    let cancelled = false;
    try {
      cancelled = (await watch.turnStore.read(watch.turnId))?.record.status === 'cancelled';
    } catch {
      // The store did not answer: ask again at the next tick.
    }
    if (stopped) return;
    if (cancelled) {
      stopped = true;
      watch.onCancelled();
      return;
    }
    timer = setTimeout(() => void tick(), watch.intervalMs);
  };
  timer = setTimeout(() => void tick(), watch.intervalMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
