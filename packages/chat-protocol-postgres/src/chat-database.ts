/**
 * The one small interface the store runs on, so nothing else in the package
 * knows which driver it has (DESIGN §9.1): parameterized statements, a session
 * (one connection held for a whole unit of work, which session advisory locks
 * and `BEGIN`/`COMMIT` belong to), and `LISTEN` on one channel. It owns no SQL
 * of the store's and no retry policy.
 */

/** What a statement returned: its rows, and how many rows it touched. */
export interface ChatQueryResult<Row> {
  readonly rows: readonly Row[];
  /** Rows inserted, updated, deleted or selected; `0` when the driver does not say. */
  readonly rowCount: number;
}

/** How a statement runs: `name` makes it a named prepared statement (parsed and planned once per connection). */
export interface ChatQueryOptions {
  /** A name unique to `text` (the same name never stands for another text); a driver without prepared statements ignores it. */
  readonly name?: string;
}

/** Runs one parameterized statement (`$1`, `$2`, … bound to `values`; never interpolated). */
export interface ChatQueryable {
  query<Row extends object = Record<string, unknown>>(
    text: string,
    values?: readonly unknown[],
    options?: ChatQueryOptions,
  ): Promise<ChatQueryResult<Row>>;
}

/** Stops listening: the channel's callbacks are not called once it resolves. Calling it twice is harmless. */
export type ChatDatabaseUnlisten = () => Promise<void>;

/**
 * A database the store can use: a pool of connections (node-postgres) or the
 * single connection of an embedded one (PGlite). Any number of processes may
 * open the same database; every fence the store takes lives in the database.
 */
export interface ChatDatabase extends ChatQueryable {
  /**
   * Runs `work` on one connection held for its whole duration, so session
   * state (a session advisory lock, an open transaction) belongs to it alone.
   * A transaction `work` leaves open when it throws is rolled back; a
   * connection that failed is discarded, never handed to the next session.
   */
  session<Value>(work: (connection: ChatQueryable) => Promise<Value>): Promise<Value>;
  /**
   * Listens on `channel` (a validated identifier): `onNotification` receives
   * each payload sent with `NOTIFY` by any connection, in commit order;
   * `onLost` is called at most once when the listening connection fails, after
   * which nothing more arrives. Resolves once `LISTEN` is active, so a
   * notification committed after it resolves is delivered.
   */
  listen(channel: string, onNotification: (payload: string) => void, onLost: (error: unknown) => void): Promise<ChatDatabaseUnlisten>;
}
