/**
 * The write queue: how one `TurnRecovery` instance writes a turn record through
 * the store's compare-and-swap. Writes to one turn go through one queue: while a
 * compare-and-swap is out, the writes that arrive meanwhile wait and then go
 * together in the next one (group commit), so concurrent effects of one turn
 * cost a few round trips instead of a retry each time another effect wins the
 * revision. It owns the order of the writes, not their verdicts (each write's
 * `step` decides). Invariant: at most one compare-and-swap per turn is out at a
 * time, every write is answered exactly once, and the queue never throws.
 */
import type { TurnStore } from './adapter.js';
import type { SnapshotCache } from './snapshot-cache.js';
import type { StoredTurn, TurnRecord } from './turn-record.js';

/** A write's decision on the newest record: the record to write, or a value to answer without writing. */
export type Step<Result, Value> = { readonly write: TurnRecord<Result> } | { readonly stop: Value };

/** How a write ended. */
export type Written<Result, Value> =
  /** Its step answered without writing. */
  | { readonly type: 'stopped'; readonly value: Value }
  /** The store swapped it in; `turn` is what the store holds now. */
  | { readonly type: 'written'; readonly turn: StoredTurn<Result> }
  /** The compare-and-swap threw or the store answered outside its contract: the write may or may not have landed. */
  | { readonly type: 'unacknowledged' }
  /** The turn is gone from the store. */
  | { readonly type: 'missing' }
  /** It kept conflicting past the attempt bound. */
  | { readonly type: 'exhausted' };

interface QueuedWrite<Result> {
  readonly start: StoredTurn<Result>;
  readonly step: (turn: StoredTurn<Result>) => Step<Result, unknown>;
  readonly resolve: (written: Written<Result, unknown>) => void;
}

/** One instance's write queues, one per turn. */
export interface WriteQueue<Result, Caller> {
  /**
   * Queues a write to `turnId`, decided by `step` on the newest record known
   * (at first the newer of `start` and the cached snapshot), and resolves with
   * how it ended; never rejects. `step` may run again after a conflict.
   */
  write<Value>(
    store: TurnStore<Result, Caller>,
    turnId: string,
    start: StoredTurn<Result>,
    step: (turn: StoredTurn<Result>) => Step<Result, Value>,
  ): Promise<Written<Result, Value>>;
}

/** Write queues that keep `cache` up to date and give up after `maxWriteAttempts` compare-and-swaps per batch. */
export function createWriteQueue<Result, Caller>(cache: SnapshotCache<Result>, maxWriteAttempts: number): WriteQueue<Result, Caller> {
  const queues = new Map<string, QueuedWrite<Result>[]>();

  // One batch: decide every write on the newest record, send them as one
  // compare-and-swap, and decide again on a conflict.
  const flushBatch = async (store: TurnStore<Result, Caller>, turnId: string, batch: readonly QueuedWrite<Result>[]): Promise<void> => {
    let current = batch.reduce(
      (newest, entry) => (entry.start.record.revision > newest.record.revision ? entry.start : newest),
      cache.get(turnId) ?? (batch[0] as QueuedWrite<Result>).start,
    );
    let pending = batch;
    for (let attempt = 0; pending.length > 0; attempt += 1) {
      if (attempt >= maxWriteAttempts) {
        for (const entry of pending) entry.resolve({ type: 'exhausted' });
        break;
      }
      // Each write decides on the record as the writes before it in the batch left it.
      const base = current.record.revision;
      let record = current.record;
      const writers: QueuedWrite<Result>[] = [];
      for (const entry of pending) {
        const decision = entry.step({ record, admissions: current.admissions });
        if ('stop' in decision) entry.resolve({ type: 'stopped', value: decision.stop });
        else {
          record = { ...decision.write, revision: base };
          writers.push(entry);
        }
      }
      pending = writers;
      if (writers.length === 0) break;
      let answer: Awaited<ReturnType<TurnStore<Result, Caller>['compareAndSwap']>>;
      try {
        answer = await store.compareAndSwap({ turnId, expectedRevision: base, next: { ...record, revision: base + 1 } });
      } catch {
        cache.forget(turnId);
        for (const entry of writers) entry.resolve({ type: 'unacknowledged' });
        break;
      }
      if (answer.swapped) {
        cache.remember(answer.turn);
        for (const entry of writers) entry.resolve({ type: 'written', turn: answer.turn });
        break;
      }
      if (answer.current === null) {
        cache.forget(turnId);
        for (const entry of writers) entry.resolve({ type: 'missing' });
        break;
      }
      current = answer.current;
      cache.remember(current);
    }
  };

  const flush = async (store: TurnStore<Result, Caller>, turnId: string): Promise<void> => {
    for (;;) {
      const queue = queues.get(turnId) ?? [];
      const batch = queue.splice(0);
      if (batch.length === 0) {
        queues.delete(turnId);
        return;
      }
      try {
        await flushBatch(store, turnId, batch);
      } catch {
        // A store that answers outside its contract (a malformed record or
        // answer): the writes' outcome is unknown, and the queue goes on.
        cache.forget(turnId);
        for (const entry of batch) entry.resolve({ type: 'unacknowledged' });
      }
    }
  };

  return {
    write: (store, turnId, start, step) =>
      new Promise((resolve) => {
        const entry: QueuedWrite<Result> = {
          start,
          // Each entry keeps its own value type; the queue only sees the shape.
          step: step as (turn: StoredTurn<Result>) => Step<Result, unknown>,
          resolve: resolve as (written: Written<Result, unknown>) => void,
        };
        const queue = queues.get(turnId);
        if (queue !== undefined) {
          queue.push(entry);
          return;
        }
        queues.set(turnId, [entry]);
        void flush(store, turnId);
      }),
  };
}
