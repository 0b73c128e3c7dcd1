/**
 * The advisory lock keys the store takes, all from one helper: a 64-bit
 * `hashtextextended` of the object's name (already prefixed by its schema)
 * seeded with a namespace of the store's own, in Postgres's one-key (bigint)
 * form. A hash collision only makes two unrelated objects wait for each
 * other (two turns sharing a key serialize); it never lets two holders in.
 */

/** Namespace of the migration lock: one per schema. */
export const MIGRATION_LOCK_NAMESPACE = 1_667_785_076;

/** Namespace of the per-turn fence `compareAndSwap`, `admitDispatch` and cancellation take. */
export const TURN_FENCE_NAMESPACE = 1_667_785_077;

/**
 * Namespace of the per-schema outbox order lock: every interaction write holds
 * it shared from its outbox row to its commit, and an outbox read takes it
 * exclusive, so a read sees every outbox id handed out before it settled.
 */
export const INTERACTION_OUTBOX_NAMESPACE = 1_667_785_080;

/** The name the outbox order lock of the quoted schema `schema` is keyed by. */
export function interactionOutboxLockName(schema: string): string {
  return `${schema}.interaction_outbox`;
}

/** The 64-bit key of the object named by the bound text parameter `$parameter` in `namespace`. */
function advisoryKeySql(namespace: number, parameter: number): string {
  return `hashtextextended($${parameter}::text, ${namespace})`;
}

/**
 * SQL that takes a lock in `namespace` on the object named by the bound text
 * parameter `$parameter` (already prefixed by the schema). `scope` says
 * whether it ends with the transaction or is held by the session until
 * unlocked; `mode` whether holders exclude each other (the default) or share it.
 */
export function advisoryLockSql(
  namespace: number,
  parameter: number,
  scope: 'transaction' | 'session',
  mode: 'exclusive' | 'shared' = 'exclusive',
): string {
  return `SELECT ${advisoryLockCall(namespace, parameter, scope, mode)}`;
}

/** The call `advisoryLockSql` selects, for a statement that does more in the same round trip. */
export function advisoryLockCall(
  namespace: number,
  parameter: number,
  scope: 'transaction' | 'session',
  mode: 'exclusive' | 'shared' = 'exclusive',
): string {
  const lock = `${scope === 'transaction' ? 'pg_advisory_xact_lock' : 'pg_advisory_lock'}${mode === 'shared' ? '_shared' : ''}`;
  return `${lock}(${advisoryKeySql(namespace, parameter)})`;
}

/** SQL that releases a session lock `advisoryLockSql(namespace, parameter, 'session')` took. */
export function advisoryUnlockSql(namespace: number, parameter: number): string {
  return `SELECT pg_advisory_unlock(${advisoryKeySql(namespace, parameter)})`;
}
