import { createServer } from 'node:http';
import { createChatSseResponse, followChatTurn, writeChatSseResponse } from '@papercusp/chat-protocol-sse';
import { createFakeChatEventLog, createFakeDatabase } from '@papercusp/chat-protocol-testkit';

// Any ChatEventLog: the Postgres store's in production, the testkit's in-memory one here.
const log = createFakeChatEventLog(createFakeDatabase());
const turn = { conversationId: 'conv_1', turnId: 'turn_1' };
const append = (seq, event) =>
  log.append({ schemaVersion: 1, ...turn, eventId: `evt_${seq}`, seq, occurredAt: '2026-12-01T10:00:00Z', event });

// The server: check the caller may see the turn, then answer with the resumable stream.
const server = createServer(async (incoming, outgoing) => {
  const headers = new Headers(Object.entries(incoming.headers).filter(([, value]) => typeof value === 'string'));
  const request = new Request(new URL(incoming.url, 'http://localhost'), { headers });
  await writeChatSseResponse(await createChatSseResponse(request, { log, ...turn }), outgoing);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

await append(1, { type: 'delta', text: 'Your refund ' });
// The client folds the turn into ChatStateV1, resuming with Last-Event-ID if the connection drops.
const url = `http://127.0.0.1:${server.address().port}/turns/turn_1`;
for await (const item of followChatTurn({ url, conversationId: 'conv_1' })) {
  if (item.type === 'connected') console.log(`connected (attempt ${item.attempt})`);
  if (item.type === 'state') {
    const { status, text } = item.state.turns[0];
    console.log(`seq ${item.envelope.seq}: ${status} "${text}"`);
    if (item.envelope.seq === 1) await append(2, { type: 'delta', text: 'is on its way.' });
    if (item.envelope.seq === 2) await append(3, { type: 'done', status: 'completed' });
  }
  if (item.type === 'ended') console.log(`ended: ${item.reason}`);
}
server.close();
