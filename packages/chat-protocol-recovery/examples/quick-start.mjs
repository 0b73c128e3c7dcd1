import { TurnRecovery, createTurnId, deliveryStateFromResend } from '@papercusp/chat-protocol-recovery';

// A one-process store: JavaScript runs each call to the end before the next, which is the fence here.
// A real host implements the same three methods on its database (see "The adapter" below).
const rows = new Map();
const store = {
  async read(turnId) {
    return rows.get(turnId) ?? null;
  },
  async compareAndSwap({ turnId, expectedRevision, next }) {
    const current = rows.get(turnId) ?? null;
    if ((current?.record.revision ?? 0) !== expectedRevision) return { swapped: false, current };
    const turn = { record: next, admissions: current?.admissions ?? [] };
    rows.set(turnId, turn);
    return { swapped: true, turn };
  },
  async admitDispatch({ turnId, effectId, claim, admittedAt }, launch) {
    const turn = rows.get(turnId);
    const effect = turn?.record.effects.find((candidate) => candidate.effectId === effectId);
    if (!turn || !effect) return { admitted: false, code: 'unknown-effect' };
    if (turn.record.status !== 'running') return { admitted: false, code: 'turn-not-running' };
    if (effect.status !== 'open') return { admitted: false, code: 'effect-settled' };
    if (turn.admissions.some((admission) => admission.effectId === effectId)) return { admitted: false, code: 'already-admitted' };
    if (effect.claim !== claim) return { admitted: false, code: 'stale-claim' };
    rows.set(turnId, { ...turn, admissions: [...turn.admissions, { effectId, claim, admittedAt }] });
    launch();
    return { admitted: true };
  },
};

const recovery = new TurnRecovery({
  capabilities: {
    connectionReplay: true,
    persistedHistory: true,
    persistedDecisions: true,
    completedToolCheckpoints: true,
    interruptedTurnRecovery: true,
  },
  authorize: ({ caller }) => caller === 'user_7',
  store,
});

// The client minted the turn id once and sends it as Idempotency-Key on every attempt.
const turnId = createTurnId({ getRandomValues: (bytes) => bytes.fill(7) });
const turn = { caller: 'user_7', conversationId: 'conv_01J9', turnId };
await recovery.startTurn({ ...turn, effectIds: ['call_refund', 'call_email'] });

let charges = 0;
const refund = async () => `refund ${++charges} issued`;
for (const attempt of ['first call', 'model retry']) {
  const claimed = await recovery.claimEffect({ ...turn, effectId: 'call_refund' });
  if (claimed.outcome === 'claimed') {
    const dispatched = await recovery.dispatchEffect({ caller: turn.caller, claim: claimed.claim, execute: refund });
    console.log(`${attempt}: ${dispatched.outcome}, reused ${dispatched.reused}: ${dispatched.result}`);
  } else {
    console.log(`${attempt}: ${claimed.outcome}, reused ${claimed.reused}: ${claimed.result}`);
  }
}
console.log(`charges: ${charges}`);
console.log(`cancel: ${(await recovery.cancelTurn(turn)).outcome}`);
const late = await recovery.claimEffect({ ...turn, effectId: 'call_email' });
console.log(`email after cancel: ${late.ok ? late.outcome : late.code}`);
console.log(`client sees: ${deliveryStateFromResend({ type: 'response', status: 202 })}`);
