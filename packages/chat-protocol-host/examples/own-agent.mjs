import { PGlite } from '@electric-sql/pglite';
import { createChatHost } from '@papercusp/chat-protocol-host';
import { createPostgresChatStore, migrateChatStore, pgliteDatabase } from '@papercusp/chat-protocol-postgres';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { followChatTurn } from '@papercusp/chat-protocol-sse';

// Your agent: it declares its tools and yields steps; the host admits each call of a tool with an external
// effect through recovery (declared under the caller's authority, launched at most once) before it runs.
let refunds = 0;
const agent = {
  tools: [
    { name: 'lookup_order', externalEffect: false, execute: async ({ orderId }) => ({ summary: `order ${orderId} is paid` }) },
    { name: 'issue_refund', execute: async ({ orderId }) => ({ summary: `refund ${++refunds} for order ${orderId}` }) },
  ],
  async *run(turn, { history, signal }) {
    // `signal` is aborted when the turn is cancelled: pass it to your model call.
    yield { type: 'delta', text: `(${history.length} earlier messages) ` };
    const order = yield { type: 'tool', name: 'lookup_order', input: { orderId: '1042' } };
    const refund = yield { type: 'tool', name: 'issue_refund', input: { orderId: '1042' } };
    yield { type: 'delta', text: `${order.summary}; ${refund.status}: ${refund.summary}.` };
  },
};

const db = await PGlite.create();
const database = pgliteDatabase(db);
await migrateChatStore(database);
const authority = { principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null };
const owns = (caller, conversationId) => caller?.callerId === 'ana' && conversationId === 'conv_1';
const store = createPostgresChatStore(database, {
  authorizeConversation: (query, { caller, conversationId }) => owns(caller, conversationId),
  authorizeDispatch: (query, { caller, conversationId }) => owns(caller, conversationId),
  interactionAuthority: (query, { caller, conversationId }) => (owns(caller, conversationId) ? authority : null),
});
const launched = [];
const host = createChatHost({
  store,
  agent,
  authenticate: (request) => (request.headers.get('authorization') === 'Bearer token-ana' ? { callerId: 'ana', ...authority } : null),
  // Typed host events for your logs and metrics: ids, names and statuses, never text.
  onEvent: (event) => {
    if (event.type === 'tool-launched') launched.push(`${event.name}${event.effectId === null ? '' : ' (admitted)'}`);
  },
});
const fetchHost = (url, init) => host(new Request(url, init));
const headers = { authorization: 'Bearer token-ana' };
const base = 'http://host.example/v1/conversations/conv_1';
for (const text of ['Refund order 1042', 'And again, please']) {
  const clientTurnId = createTurnId();
  const started = await fetchHost(`${base}/turns`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'Idempotency-Key': clientTurnId },
    body: JSON.stringify({ clientTurnId, text }),
  });
  const { turnId } = await started.json();
  for await (const item of followChatTurn({ url: `${base}/turns/${turnId}/events`, conversationId: 'conv_1', headers, fetch: fetchHost })) {
    if (item.type === 'state' && item.envelope.event.type === 'done') console.log(`${text}: ${item.state.turns.at(-1).text}`);
  }
}
console.log(`launched: ${launched.join(', ')}`);
await db.close();
