import { describe, expect, it } from 'vitest';
import { FAKE_FAULT_KINDS, FAKE_RANDOM_FAULT_KINDS, FakeDatabaseError, createFakeDatabase, type FakeDatabase } from './fake-database.js';

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

// The faults a seed-7 plan over all calls gave before lose-acknowledgement-after-launch existed (pinned).
const PINNED_SEED_7_FAULTS = [
  'fail-before-commit',
  'lose-acknowledgement',
  'fail-before-commit',
  'fail-before-commit',
  'lose-acknowledgement',
  'fail-before-commit',
  'delay',
  'fail-before-commit',
  'fail-before-commit',
  'fail-before-commit',
  'lose-acknowledgement',
  'lose-acknowledgement',
];

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

  it('lose-acknowledgement-after-launch commits, runs beforeRelease, then throws (issue 12)', async () => {
    const database = createFakeDatabase();
    const table = database.table<string>('rows');
    const released: string[] = [];
    const write = (value: string) =>
      database.transact({ operation: 'write', key: 'k', body: () => table.set('k', value), beforeRelease: () => released.push(value) });
    database.inject({ operation: 'write', kind: 'lose-acknowledgement-after-launch' });
    await expect(write('a')).rejects.toMatchObject({
      name: 'FakeDatabaseError',
      fault: 'lose-acknowledgement-after-launch',
      message: 'write: lose-acknowledgement-after-launch',
    });
    expect(table.get('k')).toBe('a');
    expect(released).toEqual(['a']);
    // An unfenced call's body is its side effect: it runs under both acknowledgement faults.
    const ran: string[] = [];
    for (const kind of ['lose-acknowledgement', 'lose-acknowledgement-after-launch'] as const) {
      database.inject({ operation: 'hook', kind });
      await expect(database.call('hook', 'k', () => ran.push(kind))).rejects.toMatchObject({ fault: kind });
    }
    expect(ran).toEqual(['lose-acknowledgement', 'lose-acknowledgement-after-launch']);
  });

  it('a fault aimed at a target and its n-th occurrence counts only matching calls from its injection on (issue 12)', async () => {
    const database = createFakeDatabase();
    const read = (turnId: string) =>
      database.call('read', turnId, () => turnId, { turnId }).then(String, (error: FakeDatabaseError) => `${turnId}:${error.fault}`);
    await read('turn_1');
    database.inject({ operation: 'read', kind: 'fail-before-commit', target: { turnId: 'turn_1' }, occurrence: 2, times: 2 });
    const answers = [];
    for (const turnId of ['turn_2', 'turn_1', 'turn_2', 'turn_2', 'turn_1', 'turn_1', 'turn_1']) answers.push(await read(turnId));
    // The read before the injection does not count; turn_2's reads never match; the 2nd and 3rd matching reads are hit.
    expect(answers).toEqual(['turn_2', 'turn_1', 'turn_2', 'turn_2', 'turn_1:fail-before-commit', 'turn_1:fail-before-commit', 'turn_1']);
  });

  it('a target matches only when every field it gives is named by the call, and combines with when (issue 12)', async () => {
    const database = createFakeDatabase();
    const admit = (effectId: string, conversationId = 'conv_1') =>
      database
        .call('admitDispatch', 'turn_1', () => effectId, { turnId: 'turn_1', effectId, conversationId })
        .then(String, (error: FakeDatabaseError) => `${effectId}:${error.fault}`);
    database.inject({
      operation: 'admitDispatch',
      kind: 'lose-acknowledgement',
      target: { turnId: 'turn_1', effectId: 'pay', conversationId: 'conv_1' },
      when: (call) => call.index > 2,
    });
    const answers = [await admit('pay'), await admit('mail'), await admit('pay', 'conv_2'), await admit('pay'), await admit('pay')];
    expect(answers).toEqual(['pay', 'mail', 'pay', 'pay:lose-acknowledgement', 'pay']);
    // A call that names nothing never matches a target.
    database.inject({ operation: 'hook', kind: 'fail-before-commit', target: { turnId: 'turn_1' } });
    expect(await database.call('hook', 'turn_1', () => 'ran')).toBe('ran');
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
    const database = createFakeDatabase({
      pause: ({ phase }) => (phase === 'checked' ? new Promise<void>((resolve) => (gate.release = resolve)) : undefined),
    });
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

  it('onRestart calls its listener right after each restart until it is stopped; a throwing listener does not stop the others', () => {
    const database = createFakeDatabase();
    const heard: number[] = [];
    database.onRestart(() => {
      throw new Error('a listener that throws');
    });
    const stop = database.onRestart(() => heard.push(database.epoch));
    database.restart();
    database.restart();
    stop();
    stop();
    database.restart();
    expect(heard).toEqual([1, 2]);
    expect(database.epoch).toBe(3);
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

  it('is deterministic under a seed: the same random fault plan hits the same calls, as it did before issue 12', async () => {
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
    expect(FAKE_FAULT_KINDS).toEqual(['fail-before-commit', 'lose-acknowledgement', 'lose-acknowledgement-after-launch', 'delay']);
    // A plan without kinds draws from the three it always did, so a seed replays the same plan.
    expect(FAKE_RANDOM_FAULT_KINDS).toEqual(['fail-before-commit', 'lose-acknowledgement', 'delay']);
    const pinned = createFakeDatabase({ seed: 7 });
    pinned.injectRandomFaults({ rate: 1, operations: ['increment'] });
    const faults: string[] = [];
    for (let index = 0; index < 12; index += 1)
      faults.push(
        await counter(pinned)().then(
          () => 'delay',
          (error: FakeDatabaseError) => error.fault,
        ),
      );
    expect(faults).toEqual(PINNED_SEED_7_FAULTS);
  });

  it('clearFaults drops queued rules and the random plan', async () => {
    const database = createFakeDatabase();
    database.inject({ operation: 'increment', kind: 'fail-before-commit' });
    database.injectRandomFaults({ rate: 1, operations: ['increment'], kinds: ['fail-before-commit'] });
    database.clearFaults();
    expect(await counter(database)()).toBe(1);
  });
});
