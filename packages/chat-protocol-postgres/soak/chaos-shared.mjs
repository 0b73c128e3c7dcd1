// @ts-check
/**
 * What the chaos controller and its workers share: the caller, the declared
 * capabilities, the store options (authority read from a grants table in the
 * same database, through the transaction's own handle), the card validator
 * and a seeded random source, so a run is replayed from its seed.
 */

/** The one caller of the run: the owner of every conversation. */
export const OWNER = 'chaos-owner';

/** Every capability: the store supports restart recovery. */
export const chaosCapabilities = Object.freeze({
  connectionReplay: true,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
});

/** The authority the owner has in every conversation of the run. */
export const OWNER_AUTHORITY = Object.freeze({
  principalId: 'user_chaos',
  tenantId: 'tenant_chaos',
  customerId: null,
  publicOwnerId: null,
});

/**
 * The grants table of the run's schema.
 * @param {string} schema
 */
export const grantsTable = (schema) => `"${schema}".chaos_grants`;

/**
 * The store options: authority is a row in the grants table, read with the transaction's own handle.
 * @param {string} schema
 */
export function chaosStoreOptions(schema) {
  /** @param {import('@papercusp/chat-protocol-postgres').ChatQueryable} query @param {{ conversationId: string, caller: string }} request */
  const granted = async (query, { conversationId, caller }) =>
    (await query.query(`SELECT 1 FROM ${grantsTable(schema)} WHERE conversation_id = $1 AND caller = $2`, [conversationId, caller])).rows
      .length > 0;
  return {
    schema,
    /** @param {import('@papercusp/chat-protocol-postgres').ChatQueryable} query @param {{ conversationId: string, caller: string }} request */
    authorizeDispatch: (query, request) => granted(query, request),
    /** @param {import('@papercusp/chat-protocol-postgres').ChatQueryable} query @param {{ conversationId: string, caller: string }} request */
    interactionAuthority: async (query, request) => ((await granted(query, request)) ? OWNER_AUTHORITY : null),
  };
}

/**
 * Refund or replace, as a hand-written validator.
 * @param {{ value: unknown }} submission
 */
export function chaosValidator({ value }) {
  const optionId = typeof value === 'object' && value !== null ? /** @type {{ optionId?: unknown }} */ (value).optionId : undefined;
  return optionId === 'refund' || optionId === 'replace'
    ? { value: { optionId } }
    : { issues: [{ message: 'not offered', path: ['optionId'] }] };
}

/**
 * A seeded random source (mulberry32): the same seed gives the same numbers.
 * @param {number} seed
 * @returns {() => number} numbers in [0, 1)
 */
export function randomSource(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
