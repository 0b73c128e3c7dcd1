/**
 * The databases the package's tests run on: an in-memory PGlite, and a real
 * Postgres server (a throwaway cluster on loopback) through a node-postgres
 * pool. Both are opened once per test file and closed in its teardown, even
 * when a test fails; each test takes a schema of its own.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test-support/postgres-cluster.mjs';
import { migrateChatStore, pgDatabase, pgliteDatabase, type ChatDatabase } from '../src/index.js';

/** The databases of one test file. */
export interface TestDatabases {
  /** The file's PGlite instance (one connection). */
  readonly pglite: () => ChatDatabase;
  /** A `ChatDatabase` over the file's pool on the real server. */
  readonly postgres: () => ChatDatabase;
  /** The file's node-postgres pool on the real server. */
  readonly pool: () => pg.Pool;
  /** The real server, to stop and start. */
  readonly cluster: () => PostgresCluster;
}

function required<Value>(value: Value | undefined, what: string): Value {
  if (value === undefined) throw new Error(`${what} is not open: call useTestDatabases() at the top of the file`);
  return value;
}

/** Opens PGlite and a real server before the file's tests and closes both after them. */
export function useTestDatabases(options: { readonly poolSize?: number } = {}): TestDatabases {
  let pglite: PGlite | undefined;
  let cluster: PostgresCluster | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    [pglite, cluster] = await Promise.all([PGlite.create(), startPostgresCluster()]);
    pool = new pg.Pool({ connectionString: cluster.url, max: options.poolSize ?? 20 });
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled([pool?.end(), pglite?.close()]);
    await cluster?.destroy();
  }, 120_000);
  return {
    pglite: () => pgliteDatabase(required(pglite, 'PGlite')),
    postgres: () => pgDatabase(required(pool, 'the pool')),
    pool: () => required(pool, 'the pool'),
    cluster: () => required(cluster, 'the server'),
  };
}

let schemas = 0;

/** A schema name no other test of this process uses. */
export function freshSchema(prefix: string): string {
  schemas += 1;
  return `${prefix}_${process.pid}_${schemas}`;
}

/** A fresh schema (`freshSchema(prefix)`) migrated on `database`; throws when the migration is refused. */
export async function migrated(database: ChatDatabase, prefix: string): Promise<string> {
  const schema = freshSchema(prefix);
  const result = await migrateChatStore(database, { schema });
  if (!result.ok) throw new Error(`migration failed: ${result.message}`);
  return schema;
}

/** Whether `condition` held within `timeoutMs`, checked every 5 ms. */
export async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return true;
}
