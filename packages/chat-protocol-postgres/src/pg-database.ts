/**
 * `pgDatabase`: a `ChatDatabase` over node-postgres, a `Pool` (the usual
 * case: sessions check out their own connection, `LISTEN` holds one) or a
 * single connected `Client` (its sessions and statements take turns, since
 * they share one connection). It types `pg` structurally, so the package
 * loads without it; the host owns the pool, its size and its timeouts.
 */
import type { ChatDatabase, ChatDatabaseUnlisten, ChatQueryable, ChatQueryOptions, ChatQueryResult } from './chat-database.js';
import { quoteIdentifier } from './identifiers.js';
import { createTurnTaking } from './turn-taking.js';

/** A node-postgres query config: a named statement is prepared once per connection. */
export interface PgQueryConfigLike {
  readonly name: string;
  readonly text: string;
  readonly values: unknown[];
}

/** The part of a node-postgres `Client` or `PoolClient` the store uses. */
export interface PgClientLike {
  query(
    textOrConfig: string | PgQueryConfigLike,
    values?: unknown[],
  ): Promise<{ readonly rows: unknown[]; readonly rowCount: number | null }>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'notification', listener: (message: { readonly channel: string; readonly payload?: string | undefined }) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'end', listener: () => void): unknown;
  removeListener(
    event: 'notification',
    listener: (message: { readonly channel: string; readonly payload?: string | undefined }) => void,
  ): unknown;
}

/** The part of a node-postgres `PoolClient` the store uses: a client it gives back. */
export interface PgPoolClientLike extends PgClientLike {
  release(destroy?: boolean | Error): void;
}

/** The part of a node-postgres `Pool` the store uses. */
export interface PgPoolLike {
  connect(): Promise<PgPoolClientLike>;
  query(
    textOrConfig: string | PgQueryConfigLike,
    values?: unknown[],
  ): Promise<{ readonly rows: unknown[]; readonly rowCount: number | null }>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  readonly totalCount: number;
}

function resultOf<Row>(result: { readonly rows: unknown[]; readonly rowCount: number | null }): ChatQueryResult<Row> {
  return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
}

function queryableOf(client: Pick<PgClientLike, 'query'>): ChatQueryable {
  return {
    query: async <Row extends object>(text: string, values: readonly unknown[] = [], options?: ChatQueryOptions) => {
      const name = options?.name;
      return resultOf<Row>(
        await (name === undefined ? client.query(text, [...values]) : client.query({ name, text, values: [...values] })),
      );
    },
  };
}

/** Leaves a shared connection as a new session expects it: no open transaction, no session lock. */
export async function resetSession(connection: ChatQueryable): Promise<void> {
  await connection.query('ROLLBACK').catch(() => undefined);
  await connection.query('SELECT pg_advisory_unlock_all()').catch(() => undefined);
}

function isPool(value: PgPoolLike | PgClientLike): value is PgPoolLike {
  return typeof (value as Partial<PgPoolLike>).totalCount === 'number';
}

// The client a session holds: an `error` it emits (the server went away) is
// kept, not thrown at the process, and the session then discards it.
async function withErrorWatch<Value>(client: PgClientLike, work: (failed: () => Error | undefined) => Promise<Value>): Promise<Value> {
  let failure: Error | undefined;
  const onError = (error: Error): void => {
    failure = error;
  };
  client.on('error', onError);
  try {
    return await work(() => failure);
  } finally {
    client.removeListener('error', onError);
  }
}

function listenOn(client: PgClientLike, channel: string, onNotification: (payload: string) => void, onLost: (error: unknown) => void) {
  let active = true;
  const onMessage = (message: { readonly channel: string; readonly payload?: string | undefined }): void => {
    if (active && message.channel === channel) onNotification(message.payload ?? '');
  };
  const lose = (error: unknown): void => {
    if (!active) return;
    active = false;
    stop();
    onLost(error);
  };
  const onError = (error: Error): void => lose(error);
  const onEnd = (): void => lose(new Error('the listening connection ended'));
  const stop = (): void => {
    client.removeListener('notification', onMessage);
    client.removeListener('error', onError);
    client.removeListener('end', onEnd);
  };
  client.on('notification', onMessage);
  client.on('error', onError);
  client.on('end', onEnd);
  return {
    isActive: () => active,
    close: () => {
      active = false;
      stop();
    },
  };
}

/** Pools given an `error` listener already: one each, however many databases wrap them. */
const watchedPools = new WeakSet<PgPoolLike>();

function poolDatabase(pool: PgPoolLike): ChatDatabase {
  // An idle pooled connection that fails is the pool's to discard; without a
  // listener node-postgres would throw the error at the process.
  if (!watchedPools.has(pool)) {
    pool.on('error', () => undefined);
    watchedPools.add(pool);
  }
  return {
    ...queryableOf(pool),
    async session(work) {
      const client = await pool.connect();
      let failed: unknown;
      try {
        return await withErrorWatch(client, async (failure) => {
          try {
            return await work(queryableOf(client));
          } catch (error) {
            failed = failure() ?? error;
            throw error;
          }
        });
      } finally {
        // A session that threw may hold a lock or an open transaction: its connection is never reused.
        client.release(failed === undefined ? undefined : failed instanceof Error ? failed : true);
      }
    },
    async listen(channel, onNotification, onLost): Promise<ChatDatabaseUnlisten> {
      const client = await pool.connect();
      const listener = listenOn(client, channel, onNotification, (error) => {
        client.release(error instanceof Error ? error : true);
        onLost(error);
      });
      try {
        await client.query(`LISTEN ${quoteIdentifier(channel)}`);
      } catch (error) {
        listener.close();
        client.release(error instanceof Error ? error : true);
        throw error;
      }
      let closed: Promise<void> | undefined;
      return () => {
        closed ??= (async () => {
          if (!listener.isActive()) return;
          listener.close();
          try {
            await client.query(`UNLISTEN ${quoteIdentifier(channel)}`);
            client.release();
          } catch (error) {
            client.release(error instanceof Error ? error : true);
          }
        })();
        return closed;
      };
    },
  };
}

function clientDatabase(client: PgClientLike): ChatDatabase {
  const turns = createTurnTaking();
  const connection = queryableOf(client);
  return {
    query: (text, values, options) => turns.take(() => connection.query(text, values, options)),
    session: (work) =>
      turns.take(() =>
        withErrorWatch(client, async (failure) => {
          try {
            return await work(connection);
          } catch (error) {
            // One connection cannot be discarded: leave it as a new session expects it.
            if (failure() === undefined) await resetSession(connection);
            throw error;
          }
        }),
      ),
    async listen(channel, onNotification, onLost): Promise<ChatDatabaseUnlisten> {
      const listener = listenOn(client, channel, onNotification, onLost);
      try {
        await turns.take(() => connection.query(`LISTEN ${quoteIdentifier(channel)}`));
      } catch (error) {
        listener.close();
        throw error;
      }
      let closed: Promise<void> | undefined;
      return () => {
        closed ??= (async () => {
          if (!listener.isActive()) return;
          listener.close();
          await turns.take(() => connection.query(`UNLISTEN ${quoteIdentifier(channel)}`)).catch(() => undefined);
        })();
        return closed;
      };
    },
  };
}

/**
 * A `ChatDatabase` over node-postgres: a `Pool` or one connected `Client`.
 *
 * With a pool, each session checks out its own connection and a connection
 * whose session threw is destroyed, never reused (it may hold a lock or an
 * open transaction); each `listen` holds one pooled connection until
 * unlistened, so size the pool for it. The pool gets an `error` listener, so
 * an idle connection the server drops is discarded instead of crashing the
 * process. With one `Client`, sessions, statements and `LISTEN` take turns on
 * it; a session that threw rolls back and releases its locks.
 *
 * Throws `TypeError` at creation when `poolOrClient` is not an object or
 * cannot be read (a throwing getter, a Proxy whose traps throw: telling a
 * pool from a client reads `totalCount`, and a pool gets its `error`
 * listener). A driver that throws later makes the statement or session that
 * used it reject, which the store's never-rejecting methods answer
 * `store-unavailable`.
 */
export function pgDatabase(poolOrClient: PgPoolLike | PgClientLike): ChatDatabase {
  if (typeof poolOrClient !== 'object' || poolOrClient === null) throw new TypeError('pgDatabase: expected a node-postgres Pool or Client');
  try {
    return isPool(poolOrClient) ? poolDatabase(poolOrClient) : clientDatabase(poolOrClient);
  } catch {
    throw new TypeError('pgDatabase: the pool or client could not be read (a throwing getter or Proxy trap)');
  }
}
