/**
 * The advisory lock keys the store takes, in Postgres's two-key form: a
 * namespace of the store's own (so a host's advisory locks never meet them)
 * and a hash of the schema and the object. A hash collision only makes two
 * unrelated objects wait for each other; it never lets two holders in.
 */

/** Namespace of the migration lock: one per schema. */
export const MIGRATION_LOCK_NAMESPACE = 1_667_785_076;

/** Namespace of the per-turn fence `compareAndSwap`, `admitDispatch` and cancellation take. */
export const TURN_FENCE_NAMESPACE = 1_667_785_077;

/** Namespace of the per-schema lock an interaction write holds from its outbox row to its commit, so outbox ids are in commit order. */
export const INTERACTION_OUTBOX_NAMESPACE = 1_667_785_080;

/**
 * SQL that takes a lock in `namespace` on the object named by the bound text
 * parameter `$parameter` (already prefixed by the schema). `scope` says
 * whether it ends with the transaction or is held by the session until unlocked.
 */
export function advisoryLockSql(namespace: number, parameter: number, scope: 'transaction' | 'session'): string {
  const lock = scope === 'transaction' ? 'pg_advisory_xact_lock' : 'pg_advisory_lock';
  return `SELECT ${lock}(${namespace}, hashtext($${parameter}::text))`;
}

/** SQL that releases a session lock `advisoryLockSql(namespace, parameter, 'session')` took. */
export function advisoryUnlockSql(namespace: number, parameter: number): string {
  return `SELECT pg_advisory_unlock(${namespace}, hashtext($${parameter}::text))`;
}
