/**
 * Test support for the host's loopback tests: the Postgres store on PGlite or
 * on a throwaway real Postgres server, a real `node:http` server per host on a
 * free port (through the transport's `writeChatSseResponse`), two tenants'
 * callers, and the request helpers the command's tests share
 * (`test-support/host-requests.ts`). Not part of the package's build.
 */
import { createServer, type Server } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import {
  createPostgresChatStore,
  migrateChatStore,
  pgDatabase,
  pgliteDatabase,
  type ChatDatabase,
} from '@papercusp/chat-protocol-postgres';
import pg from 'pg';
import { expect } from 'vitest';
import { startPostgresCluster } from '../../../test-support/postgres-cluster.mjs';
import type { ChatHostCaller } from './chat-host-caller.js';
import { createChatHost, type ChatHostHandler, type ChatHostOptions } from './create-chat-host.js';
import { createNodeRequestListener } from './node/node-request-listener.js';
import { createScriptedChatAgent, type ScriptedChatAgentOptions } from './scripted/scripted-agent.js';
import type { Host } from '../../../test-support/host-requests.js';

export { auth, call, cardOf, follow, startTurn, type Host } from '../../../test-support/host-requests.js';

const CALLERS: Readonly<Record<string, ChatHostCaller>> = {
  'token-ana': { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null },
  'token-bob': { callerId: 'bob', principalId: 'user_bob', tenantId: 'globex', customerId: null, publicOwnerId: null },
};
// The host's grants: a caller owns the conversations named c_<callerId>_…
const owns = (caller: unknown, conversationId: string): boolean =>
  typeof caller === 'object' && caller !== null && conversationId.startsWith(`c_${(caller as ChatHostCaller).callerId}_`);

// The store on a migrated database, with the grants above; `close` stops the hosts' servers, then `closeDatabase`.
async function storeOn(database: ChatDatabase, closeDatabase: () => Promise<void>) {
  expect((await migrateChatStore(database)).ok).toBe(true);
  const store = createPostgresChatStore<unknown, ChatHostCaller>(database, {
    authorizeConversation: (_query, { caller, conversationId }) => owns(caller, conversationId),
    authorizeDispatch: (_query, { caller, conversationId }) => owns(caller, conversationId),
    interactionAuthority: (_query, { caller, conversationId }) => {
      if (!owns(caller, conversationId)) return null;
      const { principalId, tenantId, customerId, publicOwnerId } = caller;
      return { principalId, tenantId, customerId, publicOwnerId };
    },
  });
  const servers: Server[] = [];
  const close = async (): Promise<void> => {
    for (const server of servers) server.close();
    await closeDatabase();
  };
  return { store, servers, close };
}

/** The store on a fresh in-memory PGlite, with the grants above; `close` stops the servers and the database. */
export async function openTestStore() {
  const db = await PGlite.create();
  return storeOn(pgliteDatabase(db), () => db.close());
}

/**
 * The store on a throwaway real Postgres server (`test-support/postgres-cluster.mjs`) through a `pg` Pool, with
 * the grants above; `close` stops the servers, ends the pool and removes the server, also when the pool cannot end.
 */
export async function openPostgresTestStore(): ReturnType<typeof openTestStore> {
  const cluster = await startPostgresCluster();
  const pool = new pg.Pool({ connectionString: cluster.url, max: 10 });
  const closeDatabase = async (): Promise<void> => {
    await pool.end().catch(() => undefined);
    await cluster.destroy();
  };
  try {
    return await storeOn(pgDatabase(pool), closeDatabase);
  } catch (error) {
    await closeDatabase();
    throw error;
  }
}

/** What {@link openTestStore} gives. */
export type TestStore = Awaited<ReturnType<typeof openTestStore>>;

/** A host {@link startHost} serves: its handler too, for requests made in process (no HTTP). */
export interface LoopbackHost extends Host {
  readonly handler: ChatHostHandler;
}

/** Serves a host on a free loopback port through node:http, as the command will. */
export async function startHost(
  { store, servers }: TestStore,
  agentOptions: ScriptedChatAgentOptions = {},
  hostOptions: Partial<
    Pick<
      ChatHostOptions,
      | 'maxStreamsPerCaller'
      | 'maxBodyBytes'
      | 'maxStateTurns'
      | 'maxStateFrames'
      | 'agent'
      | 'cardPollMs'
      | 'authenticate'
      | 'bodyTimeoutMs'
      | 'claimConversation'
      | 'cancelPollMs'
      | 'maxHistoryTurns'
      | 'onEvent'
      | 'openTelemetry'
      | 'clock'
      | 'runLeaseMs'
    >
  > = {},
): Promise<LoopbackHost> {
  const effects: string[] = [];
  const handler = createChatHost({
    store,
    agent: createScriptedChatAgent({ ...agentOptions, onEffect: (turn) => effects.push(turn.turnId) }),
    authenticate: (request) => {
      const header = request.headers.get('authorization') ?? '';
      return header.startsWith('Bearer ') ? (CALLERS[header.slice('Bearer '.length)] ?? null) : null;
    },
    heartbeatMs: 1000,
    cardPollMs: 200,
    ...hostOptions,
  });
  const server = createServer(createNodeRequestListener(handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { base: `http://127.0.0.1:${address.port}`, effects, handler };
}
