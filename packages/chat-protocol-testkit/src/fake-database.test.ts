import { describe, expect, it } from 'vitest';
import { FAKE_FAULT_KINDS, FakeDatabaseError, createFakeDatabase, type FakeDatabase } from './fake-database.js';

// The database primitives the stores build on (DESIGN §8): fences, faults,
// restarts, history, counters, and determinism under a seed.

function counter(database: FakeDatabase, key = 'turn_1') {
  const table = database.table<number>('counters');
  return (operation = 'increment') =>
    database.transact({
      operation,
      key,
      body: async (transaction) => {
        const value = table.get(key) ?? 0;
        await transaction.pause('checked');
        table.set(key, value + 1);
        transaction.record('incremented', { value: value + 1 });
        return value + 1;
      },
    });
}

describe('createFakeDatabase', () => {
  it('serializes transactions on one key: a read-pause-write never loses an update', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const database = createFakeDatabase({ pause: ({ phase }) => (phase === 'checked' ? gate : undefined) });
    const increment = counter(database);
    const both = Promise.all([increment(), increment()]);
    release();
    expect(await both).toEqual([1, 2]);
    expect(database.table<number>('counters').get('turn_1')).toBe(2);
  });

  it('fail-before-commit commits nothing; lose-acknowledgement commits, throws and skips beforeRelease', async () => {
    const database = createFakeDatabase();
    const table = database.table<string>('rows');
    let released = 0;
    const write = (value: string) =>
      database.transact({ operation: 'write', key: 'k', body: () => table.set('k', value), beforeRelease: () => (released += 1) });
    database.inject({ operation: 'write', kind: 'fail-before-commit' });
    await expect(write('a')).rejects.toMatchObject({ fault: 'fail-before-commit' });
    expect(table.has('k')).toBe(false);
    database.inject({ operation: 'write', kind: 'lose-acknowledgement' });
    await expect(write('b')).rejects.toBeInstanceOf(FakeDatabaseError);
    expect(table.get('k')).toBe('b');
    expect(released).toBe(0);
    await write('c');
    expect(released).toBe(1);
  });

  it('a delay waits microtask turns and then commits', async () => {
    const database = createFakeDatabase();
    database.inject({ operation: 'increment', kind: 'delay', turns: 3 });
    expect(await counter(database)()).toBe(1);
  });

  it('faults hit only the calls their rule selects, as often as it says', async () => {
    const database = createFakeDatabase();
    const increment = counter(database);
    database.inject({ operation: 'increment', kind: 'fail-before-commit', times: 2, when: (call) => call.index >= 2 });
    const results = [];
    for (let index = 0; index < 4; index += 1) results.push(await increment().then(String, (error: FakeDatabaseError) => error.fault));
    expect(results).toEqual(['1', 'fail-before-commit', 'fail-before-commit', '2']);
  });

  it('restart drops every fence: a paused transaction throws restarted and commits nothing; committed rows stay', async () => {
    const gate: { release: () => void } = { release: () => undefined };
    const database = createFakeDatabase({ pause: ({ phase }) => (phase === 'checked' ? new Promise<void>((resolve) => (gate.release = resolve)) : undefined) });
    database.table<number>('counters').set('turn_1', 5);
    const paused = counter(database)();
    const waiting = counter(database)();
    await Promise.resolve();
    database.restart();
    gate.release();
    await expect(paused).rejects.toMatchObject({ fault: 'restarted' });
    await expect(waiting).rejects.toMatchObject({ fault: 'restarted' });
    expect(database.table<number>('counters').get('turn_1')).toBe(5);
    expect(database.epoch).toBe(1);
    expect(() => database.assertEpoch(0, 'read')).toThrow(FakeDatabaseError);
  });

  it('counts round trips per operation and keeps an ordered history', async () => {
    const database = createFakeDatabase();
    const increment = counter(database);
    await increment();
    await database.call('peek', 'turn_1', () => 1);
    expect(database.counts()).toEqual({ increment: 1, peek: 1 });
    database.resetCounts();
    expect(database.counts()).toEqual({});
    database.record('observed', 'turn_1', { note: 'x' });
    expect(database.history.map((entry) => [entry.at, entry.type])).toEqual([
      [1, 'incremented'],
      [2, 'observed'],
    ]);
  });

  it('is deterministic under a seed: the same random fault plan hits the same calls', async () => {
    const run = async (seed: number) => {
      const database = createFakeDatabase({ seed });
      database.injectRandomFaults({ rate: 0.5, operations: ['increment'] });
      const increment = counter(database);
      const outcomes: string[] = [];
      for (let index = 0; index < 20; index += 1) outcomes.push(await increment().then(String, (error: FakeDatabaseError) => error.fault));
      return outcomes;
    };
    expect(await run(7)).toEqual(await run(7));
    expect(await run(7)).not.toEqual(await run(8));
    expect(FAKE_FAULT_KINDS).toEqual(['fail-before-commit', 'lose-acknowledgement', 'delay']);
  });

  it('clearFaults drops queued rules and the random plan', async () => {
    const database = createFakeDatabase();
    database.inject({ operation: 'increment', kind: 'fail-before-commit' });
    database.injectRandomFaults({ rate: 1, operations: ['increment'], kinds: ['fail-before-commit'] });
    database.clearFaults();
    expect(await counter(database)()).toBe(1);
  });
});
