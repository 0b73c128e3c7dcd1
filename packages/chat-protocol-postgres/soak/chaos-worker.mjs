// @ts-check
/**
 * One worker process of the chaos run (`chaos.test.ts`): it races claims,
 * dispatches, completions, cancellations, card answers and the run leases
 * (renewals by a turn's live run, its finish, interruptions past the lease)
 * on the shared server until it is killed, and appends what it did to the launch ledger, a
 * file outside the database that the controller reads as the witness. A
 * ledger line is written with one `appendFileSync` (an `O_APPEND` write), so
 * lines from all workers interleave whole and in the order they happened. A
 * launch is written inside `execute`, before its first `await`: while the
 * store still holds the turn's fence.
 *
 * The workers race on a window of turns and cards that moves from the first
 * to the last over the run (`startedAt`, `chaosMs`), so every turn is raced
 * by all of them at some point, with kills and the server's restart landing
 * on turns in every state.
 *
 * Configuration is one JSON argument: { url, schema, seed, worker, ledger, turns, cards, leaseMs, startedAt, chaosMs }.
 */
import { appendFileSync } from 'node:fs';
import { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import pg from 'pg';
import { createPostgresChatStore, pgDatabase } from '@papercusp/chat-protocol-postgres';
import { chaosCapabilities, chaosStoreOptions, chaosValidator, OWNER, randomSource } from './chaos-shared.mjs';

const config = JSON.parse(process.argv[2] ?? '{}');
const random = randomSource(config.seed);
/**
 * @template Item
 * @param {readonly Item[]} items
 * @returns {Item}
 */
const pick = (items) => /** @type {Item} */ (items[Math.floor(random() * items.length)]);

/** @param {Record<string, unknown>} entry */
const ledger = (entry) => appendFileSync(config.ledger, `${JSON.stringify({ ...entry, worker: config.worker })}\n`);

const pool = new pg.Pool({ connectionString: config.url, max: 4, connectionTimeoutMillis: 2_000, statement_timeout: 10_000 });
const database = pgDatabase(pool);
const store = createPostgresChatStore(database, chaosStoreOptions(config.schema));
/** @type {Map<string, AbortController>} the executions this process launched and that are still running */
const running = new Map();
const recovery = new TurnRecovery(
  {
    capabilities: chaosCapabilities,
    authorize: () => true,
    store: store.turnStore,
    abort: ({ turnId, effectIds }) => {
      for (const effectId of effectIds) running.get(`${turnId}/${effectId}`)?.abort();
    },
  },
  { admissionLeaseMs: config.leaseMs, runLeaseMs: config.leaseMs },
);
const resolver = new InteractionResolver({ store: store.interactionStore, validate: chaosValidator });
/** @type {{ turn: { conversationId: string, turnId: string }, effectId: string, result: string }[]} results this process must still store */
const unstored = [];

/** How many turns (or cards) on each side of the window's centre are hot. */
const WINDOW = 2;

/**
 * An item of the hot window: where the run is now, give or take `WINDOW`.
 * @template Item
 * @param {readonly Item[]} items
 * @returns {Item}
 */
function hot(items) {
  const progress = Math.min(Math.max((Date.now() - config.startedAt) / config.chaosMs, 0), 1);
  const centre = Math.round(progress * (items.length - 1));
  const index = Math.min(Math.max(centre + Math.floor(random() * (2 * WINDOW + 1)) - WINDOW, 0), items.length - 1);
  return /** @type {Item} */ (items[index]);
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @typedef {{ conversationId: string, turnId: string, runId: string, effectIds: string[], cancellable: boolean, liveRun: boolean }} ChaosTurn */

/** @param {ChaosTurn} turn @param {string} effectId */
async function claimAndDispatch(turn, effectId) {
  const key = { caller: OWNER, conversationId: turn.conversationId, turnId: turn.turnId };
  const claimed = await recovery.claimEffect({ ...key, effectId });
  // Settled without a result (marked by this claim or before it): the line follows the mark's commit.
  if (claimed.ok && claimed.outcome === 'needs-reconciliation') ledger({ type: 'settled', turnId: turn.turnId, effectId });
  if (!claimed.ok || claimed.outcome !== 'claimed') return;
  // Sometimes a cancellation races this very admission, on another connection of the pool.
  const racingCancel = turn.cancellable && random() < 0.15 ? sleep(Math.floor(random() * 5)).then(() => cancel(turn)) : undefined;
  const dispatched = await recovery.dispatchEffect({
    caller: OWNER,
    claim: claimed.claim,
    execute: (execution) => {
      const id = `${execution.turnId}/${execution.effectId}`;
      const controller = new AbortController();
      running.set(id, controller);
      ledger({ type: 'launch', turnId: execution.turnId, effectId: execution.effectId, claim: execution.claim });
      // Mostly short, so admissions are often in flight when a cancellation commits; some long, so kills orphan them.
      const duration = random() < 0.8 ? Math.floor(random() * 10) : 100 + Math.floor(random() * 300);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(`result:${id}`), duration);
        controller.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      }).finally(() => {
        // Written before the result is stored: the execution ended here, whatever the store answers next.
        ledger({ type: 'settled', turnId: execution.turnId, effectId: execution.effectId });
        running.delete(id);
      });
    },
  });
  await racingCancel;
  if (dispatched.ok && dispatched.outcome === 'completed') {
    ledger({ type: 'stored', turnId: turn.turnId, effectId, result: dispatched.result });
  } else if (!dispatched.ok && dispatched.code === 'checkpoint-failed' && 'result' in dispatched) {
    unstored.push({ turn: key, effectId, result: String(dispatched.result) });
  }
}

async function storeUnstored() {
  const next = unstored.shift();
  if (next === undefined) return;
  const reconciled = await recovery.reconcileEffect({ caller: OWNER, ...next.turn, effectId: next.effectId, result: next.result });
  if (reconciled.ok) ledger({ type: 'stored', turnId: next.turn.turnId, effectId: next.effectId, result: reconciled.result });
  else unstored.push(next);
}

/** @param {{ conversationId: string, turnId: string }} turn */
async function cancel(turn) {
  const cancelled = await recovery.cancelTurn({ caller: OWNER, conversationId: turn.conversationId, turnId: turn.turnId });
  // Also when another worker committed it (`committed: false`): the line still follows the commit. The
  // committing one says what was in flight when it committed: what it saw admitted and still open.
  if (cancelled.ok) ledger({ type: 'cancelled', turnId: turn.turnId, committed: cancelled.committed, inFlight: cancelled.inFlight });
}

/**
 * What the turn's run does (any worker may act as it: the store sees only its run id): a live run renews its lease,
 * a dead one never does, so its turn is past the lease when the window reaches it; either may finish the turn.
 * @param {ChaosTurn} turn
 */
async function actAsRun(turn) {
  const request = { caller: OWNER, conversationId: turn.conversationId, turnId: turn.turnId, runId: turn.runId };
  if (turn.liveRun && random() < 0.6) {
    await recovery.renewRunLease(request);
    return;
  }
  const finished = await recovery.finishTurn({ ...request, status: 'completed' });
  // Also when an earlier finish committed it: the line follows the commit.
  if (finished.ok) ledger({ type: 'finished', turnId: turn.turnId, committed: finished.outcome === 'finished' });
}

/** Another process meeting the turn (a follower, the status route, a sweeper): it interrupts it once past its lease. @param {ChaosTurn} turn */
async function interrupt(turn) {
  const interrupted = await recovery.interruptTurn({ caller: OWNER, conversationId: turn.conversationId, turnId: turn.turnId });
  if (interrupted.ok) {
    ledger({
      type: 'interrupted',
      turnId: turn.turnId,
      committed: interrupted.outcome === 'interrupted',
      inFlight: interrupted.inFlight,
    });
  }
}

/** @param {{ conversationId: string, correlationId: string }} card */
async function answer(card) {
  const at = new Date().toISOString();
  const request = { caller: OWNER, conversationId: card.conversationId, correlationId: card.correlationId, at };
  const answered =
    random() < 0.7
      ? await resolver.submit({ ...request, value: { optionId: pick(['refund', 'replace']) } })
      : await resolver.decline(request);
  if (answered.ok && answered.outcome !== 'needs-reconciliation' && !answered.replayed) {
    ledger({
      type: 'card-closed',
      correlationId: card.correlationId,
      status: answered.record.status,
      value: answered.record.value ?? null,
    });
  }
}

for (;;) {
  try {
    const roll = random();
    if (roll < 0.64) {
      const turn = hot(config.turns);
      await claimAndDispatch(turn, pick(turn.effectIds));
    } else if (roll < 0.66) {
      // Half the turns are cancelled at some point, racing their dispatches, their run and its interrupters.
      const turn = hot(config.turns);
      if (turn.cancellable) await cancel(turn);
    } else if (roll < 0.7) await actAsRun(hot(config.turns));
    else if (roll < 0.72) await interrupt(hot(config.turns));
    else if (roll < 0.9) await answer(hot(config.cards));
    else await storeUnstored();
  } catch (error) {
    // The components answer with results; a throw here is a bug the controller must see.
    ledger({ type: 'threw', message: error instanceof Error ? error.stack : String(error) });
  }
  if (random() < 0.1) await sleep(Math.floor(random() * 20));
}
