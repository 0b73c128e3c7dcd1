/** The types of `postgres-cluster.mjs` (a plain module, so benchmarks run it without a build). */

/** A throwaway Postgres server on loopback. */
export interface PostgresCluster {
  /** A connection string for the `postgres` superuser (trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  /** The temporary directory holding the data directory, the socket and the log. */
  readonly directory: string;
  /** Stops the server (`immediate`: a crash, recovered from the WAL on start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it if running and removes its directory; harmless twice. */
  destroy(): Promise<void>;
}

/** The directory holding `initdb` and `pg_ctl`, or `null` when this machine has none. */
export function findPostgresBinaries(): string | null;

/** Starts a throwaway cluster. */
export function startPostgresCluster(options?: { readonly bindir?: string }): Promise<PostgresCluster>;
