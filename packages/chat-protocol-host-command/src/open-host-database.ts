/**
 * The command's database: a real Postgres through a `pg` pool when a URL is
 * given, else PGlite in a data directory (created when missing). Each driver
 * is loaded only when used, so a command on Postgres never loads PGlite. It
 * owns opening and closing; the store's SQL lives in the store.
 */
import { mkdir } from 'node:fs/promises';
import { pgDatabase, pgliteDatabase, type ChatDatabase } from '@papercusp/chat-protocol-postgres';

/** An open database and how to close it. */
export interface HostDatabase {
  readonly database: ChatDatabase;
  /** Where the data lives, for the startup line: the data directory, or the server without its password. */
  readonly description: string;
  /** Closes the pool or the embedded database; harmless twice. */
  readonly close: () => Promise<void>;
}

/** Opens Postgres at `databaseUrl`, or PGlite in `dataDirectory`. Rejects when the database cannot be opened. */
export async function openHostDatabase(source: {
  readonly databaseUrl: string | null;
  readonly dataDirectory: string;
}): Promise<HostDatabase> {
  let closed = false;
  if (source.databaseUrl !== null) {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: source.databaseUrl });
    // An idle connection the server drops is discarded by the pool; without a listener it would end the process.
    pool.on('error', () => undefined);
    await pool.query('SELECT 1');
    const url = new URL(source.databaseUrl);
    return {
      database: pgDatabase(pool),
      description: `Postgres at ${url.hostname}:${url.port || '5432'}${url.pathname}`,
      close: async () => {
        if (closed) return;
        closed = true;
        await pool.end();
      },
    };
  }
  await mkdir(source.dataDirectory, { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create(source.dataDirectory);
  return {
    database: pgliteDatabase(pglite),
    description: `PGlite in ${source.dataDirectory}`,
    close: async () => {
      if (closed) return;
      closed = true;
      await pglite.close();
    },
  };
}
