import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestDatabases } from '../test/databases.js';
import { pgDatabase, type ChatDatabase } from './index.js';

const databases = useTestDatabases();

const LOCK = 'SELECT pg_try_advisory_lock(4242, 7) AS locked';
const UNLOCK = 'SELECT pg_advisory_unlock(4242, 7)';

/** Waits until `check` holds, polling (a notification arrives asynchronously). */
async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres (pool)', () => databases.postgres()],
])('the ChatDatabase over %s (DESIGN §9.1)', (_name, database) => {
  it('binds values as parameters, never as SQL text', async () => {
    const hostile = "'); DROP TABLE x; --";
    const { rows } = await database().query<{ value: string }>('SELECT $1::text AS value', [hostile]);
    expect(rows).toEqual([{ value: hostile }]);
  });

  it('rolls back what a session left open and releases its locks when its work throws', async () => {
    await database().query('CREATE TABLE IF NOT EXISTS session_rollback (id integer)');
    await expect(
      database().session(async (connection) => {
        await connection.query(LOCK);
        await connection.query('BEGIN');
        await connection.query('INSERT INTO session_rollback VALUES (1)');
        throw new Error('the work failed');
      }),
    ).rejects.toThrow('the work failed');
    expect((await database().query('SELECT * FROM session_rollback')).rows).toEqual([]);
    const locked = await database().session(async (connection) => {
      const { rows } = await connection.query<{ locked: boolean }>(LOCK);
      await connection.query(UNLOCK);
      return rows[0]?.locked;
    });
    expect(locked).toBe(true);
  });

  it('keeps a session lock past the session commit, until the session unlocks it', async () => {
    const held = await database().session(async (connection) => {
      await connection.query(LOCK);
      await connection.query('BEGIN');
      await connection.query('COMMIT');
      const { rows } = await connection.query<{ held: string }>(
        "SELECT count(*)::text AS held FROM pg_locks WHERE locktype = 'advisory' AND classid = 4242 AND objid = 7 AND granted",
      );
      await connection.query(UNLOCK);
      return rows[0]?.held;
    });
    expect(held).toBe('1');
  });

  it('delivers a NOTIFY committed after listen resolved, and nothing after unlisten', async () => {
    const payloads: string[] = [];
    const unlisten = await database().listen(
      'chat_database_test',
      (payload) => payloads.push(payload),
      () => undefined,
    );
    await database().query("SELECT pg_notify('chat_database_test', 'cursor 1')");
    await eventually(() => payloads.length === 1);
    await unlisten();
    await unlisten();
    await database().query("SELECT pg_notify('chat_database_test', 'cursor 2')");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(payloads).toEqual(['cursor 1']);
  });
});

describe('the ChatDatabase over a real server (DESIGN §9.1)', () => {
  const backendPid = async (connection: { query: ChatDatabase['query'] }): Promise<number> =>
    Number((await connection.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);

  it('holds one connection for a whole session: another connection does not see its open transaction', async () => {
    await databases.postgres().query('CREATE TABLE IF NOT EXISTS session_isolation (id integer)');
    const seen = await databases.postgres().session(async (connection) => {
      await connection.query('BEGIN');
      await connection.query('INSERT INTO session_isolation VALUES (1)');
      const outside = (await databases.postgres().query('SELECT * FROM session_isolation')).rows.length;
      await connection.query('ROLLBACK');
      return outside;
    });
    expect(seen).toBe(0);
  });

  it('discards a connection the server terminated mid-session instead of handing it to the next session', async () => {
    const database = databases.postgres();
    await expect(
      database.session(async (connection) => {
        const pid = await backendPid(connection);
        await database.query('SELECT pg_terminate_backend($1)', [pid]);
        await connection.query('SELECT 1');
      }),
    ).rejects.toThrow();
    expect((await database.session((connection) => connection.query<{ one: number }>('SELECT 1 AS one'))).rows).toEqual([{ one: 1 }]);
  });

  it('says a LISTEN connection is lost, once, when the server terminates it', async () => {
    const database = databases.postgres();
    const lost: unknown[] = [];
    await database.listen(
      'chat_database_lost',
      () => undefined,
      (error) => lost.push(error),
    );
    const { rows } = await database.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE query = \'LISTEN "chat_database_lost"\'',
    );
    expect(rows).toHaveLength(1);
    await database.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    await eventually(() => lost.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lost).toHaveLength(1);
  });

  it('lets sessions and statements take turns on one Client, so a session transaction swallows no other statement', async () => {
    const client = new pg.Client({ connectionString: databases.cluster().url });
    await client.connect();
    try {
      const database = pgDatabase(client);
      await database.query('CREATE TABLE IF NOT EXISTS client_turns (id integer)');
      const session = database.session(async (connection) => {
        await connection.query('BEGIN');
        await connection.query('INSERT INTO client_turns VALUES (1)');
        await new Promise((resolve) => setTimeout(resolve, 50));
        await connection.query('ROLLBACK');
      });
      const outside = database.query('INSERT INTO client_turns VALUES (2)');
      await Promise.all([session, outside]);
      expect((await database.query('SELECT id FROM client_turns')).rows).toEqual([{ id: 2 }]);
    } finally {
      await client.end();
    }
  });
});
