import { PGlite } from '@electric-sql/pglite';
import { createChatHost, createScriptedChatAgent } from '@papercusp/chat-protocol-host';
import { createPostgresChatStore, migrateChatStore, pgliteDatabase } from '@papercusp/chat-protocol-postgres';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { followChatTurn } from '@papercusp/chat-protocol-sse';

// The store on embedded Postgres; the host's grants say Ana owns conv_1.
const db = await PGlite.create();
const database = pgliteDatabase(db);
await migrateChatStore(database);
const authority = { principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null };
const ana = { callerId: 'ana', ...authority };
const owns = (caller, conversationId) => caller?.callerId === 'ana' && conversationId === 'conv_1';
const store = createPostgresChatStore(database, {
  authorizeConversation: (query, { caller, conversationId }) => owns(caller, conversationId),
  authorizeDispatch: (query, { caller, conversationId }) => owns(caller, conversationId),
  interactionAuthority: (query, { caller, conversationId }) => (owns(caller, conversationId) ? authority : null),
});

// One web-standard handler: serve it with Hono, Deno.serve, Bun.serve or node:http.
const host = createChatHost({
  store,
  agent: createScriptedChatAgent(),
  authenticate: (request) => (request.headers.get('authorization') === 'Bearer token-ana' ? ana : null),
});
const fetchHost = (url, init) => host(new Request(url, init));
const headers = { authorization: 'Bearer token-ana' };
const base = 'http://host.example/v1/conversations/conv_1';
const post = (path, body, extra = {}) =>
  fetchHost(`${base}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', ...extra },
    body: JSON.stringify(body),
  });

// The client mints its turn id once and sends it on every attempt.
const clientTurnId = createTurnId();
const started = await post('/turns', { clientTurnId, text: 'Refund order 1042' }, { 'Idempotency-Key': clientTurnId });
const { turnId } = await started.json();
console.log(`POST /turns: ${started.status}`);
const resent = await post('/turns', { clientTurnId, text: 'Refund order 1042' }, { 'Idempotency-Key': clientTurnId });
console.log(`resend: ${resent.status} ${(await resent.json()).code}`);

for await (const item of followChatTurn({ url: `${base}/turns/${turnId}/events`, conversationId: 'conv_1', headers, fetch: fetchHost })) {
  if (item.type !== 'state') continue;
  const { event } = item.envelope;
  if (event.type === 'tool_result') console.log(`tool ${event.name}: ${event.status} (${event.summary})`);
  if (event.type === 'card') {
    const { correlationId, prompt } = event.card;
    const answer = await post(`/cards/${correlationId}`, { action: 'submit', correlationId, value: { confirmed: true } });
    console.log(`card "${prompt}" answered: ${answer.status} ${(await answer.json()).status}`);
  }
  if (event.type === 'done') console.log(`done: ${event.status}, text ends "${item.state.turns[0].text.slice(-14)}"`);
}
const status = await fetchHost(`${base}/turns/by-client-id/${clientTurnId}`, { headers });
console.log(`status: ${(await status.json()).status}`);
const stranger = await fetchHost(`http://host.example/v1/conversations/conv_2/turns/by-client-id/${clientTurnId}`, { headers });
console.log(`another conversation: ${stranger.status}`);
await db.close();
