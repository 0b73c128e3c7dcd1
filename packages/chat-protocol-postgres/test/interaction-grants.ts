/**
 * The test host's grants for the interaction store: a table in the store's
 * own database, read through the transaction's handle as DESIGN §9.1 asks a
 * host to, and a harness for the testkit's conformance suite over it.
 */
import { isChatId } from '@papercusp/chat-protocol-core';
import type { InteractionAuthority } from '@papercusp/chat-protocol-interactions';
import type { InteractionStoreHarness } from '@papercusp/chat-protocol-testkit/vitest';
import { createPostgresInteractionStore, migrateChatStore, type ChatDatabase, type ChatQueryable } from '../src/index.js';

/** A migrated schema with a `test_grants` table beside the store's tables. */
export async function prepareInteractionSchema(database: ChatDatabase, schema: string): Promise<void> {
  const migrated = await migrateChatStore(database, { schema });
  if (!migrated.ok) throw new Error(`migration failed: ${migrated.message}`);
  await database.query(
    `CREATE TABLE "${schema}".test_grants (conversation_id text, caller text, authority jsonb NOT NULL, PRIMARY KEY (conversation_id, caller))`,
  );
}

/** The host's lookup: the caller's row in `test_grants`, read through `query` (the store's transaction). */
export function grantsLookup(schema: string) {
  return async (query: ChatQueryable, request: { readonly caller: unknown; readonly conversationId: string }) => {
    // A caller the table cannot hold (not a chat id: a NUL would fail the statement, and the transaction with it) has no grant.
    if (!isChatId(request.caller)) return null;
    const { rows } = await query.query<{ authority: InteractionAuthority }>(
      `SELECT authority FROM "${schema}".test_grants WHERE conversation_id = $1 AND caller = $2`,
      [request.conversationId, request.caller],
    );
    return rows[0]?.authority ?? null;
  };
}

/** Upserts (or, for `null`, deletes) a grant. */
export async function grant(
  query: ChatQueryable,
  schema: string,
  conversationId: string,
  caller: string,
  authority: InteractionAuthority | null,
): Promise<void> {
  if (authority === null) {
    await query.query(`DELETE FROM "${schema}".test_grants WHERE conversation_id = $1 AND caller = $2`, [conversationId, caller]);
    return;
  }
  await query.query(
    `INSERT INTO "${schema}".test_grants (conversation_id, caller, authority) VALUES ($1, $2, $3::jsonb)
     ON CONFLICT (conversation_id, caller) DO UPDATE SET authority = EXCLUDED.authority`,
    [conversationId, caller, JSON.stringify(authority)],
  );
}

/** A conformance harness on a fresh schema of `database`. */
export async function interactionHarness(database: ChatDatabase, schema: string): Promise<InteractionStoreHarness> {
  await prepareInteractionSchema(database, schema);
  const interactionAuthority = grantsLookup(schema);
  return {
    connect: () => createPostgresInteractionStore<string>(database, { schema, interactionAuthority }),
    grant: (conversationId, caller, authority) => grant(database, schema, conversationId, caller, authority),
  };
}
