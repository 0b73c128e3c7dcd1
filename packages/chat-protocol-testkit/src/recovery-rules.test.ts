import { LIGHTWEIGHT_CHAT_CAPABILITIES, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { TurnRecovery, type EffectClaim } from '@papercusp/chat-protocol-recovery';
import { describe, expect, it } from 'vitest';
import {
  ADMISSION_LEASE_MS,
  CONVERSATION_ID,
  OWNER,
  TURN,
  TURN_ID,
  createCluster,
  resultOf,
  type Cluster,
  type Worker,
} from '../test/host.js';

// Each rule of DESIGN §6 and issue 5, as an example over fresh workers sharing
// one fake database, with the exact outcome.

async function started(effectIds: readonly string[] = ['pay', 'mail']): Promise<{ cluster: Cluster; first: Worker }> {
  const cluster = createCluster();
  const first = cluster.worker();
  expect(await first.recovery.startTurn({ ...TURN, effectIds })).toMatchObject({ ok: true, outcome: 'started' });
  return { cluster, first };
}

async function claim(worker: Worker, effectId = 'pay'): Promise<EffectClaim> {
  const claimed = await worker.recovery.claimEffect({ ...TURN, effectId });
  if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error(`claim failed: ${JSON.stringify(claimed)}`);
  return claimed.claim;
}

const types = (cluster: Cluster) => cluster.database.history.map((entry) => entry.type);

describe('rule: a completed effect returns its stored result and is never re-run (§6.1)', () => {
  it('a fresh worker claiming a completed effect gets the stored result, reused', async () => {
    const { cluster, first } = await started();
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute() })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: false,
      result: resultOf('pay'),
    });
    expect(await cluster.worker().recovery.claimEffect({ ...TURN, effectId: 'pay' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: true,
      result: resultOf('pay'),
    });
    expect(cluster.launches).toEqual(['pay']);
  });
});

describe('rule: a model retry of the same call never authorizes a redispatch (§6.6)', () => {
  it('while the first dispatch is in flight the retry is already-admitted; afterwards it gets the stored result', async () => {
    const { cluster, first } = await started();
    const pending = first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute('deferred') });
    await cluster.launched('pay');
    const retry = cluster.worker();
    expect(await retry.recovery.claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({ ok: false, code: 'already-admitted' });
    cluster.settle('pay');
    expect(await pending).toEqual({ ok: true, outcome: 'completed', reused: false, result: resultOf('pay') });
    expect(await retry.recovery.claimEffect({ ...TURN, effectId: 'pay' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: true,
      result: resultOf('pay'),
    });
    expect(cluster.launches).toEqual(['pay']);
  });

  it('a retry that claimed before the first worker dispatched makes that dispatch a stale claim; only the newest launches', async () => {
    const { cluster, first } = await started();
    const stale = await claim(first);
    const retry = cluster.worker();
    const fresh = await claim(retry);
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: stale, execute: cluster.execute() })).toMatchObject({
      ok: false,
      code: 'stale-claim',
    });
    expect(await retry.recovery.dispatchEffect({ caller: OWNER, claim: fresh, execute: cluster.execute() })).toMatchObject({
      outcome: 'completed',
      reused: false,
    });
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: fresh, execute: cluster.execute() })).toMatchObject({
      outcome: 'completed',
      reused: true,
    });
    expect(cluster.launches).toEqual(['pay']);
  });
});

describe('rule: dispatch errors and uncertain acknowledgements return needs-reconciliation (§6.6)', () => {
  it('a dispatch error is needs-reconciliation (dispatch-failed); a fresh worker claiming it hears the same', async () => {
    const { cluster, first } = await started();
    expect(
      await first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute('fails') }),
    ).toMatchObject({
      ok: true,
      outcome: 'needs-reconciliation',
      reason: 'dispatch-failed',
    });
    expect(await cluster.worker().recovery.claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({
      outcome: 'needs-reconciliation',
      reason: 'dispatch-failed',
    });
  });

  it('a claim whose acknowledgement was lost is needs-reconciliation (claim-unacknowledged); the claim did commit', async () => {
    const { cluster } = await started();
    cluster.database.inject({ operation: 'compareAndSwap', kind: 'lose-acknowledgement' });
    expect(await cluster.worker().recovery.claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({
      ok: true,
      outcome: 'needs-reconciliation',
      reason: 'claim-unacknowledged',
    });
    expect(cluster.peek()?.record.effects[0]).toEqual({ effectId: 'pay', claim: 1, status: 'open' });
  });

  it('an admission whose acknowledgement was lost launches nothing, is needs-reconciliation, and blocks a redispatch until reconciled', async () => {
    const { cluster, first } = await started();
    const held = await claim(first);
    cluster.database.inject({ operation: 'admitDispatch', kind: 'lose-acknowledgement' });
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: held, execute: cluster.execute() })).toMatchObject({
      ok: true,
      outcome: 'needs-reconciliation',
      reason: 'admission-unacknowledged',
    });
    expect(cluster.launches).toEqual([]);
    const second = cluster.worker();
    expect(await second.recovery.claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({ ok: false, code: 'already-admitted' });
    expect(await second.recovery.reconcileEffect({ ...TURN, effectId: 'pay', result: 'verified: not charged' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: false,
      result: 'verified: not charged',
    });
    expect(await cluster.worker().recovery.claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({
      outcome: 'completed',
      reused: true,
      result: 'verified: not charged',
    });
  });

  it('admitted, launched, then the acknowledgement lost (lose-acknowledgement-after-launch): one launch, the result stored (issue 12)', async () => {
    const { cluster, first } = await started();
    const held = await claim(first);
    cluster.database.inject({ operation: 'admitDispatch', kind: 'lose-acknowledgement-after-launch' });
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: held, execute: cluster.execute() })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: false,
      result: resultOf('pay'),
    });
    expect(cluster.launches).toEqual(['pay']);
    expect(types(cluster).filter((type) => type === 'admitted' || type === 'launched' || type === 'result-stored')).toEqual([
      'admitted',
      'launched',
      'result-stored',
    ]);
    expect(await cluster.worker().recovery.claimEffect({ ...TURN, effectId: 'pay' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: true,
      result: resultOf('pay'),
    });
  });

  it('a fault aimed at one effect and the second read of its turn hits exactly those calls, whatever else runs (issue 12)', async () => {
    const { cluster, first } = await started();
    const [pay, mail] = [await claim(first, 'pay'), await claim(first, 'mail')];
    // The admission of mail only: pay's admission runs untouched, before and after in call order.
    cluster.database.inject({
      operation: 'admitDispatch',
      kind: 'lose-acknowledgement-after-launch',
      target: { turnId: TURN_ID, effectId: 'mail' },
    });
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: pay, execute: cluster.execute() })).toMatchObject({
      outcome: 'completed',
      reused: false,
    });
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: mail, execute: cluster.execute() })).toMatchObject({
      outcome: 'completed',
      reused: false,
    });
    expect(cluster.launches).toEqual(['pay', 'mail']);
    // The second read of this turn from now on fails; fresh workers each read once.
    cluster.database.inject({ operation: 'read', kind: 'fail-before-commit', target: { turnId: TURN_ID }, occurrence: 2 });
    const answers = [];
    for (let index = 0; index < 3; index += 1) answers.push(await cluster.worker().recovery.claimEffect({ ...TURN, effectId: 'pay' }));
    expect(answers.map((answer) => (answer.ok ? answer.outcome : answer.code))).toEqual(['completed', 'store-unavailable', 'completed']);
  });

  it('an admission that failed before commit is also needs-reconciliation and launched nothing', async () => {
    const { cluster, first } = await started();
    const held = await claim(first);
    cluster.database.inject({ operation: 'admitDispatch', kind: 'fail-before-commit' });
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: held, execute: cluster.execute() })).toMatchObject({
      reason: 'admission-unacknowledged',
    });
    expect(cluster.launches).toEqual([]);
    expect(cluster.peek()?.admissions).toEqual([]);
  });
});

describe('rule: a completion whose acknowledgement was lost is read back; a checkpoint failure is explicit (§6.7)', () => {
  it('reads the committed result back and answers completed', async () => {
    const { cluster, first } = await started();
    const held = await claim(first);
    cluster.database.inject({ operation: 'compareAndSwap', kind: 'lose-acknowledgement' });
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: held, execute: cluster.execute() })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: false,
      result: resultOf('pay'),
    });
    expect(cluster.peek()?.record.effects[0]).toMatchObject({ status: 'completed', result: resultOf('pay') });
  });

  it('a failed result write is checkpoint-failed carrying the result; nothing relaunches it, and reconcile stores it', async () => {
    const { cluster, first } = await started();
    const held = await claim(first);
    cluster.database.inject({ operation: 'compareAndSwap', kind: 'fail-before-commit' });
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: held, execute: cluster.execute() })).toMatchObject({
      ok: false,
      code: 'checkpoint-failed',
      result: resultOf('pay'),
    });
    const second = cluster.worker();
    expect(await second.recovery.claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({ code: 'already-admitted' });
    expect(await second.recovery.reconcileEffect({ ...TURN, effectId: 'pay', result: resultOf('pay') })).toMatchObject({
      outcome: 'completed',
      reused: false,
    });
    expect(cluster.launches).toEqual(['pay']);
  });
});

describe('rule: an adapter without an admission seam refuses dispatch (§6.4)', () => {
  it('refuses no-admission-seam and launches nothing', async () => {
    const { cluster } = await started();
    const seamless = cluster.worker({ withoutAdmissionSeam: true });
    const held = await claim(seamless);
    expect(await seamless.recovery.dispatchEffect({ caller: OWNER, claim: held, execute: cluster.execute() })).toMatchObject({
      ok: false,
      code: 'no-admission-seam',
    });
    expect(cluster.launches).toEqual([]);
  });
});

describe('rule: a stale snapshot or the abort hook can never authorize a launch (§6.4)', () => {
  it("a failed execution answers the verified result another worker stored, not its own stale snapshot's mark (§6.6, §6.11)", async () => {
    // The model test's counterexample: the dispatching worker's snapshot holds
    // the admission-expired mark its own claim wrote; another worker then
    // reconciles. The failure must report what is stored, not that mark.
    const { cluster, first } = await started();
    const pending = first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute('deferred') });
    await cluster.launched('pay');
    cluster.clock.elapsedMs = ADMISSION_LEASE_MS;
    expect(await first.recovery.claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({
      outcome: 'needs-reconciliation',
      reason: 'admission-expired',
    });
    expect(await cluster.worker().recovery.reconcileEffect({ ...TURN, effectId: 'pay', result: 'verified:pay' })).toMatchObject({
      outcome: 'completed',
      reused: false,
    });
    cluster.fail('pay');
    expect(await pending).toEqual({ ok: true, outcome: 'completed', reused: true, result: 'verified:pay' });
    expect(cluster.launches).toEqual(['pay']);
  });

  it('a worker whose snapshot predates the cancellation is refused turn-not-running', async () => {
    const { cluster, first } = await started();
    const held = await claim(first);
    expect(await cluster.worker().recovery.cancelTurn(TURN)).toMatchObject({ ok: true, committed: true });
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: held, execute: cluster.execute() })).toMatchObject({
      ok: false,
      code: 'turn-not-running',
    });
    expect(cluster.launches).toEqual([]);
  });

  it('a caller whose grant was revoked after claiming is refused forbidden at admission', async () => {
    const { cluster, first } = await started();
    const held = await claim(first);
    first.store.revoke(CONVERSATION_ID, OWNER);
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: held, execute: cluster.execute() })).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    expect(cluster.launches).toEqual([]);
  });

  it('the abort hook runs after the commit, and a dispatch it attempts is turn-not-running', async () => {
    const { cluster, first } = await started();
    const heldMail = await claim(first, 'mail');
    void first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute('deferred') });
    await cluster.launched('pay');
    let fromHook: unknown;
    const hooked = cluster.worker();
    const adapter = hooked.store.adapter({
      onAbort: async () => {
        fromHook = await hooked.recovery.dispatchEffect({ caller: OWNER, claim: heldMail, execute: cluster.execute() });
      },
    });
    const recoveryWithHook = new TurnRecovery<string, string>(adapter);
    expect(await recoveryWithHook.cancelTurn(TURN)).toMatchObject({ committed: true, inFlight: ['pay'], abort: 'requested' });
    expect(fromHook).toMatchObject({ ok: false, code: 'turn-not-running' });
    expect(cluster.launches).toEqual(['pay']);
  });
});

describe('rule: cancellation commits first, then aborts in-flight effects; a late result is stored without reopening (§6.5, §6.8)', () => {
  it('the abort hook reaches the host execution, whose outcome then needs reconciliation', async () => {
    const { cluster, first } = await started();
    const pending = first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute('deferred') });
    await cluster.launched('pay');
    expect(await cluster.worker().recovery.cancelTurn(TURN)).toEqual({
      ok: true,
      outcome: 'cancelled',
      committed: true,
      inFlight: ['pay'],
      abort: 'requested',
    });
    expect(await pending).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'dispatch-failed' });
    expect(types(cluster)).toEqual(expect.arrayContaining(['cancel-committed', 'marked-needs-reconciliation']));
    expect(cluster.peek()?.record.status).toBe('cancelled');
  });

  it('an execution that finishes despite the abort has its result stored; the turn stays cancelled', async () => {
    const cluster = createCluster();
    const first = cluster.worker();
    await first.recovery.startTurn({ ...TURN, effectIds: ['pay'] });
    // A host whose abort hook cannot stop the payment: it completes anyway.
    const stubborn = cluster.worker();
    const canceller = new TurnRecovery<string, string>(stubborn.store.adapter({ onAbort: () => cluster.settle('pay') }));
    const pending = first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute('deferred') });
    await cluster.launched('pay');
    expect(await canceller.cancelTurn(TURN)).toMatchObject({ committed: true, inFlight: ['pay'], abort: 'requested' });
    expect(await pending).toEqual({ ok: true, outcome: 'completed', reused: false, result: resultOf('pay') });
    const order = types(cluster).filter((type) => type === 'cancel-committed' || type === 'result-stored' || type === 'launched');
    expect(order).toEqual(['launched', 'cancel-committed', 'result-stored']);
    expect(cluster.peek()?.record).toMatchObject({ status: 'cancelled', effects: [{ status: 'completed', result: resultOf('pay') }] });
  });

  it('an abort hook that throws is reported; the cancellation stays committed', async () => {
    const { cluster, first } = await started();
    void first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute('deferred') });
    await cluster.launched('pay');
    cluster.database.inject({ operation: 'abort', kind: 'fail-before-commit' });
    expect(await cluster.worker().recovery.cancelTurn(TURN)).toMatchObject({ ok: true, committed: true, abort: 'failed' });
    expect(cluster.peek()?.record.status).toBe('cancelled');
    expect(cluster.running()).toEqual(['pay']);
    // Cancelling again retries the abort.
    expect(await cluster.worker().recovery.cancelTurn(TURN)).toMatchObject({
      ok: true,
      committed: false,
      inFlight: ['pay'],
      abort: 'requested',
    });
    expect(cluster.running()).toEqual([]);
  });
});

describe('rule: restart drops every lock and cache and keeps what committed (§8)', () => {
  it('a dead worker cannot write; a fresh worker sees the admission and reconciles the verified result', async () => {
    const { cluster, first } = await started();
    const pending = first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute('deferred') });
    await cluster.launched('pay');
    cluster.database.restart();
    cluster.settle('pay');
    expect(await pending).toMatchObject({ ok: false, code: 'checkpoint-failed', result: resultOf('pay') });
    const fresh = cluster.worker();
    expect(await fresh.recovery.claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({ ok: false, code: 'already-admitted' });
    expect(await fresh.recovery.reconcileEffect({ ...TURN, effectId: 'pay', result: resultOf('pay') })).toMatchObject({
      outcome: 'completed',
      reused: false,
    });
    expect(await fresh.recovery.claimEffect({ ...TURN, effectId: 'mail' })).toMatchObject({ ok: true, outcome: 'claimed' });
    expect(cluster.launches).toEqual(['pay']);
  });

  it('delays reorder nothing that matters: a delayed dispatch completes', async () => {
    const { cluster, first } = await started();
    cluster.database.inject({ operation: 'admitDispatch', kind: 'delay', turns: 5 });
    cluster.database.inject({ operation: 'compareAndSwap', kind: 'delay', turns: 3, times: 2 });
    expect(await first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute() })).toMatchObject({
      outcome: 'completed',
      reused: false,
    });
  });
});

describe('rule: replay windows (§6.9) and the lightweight profile (§6.10)', () => {
  const frame = (seq: number): ChatEventEnvelope => ({
    schemaVersion: 1,
    conversationId: CONVERSATION_ID,
    turnId: TURN_ID,
    eventId: `evt_${seq}`,
    seq,
    occurredAt: '2026-11-30T10:00:00Z',
    event: { type: 'delta', text: `part ${seq}` },
  });

  it('returns the complete retained suffix; refuses stale and future cursors; reports bounds when empty', async () => {
    const cluster = createCluster();
    const worker = cluster.worker({ capabilities: LIGHTWEIGHT_CHAT_CAPABILITIES });
    worker.store.appendFrames([1, 2, 3, 4, 5].map(frame));
    worker.store.retainAfter(TURN_ID, 2);
    expect(await worker.recovery.replayTurn({ ...TURN, after: `${TURN_ID}:3` })).toEqual({
      ok: true,
      value: { after: { turnId: TURN_ID, seq: 3 }, lowerBound: 2, latestSeq: 5, frames: [frame(4), frame(5)] },
    });
    expect(await worker.recovery.replayTurn({ ...TURN, after: `${TURN_ID}:1` })).toMatchObject({ ok: false, code: 'stale-cursor' });
    expect(await worker.recovery.replayTurn({ ...TURN, after: `${TURN_ID}:6` })).toMatchObject({ ok: false, code: 'cursor-beyond-latest' });
    worker.store.retainAfter(TURN_ID, 9);
    expect(await worker.recovery.replayTurn({ ...TURN, after: `${TURN_ID}:5` })).toEqual({
      ok: true,
      value: { after: { turnId: TURN_ID, seq: 5 }, lowerBound: 5, latestSeq: 5, frames: [] },
    });
    expect(await worker.recovery.claimEffect({ ...TURN, effectId: 'pay' })).toMatchObject({
      ok: false,
      code: 'unsupported-capability',
      missing: ['interruptedTurnRecovery'],
    });
  });

  it('a window the log could not read is replay-unavailable', async () => {
    const cluster = createCluster();
    cluster.database.inject({ operation: 'replayWindow', kind: 'fail-before-commit' });
    expect(await cluster.worker().recovery.replayTurn({ ...TURN, after: `${TURN_ID}:0` })).toMatchObject({
      ok: false,
      code: 'replay-unavailable',
    });
  });
});

describe('measure: store round trips per effect on the happy path (claim → admit → complete)', () => {
  it('three on the worker that started the turn; one read more for a fresh worker', async () => {
    const { cluster, first } = await started();
    cluster.database.resetCounts();
    await first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute() });
    expect(cluster.database.counts()).toEqual({ authorize: 1, compareAndSwap: 2, admitDispatch: 1 });
    cluster.database.resetCounts();
    const fresh = cluster.worker();
    await fresh.recovery.dispatchEffect({ caller: OWNER, claim: await claim(fresh, 'mail'), execute: cluster.execute() });
    expect(cluster.database.counts()).toEqual({ authorize: 1, read: 1, compareAndSwap: 2, admitDispatch: 1 });
  });
});

describe('rule: orphaned admissions become uncertain, never relaunched, across restarts (§6.11, issue 12)', () => {
  const expired = {
    ok: true,
    outcome: 'needs-reconciliation',
    reason: 'admission-expired',
    message:
      'the effect was admitted and has no result past the admission lease: its worker is presumed gone; verify the effect and reconcile',
  };
  const inFlight = { ok: false, code: 'already-admitted', message: 'the effect was admitted and is in flight within the admission lease' };

  it('over 5 restart cycles, each orphaning one more effect: launches stay 1 per effect, every claim past the lease is needs-reconciliation', async () => {
    const effects = ['e1', 'e2', 'e3', 'e4', 'e5'];
    const { cluster } = await started(effects);
    for (const [index, effectId] of effects.entries()) {
      // A worker admits and launches the effect, then dies with the database restart (caches and locks dropped, rows kept).
      const doomed = cluster.worker();
      const pending = doomed.recovery.dispatchEffect({
        caller: OWNER,
        claim: await claim(doomed, effectId),
        execute: cluster.execute('deferred'),
      });
      await cluster.launched(effectId);
      const admittedAtMs = cluster.clock.elapsedMs;
      cluster.database.restart();
      cluster.fail(effectId);
      expect(await pending).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'dispatch-failed' });
      expect(cluster.peek()?.record.effects[index]).toEqual({ effectId, claim: 1, status: 'open' });
      // Within the lease the orphan reads as in flight; at the lease a fresh worker's claim marks it.
      cluster.clock.elapsedMs = admittedAtMs + ADMISSION_LEASE_MS - 1;
      expect(await cluster.worker().recovery.claimEffect({ ...TURN, effectId })).toEqual(inFlight);
      cluster.clock.elapsedMs = admittedAtMs + ADMISSION_LEASE_MS;
      for (const earlier of effects.slice(0, index + 1)) {
        expect(await cluster.worker().recovery.claimEffect({ ...TURN, effectId: earlier })).toEqual(expired);
      }
      expect(cluster.peek()?.record.effects[index]).toEqual({
        effectId,
        claim: 1,
        status: 'needs-reconciliation',
        reason: 'admission-expired',
      });
    }
    const launched = cluster.database.history.filter((entry) => entry.type === 'launched').map((entry) => entry.detail['effectId']);
    expect(launched).toEqual(effects);
    expect(cluster.launches).toEqual(effects);
    expect(types(cluster).filter((type) => type === 'restart')).toHaveLength(5);
    expect(types(cluster)).not.toContain('violation');
  });

  it('inspectTurn on a fresh worker after a restart: in-flight, then uncertain past the lease, then needs-reconciliation once claimed', async () => {
    const { cluster, first } = await started();
    void first.recovery.dispatchEffect({ caller: OWNER, claim: await claim(first), execute: cluster.execute('deferred') });
    await cluster.launched('pay');
    cluster.database.restart();
    const states = async () => {
      const inspected = await cluster.worker().recovery.inspectTurn(TURN);
      return inspected.ok ? inspected.value.effects.map((effect) => effect.state) : inspected.code;
    };
    expect(await states()).toEqual(['in-flight', 'open']);
    cluster.clock.elapsedMs = ADMISSION_LEASE_MS;
    expect(await states()).toEqual(['uncertain', 'open']);
    expect(await cluster.worker().recovery.claimEffect({ ...TURN, effectId: 'pay' })).toEqual(expired);
    expect(await states()).toEqual(['needs-reconciliation', 'open']);
    expect(cluster.launches).toEqual(['pay']);
    cluster.fail('pay');
  });
});
