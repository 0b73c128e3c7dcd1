/**
 * The command's grants: one small table in the store's own database saying
 * which caller owns each conversation. The store's three lookups
 * (`authorizeConversation`, `authorizeDispatch`, `interactionAuthority`) read
 * it with the query handle they are given, so they read the same grants under
 * the same snapshot. It owns that table only; who a caller is comes from the
 * command's bearer tokens.
 */
import type { ChatDatabase, ChatQueryable, PostgresChatStoreOptions } from '@papercusp/chat-protocol-postgres';
import type { ChatHostCaller } from './chat-host-caller.js';

/** The schema of the grants table (the store's tables live in `chat_protocol`). */
const GRANTS_TABLE = 'chat_protocol_host.conversation_owners';

/**
 * Creates the grants table when it is missing. Safe when several processes
 * start at once: the creation runs under a transaction-scoped advisory lock.
 * Rejects when the database cannot be reached.
 */
export async function migrateHostGrants(database: ChatDatabase): Promise<void> {
  await database.session(async (connection) => {
    await connection.query('BEGIN');
    await connection.query("SELECT pg_advisory_xact_lock(hashtext('chat_protocol_host.migrate'))");
    await connection.query('CREATE SCHEMA IF NOT EXISTS chat_protocol_host');
    await connection.query(
      `CREATE TABLE IF NOT EXISTS ${GRANTS_TABLE} (
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
 * Gives `conversationId` to `caller` when nobody owns it yet; an owned
 * conversation keeps its owner (a unique key decides between racing processes).
 * Rejects when the database cannot be reached.
 */
export async function claimConversation(database: ChatQueryable, caller: ChatHostCaller, conversationId: string): Promise<void> {
  await database.query(
    `INSERT INTO ${GRANTS_TABLE} (conversation_id, caller_id, tenant_id) VALUES ($1, $2, $3) ON CONFLICT (conversation_id) DO NOTHING`,
    [conversationId, caller.callerId, caller.tenantId],
  );
}

async function owns(query: ChatQueryable, caller: ChatHostCaller, conversationId: string): Promise<boolean> {
  const { rows } = await query.query(
    `SELECT 1 AS owned FROM ${GRANTS_TABLE} WHERE conversation_id = $1 AND caller_id = $2 AND tenant_id = $3`,
    [conversationId, caller.callerId, caller.tenantId],
  );
  return rows.length === 1;
}

/**
 * The store's authority lookups over the grants table. Guarantees: all three
 * answer from the same row, read with the handle the store passes (inside its
 * transaction when it has one); the owner alone is granted, and its card
 * authority is exactly its own caller record's.
 */
export function hostGrantLookups(): Pick<
  PostgresChatStoreOptions<ChatHostCaller>,
  'authorizeConversation' | 'authorizeDispatch' | 'interactionAuthority'
> {
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
