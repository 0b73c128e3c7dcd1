/**
 * What the turn store's tests share: a migrated schema with a grants table
 * beside the store's (the host's authority, read through the handle the
 * store passes), and the conformance suite's harness over it.
 */
import { LIGHTWEIGHT_CHAT_CAPABILITIES, type ChatCapabilities } from '@papercusp/chat-protocol-core';
import type { TurnRecoveryHarness } from '@papercusp/chat-protocol-testkit/vitest';
import { createPostgresTurnStore, migrateChatStore, type ChatDatabase, type ChatQueryable } from '../src/index.js';

/** Every capability: a store with restart recovery. */
export const FULL_CAPABILITIES: ChatCapabilities = Object.freeze({
  ...LIGHTWEIGHT_CHAT_CAPABILITIES,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
});

/** A migrated schema with the host's grants table in it. */
export async function prepareSchema(database: ChatDatabase, schema: string): Promise<void> {
  const migrated = await migrateChatStore(database, { schema });
  if (!migrated.ok) throw new Error(`migration failed: ${migrated.message}`);
  await database.query(
    `CREATE TABLE "${schema}".grants (conversation_id text NOT NULL, caller text NOT NULL, PRIMARY KEY (conversation_id, caller))`,
  );
}

/** The host's authority: a row in the grants table, read through `query` (the store's transaction, or the pool). */
export async function isGranted(query: ChatQueryable, schema: string, conversationId: string, caller: unknown): Promise<boolean> {
  if (typeof caller !== 'string') return false;
  const { rows } = await query.query(`SELECT 1 FROM "${schema}".grants WHERE conversation_id = $1 AND caller = $2`, [
    conversationId,
    caller,
  ]);
  return rows.length === 1;
}

/** Grants `caller` the conversation. */
export async function grant(database: ChatDatabase, schema: string, conversationId: string, caller: string): Promise<void> {
  await database.query(`INSERT INTO "${schema}".grants (conversation_id, caller) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [
    conversationId,
    caller,
  ]);
}

/** The store over `database` in `schema`, authorizing admissions from the grants table. */
export function grantedTurnStore(database: ChatDatabase, schema: string) {
  return createPostgresTurnStore<string, string>(database, {
    schema,
    authorizeDispatch: (query, request) => isGranted(query, schema, request.conversationId, request.caller),
  });
}

/**
 * The conformance harness: each adapter is a fresh worker over the current
 * database (`current()`); `restart`, when given, replaces the database.
 */
export function turnRecoveryHarness(current: () => ChatDatabase, schema: string, restart?: () => Promise<void>): TurnRecoveryHarness {
  return {
    adapter: ({ onAbort }) => {
      const database = current();
      return {
        capabilities: FULL_CAPABILITIES,
        authorize: (request) => isGranted(database, schema, request.conversationId, request.caller),
        store: grantedTurnStore(database, schema),
        abort: onAbort,
      };
    },
    grant: (conversationId, caller) => grant(current(), schema, conversationId, caller),
    ...(restart === undefined ? {} : { restart }),
  };
}
