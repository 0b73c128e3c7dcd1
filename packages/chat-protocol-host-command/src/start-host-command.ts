/**
 * The running `chat-protocol-host`: the database opened and migrated (the
 * store's tables and the owners table), `createChatHost` with the scripted
 * agent (or the user's, from `--agent`) served on `node:http`, and a `close` that stops it all in order. It
 * owns the wiring and the bearer-token callers; the routes are the host's.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createPostgresChatStore, migrateChatStore } from '@papercusp/chat-protocol-postgres';
import {
  createChatHost,
  createNodeRequestListener,
  createScriptedChatAgent,
  type ChatAgent,
  type ChatHostCaller,
} from '@papercusp/chat-protocol-host';
import {
  claimConversationOwner,
  conversationOwnerLookups,
  migrateConversationOwners,
  readConversationOwner,
} from './conversation-owners.js';
import type { HostCommandIdentity, HostCommandOptions } from './host-command-options.js';
import { openHostDatabase } from './open-host-database.js';

/** A started command. */
export interface RunningHostCommand {
  /** The URL the server listens on, such as `http://127.0.0.1:8787`. */
  readonly url: string;
  /** Where the data lives. */
  readonly database: string;
  /** The token made up for `local@local` when none was configured, else null. */
  readonly generatedToken: string | null;
  /** Drains the host (`--drain-ms`: new turns refused, running ones end or are interrupted), stops taking requests, ends open streams, then closes the database; harmless twice. */
  readonly close: () => Promise<void>;
}

// Who the made-up token stands for when no tokens were configured.
const LOCAL_IDENTITY: HostCommandIdentity = { callerId: 'local', tenantId: 'local' };

function callerOf({ callerId, tenantId }: HostCommandIdentity): ChatHostCaller {
  return { callerId, principalId: callerId, tenantId, customerId: null, publicOwnerId: null };
}

/**
 * Starts the command with `options`, serving `agent` (default: the scripted
 * agent with the `--tool-delay-ms` delay). Guarantees: the server listens only after
 * both migrations succeeded; a bearer token resolves to its configured caller
 * and nothing else does; a turn accepted on a conversation nobody owns (`POST
 * /turns` or a peer route's POST, validated completely first) gives it to its
 * caller, through the host's `claimConversation` hook: a refused request claims nothing.
 * Rejects, with everything it opened closed, when the database cannot be
 * opened or migrated or the port cannot be taken.
 */
export async function startHostCommand(
  options: HostCommandOptions,
  agent: ChatAgent = createScriptedChatAgent({ toolDelayMs: options.toolDelayMs }),
): Promise<RunningHostCommand> {
  const opened = await openHostDatabase(options);
  try {
    const migrated = await migrateChatStore(opened.database);
    if (!migrated.ok) throw new Error(`the store's tables could not be migrated: ${migrated.code}: ${migrated.message}`);
    await migrateConversationOwners(opened.database);
  } catch (error) {
    await opened.close();
    throw error;
  }
  const generatedToken = options.tokens === null ? randomBytes(24).toString('base64url') : null;
  const identities = generatedToken === null ? (options.tokens ?? new Map()) : new Map([[generatedToken, LOCAL_IDENTITY]]);
  const callers = new Map([...identities].map(([token, identity]) => [token, callerOf(identity)] as const));
  const authenticate = (request: Request): ChatHostCaller | null => {
    const header = request.headers.get('authorization') ?? '';
    return header.startsWith('Bearer ') ? (callers.get(header.slice('Bearer '.length)) ?? null) : null;
  };
  const store = createPostgresChatStore<unknown, ChatHostCaller>(opened.database, conversationOwnerLookups());
  const host = createChatHost({
    store,
    agent,
    authenticate,
    cardPollMs: options.cardPollMs,
    runLeaseMs: options.runLeaseMs,
    claimConversation: (claim) => claimConversationOwner(opened.database, claim),
  });
  const sockets = new Set<Socket>();
  const server = createServer(createNodeRequestListener(host));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.listenHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await opened.close();
    throw error;
  }
  // The sweeper (§11.2): every lease period, turns whose process died are interrupted for their conversation's owner.
  const callerOfConversation = async (conversationId: string): Promise<ChatHostCaller | null> => {
    const owner = await readConversationOwner(opened.database, conversationId);
    return owner === null ? null : callerOf(owner);
  };
  let sweeping: Promise<unknown> = Promise.resolve();
  const sweeper = setInterval(() => {
    sweeping = sweeping.then(() => host.sweepExpiredTurns({ callerOf: callerOfConversation }));
  }, options.runLeaseMs);
  sweeper.unref();
  const address = server.address() as AddressInfo;
  const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${hostname}:${address.port}`,
    database: opened.description,
    generatedToken,
    close: () => {
      closing ??= (async () => {
        // Drained first (§11.2): new turns are refused, running ones end or are interrupted, open streams end with `retry:`.
        clearInterval(sweeper);
        await host.close({ drainMs: options.drainMs });
        await sweeping;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // Open event streams never end on their own: ending their sockets releases their subscriptions.
        for (const socket of sockets) socket.destroy();
        await stopped;
        await opened.close();
      })();
      return closing;
    },
  };
}
