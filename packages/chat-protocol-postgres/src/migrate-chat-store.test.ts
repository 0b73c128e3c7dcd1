import { describe, expect, it } from 'vitest';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import pg from 'pg';
import { CHAT_STORE_SCHEMA_VERSION, createPostgresTurnStore, migrateChatStore, pgDatabase, type ChatDatabase } from './index.js';
import { CHAT_STORE_MIGRATIONS } from './migrations.js';

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
        { version: 3, name: 'running turns by turn id' },
      ],
    });
    expect(await tablesIn(database(), schema)).toEqual(TABLES);
  });

  it('is idempotent: a second run applies nothing', async () => {
    const schema = freshSchema('migrate');
    await migrateChatStore(database(), { schema });
    expect(await migrateChatStore(database(), { schema })).toEqual({ ok: true, schema, fromVersion: 3, toVersion: 3, applied: [] });
  });

  it('refuses a database a newer package migrated, and writes nothing', async () => {
    const schema = freshSchema('migrate');
    await migrateChatStore(database(), { schema });
    await database().query(`INSERT INTO "${schema}".migrations (version, name) VALUES (4, 'from the future')`);
    expect(await migrateChatStore(database(), { schema })).toEqual({
      ok: false,
      code: 'database-newer',
      message: `schema ${schema} is at version 4, newer than this package's 3: upgrade @papercusp/chat-protocol-postgres`,
    });
  });

  it('upgrades a version 2 schema with migration 3 alone: the running turns stored before are listed, the ended one is not', async () => {
    const schema = freshSchema('migrate');
    const quoted = `"${schema}"`;
    await database().query(`CREATE SCHEMA ${quoted}`);
    await database().query(
      `CREATE TABLE ${quoted}.migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    for (const migration of CHAT_STORE_MIGRATIONS.slice(0, 2)) {
      for (const statement of migration.statements(quoted)) await database().query(statement);
      await database().query(`INSERT INTO ${quoted}.migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
    }
    const turns = createPostgresTurnStore<string, string>(database(), { schema });
    const running = { conversationId: 'conv_v2', turnId: 'turn_v2_b', status: 'running', revision: 1, effects: [] } as const;
    await turns.compareAndSwap({ turnId: 'turn_v2_b', expectedRevision: 0, next: running });
    await turns.compareAndSwap({
      turnId: 'turn_v2_a',
      expectedRevision: 0,
      next: { ...running, turnId: 'turn_v2_a', status: 'cancelled' },
    });
    expect(await migrateChatStore(database(), { schema })).toEqual({
      ok: true,
      schema,
      fromVersion: 2,
      toVersion: 3,
      applied: [{ version: 3, name: 'running turns by turn id' }],
    });
    expect(await turns.listRunningTurns({ limit: 10 })).toEqual([{ record: running, admissions: [] }]);
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
      { version: 3, name: 'running turns by turn id' },
    ]);
    expect(results.every((result) => result.ok && result.toVersion === 3)).toBe(true);
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
