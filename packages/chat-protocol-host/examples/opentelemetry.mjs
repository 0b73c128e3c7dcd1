import { PGlite } from '@electric-sql/pglite';
import { context, trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { createChatHost } from '@papercusp/chat-protocol-host';
import { createPostgresChatStore, migrateChatStore, pgliteDatabase } from '@papercusp/chat-protocol-postgres';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { followChatTurn } from '@papercusp/chat-protocol-sse';

// Your SDK: here spans kept in memory; with NodeSDK started, `openTelemetry: { trace, context }` is enough.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

const agent = {
  tools: [{ name: 'issue_refund', execute: async ({ orderId }) => ({ summary: `refund for order ${orderId}` }) }],
  async *run() {
    const refund = yield { type: 'tool', name: 'issue_refund', input: { orderId: '1042' } };
    yield { type: 'delta', text: `${refund.summary} issued.` };
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
let turnEnded;
const ended = new Promise((resolve) => (turnEnded = resolve));
const host = createChatHost({
  store,
  agent,
  authenticate: (request) => (request.headers.get('authorization') === 'Bearer token-ana' ? { callerId: 'ana', ...authority } : null),
  // The api's own trace and context, and a tracer of your provider (default: the global one's, named after the host).
  openTelemetry: { trace, context, tracer: provider.getTracer('my-app') },
  onEvent: (event) => event.type === 'turn-ended' && turnEnded(),
});
const fetchHost = (url, init) => host(new Request(url, init));
const headers = { authorization: 'Bearer token-ana' };
const base = 'http://host.example/v1/conversations/conv_1';
const clientTurnId = createTurnId();
const started = await fetchHost(`${base}/turns`, {
  method: 'POST',
  headers: { ...headers, 'content-type': 'application/json', 'Idempotency-Key': clientTurnId },
  body: JSON.stringify({ clientTurnId, text: 'Refund order 1042' }),
});
const { turnId } = await started.json();
for await (const item of followChatTurn({ url: `${base}/turns/${turnId}/events`, conversationId: 'conv_1', headers, fetch: fetchHost })) {
  if (item.type === 'state' && item.envelope.event.type === 'done') console.log(item.state.turns.at(-1).text);
}
await ended;

// The span tree: a store call's span names its operation, an append its frame's type; never a text.
const spans = exporter.getFinishedSpans();
const print = (parentId, indent) => {
  for (const span of spans.filter((each) => each.parentSpanContext?.spanId === parentId)) {
    const { 'chat.tool.name': tool, 'chat.event.type': frame, 'chat.tool.status': status, 'chat.turn.status': turn } = span.attributes;
    console.log(`${indent}${[span.name, tool, frame, status ?? turn].filter(Boolean).join(' ')}`);
    print(span.spanContext().spanId, `${indent}  `);
  }
};
print(undefined, '');
await provider.shutdown();
await db.close();
