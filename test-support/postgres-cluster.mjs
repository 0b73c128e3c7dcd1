// @ts-check
/**
 * A throwaway Postgres server for tests and benchmarks: `initdb` into a
 * temporary directory, `pg_ctl start` on a free loopback port (and a socket in
 * that directory), stopped and removed by `destroy()`. Run as root, the
 * cluster belongs to the unprivileged `nobody`, since Postgres refuses root.
 * A watchdog stops it if the process that started it dies first, so no test
 * run leaves a server behind. The binaries come from `PG_BINDIR`,
 * `pg_config --bindir`, `/usr/lib/postgresql/<newest>/bin` or `PATH`.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The directory holding `initdb` and `pg_ctl`, or null when this machine has none.
 * @public `.ci/run` calls it to decide whether to install the server binaries.
 * @returns {string | null}
 */
export function findPostgresBinaries() {
  /** @type {(string | undefined)[]} */
  const candidates = [process.env['PG_BINDIR']];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    // no pg_config: look further
  }
  if (existsSync('/usr/lib/postgresql')) {
    const versions = readdirSync('/usr/lib/postgresql')
      .filter((name) => /^\d+$/.test(name))
      .sort((left, right) => Number(right) - Number(left));
    for (const version of versions) candidates.push(`/usr/lib/postgresql/${version}/bin`);
  }
  for (const directory of (process.env['PATH'] ?? '').split(':')) candidates.push(directory);
  for (const directory of candidates) {
    if (directory && existsSync(join(directory, 'initdb')) && existsSync(join(directory, 'pg_ctl'))) return directory;
  }
  return null;
}

/** @returns {Promise<number>} a loopback port nothing listens on right now */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The unprivileged owner when running as root (Postgres refuses to run as root), else nobody to switch to. */
function clusterOwner() {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  return { uid: 65534, gid: 65534 };
}

/**
 * Runs a Postgres binary as the cluster's owner.
 * @param {string} binary
 * @param {readonly string[]} args
 * @param {{ uid: number, gid: number } | undefined} owner
 * @returns {Promise<string>} what it printed
 */
function run(binary, args, owner) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(owner ?? {}) });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${binary} ${args.join(' ')} exited ${code}:\n${output}`)),
    );
  });
}

/**
 * @typedef {object} PostgresCluster
 * @property {string} url a connection string for the `postgres` superuser (trust authentication, loopback only)
 * @property {number} port
 * @property {string} directory the temporary directory holding the data directory, the socket and the log
 * @property {(mode?: 'fast' | 'immediate') => Promise<void>} stop stops the server (`immediate`: a crash, recovered from the WAL on start)
 * @property {() => Promise<void>} start starts it again on the same port
 * @property {() => Promise<void>} destroy stops it if running and removes its directory; harmless twice
 */

/**
 * Starts a throwaway cluster.
 * @param {{ bindir?: string }} [options]
 * @returns {Promise<PostgresCluster>}
 */
export async function startPostgresCluster(options = {}) {
  const bindir = options.bindir ?? findPostgresBinaries();
  if (bindir === null)
    throw new Error("no Postgres server binaries (initdb, pg_ctl): install Debian's postgresql package, or set PG_BINDIR");
  const owner = clusterOwner();
  const directory = mkdtempSync(join(tmpdir(), 'chat-protocol-pg-'));
  if (owner !== undefined) chownSync(directory, owner.uid, owner.gid);
  const data = join(directory, 'data');
  const pgCtl = join(bindir, 'pg_ctl');
  await run(join(bindir, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], owner);
  const port = await freePort();
  const serverOptions = `-p ${port} -c listen_addresses=127.0.0.1 -k ${directory} -c max_connections=200`;
  let running = false;
  const start = async () => {
    await run(pgCtl, ['start', '-w', '-t', '60', '-D', data, '-l', join(directory, 'server.log'), '-o', serverOptions], owner);
    running = true;
  };
  /** @param {'fast' | 'immediate'} mode */
  const stop = async (mode = 'fast') => {
    if (!running) return;
    running = false;
    await run(pgCtl, ['stop', '-w', '-t', '60', '-m', mode, '-D', data], owner);
  };
  // If this process dies without destroy(), the watchdog stops the server and removes the directory.
  const watchdog = spawn(
    'sh',
    [
      '-c',
      `while [ -e /proc/${process.pid} ]; do sleep 1; done; "${pgCtl}" stop -m immediate -D "${data}" >/dev/null 2>&1; rm -rf "${directory}"`,
    ],
    { detached: true, stdio: 'ignore', ...(owner ?? {}) },
  );
  watchdog.unref();
  try {
    await start();
  } catch (error) {
    watchdog.kill();
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  let destroyed = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    directory,
    stop,
    start,
    async destroy() {
      if (destroyed) return;
      destroyed = true;
      try {
        await stop('immediate');
      } finally {
        watchdog.kill();
        rmSync(directory, { recursive: true, force: true });
      }
    },
  };
}
