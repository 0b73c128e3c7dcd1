/**
 * The snapshot cache: the newest turn snapshot one `TurnRecovery` instance saw,
 * per turn, kept as the expected revision of its next write. It owns reading a
 * turn through the store and remembering it; it owns no verdict. Invariant: a
 * snapshot is only a write expectation (a stale one costs a compare-and-swap
 * retry and can never authorize a launch), it is never replaced by an older
 * revision, and at most `size` turns are held (the least recently remembered
 * goes first).
 */
import type { TurnStore } from './adapter.js';
import type { StoredTurn } from './turn-record.js';

/** What a store read gives: the turn, `null` when there is none, or `unavailable` when the read threw. */
type TurnRead<Result> = StoredTurn<Result> | null | 'unavailable';

/** One instance's cache of turn snapshots. */
export interface SnapshotCache<Result> {
  /** The snapshot held for this turn, without reading the store. */
  get(turnId: string): StoredTurn<Result> | undefined;
  /** A fresh read of the store, remembered; never throws (`unavailable`). */
  read<Caller>(store: TurnStore<Result, Caller>, turnId: string): Promise<TurnRead<Result>>;
  /**
   * The newest snapshot this instance saw, else a read. Only a write
   * expectation: every fact it can answer from (completed, admitted, cancelled)
   * never reverts.
   */
  snapshot<Caller>(store: TurnStore<Result, Caller>, turnId: string): Promise<TurnRead<Result>>;
  /** Keeps `turn` unless a newer revision of it is held; evicts the oldest past the size. */
  remember(turn: StoredTurn<Result>): void;
  /** Drops the turn's snapshot: what the store holds is unknown. */
  forget(turnId: string): void;
}

/** A cache of at most `size` turns (0 keeps none: every snapshot is then a read). */
export function createSnapshotCache<Result>(size: number): SnapshotCache<Result> {
  const snapshots = new Map<string, StoredTurn<Result>>();

  const remember = (turn: StoredTurn<Result>): void => {
    if (size === 0) return;
    const turnId = turn.record.turnId;
    const known = snapshots.get(turnId);
    if (known !== undefined && known.record.revision > turn.record.revision) return;
    snapshots.delete(turnId);
    snapshots.set(turnId, turn);
    if (snapshots.size > size) {
      const oldest = snapshots.keys().next();
      if (oldest.done !== true) snapshots.delete(oldest.value);
    }
  };

  const read = async <Caller>(store: TurnStore<Result, Caller>, turnId: string): Promise<TurnRead<Result>> => {
    try {
      const turn = await store.read(turnId);
      if (turn !== null) remember(turn);
      return turn;
    } catch {
      return 'unavailable';
    }
  };

  return {
    get: (turnId) => snapshots.get(turnId),
    read,
    snapshot: async (store, turnId) => snapshots.get(turnId) ?? read(store, turnId),
    remember,
    forget: (turnId) => {
      snapshots.delete(turnId);
    },
  };
}
