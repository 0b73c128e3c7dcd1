import { PGlite } from '@electric-sql/pglite';
import { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import { createPostgresChatStore, migrateChatStore, pgliteDatabase } from '@papercusp/chat-protocol-postgres';
import { TurnRecovery } from '@papercusp/chat-protocol-recovery';

// Embedded Postgres, no server: `PGlite.create('./chat-data')` keeps it in a directory.
const db = await PGlite.create();
const database = pgliteDatabase(db);
console.log(`migrated: ${(await migrateChatStore(database)).ok}`);

// The host's authority, read inside the store's own transactions (a real host reads its grants through `query`).
const ana = { principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null };
const { turnStore, interactionStore, eventLog } = createPostgresChatStore(database, {
  authorizeDispatch: (query, { caller }) => caller === 'session-ana',
  interactionAuthority: (query, { caller }) => (caller === 'session-ana' ? ana : null),
});
const capabilities = {
  connectionReplay: true,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
};
const recovery = new TurnRecovery({ capabilities, authorize: ({ caller }) => caller === 'session-ana', store: turnStore });
const resolver = new InteractionResolver({ store: interactionStore, validate: ({ value }) => ({ value }) });

// An effect runs once, whatever retries: the second claim gets the stored result.
const turn = { caller: 'session-ana', conversationId: 'conv_1', turnId: 'turn_1' };
await recovery.startTurn({ ...turn, effectIds: ['call_refund'] });
const claimed = await recovery.claimEffect({ ...turn, effectId: 'call_refund' });
const refund = await recovery.dispatchEffect({ caller: 'session-ana', claim: claimed.claim, execute: async () => 'refund 1 issued' });
const retry = await recovery.claimEffect({ ...turn, effectId: 'call_refund' });
console.log(`refund: ${refund.outcome} (${refund.result}); retry: ${retry.outcome}, reused ${retry.reused}`);

// A card's answer is taken once; the outbox row to act on commits with it.
const at = '2026-12-01T10:00:00Z';
const card = { correlationId: 'card_1', createdAt: at, prompt: 'Refund issued. Close the ticket?', presentation: { kind: 'confirm' } };
const scope = { conversationId: 'conv_1', ...ana };
await resolver.open({
  caller: 'session-ana',
  card,
  schema: { id: 'close-ticket', revision: 1 },
  expiresAt: '2026-12-01T11:00:00Z',
  scope,
  at,
});
for (const value of [{ confirmed: true }, { confirmed: false }]) {
  const answer = await resolver.submit({ caller: 'session-ana', conversationId: 'conv_1', correlationId: 'card_1', value, at });
  console.log(`answer ${JSON.stringify(value)}: ${answer.ok ? answer.outcome : answer.code}`);
}

// The turn's frames: appended once each, in order, and tailed live (this process hears its own commits at once).
const ended = new Promise((resolve) => {
  eventLog.subscribe(
    { conversationId: 'conv_1', turnId: 'turn_1', after: 0 },
    (envelope) => console.log(`tail: ${envelope.seq} ${envelope.event.type}`),
    resolve,
  );
});
const frames = [
  { type: 'delta', text: 'Refunded.' },
  { type: 'done', status: 'completed' },
];
for (const [index, event] of frames.entries()) {
  const envelope = {
    schemaVersion: 1,
    conversationId: 'conv_1',
    turnId: 'turn_1',
    eventId: `evt_${index + 1}`,
    seq: index + 1,
    occurredAt: at,
    event,
  };
  await eventLog.append(envelope);
  if (index === 0) console.log(`redelivered: ${(await eventLog.append(envelope)).outcome}`);
}
console.log(`tail ended: ${(await ended).reason}`);
await db.close();
