import { describe, expect, it } from 'vitest';
import { watchTurnCancellation } from './watch-turn-cancellation.js';

const stored = (status: 'running' | 'cancelled') => ({
  record: { conversationId: 'c_1', turnId: 'turn_1', status, revision: 1, effects: [] },
  admissions: [],
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A store answering from a script of answers, one per read; the last repeats.
function scriptedStore(answers: readonly (ReturnType<typeof stored> | Error)[]) {
  let reads = 0;
  return {
    reads: () => reads,
    turnStore: {
      read: async () => {
        const answer = answers[Math.min(reads, answers.length - 1)];
        reads += 1;
        if (answer instanceof Error) throw answer;
        return answer ?? null;
      },
    },
  };
}

describe('watchTurnCancellation (issue 17: a cancellation committed through any host process stops the owning run)', () => {
  it('calls onCancelled once when the record reads cancelled, and reads no more', async () => {
    const store = scriptedStore([stored('running'), stored('running'), stored('cancelled')]);
    let calls = 0;
    watchTurnCancellation({ turnStore: store.turnStore, turnId: 'turn_1', intervalMs: 5, onCancelled: () => (calls += 1) });
    await sleep(100);
    expect(calls).toBe(1);
    expect(store.reads()).toBe(3);
  });

  it('a read that fails is retried at the next tick', async () => {
    const store = scriptedStore([new Error('connection lost'), stored('cancelled')]);
    let calls = 0;
    watchTurnCancellation({ turnStore: store.turnStore, turnId: 'turn_1', intervalMs: 5, onCancelled: () => (calls += 1) });
    await sleep(100);
    expect([calls, store.reads()]).toEqual([1, 2]);
  });

  it('once stopped, it never calls onCancelled and stops reading', async () => {
    const store = scriptedStore([stored('running'), stored('cancelled')]);
    let calls = 0;
    const stop = watchTurnCancellation({ turnStore: store.turnStore, turnId: 'turn_1', intervalMs: 20, onCancelled: () => (calls += 1) });
    await sleep(30);
    stop();
    stop();
    await sleep(100);
    expect([calls, store.reads()]).toEqual([0, 1]);
  });
});
