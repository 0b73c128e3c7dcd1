import { TurnRecovery, type TurnRecord } from '@papercusp/chat-protocol-recovery';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import { OWNER, answer, openCard, resolverOn, type Card } from '../test/interaction-cards.js';
import { FULL_CAPABILITIES, grant, isGranted, prepareSchema } from '../test/turn-store-harness.js';
import {
  createPostgresChatStore,
  createPostgresInteractionStore,
  createPostgresTurnStore,
  readInteractionOutbox,
  type ChatDatabase,
  type ChatQueryable,
  type DispatchAuthorityRequest,
} from './index.js';

const databases = useTestDatabases();

const CALLER = 'user_owner';
const ADMITTED_AT = '2031-05-01T08:00:00.250Z';
// The namespaces (hashtextextended seeds) of the turn fence and the outbox order lock, spelled out so the test pins the keys.
const TURN_FENCE_SEED = 1_667_785_077;
const OUTBOX_ORDER_SEED = 1_667_785_080;
const SHORT_LOCK_TIMEOUT_MS = 200;
const BOUND_MS = 5_000;

let turns = 0;

/** A migrated schema with a granted caller, a store with a 200 ms lock timeout, and one running turn with an open effect. */
async function runningTurn(database: ChatDatabase) {
  turns += 1;
  const schema = freshSchema('fence_limits');
  await prepareSchema(database, schema);
  const key = { conversationId: `conv_fence_${turns}`, turnId: `turn_fence_${turns}` };
  await grant(database, schema, key.conversationId, CALLER);
  const store = createPostgresTurnStore<string, string>(database, {
    schema,
    authorizeDispatch: (query, request) => isGranted(query, schema, request.conversationId, request.caller),
    lockTimeoutMs: SHORT_LOCK_TIMEOUT_MS,
  });
  const record: TurnRecord<string> = {
    ...key,
    status: 'running',
    revision: 1,
    effects: [{ effectId: 'call_pay', claim: 1, status: 'open' }],
  };
  expect(await store.compareAndSwap({ turnId: key.turnId, expectedRevision: 0, next: record })).toMatchObject({ swapped: true });
  const admit = { caller: CALLER, ...key, effectId: 'call_pay', claim: 1, admittedAt: ADMITTED_AT };
  return { schema, key, store, record, admit };
}

/** A connection that takes `sql` inside a transaction it never commits: a frozen holder, until `release`. */
async function frozenHolder(statements: readonly (readonly [string, readonly unknown[]])[]) {
  const client: pg.PoolClient = await databases.pool().connect();
  await client.query('BEGIN');
  for (const [text, values] of statements) await client.query(text, [...values]);
  return {
    release: async (): Promise<void> => {
      await client.query('ROLLBACK');
      client.release();
    },
  };
}

/** How long `work` took, and what it answered or why it rejected. */
async function timed<Value>(
  work: () => Promise<Value>,
): Promise<{ readonly elapsedMs: number; readonly outcome: Value | { rejected: unknown } }> {
  const started = performance.now();
  const outcome = await work().catch((error: unknown) => ({ rejected: error }));
  return { elapsedMs: performance.now() - started, outcome };
}

describe('fences cannot hang on a real server (DESIGN §9.2, issue 27)', () => {
  it('a connection frozen holding a turn’s 64-bit fence: cancellation answers checkpoint-failed within the lock timeout, then cancels once it lets go', async () => {
    const { schema, key, store, admit } = await runningTurn(databases.postgres());
    const holder = await frozenHolder([
      ['SELECT pg_advisory_xact_lock(hashtextextended($1, $2))', [`${schema}.${key.turnId}`, TURN_FENCE_SEED]],
    ]);
    const recovery = new TurnRecovery<string, string>(
      { capabilities: FULL_CAPABILITIES, authorize: () => true, store },
      { clock: () => ADMITTED_AT },
    );
    try {
      const cancel = await timed(() => recovery.cancelTurn({ caller: CALLER, ...key }));
      expect(cancel.outcome).toEqual({
        ok: false,
        code: 'checkpoint-failed',
        message: 'the cancellation could not be confirmed; nothing was aborted',
      });
      expect(cancel.elapsedMs).toBeGreaterThanOrEqual(SHORT_LOCK_TIMEOUT_MS - 20);
      expect(cancel.elapsedMs).toBeLessThan(BOUND_MS);
      let launches = 0;
      const admission = await timed(() => store.admitDispatch(admit, () => (launches += 1)));
      expect(admission.outcome).toEqual({ rejected: expect.objectContaining({ code: '55P03' }) });
      expect(admission.elapsedMs).toBeLessThan(BOUND_MS);
      expect(launches).toBe(0);
    } finally {
      await holder.release();
    }
    expect(await recovery.cancelTurn({ caller: CALLER, ...key })).toMatchObject({ ok: true, outcome: 'cancelled' });
  });

  it('a card write locks its card: with one card’s write frozen before its commit, another card’s answer completes and the same card’s write is refused after the lock timeout', async () => {
    const first = await openCard(databases.postgres());
    const second = await openCard(databases.postgres(), first);
    const holder = await frozenHolder([
      [
        `SELECT 1 FROM "${first.schema}".interactions WHERE conversation_id = $1 AND correlation_id = $2 FOR UPDATE`,
        [first.conversationId, first.correlationId],
      ],
      // What a write in flight holds from its outbox row to its commit.
      ['SELECT pg_advisory_xact_lock_shared(hashtextextended($1, $2))', [`"${first.schema}".interaction_outbox`, OUTBOX_ORDER_SEED]],
    ]);
    try {
      const limits = { lockTimeoutMs: SHORT_LOCK_TIMEOUT_MS };
      const other = await timed(() => resolverOn(second.store(databases.postgres(), limits)).submit(answer(second, 'refund')));
      expect(other.outcome).toMatchObject({ ok: true, outcome: 'submitted', replayed: false });
      expect(other.elapsedMs).toBeLessThan(SHORT_LOCK_TIMEOUT_MS);
      let decided = 0;
      const same = await timed(() =>
        first.store(databases.postgres(), limits).transact(cardKey(first), () => {
          decided += 1;
          return { result: 'read' };
        }),
      );
      expect(same.outcome).toEqual({ rejected: expect.objectContaining({ code: '55P03' }) });
      expect(same.elapsedMs).toBeGreaterThanOrEqual(SHORT_LOCK_TIMEOUT_MS - 20);
      expect(same.elapsedMs).toBeLessThan(BOUND_MS);
      expect(decided).toBe(0);
    } finally {
      await holder.release();
    }
  });

  it('an outbox read waits for a write in flight, and past its lockTimeoutMs is store-unavailable, never a hang', async () => {
    const card = await openCard(databases.postgres());
    const holder = await frozenHolder([
      ['SELECT pg_advisory_xact_lock_shared(hashtextextended($1, $2))', [`"${card.schema}".interaction_outbox`, OUTBOX_ORDER_SEED]],
    ]);
    try {
      const read = await timed(() =>
        readInteractionOutbox(databases.postgres(), { schema: card.schema, lockTimeoutMs: SHORT_LOCK_TIMEOUT_MS }),
      );
      expect(read.outcome).toEqual({ ok: false, code: 'store-unavailable', message: expect.stringContaining('lock timeout') });
      expect(read.elapsedMs).toBeLessThan(BOUND_MS);
    } finally {
      await holder.release();
    }
    expect(await readInteractionOutbox(databases.postgres(), { schema: card.schema })).toMatchObject({ ok: true, value: [{ id: 1 }] });
  });
});

const cardKey = (card: Card) => ({ conversationId: card.conversationId, correlationId: card.correlationId, caller: OWNER });

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres', () => databases.postgres()],
])('authority lookups inside a fence are bounded on %s (DESIGN §9.2)', (_name, database) => {
  /** A lookup that answers `grant` after `delayMs`, then tries one more statement on its handle, kept in `late`. */
  function slowLookup<Grant>(delayMs: number, grantAnswer: Grant) {
    const late: unknown[] = [];
    const lookup = async (query: ChatQueryable): Promise<Grant> => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      late.push(await query.query('SELECT 1').catch((error: unknown) => (error instanceof Error ? error.message : error)));
      return grantAnswer;
    };
    return { lookup, late };
  }

  it('an authorizeDispatch that does not answer within authorityTimeoutMs is forbidden, nothing launches, and its handle refuses later statements', async () => {
    const { schema, admit, store: granted } = await runningTurn(database());
    const slow = slowLookup(400, true);
    const store = createPostgresTurnStore<string, string>(database(), {
      schema,
      authorizeDispatch: (query: ChatQueryable, _request: DispatchAuthorityRequest<string>) => slow.lookup(query),
      authorityTimeoutMs: 100,
    });
    let launches = 0;
    const admission = await timed(() => store.admitDispatch(admit, () => (launches += 1)));
    expect(admission.outcome).toEqual({ admitted: false, code: 'forbidden' });
    expect(admission.elapsedMs).toBeLessThan(400);
    expect(launches).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(slow.late).toEqual(['the authority lookup ran out of time']);
    // The fence was released: a store whose lookup answers in time admits.
    expect(await granted.admitDispatch(admit, () => (launches += 1))).toEqual({ admitted: true });
  });

  it('an interactionAuthority that does not answer within authorityTimeoutMs is no authority: transact and read see null', async () => {
    const card = await openCard(database());
    const slow = slowLookup(400, { principalId: 'user_1', tenantId: 'tenant_1', customerId: null, publicOwnerId: null });
    const store = createPostgresInteractionStore<string>(database(), {
      schema: card.schema,
      interactionAuthority: (query) => slow.lookup(query),
      authorityTimeoutMs: 100,
    });
    const seen = await timed(() => store.transact(cardKey(card), (snapshot) => ({ result: snapshot.authority })));
    expect(seen.outcome).toBeNull();
    expect(seen.elapsedMs).toBeLessThan(400);
    expect((await store.read(cardKey(card))).authority).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(slow.late).toEqual(['the authority lookup ran out of time', 'the authority lookup ran out of time']);
  });
});

describe('the fence limits are validated at creation (DESIGN §9.2)', () => {
  const message = (factory: string, name: string) => new TypeError(`${factory}: ${name} must be a whole number from 1 to 2147483647`);
  it.each([0, -1, 1.5, Number.NaN, 2_147_483_648, '100', null])('%s is a TypeError for each limit of each fenced store', (value) => {
    for (const name of ['lockTimeoutMs', 'statementTimeoutMs', 'authorityTimeoutMs']) {
      expect(() => createPostgresTurnStore(databases.pglite(), { [name]: value })).toThrow(message('createPostgresTurnStore', name));
      expect(() => createPostgresInteractionStore(databases.pglite(), { [name]: value })).toThrow(
        message('createPostgresInteractionStore', name),
      );
      expect(() => createPostgresChatStore(databases.pglite(), { [name]: value })).toThrow(message('createPostgresTurnStore', name));
    }
  });

  it('readInteractionOutbox refuses a lockTimeoutMs out of range: invalid-request', async () => {
    expect(await readInteractionOutbox(databases.pglite(), { schema: freshSchema('fence_limits'), lockTimeoutMs: 0 })).toEqual({
      ok: false,
      code: 'invalid-request',
      message: 'readInteractionOutbox: lockTimeoutMs must be a whole number from 1 to 2147483647',
    });
  });
});
