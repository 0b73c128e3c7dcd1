import { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import { createFakeDatabase, createFakeTurnStore } from '@papercusp/chat-protocol-testkit';

// One database, shared by fresh workers: each worker is a TurnRecovery over its own connection.
const database = createFakeDatabase({ seed: 42 });
const worker = () => new TurnRecovery(createFakeTurnStore(database).adapter());
createFakeTurnStore(database).grant('conv_1', 'user_7');

const turn = { caller: 'user_7', conversationId: 'conv_1', turnId: 'turn_1' };
const first = worker();
await first.startTurn({ ...turn, effectIds: ['call_refund'] });
const claimed = await first.claimEffect({ ...turn, effectId: 'call_refund' });

// The result is written, but the acknowledgement never reaches the worker.
database.inject({ operation: 'compareAndSwap', kind: 'lose-acknowledgement' });
let charges = 0;
const dispatched = await first.dispatchEffect({ caller: 'user_7', claim: claimed.claim, execute: async () => `refund ${++charges}` });
console.log(`first worker: ${dispatched.outcome}, reused ${dispatched.reused}: ${dispatched.result}`);

// The host restarts; a fresh worker retries the same tool call.
database.restart();
const retried = await worker().claimEffect({ ...turn, effectId: 'call_refund' });
console.log(`fresh worker: ${retried.outcome}, reused ${retried.reused}: ${retried.result}`);
console.log(`charges: ${charges}, launches: ${database.history.filter((entry) => entry.type === 'launched').length}`);
console.log(`round trips: ${JSON.stringify(database.counts())}`);
