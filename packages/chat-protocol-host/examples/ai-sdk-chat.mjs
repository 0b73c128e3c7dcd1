import { PGlite } from '@electric-sql/pglite';
import { AI_SDK_CHAT_PATH, createChatHost, createScriptedChatAgent } from '@papercusp/chat-protocol-host';
import { createPostgresChatStore, migrateChatStore, pgliteDatabase } from '@papercusp/chat-protocol-postgres';
import { DefaultChatTransport, readUIMessageStream } from 'ai';

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
const host = createChatHost({
  store,
  agent: createScriptedChatAgent(),
  authenticate: (request) => (request.headers.get('authorization') === 'Bearer token-ana' ? { callerId: 'ana', ...authority } : null),
});
const headers = { authorization: 'Bearer token-ana' };
const fetchHost = (url, init) => host(new Request(url, init));

// The AI SDK's own transport, unchanged: useChat({ transport }) works the same way.
const transport = new DefaultChatTransport({ api: `http://host.example${AI_SDK_CHAT_PATH}`, headers, fetch: fetchHost });
const stream = await transport.sendMessages({
  chatId: 'conv_1',
  messages: [{ id: 'msg_1', role: 'user', parts: [{ type: 'text', text: 'Refund order 1042' }] }],
  trigger: 'submit-message',
  messageId: undefined,
  abortSignal: undefined,
});
let message;
for await (message of readUIMessageStream({ stream })) {
  const card = message.parts.find((part) => part.type === 'data-card');
  if (card !== undefined && !message.parts.some((part) => part.type === 'data-card-closed')) {
    // Cards are answered on the v1 card route (a data-card part carries the card).
    const { correlationId } = card.data;
    await fetchHost(`http://host.example/v1/conversations/conv_1/cards/${correlationId}`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'submit', correlationId, value: { confirmed: true } }),
    });
  }
}
for (const part of message.parts) {
  if (part.type === 'text') console.log(`text: ${JSON.stringify(part.text.slice(0, 30))}`);
  else if (part.type === 'tool-issue_refund') console.log(`${part.type}: ${part.state} ${JSON.stringify(part.output)}`);
  else console.log(part.type);
}
const resumed = await transport.reconnectToStream({ chatId: 'conv_1' });
console.log(`resume after the turn ended: ${resumed === null ? 'nothing to resume (204)' : 'a stream'}`);
await db.close();
