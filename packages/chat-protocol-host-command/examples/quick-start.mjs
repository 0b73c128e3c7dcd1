import { PGlite } from '@electric-sql/pglite';
import { createChatHost, createScriptedChatAgent } from '@papercusp/chat-protocol-host';
import { claimConversationOwner, conversationOwnerLookups, migrateConversationOwners } from '@papercusp/chat-protocol-host-command';
import { createPostgresChatStore, migrateChatStore, pgliteDatabase } from '@papercusp/chat-protocol-postgres';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { followChatTurn } from '@papercusp/chat-protocol-sse';

// The store's tables and the owners table, in one database.
const db = await PGlite.create();
const database = pgliteDatabase(db);
await migrateChatStore(database);
await migrateConversationOwners(database);

// A conversation belongs to the caller whose first accepted turn names it.
const callers = {
  'Bearer token-ana': { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null },
  'Bearer token-bob': { callerId: 'bob', principalId: 'user_bob', tenantId: 'globex', customerId: null, publicOwnerId: null },
};
const host = createChatHost({
  store: createPostgresChatStore(database, conversationOwnerLookups()),
  agent: createScriptedChatAgent(),
  authenticate: (request) => callers[request.headers.get('authorization')] ?? null,
  claimConversation: (claim) => claimConversationOwner(database, claim),
});

const base = 'http://host.example/v1/conversations';
const startTurn = async (token, conversationId, text) => {
  const clientTurnId = createTurnId();
  const response = await host(
    new Request(`${base}/${conversationId}/turns`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'Idempotency-Key': clientTurnId },
      body: JSON.stringify({ clientTurnId, text }),
    }),
  );
  const body = await response.json();
  console.log(`${token} starts a turn on ${conversationId}: ${response.status}${body.code === undefined ? '' : ` ${body.code}`}`);
  return body.turnId;
};
const turnId = await startTurn('token-ana', 'conv_1', 'fail: the provider is down');
await startTurn('token-bob', 'conv_1', 'let me in');
const state = (token) => host(new Request(`${base}/conv_1/state`, { headers: { authorization: `Bearer ${token}` } }));
console.log(`GET /state: ana ${(await state('token-ana')).status}, bob ${(await state('token-bob')).status}`);

// Ana's turn runs on: the scripted agent's provider fails a text starting with "fail".
const fetchHost = (input, init) => host(new Request(input, init));
const follow = { url: `${base}/conv_1/turns/${turnId}/events`, conversationId: 'conv_1', headers: { authorization: 'Bearer token-ana' } };
for await (const item of followChatTurn({ ...follow, fetch: fetchHost })) {
  if (item.type === 'state' && item.envelope.event.type === 'error') console.log(`ana's turn ended: error ${item.envelope.event.code}`);
}
await db.close();
