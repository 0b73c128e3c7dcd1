import { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import { checkRaces, scheduleTurnRecoveryAdapter, settleRace } from '@papercusp/chat-protocol-testkit/races';

// A host's store over a Map, every call one I/O round trip. Fenced, each check and its write run without a
// pause between them (JavaScript's run-to-completion is the fence); unfenced, another call can run in between.
const roundTrip = () => new Promise((resolve) => setImmediate(resolve));
function hostStore({ fenced }) {
  const rows = new Map();
  const between = () => (fenced ? undefined : roundTrip());
  return {
    async read(turnId) {
      await roundTrip();
      return structuredClone(rows.get(turnId) ?? null);
    },
    async compareAndSwap({ turnId, expectedRevision, next }) {
      await roundTrip();
      const current = rows.get(turnId) ?? null;
      if ((current?.record.revision ?? 0) !== expectedRevision) return { swapped: false, current: structuredClone(current) };
      await between();
      rows.set(turnId, { record: next, admissions: rows.get(turnId)?.admissions ?? [] });
      return { swapped: true, turn: structuredClone(rows.get(turnId)) };
    },
    async admitDispatch({ turnId, effectId, claim, admittedAt }, launch) {
      await roundTrip();
      const effect = rows.get(turnId)?.record.effects.find((candidate) => candidate.effectId === effectId);
      if (effect?.status !== 'open') return { admitted: false, code: 'effect-settled' };
      if (rows.get(turnId).admissions.some((admission) => admission.effectId === effectId))
        return { admitted: false, code: 'already-admitted' };
      if (effect.claim !== claim) return { admitted: false, code: 'stale-claim' };
      await between();
      const turn = rows.get(turnId);
      rows.set(turnId, { ...turn, admissions: [...turn.admissions, { effectId, claim, admittedAt }] });
      launch();
      return { admitted: true };
    },
  };
}

const capabilities = {
  connectionReplay: true,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
};
const turn = { caller: 'user_7', conversationId: 'conv_1', turnId: 'turn_1' };

// 100 interleavings of two workers claiming and dispatching one effect; each run returns what broke.
// The seed makes this example print the same every time; leave it out in CI to explore new interleavings each run.
const twoWorkersOneEffect = (fenced) =>
  checkRaces(
    100,
    async (pacing) => {
      const adapter = { capabilities, authorize: () => true, store: hostStore({ fenced }) };
      await new TurnRecovery(adapter).startTurn({ ...turn, effectIds: ['call_pay'] }); // setup, not scheduled
      let launches = 0;
      const claimAndDispatch = async () => {
        const worker = new TurnRecovery(scheduleTurnRecoveryAdapter(adapter, pacing.scheduler));
        const claimed = await worker.claimEffect({ ...turn, effectId: 'call_pay' });
        if (claimed.outcome === 'claimed')
          await worker.dispatchEffect({ caller: turn.caller, claim: claimed.claim, execute: async () => `paid ${++launches}` });
      };
      await settleRace(pacing, Promise.all([claimAndDispatch(), claimAndDispatch()]));
      return launches > 1 ? [`call_pay launched ${launches} times`] : [];
    },
    { seed: 1 },
  );

console.log(`fenced store: ${JSON.stringify(await twoWorkersOneEffect(true))}`);
console.log(`unfenced store: ${JSON.stringify(await twoWorkersOneEffect(false))}`);
