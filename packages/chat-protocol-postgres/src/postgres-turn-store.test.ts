import pg from 'pg';
import { TurnRecovery, type EffectRecord, type TurnRecord } from '@papercusp/chat-protocol-recovery';
import { describe, expect, it } from 'vitest';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import { FULL_CAPABILITIES, grant, grantedTurnStore, isGranted, prepareSchema } from '../test/turn-store-harness.js';
import { createPostgresTurnStore, pgDatabase, type ChatDatabase, type ChatQueryable } from './index.js';

const databases = useTestDatabases();

const CALLER = 'user_owner';
const ADMITTED_AT = '2031-05-01T08:00:00.250Z';

let turns = 0;

function turnKey(): { readonly conversationId: string; readonly turnId: string } {
  turns += 1;
  return { conversationId: `conv_rules_${process.pid}_${turns}`, turnId: `turn_rules_${process.pid}_${turns}` };
}

function recordOf(
  key: { readonly conversationId: string; readonly turnId: string },
  effects: readonly EffectRecord<string>[],
  revision = 1,
  status: TurnRecord<string>['status'] = 'running',
): TurnRecord<string> {
  return { ...key, status, revision, effects };
}

/** A migrated schema, a granted caller and one running turn with a claimed effect `call_pay`. */
async function setUp(
  database: ChatDatabase,
  effects: readonly EffectRecord<string>[] = [{ effectId: 'call_pay', claim: 1, status: 'open' }],
) {
  const schema = freshSchema('turn_rules');
  await prepareSchema(database, schema);
  const key = turnKey();
  await grant(database, schema, key.conversationId, CALLER);
  const store = grantedTurnStore(database, schema);
  const record = recordOf(key, effects);
  expect(await store.compareAndSwap({ turnId: key.turnId, expectedRevision: 0, next: record })).toEqual({
    swapped: true,
    turn: { record, admissions: [] },
  });
  const admit = { caller: CALLER, ...key, effectId: 'call_pay', claim: 1, admittedAt: ADMITTED_AT };
  return { schema, key, store, record, admit };
}

/** `database` whose sessions run `before(text, connection)` ahead of each of their statements, and `after(text)` once it answered. */
function intercepted(
  database: ChatDatabase,
  before: (text: string, connection: ChatQueryable) => Promise<void>,
  after: (text: string) => void = () => undefined,
): ChatDatabase {
  return {
    query: (text, values) => database.query(text, values),
    listen: (channel, onNotification, onLost) => database.listen(channel, onNotification, onLost),
    session: (work) =>
      database.session((connection) =>
        work({
          query: async <Row extends object>(text: string, values?: readonly unknown[]) => {
            await before(text, connection);
            const answer = await connection.query<Row>(text, values);
            after(text);
            return answer;
          },
        }),
      ),
  };
}

/** The real server's database, whose sessions have their backend terminated from another connection just before `COMMIT`. */
function killedBeforeCommit(): ChatDatabase {
  return intercepted(databases.postgres(), async (text, connection) => {
    if (text !== 'COMMIT') return;
    const { rows } = await connection.query<{ readonly pid: number }>('SELECT pg_backend_pid() AS pid');
    await databases.postgres().query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
  });
}

/** Resolves once a compareAndSwap's backend on the real server waits on the turn fence (an advisory lock). */
async function cancellationWaitingOnFence(): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const { rows } = await databases
      .postgres()
      .query(
        "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory' AND query LIKE '%pg_advisory_xact_lock%'",
      );
    if (rows.length === 1) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('the cancellation never waited on the fence');
}

/** A database over `pool` whose admission unlock waits for `released`: the fence stays held past launch. */
function fenceHeldUntil(database: ChatDatabase, released: Promise<void>, order: string[] = []): ChatDatabase {
  return intercepted(database, async (text) => {
    if (text.includes('pg_advisory_unlock')) {
      await released;
      order.push('fence released');
    }
  });
}

async function admissionRows(database: ChatDatabase, schema: string, turnId: string): Promise<unknown[]> {
  const { rows } = await database.query(`SELECT effect_id, claim, admitted_at FROM "${schema}".admissions WHERE turn_id = $1`, [turnId]);
  return [...rows];
}

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres', () => databases.postgres()],
])('createPostgresTurnStore on %s', (_name, database) => {
  it('DESIGN §6.2: each refusal code once, in the contract order, and nothing launched or stored', async () => {
    const { schema, key, store, admit } = await setUp(database(), [
      { effectId: 'call_pay', claim: 2, status: 'open' },
      { effectId: 'call_done', claim: 1, status: 'completed', result: 'paid', source: 'dispatch' },
      { effectId: 'call_twice', claim: 1, status: 'open' },
    ]);
    let launches = 0;
    const launch = (): void => {
      launches += 1;
    };
    expect(await store.admitDispatch?.({ ...admit, effectId: 'call_twice' }, launch)).toEqual({ admitted: true });
    // Granted in the other conversation too, so the turn's own conversation is what refuses it.
    await grant(database(), schema, `${key.conversationId}_other`, CALLER);
    const cases = [
      ['forbidden', { ...admit, caller: 'user_stranger' }],
      ['unknown-turn', { ...admit, turnId: `${key.turnId}_missing` }],
      ['unknown-turn', { ...admit, conversationId: `${key.conversationId}_other` }],
      ['unknown-effect', { ...admit, effectId: 'call_unknown' }],
      ['effect-settled', { ...admit, effectId: 'call_done' }],
      ['already-admitted', { ...admit, effectId: 'call_twice' }],
      // Where two checks fail, the earlier code answers.
      ['unknown-effect', { ...admit, effectId: 'call_unknown', claim: 9 }],
      ['effect-settled', { ...admit, effectId: 'call_done', claim: 9 }],
      ['already-admitted', { ...admit, effectId: 'call_twice', claim: 9 }],
      ['stale-claim', { ...admit, claim: 1 }],
    ] as const;
    for (const [code, request] of cases) expect(await store.admitDispatch?.(request, launch)).toEqual({ admitted: false, code });
    const cancelled = await store.read(key.turnId);
    if (cancelled === null) throw new Error('the turn is gone');
    const next = { ...cancelled.record, status: 'cancelled' as const, revision: 2 };
    expect(await store.compareAndSwap({ turnId: key.turnId, expectedRevision: 1, next })).toMatchObject({ swapped: true });
    expect(await store.admitDispatch?.({ ...admit, claim: 2 }, launch)).toEqual({ admitted: false, code: 'turn-not-running' });
    expect(await store.admitDispatch?.({ ...admit, effectId: 'call_unknown' }, launch)).toEqual({
      admitted: false,
      code: 'turn-not-running',
    });
    expect(await store.admitDispatch?.({ ...admit, caller: 'user_stranger', turnId: `${key.turnId}_missing` }, launch)).toEqual({
      admitted: false,
      code: 'forbidden',
    });
    expect(launches).toBe(1);
    expect(await admissionRows(database(), schema, key.turnId)).toEqual([{ effect_id: 'call_twice', claim: 1, admitted_at: ADMITTED_AT }]);
  });

  it('DESIGN §9.1: without authorizeDispatch every admission is forbidden (fail closed), and a revoked grant is forbidden', async () => {
    const { schema, key, admit } = await setUp(database());
    let launches = 0;
    const launch = (): void => {
      launches += 1;
    };
    const unauthorized = createPostgresTurnStore<string, string>(database(), { schema });
    expect(await unauthorized.admitDispatch?.(admit, launch)).toEqual({ admitted: false, code: 'forbidden' });
    const throwing = createPostgresTurnStore<string, string>(database(), {
      schema,
      authorizeDispatch: () => {
        throw new Error('the grants service is down');
      },
    });
    expect(await throwing.admitDispatch?.(admit, launch)).toEqual({ admitted: false, code: 'forbidden' });
    await database().query(`DELETE FROM "${schema}".grants WHERE conversation_id = $1`, [key.conversationId]);
    expect(await grantedTurnStore(database(), schema).admitDispatch?.(admit, launch)).toEqual({ admitted: false, code: 'forbidden' });
    expect(launches).toBe(0);
    expect(await admissionRows(database(), schema, key.turnId)).toEqual([]);
  });

  it('DESIGN §9.1: authorizeDispatch is called once with the request, inside the admission transaction, on its own handle', async () => {
    const { schema, key, admit } = await setUp(database());
    const seen: unknown[] = [];
    let transactionId: string | undefined;
    const store = createPostgresTurnStore<string, string>(database(), {
      schema,
      authorizeDispatch: async (query, request) => {
        seen.push(request);
        // The transaction's id, as the admission row will carry it (xmin) when it commits in the same transaction.
        const { rows } = await query.query<{ readonly id: string }>('SELECT (txid_current() % 4294967296)::text AS id');
        transactionId = rows[0]?.id;
        return isGranted(query, schema, request.conversationId, request.caller);
      },
    });
    expect(await store.admitDispatch?.(admit, () => undefined)).toEqual({ admitted: true });
    expect(seen).toEqual([{ caller: CALLER, conversationId: key.conversationId, turnId: key.turnId, effectId: 'call_pay' }]);
    const { rows } = await database().query(`SELECT xmin::text AS id FROM "${schema}".admissions WHERE turn_id = $1`, [key.turnId]);
    expect(rows).toEqual([{ id: transactionId }]);
  });

  it('DESIGN §6.11: an admission keeps admittedAt exactly as given (milliseconds, nanoseconds, an offset)', async () => {
    const { key, store, admit } = await setUp(database(), [
      { effectId: 'call_pay', claim: 1, status: 'open' },
      { effectId: 'call_mail', claim: 1, status: 'open' },
      { effectId: 'call_ship', claim: 1, status: 'open' },
    ]);
    const instants = ['2031-05-01T08:00:00.250Z', '2031-05-01T08:00:00.250123456Z', '2031-05-01T10:00:00.001+02:00'];
    const effects = ['call_pay', 'call_mail', 'call_ship'];
    for (const [index, effectId] of effects.entries())
      expect(await store.admitDispatch?.({ ...admit, effectId, admittedAt: instants[index] ?? '' }, () => undefined)).toEqual({
        admitted: true,
      });
    expect((await store.read(key.turnId))?.admissions).toEqual(
      effects.map((effectId, index) => ({ effectId, claim: 1, admittedAt: instants[index] })),
    );
  });

  it('DESIGN §9.2: compareAndSwap on a stale revision answers swapped: false with the stored turn, admissions included; 0 on an existing turn too', async () => {
    const { key, store, record, admit } = await setUp(database());
    expect(await store.admitDispatch?.(admit, () => undefined)).toEqual({ admitted: true });
    const current = { record, admissions: [{ effectId: 'call_pay', claim: 1, admittedAt: ADMITTED_AT }] };
    const next = recordOf(key, [{ effectId: 'call_pay', claim: 2, status: 'open' }], 3);
    expect(await store.compareAndSwap({ turnId: key.turnId, expectedRevision: 2, next })).toEqual({ swapped: false, current });
    expect(await store.compareAndSwap({ turnId: key.turnId, expectedRevision: 0, next: record })).toEqual({ swapped: false, current });
    const swapped = recordOf(key, [{ effectId: 'call_pay', claim: 1, status: 'completed', result: 'paid', source: 'dispatch' }], 2);
    expect(await store.compareAndSwap({ turnId: key.turnId, expectedRevision: 1, next: swapped })).toEqual({
      swapped: true,
      turn: { record: swapped, admissions: current.admissions },
    });
    expect(await store.compareAndSwap({ turnId: `${key.turnId}_missing`, expectedRevision: 1, next })).toEqual({
      swapped: false,
      current: null,
    });
  });

  it('DESIGN §9.2: a record that is not the next revision of this turn, or not JSON, is a write that failed (TypeError), and nothing is stored', async () => {
    const { key, store, record } = await setUp(database());
    const cases = [
      { ...record, revision: 3 },
      { ...record, turnId: `${key.turnId}_other`, revision: 2 },
      { ...record, revision: 2, effects: [{ effectId: 'call_pay', status: 'open' }] },
      {
        ...record,
        revision: 2,
        effects: [{ effectId: 'call_pay', claim: 1, status: 'completed', result: Number.NaN, source: 'dispatch' }],
      },
    ] as unknown as TurnRecord<string>[];
    for (const next of cases)
      await expect(store.compareAndSwap({ turnId: key.turnId, expectedRevision: 1, next })).rejects.toThrow(TypeError);
    expect(await store.read(key.turnId)).toEqual({ record, admissions: [] });
  });

  it('§6 rule 12: the record keeps its run and lease as given; a run without a v1 id or an RFC 3339 deadline is a TypeError, nothing stored', async () => {
    const { key, store, record } = await setUp(database());
    for (const run of [{ runId: 'run a', leaseExpiresAt: '2031-05-01T08:00:30.250Z' }, { runId: 'run_a', leaseExpiresAt: 'soon' }, 'run_a'])
      await expect(
        store.compareAndSwap({
          turnId: key.turnId,
          expectedRevision: 1,
          next: { ...record, revision: 2, run } as unknown as TurnRecord<string>,
        }),
      ).rejects.toThrow(TypeError);
    expect(await store.read(key.turnId)).toEqual({ record, admissions: [] });
    const leased = { ...record, revision: 2, run: { runId: 'run_a', leaseExpiresAt: '2031-05-01T08:00:30.250+02:00' } };
    await store.compareAndSwap({ turnId: key.turnId, expectedRevision: 1, next: leased });
    const interrupted = { ...leased, revision: 3, status: 'interrupted' as const };
    await store.compareAndSwap({ turnId: key.turnId, expectedRevision: 2, next: interrupted });
    expect(await store.read(key.turnId)).toEqual({ record: interrupted, admissions: [] });
  });

  it('§6 rule 12: under the fence an interrupted turn is turn-not-running, and nothing launches', async () => {
    const { key, store, record, admit } = await setUp(database());
    await store.compareAndSwap({ turnId: key.turnId, expectedRevision: 1, next: { ...record, revision: 2, status: 'interrupted' } });
    let launched = 0;
    expect(await store.admitDispatch?.(admit, () => (launched += 1))).toEqual({ admitted: false, code: 'turn-not-running' });
    expect(launched).toBe(0);
  });

  it('DESIGN §9.2: a launch that throws is still admitted (the admission committed), and the fence is released', async () => {
    const { key, store, record, admit } = await setUp(database());
    const answer = await store.admitDispatch?.(admit, () => {
      throw new Error('the host execution failed to start');
    });
    expect(answer).toEqual({ admitted: true });
    const next = { ...record, status: 'cancelled' as const, revision: 2 };
    expect(await store.compareAndSwap({ turnId: key.turnId, expectedRevision: 1, next })).toEqual({
      swapped: true,
      turn: { record: next, admissions: [{ effectId: 'call_pay', claim: 1, admittedAt: ADMITTED_AT }] },
    });
  });

  it('DESIGN §9.1: an invalid schema is a TypeError at creation', () => {
    for (const schema of ['Chat', 'chat-protocol', '', 'x"; DROP TABLE y; --'])
      expect(() => createPostgresTurnStore(database(), { schema })).toThrow(TypeError);
  });

  it('§11.2: listRunningTurns caps a page at 500 turns whatever limit asks, and the next page goes on after its last id', async () => {
    const schema = freshSchema('turn_listing');
    await prepareSchema(database(), schema);
    // 501 running turns and one cancelled among them, written as the store writes them.
    await database().query(
      `INSERT INTO "${schema}".turns (turn_id, conversation_id, revision, record)
       SELECT id, 'conv_cap', 1, jsonb_build_object('conversationId', 'conv_cap', 'turnId', id, 'status', status, 'revision', 1, 'effects', '[]'::jsonb)
       FROM (SELECT 'turn_cap_' || lpad(n::text, 3, '0') AS id, CASE WHEN n = 250 THEN 'cancelled' ELSE 'running' END AS status
             FROM generate_series(0, 501) n) turns`,
    );
    const store = grantedTurnStore(database(), schema);
    const first = await store.listRunningTurns({ limit: 1_000 });
    const idOf = (n: number): string => `turn_cap_${String(n).padStart(3, '0')}`;
    const expected = Array.from({ length: 502 }, (_, n) => n)
      .filter((n) => n !== 250)
      .map(idOf);
    expect(first.map((turn) => turn.record.turnId)).toEqual(expected.slice(0, 500));
    const rest = await store.listRunningTurns({ afterTurnId: idOf(500), limit: 1_000 });
    expect(rest).toEqual([
      { record: { conversationId: 'conv_cap', turnId: idOf(501), status: 'running', revision: 1, effects: [] }, admissions: [] },
    ]);
    expect(await store.listRunningTurns({ afterTurnId: idOf(501), limit: 1_000 })).toEqual([]);
  });

  it('§11.2: listRunningTurns rejects a request it cannot use with a TypeError, before any statement', async () => {
    const statements: string[] = [];
    const base = database();
    const counted: ChatDatabase = { ...base, query: (text, values) => (statements.push(text), base.query(text, values)) };
    const store = createPostgresTurnStore<string, string>(counted, { schema: 'never_read' });
    const message = 'listRunningTurns: expected { afterTurnId?, limit }, afterTurnId a v1 id and limit a positive integer';
    const unusable: unknown[] = [
      undefined,
      null,
      {},
      { limit: 0 },
      { limit: -1 },
      { limit: 1.5 },
      { limit: Number.NaN },
      { limit: Number.POSITIVE_INFINITY },
      { limit: '10' },
      { limit: 10, afterTurnId: 'turn\u0000cut' },
      { limit: 10, afterTurnId: '' },
      { limit: 10, afterTurnId: 7 },
      new Proxy(
        { limit: 10 },
        {
          get: () => {
            throw new Error('hostile');
          },
        },
      ),
    ];
    for (const request of unusable) await expect(store.listRunningTurns(request as never)).rejects.toThrow(new TypeError(message));
    expect(statements).toEqual([]);
  });

  it('§11.2: listRunningTurns reads the partial index of migration 3 (its predicate matches the statement)', async () => {
    const schema = freshSchema('turn_listing');
    await prepareSchema(database(), schema);
    const listed: { text: string; values: readonly unknown[] }[] = [];
    const base = database();
    const recording: ChatDatabase = { ...base, query: (text, values = []) => (listed.push({ text, values }), base.query(text, values)) };
    await createPostgresTurnStore<string, string>(recording, { schema }).listRunningTurns({ afterTurnId: 'turn_a', limit: 10 });
    const statement = listed[0];
    if (statement === undefined) throw new Error('no statement');
    const { rows: indexes } = await base.query<{ readonly indexname: string }>(
      `SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename = 'turns' AND indexdef LIKE '%WHERE%'`,
      [schema],
    );
    expect(indexes).toHaveLength(1);
    const plan = await base.session(async (connection) => {
      await connection.query('BEGIN');
      // An empty table is read fastest by a scan: forbidding it shows which index the predicate lets the planner use.
      await connection.query('SET LOCAL enable_seqscan = off');
      const { rows } = await connection.query<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${statement.text}`, [...statement.values]);
      await connection.query('ROLLBACK');
      return JSON.stringify(rows);
    });
    expect(plan).toContain(`"Index Name":"${indexes[0]?.indexname ?? ''}"`);
  });
});

describe('createPostgresTurnStore on a real server: the fence and failures (DESIGN §9.2)', () => {
  it('the admission is committed before launch runs: launch sees it from another connection', async () => {
    const { schema, key, admit } = await setUp(databases.postgres());
    const order: string[] = [];
    const watched = intercepted(
      databases.postgres(),
      async () => undefined,
      (text) => order.push(/pg_advisory_\w+/.exec(text)?.[0] ?? text.split(' ')[0] ?? ''),
    );
    let seen: Promise<unknown[]> | undefined;
    const answer = await grantedTurnStore(watched, schema).admitDispatch?.(admit, () => {
      order.push('launched');
      seen = admissionRows(databases.postgres(), schema, key.turnId);
    });
    expect(answer).toEqual({ admitted: true });
    expect(await seen).toEqual([{ effect_id: 'call_pay', claim: 1, admitted_at: ADMITTED_AT }]);
    // The statements of the session, each once it answered: the fence's limits are set by the statement that takes
    // it, and the grant and the turn are read inside the transaction.
    expect(order).toEqual(['BEGIN', 'pg_advisory_lock', 'SELECT', 'SELECT', 'INSERT', 'COMMIT', 'launched', 'pg_advisory_unlock']);
  });

  it('a cancellation issued while launch runs waits on the fence and commits only after it is released', async () => {
    const { schema, key, store, record, admit } = await setUp(databases.postgres());
    const order: string[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The admitting session's unlock waits for the test, so the fence stays held past launch as long as the test needs.
    const held = fenceHeldUntil(databases.postgres(), released, order);
    let cancelling: Promise<unknown> | undefined;
    const admitting = grantedTurnStore(held, schema).admitDispatch?.(admit, () => {
      order.push('launched');
      cancelling = store
        .compareAndSwap({ turnId: key.turnId, expectedRevision: 1, next: { ...record, status: 'cancelled', revision: 2 } })
        .then((answer) => {
          order.push('cancellation committed');
          return answer;
        });
    });
    // The cancellation's backend waits on the advisory lock while the turn is still running.
    await cancellationWaitingOnFence();
    expect((await store.read(key.turnId))?.record.status).toBe('running');
    release();
    expect(await admitting).toEqual({ admitted: true });
    expect(await cancelling).toMatchObject({ swapped: true, turn: { record: { status: 'cancelled', revision: 2 } } });
    expect(order).toEqual(['launched', 'fence released', 'cancellation committed']);
  });

  it('the store pins READ COMMITTED: on a server defaulting to serializable, a cancellation that waited on the fence through an admission sees it', async () => {
    const { schema, key, record, admit } = await setUp(databases.postgres());
    const pool = new pg.Pool({
      connectionString: databases.cluster().url,
      max: 3,
      options: '-c default_transaction_isolation=serializable',
    });
    try {
      let atCommit: () => void = () => undefined;
      const reachedCommit = new Promise<void>((resolve) => {
        atCommit = resolve;
      });
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      // The admission stops before its COMMIT, holding the fence, until the cancellation waits on it.
      const paused = intercepted(pgDatabase(pool), async (text) => {
        if (text !== 'COMMIT') return;
        atCommit();
        await released;
      });
      const admitting = grantedTurnStore(paused, schema).admitDispatch?.(admit, () => undefined);
      await reachedCommit;
      const next = { ...record, status: 'cancelled' as const, revision: 2 };
      const cancelling = grantedTurnStore(pgDatabase(pool), schema).compareAndSwap({ turnId: key.turnId, expectedRevision: 1, next });
      await cancellationWaitingOnFence();
      release();
      expect(await admitting).toEqual({ admitted: true });
      // Its snapshot is taken after the fence is granted: the admission that committed meanwhile is in its answer.
      expect(await cancelling).toEqual({
        swapped: true,
        turn: { record: next, admissions: [{ effectId: 'call_pay', claim: 1, admittedAt: ADMITTED_AT }] },
      });
    } finally {
      await pool.end();
    }
  });

  it('a connection terminated before COMMIT: admitDispatch rejects, never launches, stores nothing; TurnRecovery answers admission-unacknowledged', async () => {
    const { schema, key, admit } = await setUp(databases.postgres());
    const killed = killedBeforeCommit();
    let launches = 0;
    const store = grantedTurnStore(killed, schema);
    await expect(store.admitDispatch?.(admit, () => (launches += 1))).rejects.toThrow();
    const recovery = new TurnRecovery<string, string>(
      { capabilities: FULL_CAPABILITIES, authorize: () => true, store },
      { clock: () => ADMITTED_AT },
    );
    const answer = await recovery.dispatchEffect({
      caller: CALLER,
      claim: { ...key, effectId: 'call_pay', claim: 1 },
      execute: async () => {
        launches += 1;
        return 'paid';
      },
    });
    expect(answer).toEqual({ ok: true, outcome: 'needs-reconciliation', reason: 'admission-unacknowledged', message: expect.any(String) });
    expect(launches).toBe(0);
    expect(await admissionRows(databases.postgres(), schema, key.turnId)).toEqual([]);
  });

  it('a connection terminated before a compareAndSwap COMMIT rejects and stores nothing', async () => {
    const { schema, key, record } = await setUp(databases.postgres());
    const killed = killedBeforeCommit();
    const next = { ...record, status: 'cancelled' as const, revision: 2 };
    await expect(grantedTurnStore(killed, schema).compareAndSwap({ turnId: key.turnId, expectedRevision: 1, next })).rejects.toThrow();
    expect(await grantedTurnStore(databases.postgres(), schema).read(key.turnId)).toEqual({ record, admissions: [] });
  });

  it('the statementTimeoutMs of the fence rejects admitDispatch and compareAndSwap: nothing launched, nothing stored (DESIGN §9.2)', async () => {
    const { schema, key, record, admit } = await setUp(databases.postgres());
    const pool = new pg.Pool({ connectionString: databases.cluster().url, max: 2 });
    const blocker = await databases.pool().connect();
    try {
      const store = createPostgresTurnStore<string, string>(pgDatabase(pool), {
        schema,
        authorizeDispatch: (query, request) => isGranted(query, schema, request.conversationId, request.caller),
        statementTimeoutMs: 300,
        lockTimeoutMs: 60_000,
      });
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE "${schema}".admissions, "${schema}".turns IN ACCESS EXCLUSIVE MODE`);
      let launches = 0;
      await expect(store.admitDispatch?.(admit, () => (launches += 1))).rejects.toMatchObject({ code: '57014' });
      const next = { ...record, status: 'cancelled' as const, revision: 2 };
      await expect(store.compareAndSwap({ turnId: key.turnId, expectedRevision: 1, next })).rejects.toMatchObject({ code: '57014' });
      await blocker.query('ROLLBACK');
      expect(launches).toBe(0);
      expect(await store.read(key.turnId)).toEqual({ record, admissions: [] });
    } finally {
      blocker.release();
      await pool.end();
    }
  });
});
