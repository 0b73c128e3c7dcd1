import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TurnStore } from './adapter.js';
import { createSnapshotCache } from './snapshot-cache.js';
import type { StoredTurn } from './turn-record.js';

// The snapshot cache's invariant (its module comment; README "Stale snapshots
// only cost a retry"): it never goes back to an older revision of a turn, holds
// at most `size` turns, and a read that throws is `unavailable`, never a throw.

const turn = (turnId: string, revision: number): StoredTurn<string> => ({
  record: { conversationId: 'conv_1', turnId, status: 'running', revision, effects: [] },
  admissions: [],
});

const storeAnswering = (read: (turnId: string) => Promise<StoredTurn<string> | null>): TurnStore<string, string> => ({
  read,
  compareAndSwap: () => Promise.reject(new Error('not used here')),
});

describe('rule: a snapshot is only replaced by a newer revision of its turn (the snapshot cache)', () => {
  it('keeps revision 3 when revision 2 of the same turn arrives later', () => {
    const cache = createSnapshotCache<string>(4);
    cache.remember(turn('turn_1', 3));
    cache.remember(turn('turn_1', 2));
    expect(cache.get('turn_1')?.record.revision).toBe(3);
  });

  it('holds, for every turn it still holds, the highest revision remembered (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('turn_a', 'turn_b', 'turn_c'), fc.integer({ min: 1, max: 20 })), { maxLength: 40 }),
        (writes) => {
          const cache = createSnapshotCache<string>(8);
          for (const [turnId, revision] of writes) cache.remember(turn(turnId, revision));
          for (const turnId of ['turn_a', 'turn_b', 'turn_c']) {
            const revisions = writes.filter(([id]) => id === turnId).map(([, revision]) => revision);
            expect(cache.get(turnId)?.record.revision).toBe(revisions.length === 0 ? undefined : Math.max(...revisions));
          }
        },
      ),
    );
  });
});

describe('rule: the snapshot cache holds at most cacheSize turns, the least recently remembered going first', () => {
  it('evicts turn_1 when a third turn arrives in a cache of two, and keeps none at size 0', () => {
    const cache = createSnapshotCache<string>(2);
    cache.remember(turn('turn_1', 1));
    cache.remember(turn('turn_2', 1));
    cache.remember(turn('turn_3', 1));
    expect([cache.get('turn_1'), cache.get('turn_2')?.record.turnId, cache.get('turn_3')?.record.turnId]).toStrictEqual([
      undefined,
      'turn_2',
      'turn_3',
    ]);
    const none = createSnapshotCache<string>(0);
    none.remember(turn('turn_1', 1));
    expect(none.get('turn_1')).toBeUndefined();
  });

  it('forgets a turn on request', () => {
    const cache = createSnapshotCache<string>(2);
    cache.remember(turn('turn_1', 1));
    cache.forget('turn_1');
    expect(cache.get('turn_1')).toBeUndefined();
  });
});

describe('rule: the snapshot cache reads through the store and never throws', () => {
  it('answers unavailable when the read rejects, and remembers what a read found', async () => {
    const cache = createSnapshotCache<string>(2);
    await expect(
      cache.read(
        storeAnswering(() => Promise.reject(new Error('down'))),
        'turn_1',
      ),
    ).resolves.toBe('unavailable');
    await expect(
      cache.read(
        storeAnswering(async () => turn('turn_1', 5)),
        'turn_1',
      ),
    ).resolves.toStrictEqual(turn('turn_1', 5));
    expect(cache.get('turn_1')?.record.revision).toBe(5);
  });

  it('answers a snapshot from the cache without reading the store', async () => {
    const cache = createSnapshotCache<string>(2);
    cache.remember(turn('turn_1', 4));
    let reads = 0;
    const counted = storeAnswering(async () => {
      reads += 1;
      return null;
    });
    await expect(cache.snapshot(counted, 'turn_1')).resolves.toStrictEqual(turn('turn_1', 4));
    await expect(cache.snapshot(counted, 'turn_2')).resolves.toBeNull();
    expect(reads).toBe(1);
  });
});
