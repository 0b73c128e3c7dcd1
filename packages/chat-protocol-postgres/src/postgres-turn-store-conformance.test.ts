import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { describeTurnRecoveryConformance } from '@papercusp/chat-protocol-testkit/vitest';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import { prepareSchema, turnRecoveryHarness } from '../test/turn-store-harness.js';
import { pgDatabase, pgliteDatabase, type ChatDatabase } from './index.js';

// DESIGN §9.4: the testkit's turn recovery suite is the judge, on PGlite and on a real server.
const databases = useTestDatabases();

// PGlite on a data directory, so a restart closes it and opens the directory again: only what committed is left.
let pglite: PGlite | undefined;
let dataDirectory: string | undefined;
beforeAll(async () => {
  dataDirectory = await mkdtemp(join(tmpdir(), 'turn-store-pglite-'));
  pglite = await PGlite.create(dataDirectory);
}, 120_000);
afterAll(async () => {
  await pglite?.close();
  if (dataDirectory !== undefined) await rm(dataDirectory, { recursive: true, force: true });
}, 120_000);

function openPglite(): ChatDatabase {
  if (pglite === undefined) throw new Error('PGlite is not open');
  return pgliteDatabase(pglite);
}

describeTurnRecoveryConformance('createPostgresTurnStore on PGlite', async () => {
  const schema = freshSchema('turn_conformance');
  await prepareSchema(openPglite(), schema);
  const restart = async (): Promise<void> => {
    await pglite?.close();
    pglite = await PGlite.create(dataDirectory);
  };
  return turnRecoveryHarness(openPglite, schema, restart);
});

// Every pool a harness opened, ended once the file is done (a restart ends its own at once).
const pools = new Set<pg.Pool>();
afterAll(async () => {
  await Promise.allSettled([...pools].map((pool) => pool.end()));
});

describeTurnRecoveryConformance('createPostgresTurnStore on a real Postgres server', async () => {
  const schema = freshSchema('turn_conformance');
  const open = (): { pool: pg.Pool; database: ChatDatabase } => {
    const pool = new pg.Pool({ connectionString: databases.cluster().url, max: 10 });
    pools.add(pool);
    return { pool, database: pgDatabase(pool) };
  };
  let current = open();
  await prepareSchema(current.database, schema);
  // A restart drops every connection (and with them every session lock) and opens new ones: only what committed is left.
  const restart = async (): Promise<void> => {
    const previous = current;
    current = open();
    pools.delete(previous.pool);
    await previous.pool.end();
  };
  return turnRecoveryHarness(() => current.database, schema, restart);
});
