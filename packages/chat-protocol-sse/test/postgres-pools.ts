/**
 * The real Postgres server of the end-to-end test: a throwaway cluster on
 * loopback (`test-support/postgres-cluster.mjs`), the chat store's tables
 * migrated into one schema, and node-postgres pools of their own (one per
 * "host process"), all closed in the file's teardown, also when a test fails.
 */
import { migrateChatStore, pgDatabase } from '@papercusp/chat-protocol-postgres';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test-support/postgres-cluster.mjs';

/** The schema the tables live in. */
export const E2E_SCHEMA = 'sse_end_to_end';

/** Starts the cluster and migrates before the file's tests; `pool()` opens a pool closed after them. */
export function usePostgresPools(): { readonly pool: () => pg.Pool } {
  let cluster: PostgresCluster | undefined;
  const pools: pg.Pool[] = [];
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const migrator = new pg.Pool({ connectionString: cluster.url, max: 1 });
    pools.push(migrator);
    const migrated = await migrateChatStore(pgDatabase(migrator), { schema: E2E_SCHEMA });
    if (!migrated.ok) throw new Error(`migration failed: ${migrated.message}`);
  }, 120_000);
  afterAll(async () => {
    await Promise.allSettled(pools.map((pool) => pool.end()));
    await cluster?.destroy();
  }, 120_000);
  return {
    pool: () => {
      if (cluster === undefined) throw new Error('the cluster is not running: call pool() inside a test');
      const pool = new pg.Pool({ connectionString: cluster.url, max: 4 });
      pools.push(pool);
      return pool;
    },
  };
}
