import { describe, expect, it } from 'vitest';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import pg from 'pg';
import { CHAT_STORE_SCHEMA_VERSION, migrateChatStore, pgDatabase, type ChatDatabase } from './index.js';

const databases = useTestDatabases();

const TABLES = ['admissions', 'event_log', 'event_log_turns', 'interaction_outbox', 'interactions', 'migrations', 'turns'];

async function tablesIn(database: ChatDatabase, schema: string): Promise<string[]> {
  const { rows } = await database.query<{ table_name: string }>(
    'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name',
    [schema],
  );
  return rows.map((row) => row.table_name);
}

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres', () => databases.postgres()],
])('migrateChatStore on %s (DESIGN §9.1)', (_name, database) => {
  it('creates every table in the schema and records the version', async () => {
    const schema = freshSchema('migrate');
    const result = await migrateChatStore(database(), { schema });
    expect(result).toEqual({
      ok: true,
      schema,
      fromVersion: 0,
      toVersion: CHAT_STORE_SCHEMA_VERSION,
      applied: [
        { version: 1, name: 'turns, admissions, interactions, outbox, event log' },
        { version: 2, name: 'event log turn order per conversation' },
      ],
    });
    expect(await tablesIn(database(), schema)).toEqual(TABLES);
  });

  it('is idempotent: a second run applies nothing', async () => {
    const schema = freshSchema('migrate');
    await migrateChatStore(database(), { schema });
    expect(await migrateChatStore(database(), { schema })).toEqual({ ok: true, schema, fromVersion: 2, toVersion: 2, applied: [] });
  });

  it('refuses a database a newer package migrated, and writes nothing', async () => {
    const schema = freshSchema('migrate');
    await migrateChatStore(database(), { schema });
    await database().query(`INSERT INTO "${schema}".migrations (version, name) VALUES (3, 'from the future')`);
    expect(await migrateChatStore(database(), { schema })).toEqual({
      ok: false,
      code: 'database-newer',
      message: `schema ${schema} is at version 3, newer than this package's 2: upgrade @papercusp/chat-protocol-postgres`,
    });
  });

  it.each(['Chat', 'chat-protocol', '1chat', '', 'a'.repeat(64), 'x"; DROP TABLE y; --'])('refuses the schema name %j', async (schema) => {
    expect(await migrateChatStore(database(), { schema })).toMatchObject({ ok: false, code: 'invalid-schema' });
  });
});

describe('migrateChatStore under concurrent starts (DESIGN §9.1)', () => {
  it('applies each migration once when eight processes start at once on a real server', async () => {
    const schema = freshSchema('migrate_race');
    const results = await Promise.all(Array.from({ length: 8 }, () => migrateChatStore(databases.postgres(), { schema })));
    const applied = results.flatMap((result): readonly unknown[] => (result.ok ? result.applied : [result.code]));
    expect(applied).toEqual([
      { version: 1, name: 'turns, admissions, interactions, outbox, event log' },
      { version: 2, name: 'event log turn order per conversation' },
    ]);
    expect(results.every((result) => result.ok && result.toVersion === 2)).toBe(true);
  });

  it('answers store-unavailable, never a throw, when the server cannot be reached', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres', connectionTimeoutMillis: 2_000 });
    try {
      expect(await migrateChatStore(pgDatabase(pool), { schema: freshSchema('migrate') })).toMatchObject({
        ok: false,
        code: 'store-unavailable',
      });
    } finally {
      await pool.end();
    }
  });
});
