/**
 * Test support for the host's loopback tests: the Postgres store on PGlite, a
 * real `node:http` server per host on a free port (through the transport's
 * `writeChatSseResponse`), two tenants' callers, and small request helpers.
 * Not part of the package's build.
 */
import { createServer, type Server } from 'node:http';
import { PGlite } from '@electric-sql/pglite';
import type { ChatEventEnvelope, ChatStateV1 } from '@papercusp/chat-protocol-core';
import { createPostgresChatStore, migrateChatStore, pgliteDatabase } from '@papercusp/chat-protocol-postgres';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { followChatTurn } from '@papercusp/chat-protocol-sse';
import { expect } from 'vitest';
import type { ChatHostCaller } from './chat-host-caller.js';
import { createChatHost, type ChatHostOptions } from './create-chat-host.js';
import { createNodeRequestListener } from './node-request-listener.js';
import { createScriptedChatAgent, type ScriptedChatAgentOptions } from './scripted-agent.js';

const CALLERS: Readonly<Record<string, ChatHostCaller>> = {
  'token-ana': { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null },
  'token-bob': { callerId: 'bob', principalId: 'user_bob', tenantId: 'globex', customerId: null, publicOwnerId: null },
};
// The host's grants: a caller owns the conversations named c_<callerId>_…
const owns = (caller: unknown, conversationId: string): boolean =>
  typeof caller === 'object' && caller !== null && conversationId.startsWith(`c_${(caller as ChatHostCaller).callerId}_`);

/** The store on a fresh in-memory PGlite, with the grants above; `close` stops the servers and the database. */
export async function openTestStore() {
  const db = await PGlite.create();
  const database = pgliteDatabase(db);
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
    await db.close();
  };
  return { store, servers, close };
}

/** What {@link openTestStore} gives. */
export type TestStore = Awaited<ReturnType<typeof openTestStore>>;

export interface Host {
  readonly base: string;
  readonly effects: string[];
}

/** A host {@link startHost} serves: its handler too, for requests made in process (no HTTP). */
export interface LoopbackHost extends Host {
  readonly handler: (request: Request) => Promise<Response>;
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

export const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

export async function call(
  host: Host,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${host.base}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : auth(token)),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an event stream or an empty body: keep the text
  }
  return { status: response.status, body: parsed };
}

export async function startTurn(host: Host, conversationId: string, text: string, token = 'token-ana') {
  const clientTurnId = createTurnId();
  const answer = await call(
    host,
    'POST',
    `/v1/conversations/${conversationId}/turns`,
    token,
    { clientTurnId, text },
    { 'Idempotency-Key': clientTurnId },
  );
  expect(answer.status).toBe(202);
  return { clientTurnId, turnId: (answer.body as { turnId: string }).turnId };
}

// Follows the turn until `until` says stop (or the stream ends); returns every envelope and the last state.
export async function follow(
  host: Host,
  conversationId: string,
  turnId: string,
  until: (envelope: ChatEventEnvelope) => boolean = () => false,
  token = 'token-ana',
): Promise<{ envelopes: ChatEventEnvelope[]; state: ChatStateV1 | undefined; ended: string | undefined }> {
  const envelopes: ChatEventEnvelope[] = [];
  let state: ChatStateV1 | undefined;
  let ended: string | undefined;
  const url = `${host.base}/v1/conversations/${conversationId}/turns/${turnId}/events`;
  for await (const item of followChatTurn({ url, conversationId, headers: auth(token) })) {
    if (item.type === 'state') {
      envelopes.push(item.envelope);
      state = item.state;
      if (until(item.envelope)) break;
    }
    if (item.type === 'ended') ended = item.reason;
  }
  return { envelopes, state, ended };
}

export const cardOf = (envelopes: readonly ChatEventEnvelope[]): string => {
  const card = envelopes.find((envelope) => envelope.event.type === 'card');
  if (card?.event.type !== 'card') throw new Error('no card');
  return card.event.card.correlationId;
};
