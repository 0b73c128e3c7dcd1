/**
 * The store benchmark of issue 15: `@papercusp/chat-protocol-postgres` on a
 * throwaway real Postgres server (a `pg` Pool) and on PGlite (in memory and on
 * a data directory). Store round trips and SQL statements per effect, effects
 * per second through `TurnRecovery` beside the testkit's fake store, appends
 * per second and append-to-subscriber latency across processes, and PGlite's
 * cold start and reopen. Wall-clock times: this is I/O, not CPU, so it stays
 * out of the CPU-timed harness. Nothing here is asserted.
 *
 * The file is also its own child process (`--postgres-worker <json>`): a
 * recovery worker with its own pool, or a subscriber of the event log.
 * `node src/postgres.mjs` runs this section alone and prints its table.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { LIGHTWEIGHT_CHAT_CAPABILITIES } from '@papercusp/chat-protocol-core';
import {
  createPostgresEventLog,
  createPostgresTurnStore,
  DEFAULT_CHAT_STORE_SCHEMA,
  migrateChatStore,
  pgDatabase,
  pgliteDatabase,
} from '@papercusp/chat-protocol-postgres';
import { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import { createFakeDatabase, createFakeTurnStore } from '@papercusp/chat-protocol-testkit';
import pg from 'pg';
import { startPostgresCluster } from '../../../test-support/postgres-cluster.mjs';
import { markdownTable } from './markdown-table.mjs';

const WORKER_FLAG = '--postgres-worker';
const THIS_FILE = fileURLToPath(import.meta.url);
const CONCURRENCY = [1, 8, 64];
const GOALS = { storeOperations: 3 };
const SETTINGS = {
  /** Each throughput cell runs turns one after another for at least this long (and at least 3 turns). */
  throughputMilliseconds: 1_000,
  processes: 4,
  processTurns: 64,
  processEffectsPerTurn: 8,
  appendMilliseconds: 1_000,
  parallelTurns: 4,
  latencyFrames: 600,
  coldStarts: 3,
  reopensPerDirectory: 2,
  poolSize: 10,
  groupWriters: 8,
  pipelineDepth: 256,
};
const CALLER = 'user_bench';
const CONVERSATION = 'conv_bench';
const SCHEMA = DEFAULT_CHAT_STORE_SCHEMA;
const FULL_CAPABILITIES = Object.freeze({
  ...LIGHTWEIGHT_CHAT_CAPABILITIES,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
});

const now = () => performance.timeOrigin + performance.now();
const progress = (line) => console.error(`bench/postgres: ${line}`);

/** The schema and the host's grants table beside it, read by `authorizeDispatch` through the admission's own handle. */
async function prepare(database) {
  const migrated = await migrateChatStore(database, { schema: SCHEMA });
  if (!migrated.ok) throw new Error(`postgres bench: migration failed: ${migrated.code} ${migrated.message}`);
  await database.query(
    `CREATE TABLE IF NOT EXISTS "${SCHEMA}".bench_grants (conversation_id text NOT NULL, caller text NOT NULL, PRIMARY KEY (conversation_id, caller))`,
  );
  await database.query(`INSERT INTO "${SCHEMA}".bench_grants VALUES ($1, $2) ON CONFLICT DO NOTHING`, [CONVERSATION, CALLER]);
}

/** A `TurnRecovery` over the store on `database`: authority is the grants table in the same database. */
function postgresRecovery(database, store = createPostgresTurnStore(database, { schema: SCHEMA, authorizeDispatch: isGranted })) {
  return new TurnRecovery({
    capabilities: FULL_CAPABILITIES,
    // The claim's authorization is the host's own check, as the fake's is: in memory here, so only the store is timed.
    authorize: (request) => request.caller === CALLER,
    store,
  });
}

async function isGranted(query, request) {
  const { rows } = await query.query(`SELECT 1 FROM "${SCHEMA}".bench_grants WHERE conversation_id = $1 AND caller = $2`, [
    request.conversationId,
    request.caller,
  ]);
  return rows.length === 1;
}

/** The fake store's `TurnRecovery`, one database for every turn of a run, as the store's is. */
function fakeRecovery() {
  const store = createFakeTurnStore(createFakeDatabase({ seed: 1 }));
  store.grant(CONVERSATION, CALLER);
  return new TurnRecovery(store.adapter());
}

const execute = (run) => `done ${run.effectId}`;

/** Claims, admits and completes every effect of a started turn at once. Resolves to the effects completed. */
async function dispatchAll(recovery, turn, effectIds) {
  const outcomes = await Promise.all(
    effectIds.map(async (effectId) => {
      const claimed = await recovery.claimEffect({ ...turn, effectId });
      if (claimed.outcome !== 'claimed') return claimed;
      return recovery.dispatchEffect({ caller: CALLER, claim: claimed.claim, execute });
    }),
  );
  return outcomes.filter((outcome) => outcome.ok && outcome.outcome === 'completed' && !outcome.reused).length;
}

const turnOf = (turnId) => ({ caller: CALLER, conversationId: CONVERSATION, turnId });
const effectIdsOf = (count) => Array.from({ length: count }, (_, index) => `call_${index}`);

/** Starts a turn of `count` effects; throws if the start is refused (a broken benchmark). */
async function startTurn(recovery, turnId, count) {
  const started = await recovery.startTurn({ ...turnOf(turnId), effectIds: effectIdsOf(count) });
  if (!started.ok) throw new Error(`postgres bench: startTurn ${turnId}: ${started.code} ${started.message}`);
}

/** One turn: started, then its `count` effects claimed, admitted and completed at once. Resolves to the effects completed. */
async function runTurn(recovery, turnId, count) {
  await startTurn(recovery, turnId, count);
  return dispatchAll(recovery, turnOf(turnId), effectIdsOf(count));
}

let turnCounter = 0;
const nextTurnId = (label) => {
  turnCounter += 1;
  return `turn_${label}_${process.pid}_${turnCounter}`;
};

/** Counts every statement sent: on the database and on each session's connection. */
function countingDatabase(database, counts) {
  const counted = (queryable) => ({
    query: (text, values) => {
      counts.statements += 1;
      return queryable.query(text, values);
    },
  });
  return {
    ...counted(database),
    session: (work) => database.session((connection) => work(counted(connection))),
    listen: (channel, onNotification, onLost) => database.listen(channel, onNotification, onLost),
  };
}

/** Counts the store operations `TurnRecovery` calls. */
function countingStore(store, counts) {
  return {
    read: (turnId) => {
      counts.operations += 1;
      return store.read(turnId);
    },
    compareAndSwap: (request) => {
      counts.operations += 1;
      counts.compareAndSwap += 1;
      return store.compareAndSwap(request);
    },
    admitDispatch: (request, launch) => {
      counts.operations += 1;
      return store.admitDispatch(request, launch);
    },
  };
}

/** Store operations and SQL statements per effect at each concurrency, one turn each, start not counted. */
async function countRoundTrips(database) {
  const counts = { operations: 0, compareAndSwap: 0, statements: 0 };
  const counting = countingDatabase(database, counts);
  const store = countingStore(createPostgresTurnStore(counting, { schema: SCHEMA, authorizeDispatch: isGranted }), counts);
  const recovery = postgresRecovery(counting, store);
  const perEffect = {};
  for (const count of CONCURRENCY) {
    const turnId = nextTurnId('count');
    await startTurn(recovery, turnId, count);
    Object.assign(counts, { operations: 0, compareAndSwap: 0, statements: 0 });
    const completed = await dispatchAll(recovery, turnOf(turnId), effectIdsOf(count));
    if (completed !== count) throw new Error(`postgres bench: ${completed} of ${count} effects completed`);
    perEffect[count] = {
      operations: counts.operations / count,
      compareAndSwap: counts.compareAndSwap / count,
      statements: counts.statements / count,
    };
  }
  return perEffect;
}

/** Effects per second: turns of `count` effects one after another, for at least the set time. */
async function effectsPerSecond(recovery, label, count) {
  await runTurn(recovery, nextTurnId(label), count); // warm-up
  let effects = 0;
  let turns = 0;
  const started = performance.now();
  while (turns < 3 || performance.now() - started < SETTINGS.throughputMilliseconds) {
    const completed = await runTurn(recovery, nextTurnId(label), count);
    if (completed !== count) throw new Error(`postgres bench (${label}): ${completed} of ${count} effects completed`);
    effects += completed;
    turns += 1;
  }
  return { rate: (effects * 1000) / (performance.now() - started), turns };
}

/** Every given turn at once in this process: effects per second. */
async function concurrentTurns(recovery, turnIds, count) {
  const started = performance.now();
  const completed = (await Promise.all(turnIds.map((turnId) => runTurn(recovery, turnId, count)))).reduce((sum, value) => sum + value, 0);
  if (completed !== turnIds.length * count) throw new Error(`postgres bench: ${completed} of ${turnIds.length * count} effects completed`);
  return (completed * 1000) / (performance.now() - started);
}

/** A child process of this file; resolves once it said `ready`. */
function startWorker(job) {
  const child = fork(THIS_FILE, [WORKER_FLAG, JSON.stringify(job)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const messages = [];
  const waiters = [];
  child.on('message', (message) => {
    const waiter = waiters.findIndex((entry) => entry.type === message.type);
    if (waiter >= 0) waiters.splice(waiter, 1)[0].resolve(message);
    else messages.push(message);
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const next = (type) =>
    new Promise((resolve, reject) => {
      const queued = messages.findIndex((message) => message.type === type);
      if (queued >= 0) return resolve(messages.splice(queued, 1)[0]);
      waiters.push({ type, resolve });
      exited.then((code) => reject(new Error(`postgres bench: a ${job.role} worker exited (${code}) before "${type}"`)));
    });
  return { child, next, exited };
}

/** `SETTINGS.processes` processes, each its own pool and TurnRecovery, each taking its share of the turns at once. */
async function multiProcess(url) {
  const { processes, processTurns, processEffectsPerTurn } = SETTINGS;
  const workers = Array.from({ length: processes }, (_, index) =>
    startWorker({
      role: 'recovery',
      url,
      poolSize: SETTINGS.poolSize,
      turnIds: Array.from({ length: processTurns / processes }, (_, turn) => `turn_process_${index}_${turn}`),
      count: processEffectsPerTurn,
    }),
  );
  try {
    await Promise.all(workers.map((worker) => worker.next('ready')));
    for (const worker of workers) worker.child.send({ type: 'go' });
    const done = await Promise.all(workers.map((worker) => worker.next('done')));
    const effects = done.reduce((sum, message) => sum + message.completed, 0);
    if (effects !== processTurns * processEffectsPerTurn) throw new Error(`postgres bench: ${effects} effects completed across processes`);
    const seconds = (Math.max(...done.map((message) => message.finished)) - Math.min(...done.map((message) => message.started))) / 1000;
    return effects / seconds;
  } finally {
    for (const worker of workers) if (worker.child.exitCode === null) worker.child.kill();
    await Promise.all(workers.map((worker) => worker.exited));
  }
}

const envelopeOf = (turnId, seq, text) => ({
  schemaVersion: 1,
  conversationId: CONVERSATION,
  turnId,
  eventId: `${turnId}_event_${seq}`,
  seq,
  occurredAt: new Date().toISOString(),
  event: { type: 'delta', text },
});

/** Sequential appends to one turn's log for the set time: appends per second. */
async function appendsPerSecond(log, label) {
  const turnId = nextTurnId(label);
  let seq = 0;
  const started = performance.now();
  while (seq < 50 || performance.now() - started < SETTINGS.appendMilliseconds) {
    seq += 1;
    const result = await log.append(envelopeOf(turnId, seq, `a delta of some forty characters, ${seq}`));
    if (!result.ok || result.outcome !== 'appended') throw new Error(`postgres bench: append ${seq}: ${JSON.stringify(result)}`);
  }
  return (seq * 1000) / (performance.now() - started);
}

/** `SETTINGS.parallelTurns` turns appended to at once, each sequentially: total appends per second. */
async function parallelAppendsPerSecond(log, label) {
  const rates = await Promise.all(Array.from({ length: SETTINGS.parallelTurns }, () => appendsPerSecond(log, label)));
  return rates.reduce((sum, rate) => sum + rate, 0);
}

const percentile = (sorted, fraction) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];

/** Latency from just before `append` to the subscriber's callback, for every frame: p50, p99, max in ms. */
function latencySummary(sentAt, receivedAt) {
  const latencies = [...receivedAt.entries()].map(([seq, at]) => at - sentAt.get(seq)).sort((left, right) => left - right);
  if (latencies.length !== sentAt.size)
    throw new Error(`postgres bench: ${latencies.length} of ${sentAt.size} frames reached the subscriber`);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: latencies.at(-1), frames: latencies.length };
}

async function appendFrames(log, turnId, sentAt) {
  for (let seq = 1; seq <= SETTINGS.latencyFrames; seq += 1) {
    const envelope = envelopeOf(turnId, seq, `frame ${seq}`);
    sentAt.set(seq, now());
    const result = await log.append(envelope);
    if (!result.ok) throw new Error(`postgres bench: append ${seq}: ${JSON.stringify(result)}`);
  }
}

/** Appends here, subscribes in a child process with its own pool. */
async function crossProcessLatency(log, url) {
  const turnId = nextTurnId('latency');
  const worker = startWorker({ role: 'subscriber', url, turnId, frames: SETTINGS.latencyFrames });
  try {
    await worker.next('ready');
    const sentAt = new Map();
    await appendFrames(log, turnId, sentAt);
    const { received } = await worker.next('done');
    return latencySummary(sentAt, new Map(received));
  } finally {
    if (worker.child.exitCode === null) worker.child.kill();
    await worker.exited;
  }
}

/** PGlite is one process: appends and subscription in the same one. */
async function inProcessLatency(log) {
  const turnId = nextTurnId('latency');
  const receivedAt = new Map();
  const unsubscribe = await log.subscribe({ conversationId: CONVERSATION, turnId, after: 0 }, (envelope) =>
    receivedAt.set(envelope.seq, now()),
  );
  const sentAt = new Map();
  await appendFrames(log, turnId, sentAt);
  const deadline = performance.now() + 10_000;
  while (receivedAt.size < sentAt.size && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  unsubscribe();
  return latencySummary(sentAt, receivedAt);
}

/** PGlite on new data directories (create, then migrate) and reopened (close, create on the same directory, first query). */
async function pgliteStartTimes(directories, median) {
  const cold = [];
  const reopen = [];
  for (let index = 0; index < SETTINGS.coldStarts; index += 1) {
    const directory = mkdtempSync(join(tmpdir(), 'chat-protocol-bench-pglite-'));
    directories.push(directory);
    let started = performance.now();
    let db = await PGlite.create(directory);
    const migrated = await migrateChatStore(pgliteDatabase(db), { schema: SCHEMA });
    if (!migrated.ok) throw new Error(`postgres bench: migration failed: ${migrated.message}`);
    cold.push(performance.now() - started);
    for (let round = 0; round < SETTINGS.reopensPerDirectory; round += 1) {
      await db.close();
      started = performance.now();
      db = await PGlite.create(directory);
      await db.query(`SELECT count(*) FROM "${SCHEMA}".turns`);
      reopen.push(performance.now() - started);
    }
    await db.close();
  }
  return { coldMedian: median(cold), cold, reopenMedian: median(reopen), reopen };
}

/**
 * The floor under the event log's group commit (issue 28): the same batching policy (one batch in flight, the next
 * formed from whatever waited) writing each batch as one raw multi-row INSERT and one NOTIFY per turn, with none of the
 * log's checks, heads or refusals. What the database costs for the same batches.
 */
function rawMultiRowAppender(pool) {
  let queue = [];
  let draining = false;
  const text = `WITH inserted AS (
      INSERT INTO bench_floor (turn_id, seq, envelope)
      SELECT frame.turn_id, frame.seq, frame.envelope FROM jsonb_to_recordset($1::jsonb) AS frame(turn_id text, seq integer, envelope jsonb)
      RETURNING 1
    )
    SELECT pg_notify('bench_floor', cursor) FROM jsonb_array_elements_text($2::jsonb) AS cursor, (SELECT count(*) FROM inserted) AS written`;
  const drain = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      const lastOfTurn = new Map(batch.map(({ envelope }) => [envelope.turnId, envelope.seq]));
      try {
        await pool.query({
          name: 'bench_floor_append',
          text,
          values: [
            JSON.stringify(batch.map(({ envelope }) => ({ turn_id: envelope.turnId, seq: envelope.seq, envelope }))),
            JSON.stringify([...lastOfTurn].map((cursor) => JSON.stringify(cursor))),
          ],
        });
        for (const { resolve } of batch) resolve({ ok: true, outcome: 'appended' });
      } catch (error) {
        for (const { resolve } of batch) resolve({ ok: false, code: String(error) });
      }
    }
    draining = false;
  };
  return {
    append: (envelope) =>
      new Promise((resolve) => {
        queue.push({ envelope, resolve });
        if (draining) return;
        draining = true;
        queueMicrotask(() => void drain());
      }),
  };
}

/** `writers` turns appended to at once, each awaiting its appends one by one, for the set time: total appends per second. */
async function writersPerSecond(log, label, writers) {
  const rates = await Promise.all(Array.from({ length: writers }, () => appendsPerSecond(log, label)));
  return rates.reduce((sum, rate) => sum + rate, 0);
}

/** One turn's frames pipelined: up to `SETTINGS.pipelineDepth` appends in flight, none awaited before the next is sent. */
async function pipelinedPerSecond(log, label) {
  const turnId = nextTurnId(label);
  let seq = 0;
  let failure;
  const inFlight = new Set();
  const started = performance.now();
  while (failure === undefined && (seq < 1_000 || performance.now() - started < SETTINGS.appendMilliseconds)) {
    while (inFlight.size < SETTINGS.pipelineDepth) {
      seq += 1;
      const sent = seq;
      const pending = log.append(envelopeOf(turnId, sent, `a delta of some forty characters, ${sent}`)).then((result) => {
        inFlight.delete(pending);
        if (!result.ok || result.outcome !== 'appended') failure ??= `append ${sent}: ${JSON.stringify(result)}`;
      });
      inFlight.add(pending);
    }
    await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw new Error(`postgres bench: ${failure}`);
  return (seq * 1000) / (performance.now() - started);
}

/**
 * The group commit's figures on the real server, fsync off and on (`ALTER SYSTEM`, reloaded): 8 writers on 8 turns and
 * one turn pipelined, through `createPostgresEventLog` and through the raw multi-row floor, each on a pool of its own.
 */
async function measureGroupCommit(url) {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  const pools = [];
  try {
    await prepare(pgDatabase(admin));
    await admin.query(
      'CREATE TABLE IF NOT EXISTS bench_floor (turn_id text NOT NULL, seq integer NOT NULL, envelope jsonb NOT NULL, PRIMARY KEY (turn_id, seq))',
    );
    const figures = {};
    for (const fsync of ['off', 'on']) {
      await admin.query(`ALTER SYSTEM SET fsync = ${fsync}`);
      await admin.query('SELECT pg_reload_conf()');
      // The reload reaches every backend at its next command; new pools start after it.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const logPool = new pg.Pool({ connectionString: url, max: SETTINGS.poolSize });
      const floorPool = new pg.Pool({ connectionString: url, max: SETTINGS.poolSize });
      pools.push(logPool, floorPool);
      const shown = (await logPool.query('SHOW fsync')).rows[0].fsync;
      if (shown !== fsync) throw new Error(`postgres bench: fsync is ${shown}, not ${fsync}`);
      const log = createPostgresEventLog(pgDatabase(logPool), { schema: SCHEMA });
      const floor = rawMultiRowAppender(floorPool);
      const row = {
        log: await writersPerSecond(log, `group_${fsync}`, SETTINGS.groupWriters),
        floor: await writersPerSecond(floor, `floor_${fsync}`, SETTINGS.groupWriters),
        logPipelined: await pipelinedPerSecond(log, `pipelined_${fsync}`),
        floorPipelined: await pipelinedPerSecond(floor, `floor_pipelined_${fsync}`),
      };
      figures[fsync] = row;
      progress(
        `group commit, fsync ${fsync}: ${SETTINGS.groupWriters} writers ${Math.round(row.log)}/s (floor ${Math.round(row.floor)}/s), one turn pipelined ${Math.round(row.logPipelined)}/s (floor ${Math.round(row.floorPipelined)}/s)`,
      );
    }
    return figures;
  } finally {
    await admin.query('ALTER SYSTEM RESET fsync').catch(() => undefined);
    await admin.query('SELECT pg_reload_conf()').catch(() => undefined);
    for (const pool of pools) await pool.end().catch(() => undefined);
    await admin.end();
  }
}

/** The group commit's RESULTS.md table. */
function groupCommitSection(figures) {
  const rows = Object.entries(figures).map(([fsync, row]) => ({
    fsync,
    log: rate(row.log),
    floor: rate(row.floor),
    logPipelined: rate(row.logPipelined),
    floorPipelined: rate(row.floorPipelined),
  }));
  return `${markdownTable(
    {
      fsync: 'fsync',
      log: `\`createPostgresEventLog\`, ${SETTINGS.groupWriters} writers (appends/s)`,
      floor: `raw multi-row INSERT + NOTIFY, ${SETTINGS.groupWriters} writers`,
      logPipelined: `\`createPostgresEventLog\`, one turn pipelined (${SETTINGS.pipelineDepth} in flight)`,
      floorPipelined: 'raw multi-row INSERT + NOTIFY, one turn pipelined',
    },
    rows,
  )}
- Group commit (issue 28; goals 10,000/s for ${SETTINGS.groupWriters} writers with fsync off, 3,000/s with fsync on, 10,000/s
  for one turn pipelined): ${SETTINGS.groupWriters} writers each append deltas to their own turn, awaiting each append, for
  ${SETTINGS.appendMilliseconds / 1000} s; "pipelined" keeps ${SETTINGS.pipelineDepth} appends of one turn in flight. The floor
  batches the same way but writes each batch as one raw multi-row INSERT and one NOTIFY per turn, with no checks.
`;
}

/** What one backend measures besides cross-process figures. */
async function measureBackend(label, database) {
  await prepare(database);
  progress(`${label}: round trips`);
  const roundTrips = await countRoundTrips(database);
  const recovery = postgresRecovery(database);
  const throughput = {};
  for (const count of CONCURRENCY) {
    throughput[count] = await effectsPerSecond(recovery, label, count);
    progress(`${label}: ${count} concurrent effects per turn, ${Math.round(throughput[count].rate)} effects/s`);
  }
  const eventLog = createPostgresEventLog(database, { schema: SCHEMA });
  const appends = await appendsPerSecond(eventLog, `${label}_append`);
  const parallelAppends = await parallelAppendsPerSecond(eventLog, `${label}_parallel`);
  progress(`${label}: ${Math.round(appends)} appends/s to one turn, ${Math.round(parallelAppends)} over ${SETTINGS.parallelTurns} turns`);
  return { roundTrips, throughput, appends, parallelAppends, log: eventLog, recovery };
}

/**
 * Runs the whole store benchmark and returns its figures. The server and
 * every PGlite directory are removed in a `finally`, even when a step fails.
 */
export async function measurePostgresStores({ median }) {
  const loadAtStart = loadavg()[0];
  const startedAt = performance.now();
  const directories = [];
  let cluster;
  let pool;
  const pglites = [];
  try {
    progress('PGlite cold start and reopen');
    const starts = await pgliteStartTimes(directories, median);
    progress(`PGlite: cold start ${Math.round(starts.coldMedian)} ms, reopen ${Math.round(starts.reopenMedian)} ms (medians)`);

    progress('fake store (testkit)');
    const fake = {};
    const fakeRecoveryInstance = fakeRecovery();
    for (const count of CONCURRENCY) fake[count] = await effectsPerSecond(fakeRecoveryInstance, 'fake', count);

    progress('starting a throwaway Postgres server');
    cluster = await startPostgresCluster();
    pool = new pg.Pool({ connectionString: cluster.url, max: SETTINGS.poolSize });
    const server = await measureBackend('postgres', pgDatabase(pool));
    progress(`postgres: ${SETTINGS.processes} processes on ${SETTINGS.processTurns} turns`);
    const processTurnIds = Array.from({ length: SETTINGS.processTurns }, () => nextTurnId('one_process'));
    const oneProcess = await concurrentTurns(server.recovery, processTurnIds, SETTINGS.processEffectsPerTurn);
    const processes = await multiProcess(cluster.url);
    const fakeOneProcess = await concurrentTurns(
      fakeRecovery(),
      Array.from({ length: SETTINGS.processTurns }, () => nextTurnId('fake_turns')),
      SETTINGS.processEffectsPerTurn,
    );
    progress(`postgres: ${Math.round(processes)} effects/s in ${SETTINGS.processes} processes, ${Math.round(oneProcess)} in one`);
    progress(`postgres: append → subscribe latency over ${SETTINGS.latencyFrames} frames`);
    const serverLatency = await crossProcessLatency(server.log, cluster.url);
    progress('postgres: group commit, fsync off and on');
    const groupCommit = await measureGroupCommit(cluster.url);

    const memory = await PGlite.create();
    pglites.push(memory);
    const pgliteMemory = await measureBackend('pglite_memory', pgliteDatabase(memory));
    const memoryLatency = await inProcessLatency(pgliteMemory.log);

    const dataDirectory = mkdtempSync(join(tmpdir(), 'chat-protocol-bench-pglite-'));
    directories.push(dataDirectory);
    const onDisk = await PGlite.create(dataDirectory);
    pglites.push(onDisk);
    const pgliteDirectory = await measureBackend('pglite_directory', pgliteDatabase(onDisk));
    const directoryLatency = await inProcessLatency(pgliteDirectory.log);
    progress(`done in ${((performance.now() - startedAt) / 1000).toFixed(1)} s`);
    return {
      loadAtStart,
      cores: cpus().length,
      seconds: (performance.now() - startedAt) / 1000,
      starts,
      fake,
      fakeOneProcess,
      backends: [
        { name: 'Postgres 15 server, `pg` Pool', ...server, latency: { ...serverLatency, where: 'another process (own pool)' } },
        { name: 'PGlite in memory', ...pgliteMemory, latency: { ...memoryLatency, where: 'the same process' } },
        { name: 'PGlite on a data directory', ...pgliteDirectory, latency: { ...directoryLatency, where: 'the same process' } },
      ],
      oneProcess,
      processes,
      groupCommit,
    };
  } finally {
    await pool?.end().catch(() => undefined);
    for (const db of pglites) await db.close().catch(() => undefined);
    await cluster?.destroy();
    for (const directory of directories) rmSync(directory, { recursive: true, force: true });
  }
}

const rate = (value) => `${Math.round(value).toLocaleString('en')}/s`;
const milliseconds = (value) => `${value < 10 ? value.toFixed(2) : Math.round(value).toLocaleString('en')} ms`;

/** The RESULTS.md section of the store benchmark. */
export function postgresSection(results) {
  const { backends, fake, starts } = results;
  const recoveryRows = backends.map((backend) => {
    const trips = backend.roundTrips[1];
    return {
      backend: backend.name,
      operations: `${trips.operations.toFixed(2)} (${trips.compareAndSwap.toFixed(2)} compare-and-swap)`,
      statements: trips.statements.toFixed(1),
      ...Object.fromEntries(CONCURRENCY.map((count) => [`c${count}`, rate(backend.throughput[count].rate)])),
      goal: `≤ ${GOALS.storeOperations} store operations`,
      met: trips.operations <= GOALS.storeOperations ? 'yes' : '**no**',
    };
  });
  recoveryRows.push({
    backend: "testkit's fake store (in memory)",
    operations: '3.00 (see the recovery table)',
    ...Object.fromEntries(CONCURRENCY.map((count) => [`c${count}`, rate(fake[count].rate)])),
  });
  const recoveryTable = markdownTable(
    {
      backend: 'store',
      operations: 'store operations per effect (1 effect)',
      statements: 'SQL statements per effect (1 effect)',
      c1: 'effects/s, 1 effect per turn',
      c8: '8 concurrent effects per turn',
      c64: '64 concurrent effects per turn',
      goal: 'goal',
      met: 'met',
    },
    recoveryRows,
  );
  const concurrencyNote = backends
    .map((backend) =>
      CONCURRENCY.slice(1)
        .map(
          (count) =>
            `${backend.roundTrips[count].operations.toFixed(2)} operations and ${backend.roundTrips[count].statements.toFixed(1)} statements per effect at ${count}`,
        )
        .join(', '),
    )
    .map((text, index) => `${backends[index].name}: ${text}`)
    .join('; ');
  const logTable = markdownTable(
    {
      backend: 'store',
      appends: 'appends/s, one turn, sequential',
      parallel: `appends/s, ${SETTINGS.parallelTurns} turns in parallel (total)`,
      p50: 'append → subscribe p50',
      p99: 'p99',
      max: 'max',
      where: 'subscriber in',
    },
    backends.map((backend) => ({
      backend: backend.name,
      appends: rate(backend.appends),
      parallel: rate(backend.parallelAppends),
      p50: milliseconds(backend.latency.p50),
      p99: milliseconds(backend.latency.p99),
      max: milliseconds(backend.latency.max),
      where: `${backend.latency.where}, ${backend.latency.frames} frames`,
    })),
  );
  const loadNote = results.loadAtStart > results.cores ? ' (more than the cores: expect lower rates)' : '';
  return `## Durable store: Postgres and PGlite (issue 15)

One-minute load average at the start of this section ${results.loadAtStart.toFixed(2)}${loadNote}; it took ${results.seconds.toFixed(1)} s
of wall time (figures here are wall time: the store waits on I/O, so CPU time would hide it).

${recoveryTable}

| processes on the real server | effects/s |
| --- | --- |
| ${SETTINGS.processes} processes, each its own pool (${SETTINGS.poolSize}) and \`TurnRecovery\`, ${SETTINGS.processTurns / SETTINGS.processes} turns each | ${rate(results.processes)} |
| 1 process, the same ${SETTINGS.processTurns} turns at once, one pool (${SETTINGS.poolSize}) | ${rate(results.oneProcess)} |
| the fake store, the same ${SETTINGS.processTurns} turns at once in one process | ${rate(results.fakeOneProcess)} |

${logTable}

| PGlite start | median | every sample |
| --- | --- | --- |
| cold: \`PGlite.create(newDirectory)\`, then \`migrateChatStore\` | ${milliseconds(starts.coldMedian)} | ${starts.cold.map(milliseconds).join(', ')} |
| reopen: \`close()\`, \`PGlite.create(sameDirectory)\`, first query | ${milliseconds(starts.reopenMedian)} | ${starts.reopen.map(milliseconds).join(', ')} |

- Effects through \`TurnRecovery\` with \`createPostgresTurnStore\`: each turn is started, then its effects are claimed,
  admitted and completed at once (\`Promise.all\`), the execution returning at once; turns run one after another for
  at least ${SETTINGS.throughputMilliseconds / 1000} s per cell (after one warm-up turn), every turn a new one in the same schema, and the
  start of each turn is inside the time. The fake store runs the same loop in the same run (one fake database for
  all its turns). Authority at admission is a grants table in the same database, read through the admission's own
  handle (one statement of the admission); the claim's authorization is an in-memory check in both.
- Store operations are the \`read\`, \`compareAndSwap\` and \`admitDispatch\` calls \`TurnRecovery\` made for one effect
  (claim, admit, complete; the start not counted); SQL statements are every \`query\` on the \`ChatDatabase\` and on
  its sessions' connections (\`BEGIN\`, the advisory lock, reads, writes, \`COMMIT\`, the unlock). PGlite's adapter adds
  a \`COMMIT\`/\`BEGIN\` pair of its own around each session, not counted. With more effects per turn: ${concurrencyNote}.
- Processes: ${SETTINGS.processes} child processes, started and connected before the clock starts, each takes its own
  ${SETTINGS.processTurns / SETTINGS.processes} of the ${SETTINGS.processTurns} turns (no race between them; each turn's ${SETTINGS.processEffectsPerTurn} effects are
  dispatched at once, all its turns at once); the rate is all effects over the first start to the last finish
  (\`performance.timeOrigin + performance.now()\` in each process). The one-process rows run the same turns. The
  processes and the server share the machine's ${results.cores} cores: on a small machine more processes add CPU
  contention rather than capacity: the row says what several hosts on one small machine get, not how the store scales.
- Appends: \`createPostgresEventLog().append\` of ${SETTINGS.appendMilliseconds / 1000} s of deltas, each awaited before the next; "in
  parallel" runs ${SETTINGS.parallelTurns} such loops at once on ${SETTINGS.parallelTurns} turns. Latency: from just before \`append\` in one
  process to the \`subscribe\` callback of a subscriber that listened first, ${SETTINGS.latencyFrames} frames appended one after
  another, timestamps from \`performance.timeOrigin + performance.now()\` on both sides (same machine). PGlite is one
  process, so its subscriber is in the appending process.
- PGlite starts: ${SETTINGS.coldStarts} new data directories in a temporary directory (removed after), each reopened
  ${SETTINGS.reopensPerDirectory} times; the first cold start in a process also compiles PGlite's WebAssembly.

${groupCommitSection(results.groupCommit)}`;
}

/** A child process: a recovery worker or a subscriber, driven over IPC. */
async function runWorker(job) {
  const pool = new pg.Pool({ connectionString: job.url, max: job.poolSize ?? 2 });
  const database = pgDatabase(pool);
  try {
    if (job.role === 'recovery') {
      const recovery = postgresRecovery(database);
      await pool.query('SELECT 1');
      const go = new Promise((resolve) => process.once('message', resolve));
      process.send({ type: 'ready' });
      await go;
      const started = now();
      const completed = (await Promise.all(job.turnIds.map((turnId) => runTurn(recovery, turnId, job.count)))).reduce(
        (sum, value) => sum + value,
        0,
      );
      process.send({ type: 'done', started, finished: now(), completed });
    } else {
      const log = createPostgresEventLog(database, { schema: SCHEMA });
      const received = [];
      let finish;
      const finished = new Promise((resolve) => (finish = resolve));
      const unsubscribe = await log.subscribe({ conversationId: CONVERSATION, turnId: job.turnId, after: 0 }, (envelope) => {
        received.push([envelope.seq, now()]);
        if (received.length === job.frames) finish();
      });
      process.send({ type: 'ready' });
      await finished;
      unsubscribe();
      process.send({ type: 'done', received });
    }
  } finally {
    await pool.end();
    process.disconnect();
  }
}

if (process.argv[2] === WORKER_FLAG) {
  await runWorker(JSON.parse(process.argv[3]));
} else if (process.argv[1] === THIS_FILE && process.argv[2] === '--group-commit') {
  // The group commit's figures alone, on a throwaway server.
  const cluster = await startPostgresCluster();
  try {
    console.log(groupCommitSection(await measureGroupCommit(cluster.url)));
  } finally {
    await cluster.destroy();
  }
} else if (process.argv[1] === THIS_FILE) {
  const { median } = await import('./harness.mjs');
  console.log(postgresSection(await measurePostgresStores({ median })));
}
