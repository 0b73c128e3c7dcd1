// @ts-check
/**
 * One worker process of the chaos run (`chaos.test.ts`): it races claims,
 * dispatches, completions, cancellations and card answers on the shared
 * server until it is killed, and appends what it did to the launch ledger, a
 * file outside the database that the controller reads as the witness. A
 * ledger line is written with one `appendFileSync` (an `O_APPEND` write), so
 * lines from all workers interleave whole and in the order they happened. A
 * launch is written inside `execute`, before its first `await`: while the
 * store still holds the turn's fence.
 *
 * Configuration is one JSON argument: { url, schema, seed, worker, ledger, turns, cards, leaseMs }.
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
  { admissionLeaseMs: config.leaseMs },
);
const resolver = new InteractionResolver({ store: store.interactionStore, validate: chaosValidator });
/** @type {{ turn: { conversationId: string, turnId: string }, effectId: string, result: string }[]} results this process must still store */
const unstored = [];

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @param {{ conversationId: string, turnId: string, effectIds: string[] }} turn @param {string} effectId */
async function claimAndDispatch(turn, effectId) {
  const key = { caller: OWNER, conversationId: turn.conversationId, turnId: turn.turnId };
  const claimed = await recovery.claimEffect({ ...key, effectId });
  if (!claimed.ok || claimed.outcome !== 'claimed') return;
  const dispatched = await recovery.dispatchEffect({
    caller: OWNER,
    claim: claimed.claim,
    execute: (execution) => {
      const id = `${execution.turnId}/${execution.effectId}`;
      const controller = new AbortController();
      running.set(id, controller);
      ledger({ type: 'launch', turnId: execution.turnId, effectId: execution.effectId, claim: execution.claim });
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(`result:${id}`), Math.floor(random() * 40));
        controller.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('aborted'));
        });
      }).finally(() => running.delete(id));
    },
  });
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
  if (cancelled.ok) ledger({ type: 'cancelled', turnId: turn.turnId });
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
    if (roll < 0.65) {
      const turn = pick(config.turns);
      await claimAndDispatch(turn, pick(turn.effectIds));
    } else if (roll < 0.72) await cancel(pick(config.turns));
    else if (roll < 0.92) await answer(pick(config.cards));
    else await storeUnstored();
  } catch (error) {
    // The components answer with results; a throw here is a bug the controller must see.
    ledger({ type: 'threw', message: error instanceof Error ? error.stack : String(error) });
  }
  if (random() < 0.1) await sleep(Math.floor(random() * 20));
}
