/**
 * `pgliteDatabase`: a `ChatDatabase` over an `@electric-sql/pglite` instance,
 * the embedded default (a data directory, no server). PGlite is one
 * connection in one process, so a session holds it whole: no other statement
 * runs until the session ends. It types PGlite structurally, so the package
 * loads without it; the host opens and closes the instance.
 */
import type { ChatDatabase, ChatQueryable } from './chat-database.js';
import { resetSession } from './pg-database.js';

/** A PGlite query's answer, as far as the store reads it. */
interface PgliteResults {
  readonly rows: unknown[];
  readonly affectedRows?: number;
}

/** The part of PGlite's transaction handle the store uses. */
export interface PgliteTransactionLike {
  query(text: string, values?: unknown[]): Promise<PgliteResults>;
}

/** The part of an `@electric-sql/pglite` instance the store uses. */
export interface PgliteLike {
  query(text: string, values?: unknown[]): Promise<PgliteResults>;
  transaction<Value>(work: (transaction: PgliteTransactionLike) => Promise<Value>): Promise<Value>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
}

function queryableOf(handle: Pick<PgliteLike, 'query'>): ChatQueryable {
  return {
    async query<Row extends object>(text: string, values: readonly unknown[] = []) {
      const result = await handle.query(text, [...values]);
      return { rows: result.rows as Row[], rowCount: result.affectedRows ?? result.rows.length };
    },
  };
}

/**
 * A `ChatDatabase` over PGlite. A session runs inside PGlite's exclusive
 * transaction slot with the implicit transaction committed first, so the
 * session begins and commits its own transactions (a lock it takes outlives
 * its commit, as on a server); when the session throws, whatever it left open
 * is rolled back and its session locks released. `listen` uses PGlite's own
 * notifications; an embedded database has no connection to lose.
 *
 * Throws `TypeError` at creation when `db` is not an object; it reads nothing
 * of `db` until used, so an instance that throws when read (a getter, a
 * Proxy) makes the statement, session or `listen` that read it reject, never
 * throw synchronously.
 */
export function pgliteDatabase(db: PgliteLike): ChatDatabase {
  if (typeof db !== 'object' || db === null) throw new TypeError('pgliteDatabase: expected a PGlite instance');
  return {
    ...queryableOf(db),
    session: async (work) =>
      db.transaction(async (transaction) => {
        const connection = queryableOf(transaction);
        await connection.query('COMMIT');
        try {
          return await work(connection);
        } catch (error) {
          await resetSession(connection);
          throw error;
        } finally {
          // PGlite commits when this callback returns: open a transaction for it to close.
          await connection.query('BEGIN').catch(() => undefined);
        }
      }),
    async listen(channel, onNotification) {
      const unlisten = await db.listen(channel, onNotification);
      let closed: Promise<void> | undefined;
      return () => (closed ??= unlisten());
    },
  };
}
