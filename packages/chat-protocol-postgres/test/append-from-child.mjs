// @ts-check
// A separate process that appends to the event log: `node append-from-child.mjs <url> <schema> <envelopes-json>`.
// It imports the package's build by name, as a host's process would, prints each append's answer as one JSON line, then exits.
import { createPostgresEventLog, pgDatabase } from '@papercusp/chat-protocol-postgres';
import pg from 'pg';

const [url, schema = '', envelopesJson = '[]'] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 1 });
try {
  const log = createPostgresEventLog(pgDatabase(pool), { schema });
  for (const envelope of JSON.parse(envelopesJson)) process.stdout.write(`${JSON.stringify(await log.append(envelope))}\n`);
} finally {
  await pool.end();
}
