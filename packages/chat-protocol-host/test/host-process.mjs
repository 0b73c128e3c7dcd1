// @ts-check
// One reference host in a process of its own, as the command runs it: `node host-process.mjs <url> <schema> <options-json>`.
// It serves the package's build on a free loopback port over a node-postgres pool of its own on the real server, prints
// `{"port":N}` once listening and `{"effect":"<turnId>"}` each time the scripted refund's external effect starts, and
// runs until it is killed (the tests SIGKILL it to prove what an orphaned run leaves behind). On SIGTERM it drains as the
// command does (`close({ drainMs })`, the `drainMs` option), prints `{"drained":true}`, and exits 0. The options are the
// host's, plus the scripted agent's `toolDelayMs` and `deltaDelayMs`.
import { createServer } from 'node:http';
import { createChatHost, createNodeRequestListener, createScriptedChatAgent } from '@papercusp/chat-protocol-host';
import { createPostgresChatStore, pgDatabase } from '@papercusp/chat-protocol-postgres';
import pg from 'pg';

const [url, schema = 'chat_protocol', optionsJson = '{}'] = process.argv.slice(2);
const { toolDelayMs, deltaDelayMs, drainMs, ...hostOptions } = JSON.parse(optionsJson);
const pool = new pg.Pool({ connectionString: url, max: 10 });

/** @type {Record<string, { callerId: string, principalId: string, tenantId: string, customerId: null, publicOwnerId: null }>} */
const callers = {
  'token-ana': { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null },
  'token-bob': { callerId: 'bob', principalId: 'user_bob', tenantId: 'globex', customerId: null, publicOwnerId: null },
};
// The same grants as the loopback tests: a caller owns the conversations named c_<callerId>_…
/** @param {any} caller @param {string} conversationId */
const owns = (caller, conversationId) => typeof caller?.callerId === 'string' && conversationId.startsWith(`c_${caller.callerId}_`);
const store = createPostgresChatStore(pgDatabase(pool), {
  schema,
  authorizeConversation: (_query, { caller, conversationId }) => owns(caller, conversationId),
  authorizeDispatch: (_query, { caller, conversationId }) => owns(caller, conversationId),
  interactionAuthority: (_query, { caller, conversationId }) => {
    if (!owns(caller, conversationId)) return null;
    const { principalId, tenantId, customerId, publicOwnerId } = /** @type {any} */ (caller);
    return { principalId, tenantId, customerId, publicOwnerId };
  },
});
const handler = createChatHost({
  store: /** @type {any} */ (store),
  agent: createScriptedChatAgent({
    toolDelayMs,
    deltaDelayMs,
    onEffect: (turn) => process.stdout.write(`${JSON.stringify({ effect: turn.turnId })}\n`),
  }),
  authenticate: (request) => {
    const header = request.headers.get('authorization') ?? '';
    return header.startsWith('Bearer ') ? (callers[header.slice('Bearer '.length)] ?? null) : null;
  },
  heartbeatMs: 1000,
  ...hostOptions,
});
const server = createServer(createNodeRequestListener(handler));
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address !== null ? address.port : 0 })}\n`);
});
process.once('SIGTERM', () => {
  void handler.close(drainMs === undefined ? {} : { drainMs }).then(async () => {
    process.stdout.write(`${JSON.stringify({ drained: true })}\n`);
    server.closeAllConnections();
    server.close();
    await pool.end();
    process.exit(0);
  });
});
