import { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeDatabase, createFakeInteractionStore, createFakeTurnStore } from './index.js';
import { checkRaces, scheduleInteractionStore, scheduleTurnRecoveryAdapter, settleRace } from './races.js';
import { runs } from '../../../test-support/property-runs.js';

// The race helpers a host's own race test uses (issue 12, "Testkit: a fault
// model a host team can aim"): real interleavings, not the order calls started.

const TURN = { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1' } as const;

async function startedDatabase(options: { readonly pause?: () => Promise<void> | undefined } = {}) {
  const database = createFakeDatabase(options.pause === undefined ? {} : { pause: options.pause });
  const setup = createFakeTurnStore<string>(database);
  setup.grant('conv_1', 'owner');
  await new TurnRecovery<string, string>(setup.adapter()).startTurn({ ...TURN, effectIds: ['pay'] });
  database.resetCounts();
  return database;
}

describe('scheduleTurnRecoveryAdapter', () => {
  it('holds every request until the scheduler releases it, then its answer until it is released too', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (scheduler) => {
        const database = await startedDatabase();
        const adapter = scheduleTurnRecoveryAdapter(createFakeTurnStore<string>(database).adapter({ onAbort: () => undefined }), scheduler);
        const claimed = new TurnRecovery<string, string>(adapter).claimEffect({ ...TURN, effectId: 'pay' });
        await new Promise<void>((resolve) => setImmediate(resolve));
        expect(database.counts()).toEqual({});
        expect(scheduler.count()).toBe(1);
        await scheduler.waitFor(claimed);
        expect(await claimed).toEqual({
          ok: true,
          outcome: 'claimed',
          claim: { conversationId: 'conv_1', turnId: 'turn_1', effectId: 'pay', claim: 1 },
        });
        expect(database.counts()).toEqual({ authorize: 1, read: 1, compareAndSwap: 1 });
      }),
      { numRuns: runs(20) },
    );
  });

  it('wraps every seam the adapter has, leaves a missing one missing, and does not touch the input', () => {
    const database = createFakeDatabase();
    const base = createFakeTurnStore<string>(database).adapter({ onAbort: () => undefined });
    const scheduler = fc.sample(fc.scheduler(), 1)[0];
    if (scheduler === undefined) throw new Error('no scheduler');
    const wrapped = scheduleTurnRecoveryAdapter(base, scheduler);
    expect(Object.keys(wrapped).sort()).toEqual(['abort', 'authorize', 'capabilities', 'replayWindow', 'store']);
    expect(Object.keys(wrapped.store ?? {}).sort()).toEqual(['admitDispatch', 'compareAndSwap', 'read']);
    expect(wrapped.capabilities).toBe(base.capabilities);
    const bare = scheduleTurnRecoveryAdapter(createFakeTurnStore<string>(database).adapter({ withoutAdmissionSeam: true }), scheduler);
    expect(Object.keys(bare).sort()).toEqual(['authorize', 'capabilities', 'replayWindow', 'store']);
    expect(bare.store?.admitDispatch).toBeUndefined();
    expect(typeof base.store?.read).toBe('function');
  });
});

describe('checkRaces with scheduled workers: real interleavings (issue 12)', () => {
  it('either of two workers claiming one effect at once can win: the first started does not always get the newer claim', async () => {
    const winners = new Set<string>();
    const failures = await checkRaces(
      200,
      async (pacing) => {
        let racing = false;
        const database = await startedDatabase({
          pause: () => (racing ? pacing.scheduler.schedule(Promise.resolve(), 'fence pause') : undefined),
        });
        racing = true;
        const worker = () =>
          new TurnRecovery<string, string>(scheduleTurnRecoveryAdapter(createFakeTurnStore<string>(database).adapter(), pacing.scheduler));
        const [first, second] = await settleRace(
          pacing,
          Promise.all([worker().claimEffect({ ...TURN, effectId: 'pay' }), worker().claimEffect({ ...TURN, effectId: 'pay' })]),
        );
        const claimOf = (answer: typeof first) => (answer.ok && answer.outcome === 'claimed' ? answer.claim.claim : 0);
        winners.add(claimOf(first) > claimOf(second) ? 'first' : 'second');
        // Whatever the order, the two claims got the two numbers.
        return [claimOf(first), claimOf(second)].sort().join() === '1,2' ? [] : [`claims ${claimOf(first)} and ${claimOf(second)}`];
      },
      { seed: 1 },
    );
    expect(failures).toEqual([]);
    expect([...winners].sort()).toEqual(['first', 'second']);
  });

  it('a seed replays the same interleavings; without one each call explores new ones', async () => {
    const winnersOf = async (seed?: number) => {
      const winners: string[] = [];
      await checkRaces(
        30,
        async (pacing) => {
          let racing = false;
          const database = await startedDatabase({
            pause: () => (racing ? pacing.scheduler.schedule(Promise.resolve(), 'fence pause') : undefined),
          });
          racing = true;
          const worker = () =>
            new TurnRecovery<string, string>(
              scheduleTurnRecoveryAdapter(createFakeTurnStore<string>(database).adapter(), pacing.scheduler),
            );
          const [first] = await settleRace(
            pacing,
            Promise.all([worker().claimEffect({ ...TURN, effectId: 'pay' }), worker().claimEffect({ ...TURN, effectId: 'pay' })]),
          );
          winners.push(first.ok && first.outcome === 'claimed' ? String(first.claim.claim) : '?');
          return [];
        },
        seed === undefined ? {} : { seed },
      );
      return winners.join('');
    };
    expect(await winnersOf(3)).toBe(await winnersOf(3));
    expect(await winnersOf(3)).not.toBe(await winnersOf(4));
  });

  it("resolves with the failing run's failures, [] when every run holds, and counts a throwing run as failing", async () => {
    expect(await checkRaces(10, async () => [])).toEqual([]);
    expect(await checkRaces(10, async () => ['pay launched twice'])).toEqual(['pay launched twice']);
    expect(await checkRaces(10, async () => Promise.reject(new Error('boom')))).toEqual([expect.stringContaining('boom')]);
  });
});

describe('scheduleInteractionStore', () => {
  it('holds each read until the scheduler releases it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (scheduler) => {
        const database = createFakeDatabase();
        const store = scheduleInteractionStore(createFakeInteractionStore(database), scheduler);
        const read = store.read({ caller: 'ana', conversationId: 'conv_1', correlationId: 'card_1' });
        await new Promise<void>((resolve) => setImmediate(resolve));
        expect(database.counts()).toEqual({});
        await scheduler.waitFor(read);
        expect(await read).toEqual({ record: null, authority: null });
        expect(database.counts()).toEqual({ 'interaction.read': 1 });
      }),
      { numRuns: runs(10) },
    );
  });
});
