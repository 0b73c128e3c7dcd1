/**
 * The multi-process chaos run (issue 15, DESIGN §9.4), in `pnpm soak`: four
 * worker processes race claims, dispatches, completions, cancellations,
 * card answers and run leases (renewals, finishes, interruptions: issue 27,
 * §6 rule 12) over 200 turns and 100 cards on a real server, while this
 * controller SIGKILLs random workers at random points and restarts them, and
 * once stops the server with `pg_ctl stop -m immediate` and starts it again.
 * The launch ledger (a file the workers append to, outside the database) is
 * the witness for the invariants checked at the end, after a sweep that
 * interrupts every turn still running: then no turn is running, and each
 * ended once. Seeded: the seed is
 * printed, and `CHAT_PROTOCOL_CHAOS_SEED` replays the controller's choices
 * and each worker's (the interleaving itself is the machine's).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InteractionResolver, type InteractionTransition } from '@papercusp/chat-protocol-interactions';
import { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test-support/postgres-cluster.mjs';
import { createPostgresChatStore, migrateChatStore, pgDatabase, type ChatDatabase } from '../src/index.js';
import {
  chaosCapabilities,
  chaosStoreOptions,
  chaosValidator,
  grantsTable,
  OWNER,
  OWNER_AUTHORITY,
  randomSource,
} from './chaos-shared.mjs';

const SEED = Number(process.env['CHAT_PROTOCOL_CHAOS_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
/** How long the workers race, in milliseconds; the whole test stays under three minutes. */
const CHAOS_MS = 60_000;
const WORKERS = 4;
const TURNS = 200;
const CARDS = 100;
const EFFECTS_PER_TURN = 3;
/**
 * The admission lease and the run lease: short, so the sweep after the run sees every orphan and every dead run
 * past it; far above an execution's 400 ms.
 */
const LEASE_MS = 3_000;
const SCHEMA = 'chaos';
const WORKER_SCRIPT = fileURLToPath(new URL('./chaos-worker.mjs', import.meta.url));

interface LedgerLine {
  readonly type: 'launch' | 'settled' | 'stored' | 'cancelled' | 'interrupted' | 'finished' | 'card-closed' | 'threw';
  readonly worker: number;
  readonly turnId?: string;
  readonly effectId?: string;
  readonly claim?: number;
  readonly result?: string;
  readonly correlationId?: string;
  readonly status?: string;
  readonly value?: unknown;
  readonly message?: string;
  readonly committed?: boolean;
  readonly inFlight?: readonly string[];
}

const chooseCancellable = randomSource(SEED ^ 0x5bd1e995);
const chooseLiveRun = randomSource(SEED ^ 0x27d4eb2f);
const turns = Array.from({ length: TURNS }, (_, index) => ({
  conversationId: `conv_chaos_${index}`,
  turnId: `turn_chaos_${SEED}_${index}`,
  // Each turn is started owned by a run; a live one renews its lease while the window is on it, a dead one never.
  runId: `run_chaos_${SEED}_${index}`,
  effectIds: Array.from({ length: EFFECTS_PER_TURN }, (__, effect) => `call_${effect}`),
  cancellable: chooseCancellable() < 0.5,
  liveRun: chooseLiveRun() < 0.5,
}));
const cards = Array.from({ length: CARDS }, (_, index) => ({
  conversationId: `conv_chaos_${index}`,
  correlationId: `card_chaos_${SEED}_${index}`,
}));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let cluster: PostgresCluster | undefined;
let pool: pg.Pool | undefined;
let directory: string | undefined;
const workers = new Map<number, ChildProcess>();

beforeAll(async () => {
  cluster = await startPostgresCluster();
  pool = new pg.Pool({ connectionString: cluster.url, max: 8, connectionTimeoutMillis: 2_000 });
  directory = mkdtempSync(join(tmpdir(), 'chat-protocol-chaos-'));
}, 120_000);

afterAll(async () => {
  for (const worker of workers.values()) worker.kill('SIGKILL');
  await pool?.end().catch(() => undefined);
  await cluster?.destroy();
  if (directory !== undefined) rmSync(directory, { recursive: true, force: true });
}, 120_000);

/** The controller's own view: a fresh worker's components over its pool. */
function controllerComponents(database: ChatDatabase) {
  const store = createPostgresChatStore(database, chaosStoreOptions(SCHEMA));
  const recovery = new TurnRecovery(
    { capabilities: chaosCapabilities, authorize: () => true, store: store.turnStore },
    { admissionLeaseMs: LEASE_MS, runLeaseMs: LEASE_MS },
  );
  const resolver = new InteractionResolver({ store: store.interactionStore, validate: chaosValidator });
  return { store, recovery, resolver };
}

async function setUp(database: ChatDatabase): Promise<void> {
  const migrated = await migrateChatStore(database, { schema: SCHEMA });
  expect(migrated).toMatchObject({ ok: true });
  await database.query(`CREATE TABLE ${grantsTable(SCHEMA)} (conversation_id text, caller text, PRIMARY KEY (conversation_id, caller))`);
  await database.query(`INSERT INTO ${grantsTable(SCHEMA)} SELECT 'conv_chaos_' || index, $1 FROM generate_series(0, $2) AS index`, [
    OWNER,
    TURNS,
  ]);
  const { recovery, resolver } = controllerComponents(database);
  for (const { conversationId, turnId, runId, effectIds } of turns) {
    expect(await recovery.startTurn({ caller: OWNER, conversationId, turnId, effectIds, runId })).toMatchObject({
      ok: true,
      outcome: 'started',
    });
  }
  const openedAt = new Date().toISOString();
  const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
  for (const card of cards) {
    const opened = await resolver.open({
      caller: OWNER,
      card: {
        correlationId: card.correlationId,
        createdAt: openedAt,
        prompt: 'Refund or replacement?',
        allowDecline: true,
        presentation: {
          kind: 'radio',
          options: [
            { id: 'refund', label: 'Refund' },
            { id: 'replace', label: 'Replacement' },
          ],
        },
      },
      schema: { id: 'refund-choice', revision: 1 },
      expiresAt,
      scope: { conversationId: card.conversationId, ...OWNER_AUTHORITY },
      at: openedAt,
    });
    expect(opened).toMatchObject({ ok: true, outcome: 'opened' });
  }
}

interface Chaos {
  kills: number;
  crashes: string[];
  serverRestarts: number;
}

/** Runs the workers for `CHAOS_MS`, killing and restarting them, and the server once. */
async function runChaos(url: string, ledger: string, random: () => number): Promise<Chaos> {
  const chaos: Chaos = { kills: 0, crashes: [], serverRestarts: 0 };
  let generation = 0;
  const startedAt = Date.now();
  const start = (worker: number): void => {
    generation += 1;
    const config = {
      url,
      schema: SCHEMA,
      seed: SEED + generation * 7_919,
      worker,
      ledger,
      turns,
      cards,
      leaseMs: LEASE_MS,
      startedAt,
      chaosMs: CHAOS_MS,
    };
    const child = spawn(process.execPath, [WORKER_SCRIPT, JSON.stringify(config)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
    child.once('exit', (code, signal) => {
      if (signal !== 'SIGKILL') chaos.crashes.push(`worker ${worker} exited (${code ?? signal}): ${stderr}`);
    });
    workers.set(worker, child);
  };
  for (let worker = 0; worker < WORKERS; worker += 1) start(worker);
  const restartAt = startedAt + CHAOS_MS * (0.2 + random() * 0.4);
  let restarted = false;
  while (Date.now() - startedAt < CHAOS_MS) {
    await sleep(200 + random() * 1_300);
    if (!restarted && Date.now() >= restartAt) {
      restarted = true;
      await cluster?.stop('immediate');
      await sleep(500 + random() * 1_000);
      await cluster?.start();
      chaos.serverRestarts += 1;
      continue;
    }
    const worker = Math.floor(random() * WORKERS);
    workers.get(worker)?.kill('SIGKILL');
    chaos.kills += 1;
    start(worker);
  }
  const exits = [...workers.values()].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of workers.values()) child.kill('SIGKILL');
  await Promise.all(exits);
  workers.clear();
  return chaos;
}

const effectKey = (turnId: string | undefined, effectId: string | undefined): string => `${turnId}/${effectId}`;

describe('multi-process chaos on a real server (issue 15, DESIGN §9.4)', () => {
  it('launches no effect twice or after its turn ended, loses no completion, marks every orphan, closes every card once, ends every turn once and leaves none running', async () => {
    const url = cluster?.url ?? '';
    const database = pgDatabase(pool as pg.Pool);
    const ledgerPath = join(directory ?? tmpdir(), 'launch-ledger.jsonl');
    console.log(`chaos: seed ${SEED} (replay the controller with CHAT_PROTOCOL_CHAOS_SEED=${SEED})`);
    await setUp(database);
    const chaos = await runChaos(url, ledgerPath, randomSource(SEED));
    const ledger: LedgerLine[] = readFileSync(ledgerPath, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as LedgerLine);

    // Every worker is gone: past the lease, every admission without a result is an orphan.
    await sleep(LEASE_MS + 500);
    const { store, recovery, resolver } = controllerComponents(database);
    const violations: string[] = [...chaos.crashes];
    for (const line of ledger) if (line.type === 'threw') violations.push(`worker ${line.worker} threw: ${line.message}`);

    // No effect launched twice, and none after its turn ended: a cancellation, an interruption or its run's finish
    // committed (the ledger's order is real time). A launch before the committing cancellation's or interruption's
    // line either ended before it (a `settled` line) or was in flight when it committed, so that write saw its
    // admission: one it did not see was launched after. (A finish lets what is in flight run on.)
    const launches = new Map<string, number>();
    const endedTurns = new Map<string, Set<LedgerLine['type']>>();
    const launchedOpen = new Map<string, Set<string>>();
    const ends = new Set<LedgerLine['type']>(['cancelled', 'interrupted', 'finished']);
    for (const line of ledger) {
      const key = effectKey(line.turnId, line.effectId);
      if (line.type === 'settled') launchedOpen.get(line.turnId ?? '')?.delete(key);
      if (ends.has(line.type) && line.turnId !== undefined) {
        const kinds = endedTurns.get(line.turnId) ?? new Set<LedgerLine['type']>();
        endedTurns.set(line.turnId, kinds);
        // Every such line follows the commit of some end; only the committing one names which.
        if (line.committed !== true) continue;
        kinds.add(line.type);
        if (kinds.size > 1) violations.push(`${line.turnId} ended twice: ${[...kinds].join(' and ')} both committed`);
        if (line.type === 'finished') continue;
        for (const open of launchedOpen.get(line.turnId) ?? []) {
          if (!(line.inFlight ?? []).some((effectId) => effectKey(line.turnId, effectId) === open)) {
            violations.push(
              `${open} was running when its turn was ${line.type}, a write that did not see its admission: launched after it`,
            );
          }
        }
      }
      if (line.type !== 'launch' || line.turnId === undefined) continue;
      launches.set(key, (launches.get(key) ?? 0) + 1);
      if (launches.get(key) === 2) violations.push(`${key} launched twice`);
      if (endedTurns.has(line.turnId)) violations.push(`${key} launched after its turn ended`);
      launchedOpen.set(line.turnId, (launchedOpen.get(line.turnId) ?? new Set<string>()).add(key));
    }

    let orphans = 0;
    let completed = 0;
    let reconciliation = 0;
    const launchedKeys = new Set(launches.keys());
    for (const turn of turns) {
      const stored = await store.turnStore.read(turn.turnId);
      if (stored === null) {
        violations.push(`${turn.turnId} is gone`);
        continue;
      }
      for (const effect of stored.record.effects) {
        const key = effectKey(turn.turnId, effect.effectId);
        const admission = stored.admissions.find((candidate) => candidate.effectId === effect.effectId);
        // A launch is the store's word that the admission was durable first.
        if (launchedKeys.has(key) && admission === undefined) violations.push(`${key} launched without a durable admission`);
        if (effect.status === 'completed') completed += 1;
        if (effect.status !== 'open' || admission === undefined) continue;
        orphans += 1;
        if (stored.record.status === 'running') {
          const claimed = await recovery.claimEffect({
            caller: OWNER,
            conversationId: turn.conversationId,
            turnId: turn.turnId,
            effectId: effect.effectId,
          });
          if (!(claimed.ok && claimed.outcome === 'needs-reconciliation' && claimed.reason === 'admission-expired')) {
            violations.push(`orphan ${key} was not marked needs-reconciliation: ${JSON.stringify(claimed)}`);
          }
        }
      }
      const inspected = await recovery.inspectTurn({ caller: OWNER, conversationId: turn.conversationId, turnId: turn.turnId });
      if (!inspected.ok) {
        violations.push(`inspect ${turn.turnId}: ${inspected.code}`);
        continue;
      }
      for (const effect of inspected.value.effects) {
        if (effect.state === 'in-flight') violations.push(`${effectKey(turn.turnId, effect.effectId)} is in flight with every worker gone`);
        if (effect.state === 'needs-reconciliation') reconciliation += 1;
        // A cancelled turn's orphan stays uncertain (no claim may mark it); a running turn's was marked above.
        if (effect.state === 'uncertain' && inspected.value.status === 'running') {
          violations.push(`${effectKey(turn.turnId, effect.effectId)} is still uncertain after the sweep`);
        }
      }
    }

    // The sweeper's pass (§11.2): with every worker gone, each turn still running is past its run lease. It lists
    // them in pages and interrupts each; then no turn is running, and each ended as the write that committed says.
    let swept = 0;
    let afterTurnId: string | undefined;
    for (;;) {
      const page = await store.turnStore.listRunningTurns?.(afterTurnId === undefined ? { limit: 50 } : { afterTurnId, limit: 50 });
      if (page === undefined || page.length === 0) break;
      for (const { record } of page) {
        afterTurnId = record.turnId;
        const interrupted = await recovery.interruptTurn({ caller: OWNER, conversationId: record.conversationId, turnId: record.turnId });
        if (interrupted.ok) swept += 1;
        else violations.push(`the sweep could not interrupt ${record.turnId}: ${JSON.stringify(interrupted)}`);
      }
    }
    const finalStatuses = new Map<string, number>();
    const endStatus: Partial<Record<LedgerLine['type'], string>> = {
      cancelled: 'cancelled',
      interrupted: 'interrupted',
      finished: 'completed',
    };
    for (const turn of turns) {
      const status = (await store.turnStore.read(turn.turnId))?.record.status ?? 'gone';
      finalStatuses.set(status, (finalStatuses.get(status) ?? 0) + 1);
      if (status === 'running') violations.push(`${turn.turnId} is still running after the sweep`);
      const [committed, ...others] = endedTurns.get(turn.turnId) ?? [];
      if (committed !== undefined && others.length === 0 && endStatus[committed] !== status)
        violations.push(`${turn.turnId}: a worker committed its ${committed}, the store holds it ${status}`);
    }
    if (((await store.turnStore.listRunningTurns?.({ limit: 50 })) ?? []).length > 0)
      violations.push('the store still lists running turns after the sweep');

    // No completion lost: every result a worker was told is stored is stored.
    const after = new Map<string, unknown>();
    for (const turn of turns) {
      const stored = await store.turnStore.read(turn.turnId);
      for (const effect of stored?.record.effects ?? [])
        if (effect.status === 'completed') after.set(effectKey(turn.turnId, effect.effectId), effect.result);
    }
    for (const line of ledger) {
      if (line.type !== 'stored') continue;
      const key = effectKey(line.turnId, line.effectId);
      if (after.get(key) !== line.result)
        violations.push(`the completion of ${key} (${line.result}) was lost: stored ${JSON.stringify(after.get(key))}`);
    }

    // Every card ends with exactly one terminal record and one closing transition.
    const closedByWorkers = new Map<string, LedgerLine>();
    for (const line of ledger) {
      if (line.type !== 'card-closed' || line.correlationId === undefined) continue;
      if (closedByWorkers.has(line.correlationId)) violations.push(`${line.correlationId} was closed twice`);
      closedByWorkers.set(line.correlationId, line);
    }
    const statuses = new Map<string, number>();
    for (const card of cards) {
      const read = await resolver.read({ caller: OWNER, ...card, at: new Date().toISOString() });
      if (read.ok && read.record.status === 'pending') await resolver.cancel({ caller: OWNER, ...card, at: new Date().toISOString() });
      const final = await resolver.read({ caller: OWNER, ...card, at: new Date().toISOString() });
      if (!final.ok || final.record.status === 'pending') {
        violations.push(`${card.correlationId} has no terminal record: ${JSON.stringify(final)}`);
        continue;
      }
      statuses.set(final.record.status, (statuses.get(final.record.status) ?? 0) + 1);
      const byWorker = closedByWorkers.get(card.correlationId);
      if (
        byWorker !== undefined &&
        (byWorker.status !== final.record.status || JSON.stringify(byWorker.value) !== JSON.stringify(final.record.value ?? null))
      ) {
        violations.push(`${card.correlationId}: a worker was told ${byWorker.status}, the store holds ${final.record.status}`);
      }
      const { rows } = await database.query<{ transition: InteractionTransition }>(
        `SELECT transition FROM "${SCHEMA}".interaction_outbox WHERE conversation_id = $1 AND correlation_id = $2 ORDER BY revision`,
        [card.conversationId, card.correlationId],
      );
      const types = rows.map((row) => row.transition.type);
      if (types.join() !== 'interaction-opened,interaction-closed') violations.push(`${card.correlationId} outbox: ${types.join()}`);
    }

    const count = (type: LedgerLine['type']): number => ledger.filter((line) => line.type === type).length;
    console.log(
      [
        `chaos: seed ${SEED}, ${WORKERS} workers, ${TURNS} turns × ${EFFECTS_PER_TURN} effects, ${CARDS} cards, ${CHAOS_MS / 1_000} s`,
        `  ${chaos.kills} workers SIGKILLed and restarted, ${chaos.serverRestarts} server stop -m immediate and start`,
        `  ${count('launch')} launches, ${count('stored')} completions reported stored, ${completed} effects completed`,
        `  turns at the end: ${[...finalStatuses].map(([status, number]) => `${number} ${status}`).join(', ')} (${swept} interrupted by the sweep)`,
        `  ${orphans} orphaned admissions, ${reconciliation} effects needs-reconciliation`,
        `  cards: ${[...statuses].map(([status, number]) => `${number} ${status}`).join(', ')}`,
        `  ${violations.length} violations`,
      ].join('\n'),
    );
    expect(violations).toEqual([]);
    expect(count('launch')).toBeGreaterThan(TURNS);
    expect(chaos.serverRestarts).toBe(1);
  }, 180_000);
});
