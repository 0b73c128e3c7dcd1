import { LIGHTWEIGHT_CHAT_CAPABILITIES } from '@papercusp/chat-protocol-core';
import { InteractionResolver, standardSchemaValidator } from '@papercusp/chat-protocol-interactions';
import { createPostgresChatStore, migrateChatStore, pgDatabase } from '@papercusp/chat-protocol-postgres';
import { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const database = pgDatabase(pool);
const migrated = await migrateChatStore(database); // every process may run it at start: one applies, the others wait
if (!migrated.ok) throw new Error(migrated.message);

// The host's own grants, read inside the store's transactions (under their snapshot and locks) and outside them.
const grantOf = async (query, { caller, conversationId }) =>
  (await query.query('SELECT * FROM grants WHERE caller = $1 AND conversation_id = $2', [caller, conversationId])).rows[0];
const store = createPostgresChatStore(database, {
  authorizeDispatch: async (query, request) => (await grantOf(query, request)) !== undefined,
  interactionAuthority: async (query, request) => (await grantOf(query, request))?.authority ?? null,
});
const full = { persistedHistory: true, persistedDecisions: true, completedToolCheckpoints: true, interruptedTurnRecovery: true };
const authorize = async (request) => (await grantOf(database, request)) !== undefined;
const adapter = { capabilities: { ...LIGHTWEIGHT_CHAT_CAPABILITIES, ...full }, authorize, store: store.turnStore };
const turns = new TurnRecovery({ ...adapter, replayWindow: (request) => store.eventLog.replayWindow(request) });
const schemas = new Map(); // the host's server-owned card schemas, by `${id}@${revision}`
const validate = standardSchemaValidator(({ id, revision }) => schemas.get(`${id}@${revision}`));
const cards = new InteractionResolver({ store: store.interactionStore, validate });

const ready = TurnRecovery.is(turns) && InteractionResolver.is(cards);
console.log(`schema ${migrated.schema} at version ${migrated.toVersion}; ready: ${ready}`);
await pool.end();
