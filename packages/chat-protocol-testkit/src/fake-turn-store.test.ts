import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type { TurnRecord } from '@papercusp/chat-protocol-recovery';
import { describe, expect, it } from 'vitest';
import { createFakeDatabase } from './fake-database.js';
import { FAKE_TURN_TABLES, createFakeTurnStore } from './fake-turn-store.js';

const record = (revision: number, overrides: Partial<TurnRecord<string>> = {}): TurnRecord<string> => ({
  conversationId: 'conv_1',
  turnId: 'turn_1',
  status: 'running',
  revision,
  effects: [{ effectId: 'pay', claim: 0, status: 'open' }],
  ...overrides,
});

const frame = (seq: number): ChatEventEnvelope => ({
  schemaVersion: 1,
  conversationId: 'conv_1',
  turnId: 'turn_1',
  eventId: `evt_${seq}`,
  seq,
  occurredAt: '2026-11-30T10:00:00Z',
  event: { type: 'delta', text: `part ${seq}` },
});

describe('createFakeTurnStore (DESIGN §8)', () => {
  it('listRunningTurns pages the running turns in turn id order, strictly after afterTurnId, at most limit (issue 27)', async () => {
    const store = createFakeTurnStore<string>(createFakeDatabase());
    const statuses = { turn_c: 'running', turn_a: 'running', turn_b: 'cancelled', turn_d: 'interrupted', turn_e: 'running' } as const;
    for (const [turnId, status] of Object.entries(statuses)) {
      await store.compareAndSwap({ turnId, expectedRevision: 0, next: record(1, { turnId, status }) });
    }
    const ids = (page: readonly { record: { turnId: string } }[]) => page.map((turn) => turn.record.turnId);
    expect(ids(await store.listRunningTurns({ limit: 10 }))).toEqual(['turn_a', 'turn_c', 'turn_e']);
    expect(ids(await store.listRunningTurns({ limit: 2 }))).toEqual(['turn_a', 'turn_c']);
    expect(ids(await store.listRunningTurns({ afterTurnId: 'turn_c', limit: 2 }))).toEqual(['turn_e']);
    expect(ids(await store.listRunningTurns({ afterTurnId: 'turn_e', limit: 2 }))).toEqual([]);
    await expect(store.listRunningTurns({ limit: 0 })).rejects.toThrow(TypeError);
    await expect(store.listRunningTurns({ afterTurnId: 'not a v1 id', limit: 1 })).rejects.toThrow(TypeError);
  });

  it('compare-and-swap creates at revision 0, then swaps only on the stored revision', async () => {
    const store = createFakeTurnStore<string>(createFakeDatabase());
    expect(await store.compareAndSwap({ turnId: 'turn_1', expectedRevision: 0, next: record(1) })).toMatchObject({
      swapped: true,
      turn: { record: record(1), admissions: [] },
    });
    expect(await store.compareAndSwap({ turnId: 'turn_1', expectedRevision: 0, next: record(1) })).toMatchObject({
      swapped: false,
      current: { record: { revision: 1 } },
    });
    expect(await store.compareAndSwap({ turnId: 'turn_2', expectedRevision: 3, next: record(4, { turnId: 'turn_2' }) })).toEqual({
      swapped: false,
      current: null,
    });
  });

  it('accepts an effect a running turn declared (§6 rule 1): a new id after the others, open and unclaimed', async () => {
    const database = createFakeDatabase();
    const store = createFakeTurnStore<string>(database);
    const pay = { effectId: 'pay', claim: 0, status: 'open' } as const;
    await store.compareAndSwap({ turnId: 'turn_1', expectedRevision: 0, next: record(1, { effects: [pay] }) });
    const declared = record(2, { effects: [pay, { effectId: 'post', claim: 0, status: 'open' }] });
    expect(await store.compareAndSwap({ turnId: 'turn_1', expectedRevision: 1, next: declared })).toMatchObject({
      swapped: true,
      turn: { record: declared },
    });
    expect(database.history.filter((entry) => entry.type === 'violation')).toEqual([]);
  });

  it('refuses writes that break the protocol and records each as a violation', async () => {
    const database = createFakeDatabase();
    const store = createFakeTurnStore<string>(database);
    await store.compareAndSwap({
      turnId: 'turn_1',
      expectedRevision: 0,
      next: record(1, { effects: [{ effectId: 'pay', claim: 1, status: 'completed', result: 'a', source: 'dispatch' }] }),
    });
    const attempts: TurnRecord<string>[] = [
      record(3),
      record(2, { conversationId: 'conv_2' }),
      record(2, { effects: [] }),
      record(2, { effects: [{ effectId: 'pay', claim: 0, status: 'completed', result: 'a', source: 'dispatch' }] }),
      record(2, { effects: [{ effectId: 'pay', claim: 1, status: 'completed', result: 'b', source: 'dispatch' }] }),
      record(2, {
        effects: [
          { effectId: 'pay', claim: 1, status: 'completed', result: 'a', source: 'dispatch' },
          { effectId: 'post', claim: 1, status: 'open' },
        ],
      }),
    ];
    for (const next of attempts)
      await expect(store.compareAndSwap({ turnId: 'turn_1', expectedRevision: 1, next })).rejects.toBeInstanceOf(TypeError);
    await store.compareAndSwap({
      turnId: 'turn_1',
      expectedRevision: 1,
      next: record(2, {
        status: 'cancelled',
        effects: [{ effectId: 'pay', claim: 1, status: 'completed', result: 'a', source: 'dispatch' }],
      }),
    });
    await expect(
      store.compareAndSwap({
        turnId: 'turn_1',
        expectedRevision: 2,
        next: record(3, { effects: [{ effectId: 'pay', claim: 1, status: 'completed', result: 'a', source: 'dispatch' }] }),
      }),
    ).rejects.toBeInstanceOf(TypeError);
    await expect(
      store.compareAndSwap({
        turnId: 'turn_1',
        expectedRevision: 2,
        next: record(3, {
          status: 'cancelled',
          effects: [
            { effectId: 'pay', claim: 1, status: 'completed', result: 'a', source: 'dispatch' },
            { effectId: 'post', claim: 0, status: 'open' },
          ],
        }),
      }),
    ).rejects.toBeInstanceOf(TypeError);
    expect(database.history.filter((entry) => entry.type === 'violation').map((entry) => entry.detail['violation'])).toEqual([
      'the revision must go up by one',
      'the conversation changed',
      'the effect list changed',
      'the claim of pay went down',
      'the stored result of pay was overwritten',
      'the effect list changed',
      'the cancelled turn was reopened',
      'post was declared in a cancelled turn',
    ]);
  });

  it('refuses writes that break a run lease (§6 rule 12): another owner, a lease moved back or renewed once ended, an interrupted turn reopened or cancelled', async () => {
    const database = createFakeDatabase();
    const store = createFakeTurnStore<string>(database);
    const run = { runId: 'run_a', leaseExpiresAt: '2030-01-01T00:00:30.000Z' };
    await store.compareAndSwap({ turnId: 'turn_1', expectedRevision: 0, next: record(1, { run }) });
    const attempts: TurnRecord<string>[] = [
      record(2, { run: { ...run, runId: 'run_b' } }),
      record(2),
      record(2, { run: { ...run, leaseExpiresAt: '2030-01-01T00:00:29.000Z' } }),
    ];
    for (const next of attempts)
      await expect(store.compareAndSwap({ turnId: 'turn_1', expectedRevision: 1, next })).rejects.toBeInstanceOf(TypeError);
    await store.compareAndSwap({ turnId: 'turn_1', expectedRevision: 1, next: record(2, { run, status: 'interrupted' }) });
    for (const next of [
      record(3, { run }),
      record(3, { run, status: 'cancelled' }),
      record(3, { run: { ...run, leaseExpiresAt: '2030-01-01T00:01:00.000Z' }, status: 'interrupted' }),
    ])
      await expect(store.compareAndSwap({ turnId: 'turn_1', expectedRevision: 2, next })).rejects.toBeInstanceOf(TypeError);
    expect(database.history.filter((entry) => entry.type === 'violation').map((entry) => entry.detail['violation'])).toEqual([
      'the run owning the turn changed',
      'the run owning the turn changed',
      'the run lease went back',
      'the interrupted turn was reopened',
      'the interrupted turn was reopened',
      'the run lease of the interrupted turn was renewed',
    ]);
    expect(database.history.filter((entry) => entry.type === 'interrupt-committed').map((entry) => entry.detail)).toEqual([
      { revision: 2 },
    ]);
  });

  it('admits once per effect under the current grant and claim, launching after the commit', async () => {
    const database = createFakeDatabase();
    const store = createFakeTurnStore<string>(database);
    await store.compareAndSwap({
      turnId: 'turn_1',
      expectedRevision: 0,
      next: record(1, { effects: [{ effectId: 'pay', claim: 1, status: 'open' }] }),
    });
    const request = {
      caller: 'owner',
      conversationId: 'conv_1',
      turnId: 'turn_1',
      effectId: 'pay',
      claim: 1,
      admittedAt: '2030-01-01T00:00:00.123+02:00',
    };
    const launches: string[] = [];
    const launch = () => launches.push(database.history[database.history.length - 1]?.type ?? '');
    expect(await store.admitDispatch(request, launch)).toEqual({ admitted: false, code: 'forbidden' });
    store.grant('conv_1', 'owner');
    expect(await store.admitDispatch({ ...request, claim: 2 }, launch)).toEqual({ admitted: false, code: 'stale-claim' });
    expect(await store.admitDispatch({ ...request, effectId: 'mail' }, launch)).toEqual({ admitted: false, code: 'unknown-effect' });
    expect(await store.admitDispatch({ ...request, conversationId: 'conv_2' }, launch)).toEqual({ admitted: false, code: 'forbidden' });
    expect(await store.admitDispatch({ ...request, turnId: 'turn_9' }, launch)).toEqual({ admitted: false, code: 'unknown-turn' });
    expect(await store.admitDispatch(request, launch)).toEqual({ admitted: true });
    expect(launches).toEqual(['launched']);
    expect(await store.admitDispatch(request, launch)).toEqual({ admitted: false, code: 'already-admitted' });
    // The admission keeps the request's admittedAt exactly as given (§6.11).
    expect(store.peek('turn_1')).toEqual({
      record: expect.objectContaining({ revision: 1 }),
      admissions: [{ effectId: 'pay', claim: 1, admittedAt: '2030-01-01T00:00:00.123+02:00' }],
    });
    store.revoke('conv_1', 'owner');
    expect(await store.authorize({ caller: 'owner', action: 'claim', conversationId: 'conv_1', turnId: 'turn_1' })).toBe(false);
  });

  it('keeps an append-only log per turn with a retention lower bound that never passes the latest seq', async () => {
    const store = createFakeTurnStore<string>(createFakeDatabase());
    expect(await store.replayWindow({ conversationId: 'conv_1', turnId: 'turn_1', after: 0 })).toEqual({
      lowerBound: 0,
      latestSeq: 0,
      frames: [],
    });
    store.appendFrames([frame(1), frame(2), frame(3)]);
    store.retainAfter('turn_1', 1);
    expect(await store.replayWindow({ conversationId: 'conv_1', turnId: 'turn_1', after: 1 })).toEqual({
      lowerBound: 1,
      latestSeq: 3,
      frames: [frame(2), frame(3)],
    });
    store.retainAfter('turn_1', 0);
    store.retainAfter('turn_1', 10);
    expect(await store.replayWindow({ conversationId: 'conv_1', turnId: 'turn_1', after: 3 })).toEqual({
      lowerBound: 3,
      latestSeq: 3,
      frames: [],
    });
    expect(createFakeDatabase().table(FAKE_TURN_TABLES.logs).size).toBe(0);
  });

  it('a connection made before a restart is dead; a new one sees what committed', async () => {
    const database = createFakeDatabase();
    const old = createFakeTurnStore<string>(database);
    await old.compareAndSwap({ turnId: 'turn_1', expectedRevision: 0, next: record(1) });
    database.restart();
    await expect(old.read('turn_1')).rejects.toMatchObject({ fault: 'restarted' });
    expect(await createFakeTurnStore<string>(database).read('turn_1')).toMatchObject({ record: record(1) });
  });

  it('builds adapters: every capability by default, with or without the seam, the abort hook behind its faults', async () => {
    const database = createFakeDatabase();
    const store = createFakeTurnStore<string>(database);
    const aborted: string[][] = [];
    const adapter = store.adapter({ onAbort: ({ effectIds }) => void aborted.push([...effectIds]) });
    expect(adapter.capabilities.interruptedTurnRecovery).toBe(true);
    expect(typeof adapter.store?.admitDispatch).toBe('function');
    expect(store.adapter({ withoutAdmissionSeam: true }).store?.admitDispatch).toBeUndefined();
    expect(store.adapter().abort).toBeUndefined();
    database.inject({ operation: 'abort', kind: 'lose-acknowledgement' });
    await expect(adapter.abort?.({ conversationId: 'conv_1', turnId: 'turn_1', effectIds: ['pay'] })).rejects.toMatchObject({
      fault: 'lose-acknowledgement',
    });
    expect(aborted).toEqual([['pay']]);
  });

  it("names each call's target for faults aimed at a request (issue 12)", async () => {
    const database = createFakeDatabase();
    const store = createFakeTurnStore<string>(database);
    const seen: unknown[] = [];
    for (const operation of ['read', 'compareAndSwap', 'admitDispatch', 'replayWindow', 'authorize', 'abort']) {
      database.inject({ operation, kind: 'delay', times: 10, when: (call) => (seen.push([call.operation, call.target]), false) });
    }
    const adapter = store.adapter({ onAbort: () => undefined });
    await store.read('turn_1');
    await store.compareAndSwap({
      turnId: 'turn_1',
      expectedRevision: 0,
      next: record(1, { effects: [{ effectId: 'pay', claim: 1, status: 'open' }] }),
    });
    await store.admitDispatch(
      { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1', effectId: 'pay', claim: 1, admittedAt: '2030-01-01T00:00:00Z' },
      () => undefined,
    );
    await store.replayWindow({ conversationId: 'conv_1', turnId: 'turn_1', after: 0 });
    await store.authorize({ caller: 'owner', action: 'inspect', conversationId: 'conv_1', turnId: 'turn_1' });
    await adapter.abort?.({ conversationId: 'conv_1', turnId: 'turn_1', effectIds: ['pay'] });
    const turn = { turnId: 'turn_1', conversationId: 'conv_1' };
    expect(seen).toEqual([
      ['read', { turnId: 'turn_1' }],
      ['compareAndSwap', turn],
      ['admitDispatch', { ...turn, effectId: 'pay' }],
      ['replayWindow', turn],
      ['authorize', turn],
      ['abort', turn],
    ]);
  });
});
