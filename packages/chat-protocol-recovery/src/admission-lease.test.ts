import { LIGHTWEIGHT_CHAT_CAPABILITIES } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { at, clockedWorker } from '../test/clocked-worker.js';
import { FULL, stubStore, type Stub } from '../test/stub-store.js';
import type { TurnRecoveryAdapter, TurnStore } from './adapter.js';
import { DEFAULT_ADMISSION_LEASE_MS } from './admission-lease.js';
import { NEEDS_RECONCILIATION_REASONS, type StoredTurn } from './turn-record.js';
import type { TurnRecoveryOptions } from './turn-recovery-options.js';
import { TurnRecovery } from './turn-recovery.js';

// DESIGN §6.11 and issue 12 ("Recovery: orphaned admissions"), over the unit
// tests' sequential in-memory store (no fences: the testkit's fake store has those).

const TURN = { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1' } as const;
const LEASE = 1000;
const EXPIRED = {
  ok: true,
  outcome: 'needs-reconciliation',
  reason: 'admission-expired',
  message:
    'the effect was admitted and has no result past the admission lease: its worker is presumed gone; verify the effect and reconcile',
} as const;

/** A worker over `store` whose clock reads `clock.now` milliseconds after T0, with an admission lease of LEASE. */
const workerOver = (
  store: TurnStore<string, string>,
  clock: { now: number },
  options: TurnRecoveryOptions = {},
  extra: Partial<TurnRecoveryAdapter<string, string>> = {},
) => clockedWorker(store, clock, { admissionLeaseMs: LEASE, ...options }, extra);

/** A started turn (`pay`, `mail`) whose `pay` was admitted at T0 by a worker that never finishes; the clock then stands at `clock.now`. */
async function orphaned(options: TurnRecoveryOptions = {}) {
  const stub = stubStore();
  const clock = { now: 0 };
  const first = workerOver(stub.store, clock, options);
  await first.startTurn({ ...TURN, effectIds: ['pay', 'mail'] });
  const claimed = await first.claimEffect({ ...TURN, effectId: 'pay' });
  if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error(`claim failed: ${JSON.stringify(claimed)}`);
  let finish: (result: string) => void = () => undefined;
  const dispatched = first.dispatchEffect({
    caller: 'owner',
    claim: claimed.claim,
    execute: () => new Promise<string>((resolve) => (finish = resolve)),
  });
  await Promise.resolve();
  return {
    stub,
    clock,
    dispatched,
    finish: (result: string) => finish(result),
    fresh: (more: TurnRecoveryOptions = {}) => workerOver(stub.store, clock, { ...options, ...more }),
  };
}

const payOf = (stub: Stub) => stub.turns.get('turn_1')?.record.effects.find((effect) => effect.effectId === 'pay');

describe('rule: an admission records when it was admitted, from the injected clock (§6.11)', () => {
  it('the admission request and the stored admission carry the clock reading as admittedAt', async () => {
    const { stub } = await orphaned();
    expect(stub.turns.get('turn_1')?.admissions).toEqual([{ effectId: 'pay', claim: 1, admittedAt: '2030-01-01T00:00:00.000Z' }]);
  });

  it('a clock that throws or gives no RFC 3339 timestamp makes dispatch refuse clock-unavailable, launching nothing', async () => {
    for (const clock of [
      () => {
        throw new Error('no time');
      },
      () => '2030-01-01 00:00:00',
      () => 17 as unknown as string,
    ]) {
      const stub = stubStore();
      const worker = new TurnRecovery<string, string>({ capabilities: FULL, authorize: () => true, store: stub.store }, { clock });
      await worker.startTurn({ ...TURN, effectIds: ['pay'] });
      const claimed = await worker.claimEffect({ ...TURN, effectId: 'pay' });
      if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error('an open effect is claimed without reading the clock');
      expect(await worker.dispatchEffect({ caller: 'owner', claim: claimed.claim, execute: () => 'paid' })).toEqual({
        ok: false,
        code: 'clock-unavailable',
        message: 'the clock gave no RFC 3339 timestamp to date the admission: nothing was launched',
      });
      expect(stub.launches).toEqual([]);
      expect(stub.log).not.toContain('admit');
    }
  });
});

describe('rule: admissionLeaseMs is validated; its default is 10 minutes (§6.11)', () => {
  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '1000'])(
    'refuses admissionLeaseMs %s with a TypeError at construction',
    (lease) => {
      expect(() => new TurnRecovery({ capabilities: FULL, authorize: () => true }, { admissionLeaseMs: lease as number })).toThrow(
        TypeError,
      );
    },
  );

  it('refuses a clock that is not a function with a TypeError at construction', () => {
    expect(
      () => new TurnRecovery({ capabilities: FULL, authorize: () => true }, { clock: '2030-01-01T00:00:00Z' as unknown as () => string }),
    ).toThrow(TypeError);
  });

  it('without the option the lease is DEFAULT_ADMISSION_LEASE_MS: in flight 1 ms before it, expired at it', async () => {
    expect(DEFAULT_ADMISSION_LEASE_MS).toBe(600_000);
    const { stub, clock } = await orphaned();
    const worker = () =>
      new TurnRecovery<string, string>({ capabilities: FULL, authorize: () => true, store: stub.store }, { clock: () => at(clock.now) });
    clock.now = 599_999;
    expect(await worker().claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({ ok: false, code: 'already-admitted' });
    clock.now = 600_000;
    expect(await worker().claimEffect({ ...TURN, effectId: 'pay' })).toEqual(EXPIRED);
  });
});

describe('rule: an orphaned admission becomes needs-reconciliation past the lease, never relaunched (§6.11)', () => {
  it('younger than the lease a claim is already-admitted; at the lease it durably marks the effect admission-expired', async () => {
    const { stub, clock, fresh } = await orphaned();
    clock.now = LEASE - 1;
    expect(await fresh().claimEffect({ ...TURN, effectId: 'pay' })).toEqual({
      ok: false,
      code: 'already-admitted',
      message: 'the effect was admitted and is in flight within the admission lease',
    });
    expect(payOf(stub)).toEqual({ effectId: 'pay', claim: 1, status: 'open' });
    clock.now = LEASE;
    expect(await fresh().claimEffect({ ...TURN, effectId: 'pay' })).toEqual(EXPIRED);
    expect(payOf(stub)).toEqual({ effectId: 'pay', claim: 1, status: 'needs-reconciliation', reason: 'admission-expired' });
    // Durable: a later claim reads the mark, whatever its clock says.
    clock.now = 0;
    expect(await fresh().claimEffect({ ...TURN, effectId: 'pay' })).toEqual(EXPIRED);
    expect(stub.launches).toEqual(['pay']);
  });

  it('the late result of a presumed-dead worker is still stored; a reconciled result stays the answer', async () => {
    const { stub, clock, fresh, dispatched, finish } = await orphaned();
    clock.now = LEASE;
    expect(await fresh().claimEffect({ ...TURN, effectId: 'pay' })).toEqual(EXPIRED);
    finish('paid');
    expect(await dispatched).toEqual({ ok: true, outcome: 'completed', reused: false, result: 'paid' });
    expect(payOf(stub)).toEqual({ effectId: 'pay', claim: 1, status: 'completed', result: 'paid', source: 'dispatch' });
    expect(stub.launches).toEqual(['pay']);
  });

  it('in a cancelled turn an expired admission is marked too; a young one is turn-not-running', async () => {
    const { stub, clock, fresh } = await orphaned();
    await fresh().cancelTurn(TURN);
    clock.now = LEASE - 1;
    expect(await fresh().claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({ ok: false, code: 'turn-not-running' });
    clock.now = LEASE;
    expect(await fresh().claimEffect({ ...TURN, effectId: 'pay' })).toEqual(EXPIRED);
    expect(stub.turns.get('turn_1')?.record.status).toBe('cancelled');
  });

  it('an admission whose admittedAt the store lost or garbled counts as past the lease', async () => {
    for (const admittedAt of [undefined, '', 'yesterday', 1_900_000_000_000]) {
      const { stub, fresh } = await orphaned();
      const turn = stub.turns.get('turn_1') as StoredTurn<string>;
      stub.turns.set('turn_1', { ...turn, admissions: [{ effectId: 'pay', claim: 1, admittedAt: admittedAt as string }] });
      expect(await fresh().claimEffect({ ...TURN, effectId: 'pay' })).toEqual(EXPIRED);
    }
  });

  it('an admission dated after the clock (another worker ahead) is young', async () => {
    const { clock, fresh } = await orphaned();
    clock.now = -5_000;
    expect(await fresh().claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({ ok: false, code: 'already-admitted' });
  });

  it('a mark whose acknowledgement was lost is still needs-reconciliation (admission-expired)', async () => {
    const { stub, clock } = await orphaned();
    clock.now = LEASE;
    const lossy = workerOver({ ...stub.store, compareAndSwap: () => Promise.reject(new Error('timeout')) }, clock);
    expect(await lossy.claimEffect({ ...TURN, effectId: 'pay' })).toEqual(EXPIRED);
  });

  it('a claim written from a snapshot older than an expired admission marks it on the store answer', async () => {
    const stub = stubStore();
    const clock = { now: 0 };
    const first = workerOver(stub.store, clock);
    await first.startTurn({ ...TURN, effectIds: ['pay', 'mail'] });
    const stale = workerOver(stub.store, clock);
    await stale.claimEffect({ ...TURN, effectId: 'mail' });
    const claimed = await first.claimEffect({ ...TURN, effectId: 'pay' });
    if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error('claim failed');
    // `stale` holds revision 3 and no admission; the admission does not move the revision.
    await stale.claimEffect({ ...TURN, effectId: 'mail' });
    void first.dispatchEffect({ caller: 'owner', claim: claimed.claim, execute: () => new Promise<string>(() => undefined) });
    await Promise.resolve();
    clock.now = LEASE;
    expect(await stale.claimEffect({ ...TURN, effectId: 'pay' })).toEqual(EXPIRED);
    expect(payOf(stub)).toMatchObject({ status: 'needs-reconciliation', reason: 'admission-expired' });
    expect(stub.launches).toEqual(['pay']);
  });

  it('a claim that must judge an admission with a broken clock refuses clock-unavailable and writes nothing', async () => {
    const { stub } = await orphaned();
    const broken = new TurnRecovery<string, string>(
      { capabilities: FULL, authorize: () => true, store: stub.store },
      { clock: () => 'now' },
    );
    stub.log.length = 0;
    expect(await broken.claimEffect({ ...TURN, effectId: 'pay' })).toEqual({
      ok: false,
      code: 'clock-unavailable',
      message: 'the clock gave no RFC 3339 timestamp: the admission lease cannot be judged',
    });
    expect(stub.log).toEqual(['read']);
    expect(NEEDS_RECONCILIATION_REASONS).toContain('admission-expired');
  });
});

describe('rule: inspectTurn lists every effect with its state (§6.11)', () => {
  it('open, in-flight, uncertain, needs-reconciliation and completed, each with what it rests on', async () => {
    const stub = stubStore();
    const clock = { now: 0 };
    const worker = workerOver(stub.store, clock);
    await worker.startTurn({ ...TURN, effectIds: ['open', 'flying', 'orphan', 'marked', 'done'] });
    // Resolves once the effect launched (or its dispatch answered).
    const dispatch = async (effectId: string, execute: () => Promise<string> | string) => {
      const claimed = await worker.claimEffect({ ...TURN, effectId });
      if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error('claim failed');
      let launched: () => void = () => undefined;
      const started = new Promise<void>((resolve) => (launched = resolve));
      const answered = worker.dispatchEffect({ caller: 'owner', claim: claimed.claim, execute: () => (launched(), execute()) });
      await Promise.race([started, answered]);
    };
    const never = () => new Promise<string>(() => undefined);
    await dispatch('orphan', never);
    await dispatch('marked', never);
    await dispatch('done', () => 'paid');
    clock.now = LEASE;
    expect(await worker.claimEffect({ ...TURN, effectId: 'marked' })).toEqual(EXPIRED);
    await dispatch('flying', never);
    clock.now = LEASE + 10;
    expect(await worker.inspectTurn(TURN)).toEqual({
      ok: true,
      value: {
        conversationId: 'conv_1',
        turnId: 'turn_1',
        status: 'running',
        revision: 7,
        inspectedAt: '2030-01-01T00:00:01.010Z',
        admissionLeaseMs: LEASE,
        effects: [
          { effectId: 'open', claim: 0, state: 'open' },
          { effectId: 'flying', claim: 1, state: 'in-flight', admittedAt: '2030-01-01T00:00:01.000Z' },
          { effectId: 'orphan', claim: 1, state: 'uncertain', admittedAt: '2030-01-01T00:00:00.000Z' },
          { effectId: 'marked', claim: 1, state: 'needs-reconciliation', reason: 'admission-expired' },
          { effectId: 'done', claim: 1, state: 'completed', result: 'paid', source: 'dispatch' },
        ],
      },
    });
  });

  it('an admission without a readable admittedAt is uncertain with admittedAt null; inspecting writes nothing', async () => {
    const { stub, fresh } = await orphaned();
    const turn = stub.turns.get('turn_1') as StoredTurn<string>;
    stub.turns.set('turn_1', { ...turn, admissions: [{ effectId: 'pay', claim: 1 } as never] });
    stub.log.length = 0;
    const inspected = await fresh().inspectTurn(TURN);
    expect(inspected.ok && inspected.value.effects[0]).toEqual({ effectId: 'pay', claim: 1, state: 'uncertain', admittedAt: null });
    expect(stub.log).toEqual(['read']);
  });

  it('checks authority before reading, and says nothing about a turn the caller may not see', async () => {
    const { stub, fresh } = await orphaned();
    stub.log.length = 0;
    expect(await fresh().inspectTurn({ ...TURN, caller: 'stranger' })).toEqual({
      ok: false,
      code: 'forbidden',
      message: 'the caller may not inspect this turn',
    });
    expect(await fresh().inspectTurn({ ...TURN, caller: 'stranger', turnId: 'turn_missing' })).toEqual({
      ok: false,
      code: 'forbidden',
      message: 'the caller may not inspect this turn',
    });
    expect(stub.log).toEqual([]);
    const unknown = { ok: false, code: 'unknown-turn', message: 'no such turn in this conversation' };
    expect(await fresh().inspectTurn({ ...TURN, turnId: 'turn_missing' })).toEqual(unknown);
    expect(await fresh().inspectTurn({ ...TURN, conversationId: 'conv_other' })).toEqual(unknown);
    const asked: string[] = [];
    await workerOver(stub.store, { now: 0 }, {}, { authorize: ({ action }) => (asked.push(action), true) }).inspectTurn(TURN);
    expect(asked).toEqual(['inspect']);
  });

  it('refuses with typed codes and never throws, whatever the request, the store or the clock', async () => {
    const { stub, fresh, clock } = await orphaned();
    const getter = Object.defineProperty({}, 'turnId', {
      get: () => {
        throw new Error('hostile');
      },
    });
    for (const request of [
      null,
      undefined,
      7,
      'turn_1',
      {},
      { ...TURN, turnId: 'a b' },
      getter,
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('trap');
          },
        },
      ),
    ]) {
      expect(await fresh().inspectTurn(request as never)).toEqual({
        ok: false,
        code: 'invalid-request',
        message: 'expected a request with v1 ids for the conversation and turn',
      });
    }
    expect(await workerOver({ ...stub.store, read: () => Promise.reject(new Error('down')) }, clock).inspectTurn(TURN)).toMatchObject({
      ok: false,
      code: 'store-unavailable',
    });
    const malformed = {
      ...stub.store,
      read: () => Promise.resolve({ record: { ...stub.turns.get('turn_1')?.record, effects: null }, admissions: [] } as never),
    };
    expect(await workerOver(malformed, clock).inspectTurn(TURN)).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: 'the store answered with a turn outside the record shape',
    });
    expect(
      await fresh({
        clock: () => {
          throw new Error('no time');
        },
      }).inspectTurn(TURN),
    ).toMatchObject({ ok: false, code: 'clock-unavailable' });
    const lightweight = new TurnRecovery<string, string>({
      capabilities: LIGHTWEIGHT_CHAT_CAPABILITIES,
      authorize: () => true,
      store: stub.store,
    });
    expect(await lightweight.inspectTurn(TURN)).toMatchObject({
      ok: false,
      code: 'unsupported-capability',
      missing: ['interruptedTurnRecovery'],
    });
  });
});
