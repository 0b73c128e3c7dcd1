// A separate process that appends to the event log: `node append-from-child.mjs <module> <url> <schema> <envelopes-json>`.
// It prints each append's answer as one JSON line, then exits.
import { pathToFileURL } from 'node:url';
import pg from 'pg';

const [modulePath, url, schema, envelopesJson] = process.argv.slice(2);
const { createPostgresEventLog, pgDatabase } = await import(pathToFileURL(modulePath).href);
const pool = new pg.Pool({ connectionString: url, max: 1 });
try {
  const log = createPostgresEventLog(pgDatabase(pool), { schema });
  for (const envelope of JSON.parse(envelopesJson)) process.stdout.write(`${JSON.stringify(await log.append(envelope))}\n`);
} finally {
  await pool.end();
}
