import { PGlite } from '@electric-sql/pglite';
import { createAiSdkChatAgent } from '@papercusp/chat-protocol-ai-sdk/agent';
import { createChatHost } from '@papercusp/chat-protocol-host';
import { createPostgresChatStore, migrateChatStore, pgliteDatabase } from '@papercusp/chat-protocol-postgres';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { followChatTurn } from '@papercusp/chat-protocol-sse';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

// Your model: any AI SDK language model. In an app: `import { openai } from '@ai-sdk/openai'` and `openai('gpt-4.1')`.
const finish = {
  type: 'finish',
  finishReason: { unified: 'stop', raw: 'stop' },
  usage: { inputTokens: { total: 9 }, outputTokens: { total: 3 } },
};
const deltas = ['Hello', ' from', ' your model.'].map((delta) => ({ type: 'text-delta', id: 't', delta }));
const model = new MockLanguageModelV3({
  doStream: async () => ({
    stream: simulateReadableStream({ chunks: [{ type: 'text-start', id: 't' }, ...deltas, { type: 'text-end', id: 't' }, finish] }),
  }),
});
const agent = createAiSdkChatAgent({ model, system: 'You answer customers of an online shop.' });

// The host on a store (PGlite in memory here), with your callers and their grants.
const db = await PGlite.create();
await migrateChatStore(pgliteDatabase(db));
const ana = { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null };
const owns = (caller) => caller?.callerId === 'ana';
const store = createPostgresChatStore(pgliteDatabase(db), {
  authorizeConversation: (query, { caller }) => owns(caller),
  authorizeDispatch: (query, { caller }) => owns(caller),
  interactionAuthority: (query, { caller }) => (owns(caller) ? ana : null),
});
const host = createChatHost({
  store,
  agent,
  authenticate: (request) => (request.headers.get('authorization') === 'Bearer token-ana' ? ana : null),
});

// A turn, as any client sends and follows it (here in process; over HTTP it is the same requests).
const fetchHost = (url, init) => host(new Request(url, init));
const headers = { authorization: 'Bearer token-ana' };
const base = 'http://host.example/v1/conversations/conv_1';
const clientTurnId = createTurnId();
const started = await fetchHost(`${base}/turns`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json', 'Idempotency-Key': clientTurnId },
  body: JSON.stringify({ clientTurnId, text: 'Where is my order?' }),
});
const { turnId } = await started.json();
for await (const item of followChatTurn({ url: `${base}/turns/${turnId}/events`, conversationId: 'conv_1', headers, fetch: fetchHost })) {
  if (item.type === 'state' && item.envelope.event.type === 'done') {
    const turn = item.state.turns.at(-1);
    console.log(`${turn.status}: ${turn.text} (${turn.usage?.outputTokens} output tokens)`);
  }
}
await db.close();
