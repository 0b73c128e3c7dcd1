/**
 * Conversation owners on first use: one small table in the store's own
 * database saying which caller owns each conversation, the claim that fills
 * it from `createChatHost`'s `claimConversation` hook, and the store's three
 * lookups (`authorizeConversation`, `authorizeDispatch`, `interactionAuthority`)
 * that read it with the query handle they are given, so they read the same
 * row under the same snapshot. The command runs on it; a library user plugs
 * the same three pieces into their own host. It owns that table only: who a
 * caller is comes from the host's `authenticate`.
 */
import type { ChatHostCaller } from '@papercusp/chat-protocol-host';
import type { ChatDatabase, ChatQueryable, PostgresChatStoreOptions } from '@papercusp/chat-protocol-postgres';

/** The table (the store's own tables live in the `chat_protocol` schema). */
const OWNERS_TABLE = 'chat_protocol_host.conversation_owners';

// Postgres refuses to bind a text holding NUL: such a caller or id owns nothing and claims nothing, instead of
// failing the store's transaction (the store asks its lookups to answer no for a caller they cannot look up).
const bindable = (...texts: readonly unknown[]): boolean => texts.every((text) => typeof text === 'string' && !text.includes('\0'));

/** The store's three authority lookups, all present, that {@link conversationOwnerLookups} gives for `createPostgresChatStore`'s options. */
export type ConversationOwnerLookups = Required<
  Pick<PostgresChatStoreOptions<ChatHostCaller>, 'authorizeConversation' | 'authorizeDispatch' | 'interactionAuthority'>
>;

/**
 * Creates the owners table (`chat_protocol_host.conversation_owners`) when it
 * is missing; run it beside `migrateChatStore`, before the host serves.
 * Guarantees: safe when several processes start at once (the creation runs
 * under a transaction-scoped advisory lock) and harmless when the table exists.
 * Rejects when the database cannot be reached.
 */
export async function migrateConversationOwners(database: ChatDatabase): Promise<void> {
  await database.session(async (connection) => {
    await connection.query('BEGIN');
    await connection.query("SELECT pg_advisory_xact_lock(hashtext('chat_protocol_host.migrate'))");
    await connection.query('CREATE SCHEMA IF NOT EXISTS chat_protocol_host');
    await connection.query(
      `CREATE TABLE IF NOT EXISTS ${OWNERS_TABLE} (
        conversation_id text PRIMARY KEY,
        caller_id text NOT NULL,
        tenant_id text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    await connection.query('COMMIT');
  });
}

/**
 * Gives the conversation to its caller when nobody owns it yet: what
 * `createChatHost`'s `claimConversation` option calls, as
 * `claimConversation: (claim) => claimConversationOwner(database, claim)`.
 * Guarantees: an owned conversation keeps its owner, and a unique key decides
 * between processes that race for the same one (the loser's claim does
 * nothing, so its caller then gets `404`); a caller id, tenant or
 * conversation id Postgres cannot bind (a NUL in it) claims nothing. Rejects
 * only when the database cannot be reached (the host answers `503 store-unavailable`).
 */
export async function claimConversationOwner(
  database: ChatQueryable,
  { caller, conversationId }: { readonly caller: ChatHostCaller; readonly conversationId: string },
): Promise<void> {
  if (!bindable(caller.callerId, caller.tenantId, conversationId)) return;
  await database.query(
    `INSERT INTO ${OWNERS_TABLE} (conversation_id, caller_id, tenant_id) VALUES ($1, $2, $3) ON CONFLICT (conversation_id) DO NOTHING`,
    [conversationId, caller.callerId, caller.tenantId],
  );
}

/**
 * The owner of `conversationId` (its caller id and tenant), `null` when it has
 * none or the id cannot be bound: whom the command's sweeper acts for when it
 * interrupts a turn of the conversation. Rejects only when the database cannot be reached.
 */
export async function readConversationOwner(
  database: ChatQueryable,
  conversationId: string,
): Promise<{ readonly callerId: string; readonly tenantId: string } | null> {
  if (!bindable(conversationId)) return null;
  const { rows } = await database.query(`SELECT caller_id, tenant_id FROM ${OWNERS_TABLE} WHERE conversation_id = $1`, [conversationId]);
  const row = rows[0] as { caller_id?: unknown; tenant_id?: unknown } | undefined;
  return typeof row?.caller_id === 'string' && typeof row.tenant_id === 'string'
    ? { callerId: row.caller_id, tenantId: row.tenant_id }
    : null;
}

async function owns(query: ChatQueryable, caller: ChatHostCaller, conversationId: string): Promise<boolean> {
  if (!bindable(caller.callerId, caller.tenantId, conversationId)) return false;
  const { rows } = await query.query(
    `SELECT 1 AS owned FROM ${OWNERS_TABLE} WHERE conversation_id = $1 AND caller_id = $2 AND tenant_id = $3`,
    [conversationId, caller.callerId, caller.tenantId],
  );
  return rows.length === 1;
}

/**
 * The store's authority lookups over the owners table, for
 * `createPostgresChatStore(database, { ...conversationOwnerLookups(), schema? })`.
 * Guarantees: all three answer from the same row, read with the handle the
 * store passes (inside its transaction when it has one, so an admission or a
 * card answer revalidates the owner); the owner alone (same caller id and
 * tenant) is granted, and its card authority is exactly its own caller record's;
 * a caller or id Postgres cannot bind (a NUL in it) is refused without a query.
 */
export function conversationOwnerLookups(): ConversationOwnerLookups {
  return {
    authorizeConversation: (query, { caller, conversationId }) => owns(query, caller, conversationId),
    authorizeDispatch: (query, { caller, conversationId }) => owns(query, caller, conversationId),
    interactionAuthority: async (query, { caller, conversationId }) => {
      if (!(await owns(query, caller, conversationId))) return null;
      const { principalId, tenantId, customerId, publicOwnerId } = caller;
      return { principalId, tenantId, customerId, publicOwnerId };
    },
  };
}
