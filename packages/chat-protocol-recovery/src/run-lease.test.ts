import { describe, expect, it } from 'vitest';
import { at, clockedWorker } from '../test/clocked-worker.js';
import { FULL, stubStore, type Stub } from '../test/stub-store.js';
import type { TurnRecoveryAdapter, TurnStore } from './adapter.js';
import { DEFAULT_RUN_LEASE_MS, isRunLeaseExpired, runLeaseDeadline } from './run-lease.js';
import type { TurnRecoveryOptions } from './turn-recovery-options.js';
import { TurnRecovery } from './turn-recovery.js';

// DESIGN §6 rule 12 and issue 27 ("Run leases"), over the unit tests' sequential
// in-memory store (no fences: the races run on the testkit's fake store and Postgres).

const TURN = { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1' } as const;
const LEASE = 1000;

/** A worker over `store` whose clock reads `clock.now` milliseconds after T0, with a run lease of LEASE. */
const workerOver = (
  store: TurnStore<string, string>,
  clock: { now: number },
  options: TurnRecoveryOptions = {},
  extra: Partial<TurnRecoveryAdapter<string, string>> = {},
) => clockedWorker(store, clock, { runLeaseMs: LEASE, ...options }, extra);

/** A turn (`pay` admitted and never finishing, `mail` open) started at T0 by run `run_a`; the clock then stands at `clock.now`. */
async function ownedTurn(): Promise<{ stub: Stub; clock: { now: number }; owner: TurnRecovery<string, string> }> {
  const stub = stubStore();
  const clock = { now: 0 };
  const owner = workerOver(stub.store, clock);
  expect(await owner.startTurn({ ...TURN, effectIds: ['pay', 'mail'], runId: 'run_a' })).toMatchObject({ ok: true, outcome: 'started' });
  const claimed = await owner.claimEffect({ ...TURN, effectId: 'pay' });
  if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error(`claim failed: ${JSON.stringify(claimed)}`);
  void owner.dispatchEffect({ caller: 'owner', claim: claimed.claim, execute: () => new Promise<string>(() => undefined) });
  await Promise.resolve();
  return { stub, clock, owner };
}

describe('the run lease (§6 rule 12): pure judgements', () => {
  it('defaults to 30 seconds; a deadline is leaseMs past now and never earlier than the current one', () => {
    expect(DEFAULT_RUN_LEASE_MS).toBe(30_000);
    expect(runLeaseDeadline('2030-01-01T01:00:00+01:00', LEASE)).toBe('2030-01-01T00:00:01.000Z');
    expect(runLeaseDeadline(at(0), LEASE, { runId: 'run_a', leaseExpiresAt: at(5000) })).toBe(at(5000));
    expect(runLeaseDeadline(at(0), LEASE, { runId: 'run_a', leaseExpiresAt: 'soon' })).toBe(at(LEASE));
  });

  it('is over at its deadline, and for a record with no run or an unreadable deadline', () => {
    const record = { ...TURN, status: 'running' as const, revision: 1, effects: [] };
    const run = { runId: 'run_a', leaseExpiresAt: at(LEASE) };
    expect([isRunLeaseExpired({ ...record, run }, at(LEASE - 1)), isRunLeaseExpired({ ...record, run }, at(LEASE))]).toEqual([false, true]);
    expect(isRunLeaseExpired(record, at(0))).toBe(true);
    expect(isRunLeaseExpired({ ...record, run: { runId: 'run_a', leaseExpiresAt: 'later' } }, at(0))).toBe(true);
  });
});

describe('TurnRecovery: run leases (§6 rule 12, issue 27)', () => {
  it('startTurn with a runId stores the run and a deadline runLeaseMs past the clock; existing keeps the first run', async () => {
    const stub = stubStore();
    const clock = { now: 0 };
    const started = await workerOver(stub.store, clock).startTurn({ ...TURN, effectIds: [], runId: 'run_a' });
    expect(started).toEqual({
      ok: true,
      outcome: 'started',
      turn: {
        conversationId: 'conv_1',
        turnId: 'turn_1',
        status: 'running',
        revision: 1,
        run: { runId: 'run_a', leaseExpiresAt: at(LEASE) },
        effects: [],
      },
    });
    clock.now = 10;
    expect(await workerOver(stub.store, clock).startTurn({ ...TURN, effectIds: [], runId: 'run_b' })).toMatchObject({
      ok: true,
      outcome: 'existing',
      turn: { run: { runId: 'run_a', leaseExpiresAt: at(LEASE) } },
    });
  });

  it('startTurn refuses a run id that is not a v1 id, and a clock without a reading when it needs one', async () => {
    const stub = stubStore();
    expect(await workerOver(stub.store, { now: 0 }).startTurn({ ...TURN, effectIds: [], runId: 'run a' })).toMatchObject({
      ok: false,
      code: 'invalid-request',
    });
    const broken = workerOver(stub.store, { now: 0 }, { clock: () => 'noon' });
    expect(await broken.startTurn({ ...TURN, effectIds: [], runId: 'run_a' })).toMatchObject({ ok: false, code: 'clock-unavailable' });
    // Without a run id the clock is not read, and the turn has no owner.
    expect(await broken.startTurn({ ...TURN, effectIds: [] })).toMatchObject({ ok: true, outcome: 'started', turn: { status: 'running' } });
    expect(stub.turns.get('turn_1')?.record.run).toBeUndefined();
  });

  it('renewRunLease moves the deadline to runLeaseMs past the clock, also past the deadline while nobody interrupted', async () => {
    const { stub, clock } = await ownedTurn();
    clock.now = 400;
    expect(await workerOver(stub.store, clock).renewRunLease({ ...TURN, runId: 'run_a' })).toEqual({
      ok: true,
      outcome: 'renewed',
      run: { runId: 'run_a', leaseExpiresAt: at(1400) },
    });
    clock.now = 5000;
    expect(await workerOver(stub.store, clock).renewRunLease({ ...TURN, runId: 'run_a' })).toEqual({
      ok: true,
      outcome: 'renewed',
      run: { runId: 'run_a', leaseExpiresAt: at(6000) },
    });
    expect(stub.turns.get('turn_1')?.record.run).toEqual({ runId: 'run_a', leaseExpiresAt: at(6000) });
  });

  it('renewRunLease by another run is run-lease-lost; on a turn without a run too; nothing is written', async () => {
    const { stub, clock } = await ownedTurn();
    const revision = stub.turns.get('turn_1')?.record.revision;
    expect(await workerOver(stub.store, clock).renewRunLease({ ...TURN, runId: 'run_b' })).toMatchObject({
      ok: false,
      code: 'run-lease-lost',
    });
    expect(stub.turns.get('turn_1')?.record.revision).toBe(revision);
    const legacy = stubStore();
    await workerOver(legacy.store, clock).startTurn({ ...TURN, effectIds: [] });
    expect(await workerOver(legacy.store, clock).renewRunLease({ ...TURN, runId: 'run_a' })).toMatchObject({
      ok: false,
      code: 'run-lease-lost',
    });
  });

  it('interruptTurn before the deadline is run-lease-held with the run and its deadline; at the deadline it interrupts', async () => {
    const { stub, clock } = await ownedTurn();
    clock.now = LEASE - 1;
    expect(await workerOver(stub.store, clock).interruptTurn(TURN)).toEqual({
      ok: false,
      code: 'run-lease-held',
      message: `the run lease holds until ${at(LEASE)}`,
      run: { runId: 'run_a', leaseExpiresAt: at(LEASE) },
    });
    expect(stub.turns.get('turn_1')?.record.status).toBe('running');
    clock.now = LEASE;
    const aborted: string[][] = [];
    const interrupter = workerOver(stub.store, clock, {}, { abort: ({ effectIds }) => void aborted.push([...effectIds]) });
    expect(await interrupter.interruptTurn(TURN)).toEqual({
      ok: true,
      outcome: 'interrupted',
      turn: {
        conversationId: 'conv_1',
        turnId: 'turn_1',
        status: 'interrupted',
        revision: 3,
        inspectedAt: at(LEASE),
        admissionLeaseMs: 600_000,
        run: { runId: 'run_a', leaseExpiresAt: at(LEASE) },
        effects: [
          { effectId: 'pay', claim: 1, state: 'in-flight', admittedAt: at(0) },
          { effectId: 'mail', claim: 0, state: 'open' },
        ],
      },
      inFlight: ['pay'],
      abort: 'requested',
    });
    expect(aborted).toEqual([['pay']]);
  });

  it('the owning run may interrupt its turn before the deadline (drain); another runId or a malformed one may not', async () => {
    const { stub, clock } = await ownedTurn();
    clock.now = 1;
    const other = workerOver(stub.store, clock);
    expect(await other.interruptTurn({ ...TURN, runId: 'run_b' })).toMatchObject({ ok: false, code: 'run-lease-held' });
    expect(await other.interruptTurn({ ...TURN, runId: 'not a v1 id' })).toMatchObject({ ok: false, code: 'invalid-request' });
    expect(stub.turns.get('turn_1')?.record.status).toBe('running');
    expect(await other.interruptTurn({ ...TURN, runId: 'run_a' })).toMatchObject({
      ok: true,
      outcome: 'interrupted',
      turn: { status: 'interrupted', run: { runId: 'run_a', leaseExpiresAt: at(LEASE) } },
      inFlight: ['pay'],
    });
  });

  it('a second interrupter gets already-interrupted with the same effects; a cancelled turn is turn-not-running', async () => {
    const { stub, clock } = await ownedTurn();
    clock.now = LEASE;
    const first = await workerOver(stub.store, clock).interruptTurn(TURN);
    const second = await workerOver(stub.store, clock).interruptTurn(TURN);
    expect([first.ok && first.outcome, second.ok && second.outcome]).toEqual(['interrupted', 'already-interrupted']);
    expect(second.ok && second.turn).toEqual(first.ok && first.turn);
    const cancelled = await ownedTurn();
    await cancelled.owner.cancelTurn(TURN);
    cancelled.clock.now = LEASE;
    expect(await workerOver(cancelled.stub.store, cancelled.clock).interruptTurn(TURN)).toMatchObject({
      ok: false,
      code: 'turn-not-running',
    });
  });

  it('a turn without a run (written before run leases) is past its lease: interrupted at once', async () => {
    const stub = stubStore();
    const clock = { now: 0 };
    await workerOver(stub.store, clock).startTurn({ ...TURN, effectIds: [] });
    expect(await workerOver(stub.store, clock).interruptTurn(TURN)).toMatchObject({
      ok: true,
      outcome: 'interrupted',
      turn: { status: 'interrupted' },
    });
  });

  it('after the interruption the old owner is refused: renewal, declaration, claim and admission are turn-not-running; nothing launches', async () => {
    const { stub, clock, owner } = await ownedTurn();
    const claimed = await owner.claimEffect({ ...TURN, effectId: 'mail' });
    if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error('claim failed');
    clock.now = LEASE;
    await workerOver(stub.store, clock).interruptTurn(TURN);
    const refused = { ok: false, code: 'turn-not-running' };
    expect(await owner.renewRunLease({ ...TURN, runId: 'run_a' })).toMatchObject(refused);
    expect(await owner.declareEffect({ ...TURN, effectId: 'found' })).toMatchObject(refused);
    expect(await owner.claimEffect({ ...TURN, effectId: 'mail' })).toMatchObject(refused);
    expect(await owner.dispatchEffect({ caller: 'owner', claim: claimed.claim, execute: () => 'sent' })).toMatchObject(refused);
    expect(stub.launches).toEqual(['pay']);
    // Cancelling an interrupted turn leaves it interrupted.
    expect(await owner.cancelTurn(TURN)).toMatchObject({ ok: true, outcome: 'cancelled', committed: false });
    expect(stub.turns.get('turn_1')?.record.status).toBe('interrupted');
  });

  it('inspectTurn reports the owning run and its deadline', async () => {
    const { stub, clock } = await ownedTurn();
    expect(await workerOver(stub.store, clock).inspectTurn(TURN)).toMatchObject({
      ok: true,
      value: { status: 'running', run: { runId: 'run_a', leaseExpiresAt: at(LEASE) } },
    });
  });

  it('asks authorize for renew and interrupt, and fails closed', async () => {
    const { stub, clock } = await ownedTurn();
    const actions: string[] = [];
    const worker = workerOver(stub.store, clock, {}, { authorize: ({ action, caller }) => (actions.push(action), caller !== 'stranger') });
    expect(await worker.renewRunLease({ ...TURN, caller: 'stranger', runId: 'run_a' })).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await worker.interruptTurn({ ...TURN, caller: 'stranger' })).toMatchObject({ ok: false, code: 'forbidden' });
    expect(actions).toEqual(['renew', 'interrupt']);
  });

  it('refuses a bad run id, an unknown turn, another conversation, an unreadable store and a clock without a reading', async () => {
    const { stub, clock } = await ownedTurn();
    const worker = workerOver(stub.store, clock);
    expect(await worker.renewRunLease({ ...TURN, runId: 'run a' })).toMatchObject({ ok: false, code: 'invalid-request' });
    expect(await worker.renewRunLease({ ...TURN, turnId: 'turn_2', runId: 'run_a' })).toMatchObject({ ok: false, code: 'unknown-turn' });
    expect(await worker.interruptTurn({ ...TURN, conversationId: 'conv_2' })).toMatchObject({ ok: false, code: 'unknown-turn' });
    const down = workerOver({ ...stub.store, read: () => Promise.reject(new Error('down')) }, clock);
    expect(await down.interruptTurn(TURN)).toMatchObject({ ok: false, code: 'store-unavailable' });
    const noClock = workerOver(stub.store, clock, { clock: () => 'noon' });
    expect(await noClock.renewRunLease({ ...TURN, runId: 'run_a' })).toMatchObject({ ok: false, code: 'clock-unavailable' });
    expect(await noClock.interruptTurn(TURN)).toMatchObject({ ok: false, code: 'clock-unavailable' });
  });

  it('reads a lost acknowledgement back: renewed or interrupted when the store holds the write, else checkpoint-failed', async () => {
    const { stub, clock } = await ownedTurn();
    const lossy: TurnStore<string, string> = {
      ...stub.store,
      compareAndSwap: async (request) => {
        await stub.store.compareAndSwap(request);
        throw new Error('connection reset');
      },
    };
    clock.now = 500;
    expect(await workerOver(lossy, clock).renewRunLease({ ...TURN, runId: 'run_a' })).toEqual({
      ok: true,
      outcome: 'renewed',
      run: { runId: 'run_a', leaseExpiresAt: at(1500) },
    });
    clock.now = 1500;
    expect(await workerOver(lossy, clock).interruptTurn(TURN)).toMatchObject({ ok: true, outcome: 'interrupted' });
    const failing = await ownedTurn();
    const refused = workerOver({ ...failing.stub.store, compareAndSwap: () => Promise.reject(new Error('down')) }, failing.clock);
    failing.clock.now = 200;
    expect(await refused.renewRunLease({ ...TURN, runId: 'run_a' })).toMatchObject({ ok: false, code: 'checkpoint-failed' });
    failing.clock.now = LEASE;
    expect(await refused.interruptTurn(TURN)).toMatchObject({ ok: false, code: 'checkpoint-failed' });
  });

  it('finishTurn by the owning run sets the status its terminal frame says, once; later calls are already-finished with the stored one', async () => {
    const { stub, clock } = await ownedTurn();
    const revision = stub.turns.get('turn_1')?.record.revision ?? 0;
    clock.now = LEASE + 5000;
    // Past the deadline, while nobody interrupted: the run is alive and may still finish.
    expect(await workerOver(stub.store, clock).finishTurn({ ...TURN, runId: 'run_a', status: 'completed' })).toEqual({
      ok: true,
      outcome: 'finished',
      status: 'completed',
    });
    expect(stub.turns.get('turn_1')?.record).toMatchObject({ status: 'completed', revision: revision + 1, run: { runId: 'run_a' } });
    expect(await workerOver(stub.store, clock).finishTurn({ ...TURN, runId: 'run_a', status: 'failed' })).toEqual({
      ok: true,
      outcome: 'already-finished',
      status: 'completed',
    });
    expect(stub.turns.get('turn_1')?.record.revision).toBe(revision + 1);
  });

  it('a finished turn is ended for everyone: renewal, declaration, claim, admission and interruption are turn-not-running, a cancel commits nothing', async () => {
    const { stub, clock, owner } = await ownedTurn();
    const claimed = await owner.claimEffect({ ...TURN, effectId: 'mail' });
    if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error('claim failed');
    expect(await owner.finishTurn({ ...TURN, runId: 'run_a', status: 'needs-reconciliation' })).toMatchObject({
      ok: true,
      outcome: 'finished',
    });
    const refused = { ok: false, code: 'turn-not-running' };
    clock.now = LEASE * 10;
    const other = workerOver(stub.store, clock);
    expect(await other.renewRunLease({ ...TURN, runId: 'run_a' })).toMatchObject(refused);
    expect(await other.declareEffect({ ...TURN, effectId: 'found' })).toMatchObject(refused);
    expect(await other.claimEffect({ ...TURN, effectId: 'mail' })).toMatchObject(refused);
    expect(await other.dispatchEffect({ caller: 'owner', claim: claimed.claim, execute: () => 'sent' })).toMatchObject(refused);
    expect(await other.interruptTurn(TURN)).toEqual({
      ok: false,
      code: 'turn-not-running',
      message: 'the turn has ended: it is needs-reconciliation',
    });
    expect(await other.cancelTurn(TURN)).toMatchObject({ ok: true, outcome: 'cancelled', committed: false });
    expect(stub.launches).toEqual(['pay']);
    expect(stub.turns.get('turn_1')?.record.status).toBe('needs-reconciliation');
    expect(await other.inspectTurn(TURN)).toMatchObject({ ok: true, value: { status: 'needs-reconciliation' } });
  });

  it('finishTurn after an interruption or a cancellation is turn-not-running; another run (or none) is run-lease-lost; nothing is written', async () => {
    const interrupted = await ownedTurn();
    interrupted.clock.now = LEASE;
    await workerOver(interrupted.stub.store, interrupted.clock).interruptTurn(TURN);
    expect(await interrupted.owner.finishTurn({ ...TURN, runId: 'run_a', status: 'completed' })).toEqual({
      ok: false,
      code: 'turn-not-running',
      message: 'the turn has ended: it is interrupted',
    });
    expect(interrupted.stub.turns.get('turn_1')?.record.status).toBe('interrupted');
    const cancelled = await ownedTurn();
    await cancelled.owner.cancelTurn(TURN);
    expect(await cancelled.owner.finishTurn({ ...TURN, runId: 'run_a', status: 'completed' })).toMatchObject({
      ok: false,
      code: 'turn-not-running',
    });
    const owned = await ownedTurn();
    const revision = owned.stub.turns.get('turn_1')?.record.revision;
    expect(await owned.owner.finishTurn({ ...TURN, runId: 'run_b', status: 'completed' })).toMatchObject({
      ok: false,
      code: 'run-lease-lost',
    });
    expect(owned.stub.turns.get('turn_1')?.record.revision).toBe(revision);
    const legacy = stubStore();
    await workerOver(legacy.store, owned.clock).startTurn({ ...TURN, effectIds: [] });
    expect(await workerOver(legacy.store, owned.clock).finishTurn({ ...TURN, runId: 'run_a', status: 'completed' })).toMatchObject({
      ok: false,
      code: 'run-lease-lost',
    });
  });

  it('finishTurn asks authorize for finish, refuses a bad status or run id, and reads a lost acknowledgement back', async () => {
    const { stub, clock } = await ownedTurn();
    const actions: string[] = [];
    const worker = workerOver(stub.store, clock, {}, { authorize: ({ action, caller }) => (actions.push(action), caller !== 'stranger') });
    expect(await worker.finishTurn({ ...TURN, caller: 'stranger', runId: 'run_a', status: 'completed' })).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(actions).toEqual(['finish']);
    for (const status of ['running', 'cancelled', 'interrupted', 'done', undefined])
      expect(await worker.finishTurn({ ...TURN, runId: 'run_a', status: status as 'completed' })).toMatchObject({
        ok: false,
        code: 'invalid-request',
      });
    expect(await worker.finishTurn({ ...TURN, runId: 'run a', status: 'completed' })).toMatchObject({ ok: false, code: 'invalid-request' });
    const lossy: TurnStore<string, string> = {
      ...stub.store,
      compareAndSwap: async (request) => {
        await stub.store.compareAndSwap(request);
        throw new Error('connection reset');
      },
    };
    expect(await workerOver(lossy, clock).finishTurn({ ...TURN, runId: 'run_a', status: 'failed' })).toEqual({
      ok: true,
      outcome: 'finished',
      status: 'failed',
    });
    const failing = await ownedTurn();
    const refused = workerOver({ ...failing.stub.store, compareAndSwap: () => Promise.reject(new Error('down')) }, failing.clock);
    expect(await refused.finishTurn({ ...TURN, runId: 'run_a', status: 'completed' })).toMatchObject({
      ok: false,
      code: 'checkpoint-failed',
    });
    expect(failing.stub.turns.get('turn_1')?.record.status).toBe('running');
  });

  it('runLeaseMs is validated like admissionLeaseMs', () => {
    for (const runLeaseMs of [0, -1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => new TurnRecovery({ capabilities: FULL, authorize: () => true }, { runLeaseMs })).toThrow(
        `TurnRecovery: runLeaseMs must be a positive safe integer of milliseconds, got ${String(runLeaseMs)}`,
      );
    }
  });
});
