/**
 * The recovery benchmark (issue #5): effects per second through `TurnRecovery`
 * on the testkit's fake store, with 1, 8 and 64 concurrent effects in one turn,
 * each effect claimed, admitted and completed by the worker that started the
 * turn. Two settings: zero latency (what the component itself costs, including
 * the compare-and-swap retries concurrency causes), and a simulated network
 * (1 ms each way per store round trip, 5 ms per execution), where admission per
 * effect is what lets the effects of one turn overlap. It also counts store
 * round trips per effect. It exports contenders for the shared harness and the
 * rows run.mjs prints.
 */
import { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import { createFakeDatabase, createFakeTurnStore } from '@papercusp/chat-protocol-testkit';

const CONCURRENCY = [1, 8, 64];
const LATENCY = { transitMilliseconds: 1, executionMilliseconds: 5, rounds: 5 };
const GOALS = { roundTrips: 3 };

const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds));

// A store whose every call crosses a simulated network: the request and the answer each take `transit` ms.
function withTransit(adapter, transit) {
  const delayed =
    (method) =>
    async (...args) => {
      await sleep(transit);
      try {
        return await method(...args);
      } finally {
        await sleep(transit);
      }
    };
  const { store } = adapter;
  return {
    ...adapter,
    authorize: delayed((request) => adapter.authorize(request)),
    store: {
      read: delayed((turnId) => store.read(turnId)),
      compareAndSwap: delayed((request) => store.compareAndSwap(request)),
      admitDispatch: delayed((request, launch) => store.admitDispatch(request, launch)),
    },
  };
}

let turnCounter = 0;

/**
 * One turn with `count` effects, all dispatched at once by the worker that
 * started it. Resolves to the number of effects that completed, and the
 * database's call counts.
 */
async function runTurn(count, { transit = 0, execution = 0 } = {}) {
  const database = createFakeDatabase({ seed: 1 });
  const store = createFakeTurnStore(database);
  store.grant('conv_bench', 'user_bench');
  const adapter = transit > 0 ? withTransit(store.adapter(), transit) : store.adapter();
  const recovery = new TurnRecovery(adapter);
  turnCounter += 1;
  const turn = { caller: 'user_bench', conversationId: 'conv_bench', turnId: `turn_${turnCounter}` };
  const effectIds = Array.from({ length: count }, (_, index) => `call_${index}`);
  await recovery.startTurn({ ...turn, effectIds });
  database.resetCounts();
  const execute = execution > 0 ? (run) => sleep(execution).then(() => `done ${run.effectId}`) : (run) => `done ${run.effectId}`;
  const outcomes = await Promise.all(
    effectIds.map(async (effectId) => {
      const claimed = await recovery.claimEffect({ ...turn, effectId });
      if (claimed.outcome !== 'claimed') return claimed;
      return recovery.dispatchEffect({ caller: turn.caller, claim: claimed.claim, execute });
    }),
  );
  return {
    completed: outcomes.filter((outcome) => outcome.ok && outcome.outcome === 'completed' && !outcome.reused).length,
    counts: database.counts(),
  };
}

/** Zero-latency contenders for the shared harness: one run is one turn; an operation is one effect. */
export const recoveryContenders = CONCURRENCY.map((count) => ({
  id: `recovery/${count}`,
  run: () => runTurn(count),
  check: (result) => result.completed === count,
  isAsync: true,
  operationsPerRun: count,
}));

/** Store round trips per effect (and authorization calls) at each concurrency, from the database's counters. */
export async function countRoundTrips() {
  const perEffect = {};
  for (const count of CONCURRENCY) {
    const { completed, counts } = await runTurn(count);
    if (completed !== count) throw new Error(`recovery bench: ${completed} of ${count} effects completed`);
    const store = (counts.read ?? 0) + (counts.compareAndSwap ?? 0) + (counts.admitDispatch ?? 0);
    perEffect[count] = {
      store: store / count,
      compareAndSwap: (counts.compareAndSwap ?? 0) / count,
      authorize: (counts.authorize ?? 0) / count,
    };
  }
  return perEffect;
}

/** With simulated latency: the median effects per second over a few turns at each concurrency. */
export async function measureRecoveryLatency(median) {
  const rates = {};
  for (const count of CONCURRENCY) {
    const samples = [];
    for (let round = 0; round < LATENCY.rounds; round += 1) {
      const started = performance.now();
      const { completed } = await runTurn(count, { transit: LATENCY.transitMilliseconds, execution: LATENCY.executionMilliseconds });
      if (completed !== count) throw new Error(`recovery bench (latency): ${completed} of ${count} effects completed`);
      samples.push((count * 1000) / (performance.now() - started));
    }
    rates[count] = median(samples);
  }
  return rates;
}

/** The recovery rows, and the figures the notes quote. */
export function recoveryRows({ samples, median, medianRatio, latencyRates, roundTrips }) {
  const perSecond = (nanoseconds) => Math.round(1e9 / nanoseconds).toLocaleString('en');
  const times = (value) => `${value.toFixed(2)}×`;
  const rows = CONCURRENCY.map((count) => ({
    contender: `**TurnRecovery** claim → admit → complete, ${count} concurrent effect${count === 1 ? '' : 's'} in one turn`,
    zeroLatency: `${perSecond(median(samples.get(`recovery/${count}`)))} effects/s`,
    latency: `${Math.round(latencyRates[count]).toLocaleString('en')} effects/s`,
    roundTrips: `${roundTrips[count].store.toFixed(2)} (${roundTrips[count].compareAndSwap.toFixed(2)} compare-and-swap)`,
    goal: count === 1 ? `≤ ${GOALS.roundTrips} round trips` : '',
    met: count === 1 ? (roundTrips[1].store <= GOALS.roundTrips ? 'yes' : '**no**') : '',
  }));
  // Per round: 64 concurrent effects' rate over one effect's rate (time per effect, inverted).
  const zeroLatencyRatio = medianRatio(samples.get('recovery/1'), samples.get('recovery/64'));
  const latencyRatio = latencyRates[64] / latencyRates[1];
  rows.push({
    contender: '64 concurrent vs 1: effects/s ratio',
    zeroLatency: times(zeroLatencyRatio),
    latency: times(latencyRatio),
  });
  return { rows, zeroLatencyRatio, latencyRatio, latency: LATENCY };
}
