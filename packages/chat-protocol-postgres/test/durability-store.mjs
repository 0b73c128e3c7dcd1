// @ts-check
/**
 * The store both processes of the restart-durability test open (issue 15):
 * the same schema, an owner who may do everything, and the run's fixed ids.
 */
import { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import { createPostgresChatStore, pgDatabase } from '@papercusp/chat-protocol-postgres';
import { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import pg from 'pg';

export const OWNER = 'durability-owner';
export const AUTHORITY = Object.freeze({ principalId: 'user_durable', tenantId: 'tenant_durable', customerId: null, publicOwnerId: null });
export const LOG_TURN = Object.freeze({ conversationId: 'conv_durable', turnId: 'turn_durable_log' });
export const turnId = (/** @type {number} */ index) => `turn_durable_${index}`;
export const cardId = (/** @type {number} */ index) => `card_durable_${index}`;

/**
 * Opens the store on `url` in `schema`.
 * @param {string} url
 * @param {string} schema
 */
export function openDurabilityStore(url, schema) {
  const pool = new pg.Pool({ connectionString: url, max: 4, connectionTimeoutMillis: 2_000 });
  const store = createPostgresChatStore(pgDatabase(pool), {
    schema,
    authorizeDispatch: () => true,
    interactionAuthority: () => AUTHORITY,
  });
  const capabilities = {
    connectionReplay: true,
    persistedHistory: true,
    persistedDecisions: true,
    completedToolCheckpoints: true,
    interruptedTurnRecovery: true,
  };
  const recovery = new TurnRecovery({ capabilities, authorize: () => true, store: store.turnStore });
  /** @param {{ value: unknown }} submission */
  const validate = ({ value }) => ({ value });
  const resolver = new InteractionResolver({ store: store.interactionStore, validate });
  return { pool, store, recovery, resolver };
}
