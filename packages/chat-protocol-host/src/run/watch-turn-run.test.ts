import type { RenewRunLeaseResult, StoredTurn } from '@papercusp/chat-protocol-recovery';
import { describe, expect, it } from 'vitest';
import { watchTurnRun, type RunStop, type TurnRunWatch } from './watch-turn-run.js';

type Status = 'running' | 'cancelled' | 'interrupted';
const stored = (status: Status, runId = 'run_a'): StoredTurn<unknown> => ({
  record: {
    conversationId: 'c_1',
    turnId: 'turn_1',
    status,
    revision: 1,
    run: { runId, leaseExpiresAt: '2030-01-01T00:00:00Z' },
    effects: [],
  },
  admissions: [],
});
const renewed: RenewRunLeaseResult = { ok: true, outcome: 'renewed', run: { runId: 'run_a', leaseExpiresAt: '2030-01-01T00:00:00Z' } };
const refused = (code: 'turn-not-running' | 'run-lease-lost' | 'store-unavailable'): RenewRunLeaseResult => ({
  ok: false,
  code,
  message: code,
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Answers from a script, one per call; the last repeats.
function script<T>(answers: readonly (T | Error)[]) {
  let calls = 0;
  return {
    calls: () => calls,
    next: async (): Promise<T> => {
      const answer = answers[Math.min(calls, answers.length - 1)] as T | Error;
      calls += 1;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
}

/** Watches with reads and renewals from scripts; `renewEveryMs` 0 renews at every tick, a large one never renews. */
function watchWith(
  reads: readonly (StoredTurn<unknown> | null | Error)[],
  renewals: readonly (RenewRunLeaseResult | Error)[],
  given: Partial<TurnRunWatch> = {},
) {
  const read = script(reads);
  const renew = script(renewals);
  const stops: RunStop[] = [];
  const stop = watchTurnRun({
    turnStore: { read: read.next },
    turnId: 'turn_1',
    runId: 'run_a',
    renew: renew.next,
    leaseExpiresAt: Date.parse('2030-01-01T00:00:00Z'),
    pollMs: 5,
    renewEveryMs: 1_000_000,
    now: () => Date.parse('2029-01-01T00:00:00Z'),
    onStop: (why) => void stops.push(why),
    ...given,
  });
  return { read, renew, stops, stop };
}

describe('watchTurnRun (DESIGN §6 rule 12: a run stops once its turn is cancelled, interrupted or its lease is lost)', () => {
  it('stops once as cancelled when the record reads cancelled, and reads no more', async () => {
    const watch = watchWith([stored('running'), stored('running'), stored('cancelled')], [renewed]);
    await sleep(100);
    expect([watch.stops, watch.read.calls(), watch.renew.calls()]).toEqual([['cancelled'], 3, 0]);
  });

  it('stops as interrupted when the record reads interrupted, names another run, or is gone', async () => {
    for (const record of [stored('interrupted'), stored('running', 'run_b'), null]) {
      const watch = watchWith([stored('running'), record], [renewed]);
      await sleep(60);
      expect(watch.stops).toEqual(['interrupted']);
      watch.stop();
    }
  });

  it('renews every renewEveryMs; a renewal refused for good stops the run with what the record then says', async () => {
    const renewing = watchWith([stored('running')], [renewed, renewed, refused('run-lease-lost')], { renewEveryMs: 0 });
    await sleep(100);
    expect([renewing.stops, renewing.renew.calls()]).toEqual([['interrupted'], 3]);
    const cancelled = watchWith([stored('cancelled')], [refused('turn-not-running')], { renewEveryMs: 0 });
    await sleep(50);
    expect(cancelled.stops).toEqual(['cancelled']);
  });

  it('a renewal or read that fails is retried while the lease lasts; past the deadline the run stops as interrupted', async () => {
    const clock = { now: Date.parse('2029-12-31T23:59:59Z') };
    const watch = watchWith([new Error('connection lost')], [refused('store-unavailable'), new Error('connection lost')], {
      renewEveryMs: 0,
      now: () => clock.now,
    });
    await sleep(50);
    expect(watch.stops).toEqual([]);
    expect(watch.renew.calls()).toBeGreaterThan(2);
    clock.now = Date.parse('2030-01-01T00:00:00Z');
    await sleep(50);
    expect(watch.stops).toEqual(['interrupted']);
  });

  it('a renewal moves the deadline: the run keeps its turn past the first one', async () => {
    const clock = { now: Date.parse('2029-12-31T23:59:59Z') };
    const later: RenewRunLeaseResult = { ok: true, outcome: 'renewed', run: { runId: 'run_a', leaseExpiresAt: '2031-01-01T00:00:00Z' } };
    const watch = watchWith([stored('running')], [later], { renewEveryMs: 0, now: () => clock.now });
    await sleep(30);
    clock.now = Date.parse('2030-06-01T00:00:00Z');
    await sleep(30);
    expect(watch.stops).toEqual([]);
    watch.stop();
  });

  it('once stopped, it never calls onStop and stops reading', async () => {
    const watch = watchWith([stored('running'), stored('cancelled')], [renewed], { pollMs: 20 });
    await sleep(30);
    watch.stop();
    watch.stop();
    await sleep(100);
    expect([watch.stops, watch.read.calls()]).toEqual([[], 1]);
  });
});
