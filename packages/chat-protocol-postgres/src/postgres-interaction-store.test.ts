import type { OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionStore } from '@papercusp/chat-protocol-interactions';
import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { everyHostileArgument, hostileArgumentsArbitrary, syncOutcomeOf } from '../../../test-support/hostile-values.js';
import { runs } from '../../../test-support/property-runs.js';
import { useTestDatabases } from '../test/databases.js';
import {
  ANSWERED_AT,
  AUTHORITY,
  OWNER,
  answer,
  interceptCommit,
  lockWaiters,
  openCard,
  resolverOn,
  type Card,
} from '../test/interaction-cards.js';
import { grant, grantsLookup } from '../test/interaction-grants.js';
import { classifyDatabaseError, createPostgresInteractionStore, pgDatabase } from './index.js';

const databases = useTestDatabases();

/** What is committed for the card: its row and its outbox rows, in id order. */
async function committed(card: Card) {
  const row = await card.database.query<{ revision: number; status: string | null }>(
    `SELECT revision, record->>'status' AS status FROM "${card.schema}".interactions WHERE conversation_id = $1 AND correlation_id = $2`,
    [card.conversationId, card.correlationId],
  );
  const outbox = await card.database.query<{ revision: number; type: string; status: string }>(
    `SELECT revision, transition->>'type' AS type, transition->>'status' AS status FROM "${card.schema}".interaction_outbox
     WHERE conversation_id = $1 AND correlation_id = $2 ORDER BY id`,
    [card.conversationId, card.correlationId],
  );
  return { row: row.rows[0] ?? null, outbox: outbox.rows };
}

/** Another connection holding the card's row lock until `release`. */
async function holdCardLock(card: Card): Promise<{ release: () => Promise<void> }> {
  const client = await databases.pool().connect();
  await client.query('BEGIN');
  await client.query(`SELECT 1 FROM "${card.schema}".interactions WHERE conversation_id = $1 AND correlation_id = $2 FOR UPDATE`, [
    card.conversationId,
    card.correlationId,
  ]);
  return {
    release: async () => {
      await client.query('COMMIT');
      client.release();
    },
  };
}

describe('createPostgresInteractionStore on a real server (DESIGN §7.3, §9.2)', () => {
  it('two first answers on separate connections: exactly one closes the card, the other is already-closed, one outbox row per transition', async () => {
    const card = await openCard(databases.postgres());
    const lock = await holdCardLock(card);
    const answers = Promise.all([
      resolverOn(card.store()).submit(answer(card, 'refund')),
      resolverOn(card.store()).submit(answer(card, 'replace')),
    ]);
    await lockWaiters(databases.postgres(), 2);
    await lock.release();
    const [first, second] = await answers;
    const results = [first, second];
    const winners = results.filter((result) => result.ok);
    const losers = results.filter((result) => !result.ok);
    expect(winners).toMatchObject([{ ok: true, outcome: 'submitted', replayed: false }]);
    expect(losers).toMatchObject([{ ok: false, code: 'already-closed' }]);
    expect(await committed(card)).toEqual({
      row: { revision: 2, status: 'submitted' },
      outbox: [
        { revision: 1, type: 'interaction-opened', status: 'pending' },
        { revision: 2, type: 'interaction-closed', status: 'submitted' },
      ],
    });
  });

  it('a serialization failure rejects, and the loser’s one read answers already-closed with the stored resolution (DESIGN §7.6)', async () => {
    const card = await openCard(databases.postgres());
    // A host whose transactions default to SERIALIZABLE: the second first answer fails with 40001 once the lock is granted.
    const serializable = new pg.Pool({
      connectionString: databases.cluster().url,
      max: 4,
      options: '-c default_transaction_isolation=serializable',
    });
    try {
      const lock = await holdCardLock(card);
      let failure: unknown;
      const loserStore = card.store(pgDatabase(serializable));
      const failing: InteractionStore<OpenCardSnapshotV1, string> = {
        transact: (request, decide) =>
          loserStore.transact(request, decide).catch((error: unknown) => {
            failure = error;
            throw error;
          }),
        read: (request) => loserStore.read(request),
      };
      // Queued first, granted the lock first.
      const winner = resolverOn(card.store()).submit(answer(card, 'refund'));
      await lockWaiters(databases.postgres(), 1);
      const loser = resolverOn(failing).submit(answer(card, 'replace'));
      await lockWaiters(databases.postgres(), 2);
      await lock.release();
      expect(await winner).toMatchObject({ ok: true, outcome: 'submitted', replayed: false });
      expect(await loser).toEqual({ ok: false, code: 'already-closed', message: 'the card was already submitted', status: 'submitted' });
      expect(classifyDatabaseError(failure)).toBe('conflict');
      expect((await committed(card)).outbox.map((row) => row.revision)).toEqual([1, 2]);
    } finally {
      await serializable.end();
    }
  });

  it('transact calls decide exactly once, only after the row lock is granted, and resolves with its result', async () => {
    const card = await openCard(databases.postgres());
    const lock = await holdCardLock(card);
    let calls = 0;
    const result = card
      .store()
      .transact({ conversationId: card.conversationId, correlationId: card.correlationId, caller: OWNER }, (snapshot) => {
        calls += 1;
        return { result: [(snapshot.record as { readonly revision: number }).revision, snapshot.authority] };
      });
    await lockWaiters(databases.postgres(), 1);
    expect(calls).toBe(0);
    await lock.release();
    expect(await result).toEqual([1, AUTHORITY]);
    expect(calls).toBe(1);
  });

  it('the record and its outbox row commit together: a connection killed before COMMIT leaves neither, and the resolver answers needs-reconciliation', async () => {
    const card = await openCard(databases.postgres());
    const killing = interceptCommit(databases.postgres(), async (pid, commit) => {
      await databases.pool().query('SELECT pg_terminate_backend($1)', [pid]);
      await commit();
    });
    let failure: unknown;
    await card
      .store(killing)
      .transact({ conversationId: card.conversationId, correlationId: card.correlationId, caller: OWNER }, (snapshot) => {
        const record = snapshot.record as Readonly<Record<string, unknown>> & { readonly revision: number };
        const next = { ...record, status: 'cancelled', revision: record.revision + 1, closedAt: ANSWERED_AT, closedBy: 'user_1' };
        const transition = {
          type: 'interaction-closed',
          conversationId: card.conversationId,
          correlationId: card.correlationId,
          status: 'cancelled',
          revision: 2,
          at: ANSWERED_AT,
        } as const;
        return { result: 'written', next: next as never, transition };
      })
      .catch((error: unknown) => {
        failure = error;
      });
    expect(classifyDatabaseError(failure)).toBe('connection');
    const pending = { row: { revision: 1, status: 'pending' }, outbox: [{ revision: 1, type: 'interaction-opened', status: 'pending' }] };
    expect(await committed(card)).toEqual(pending);
    expect(await resolverOn(card.store(killing)).submit(answer(card, 'refund'))).toEqual({
      ok: true,
      outcome: 'needs-reconciliation',
      reason: 'write-not-visible',
      message: expect.any(String),
    });
    expect(await committed(card)).toEqual(pending);
  });

  it('a commit whose acknowledgement is lost rejects, and the resolver’s one read answers the stored submission, replayed (DESIGN §7.6)', async () => {
    const card = await openCard(databases.postgres());
    const losing = interceptCommit(databases.postgres(), async (_pid, commit) => {
      await commit();
      throw Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
    });
    expect(await resolverOn(card.store(losing)).submit(answer(card, 'refund'))).toMatchObject({
      ok: true,
      outcome: 'submitted',
      replayed: true,
      record: { status: 'submitted', revision: 2, value: { optionId: 'refund' } },
    });
    expect((await committed(card)).outbox.map((row) => row.revision)).toEqual([1, 2]);
  });

  it('an authority revoked in a transaction that commits before the lock is granted is seen: not-found, nothing written', async () => {
    const card = await openCard(databases.postgres());
    const lock = await holdCardLock(card);
    const submitted = resolverOn(card.store()).submit(answer(card, 'refund'));
    await lockWaiters(databases.postgres(), 1);
    await grant(databases.postgres(), card.schema, card.conversationId, OWNER, null);
    await lock.release();
    expect(await submitted).toMatchObject({ ok: false, code: 'not-found' });
    expect((await committed(card)).row).toEqual({ revision: 1, status: 'pending' });
  });

  describe('a statement timeout (statementTimeoutMs) while another transaction holds the card (DESIGN §7.6, §9.2)', () => {
    async function timeoutStore(card: Card) {
      const pool = new pg.Pool({ connectionString: databases.cluster().url, max: 2 });
      return { pool, store: card.store(pgDatabase(pool), { statementTimeoutMs: 300 }) };
    }

    it('rejects with a timeout, and the resolver reads once: a card still pending is needs-reconciliation', async () => {
      const card = await openCard(databases.postgres());
      const { pool, store } = await timeoutStore(card);
      try {
        const lock = await holdCardLock(card);
        let failure: unknown;
        await store
          .transact({ conversationId: card.conversationId, correlationId: card.correlationId, caller: OWNER }, () => ({ result: 'read' }))
          .catch((error: unknown) => {
            failure = error;
          });
        expect(classifyDatabaseError(failure)).toBe('timeout');
        expect(await resolverOn(store).submit(answer(card, 'refund'))).toEqual({
          ok: true,
          outcome: 'needs-reconciliation',
          reason: 'write-not-visible',
          message: expect.any(String),
        });
        await lock.release();
        expect((await committed(card)).row).toEqual({ revision: 1, status: 'pending' });
      } finally {
        await pool.end();
      }
    });

    it('and when the holder commits another answer before the read, the resolver answers already-closed with the stored resolution', async () => {
      const card = await openCard(databases.postgres());
      const { pool, store } = await timeoutStore(card);
      try {
        // The holder: an answer whose authority lookup inside its transaction (its second lookup: the first is
        // its read) waits for the gate, holding the card's row lock meanwhile.
        let letHolderGo: () => void = () => undefined;
        const gate = new Promise<void>((resolve) => {
          letHolderGo = resolve;
        });
        let holding: () => void = () => undefined;
        const locked = new Promise<void>((resolve) => {
          holding = resolve;
        });
        const lookup = grantsLookup(card.schema);
        let lookups = 0;
        const holderStore = createPostgresInteractionStore<string>(databases.postgres(), {
          schema: card.schema,
          interactionAuthority: async (query, request) => {
            lookups += 1;
            if (lookups === 2) {
              holding();
              await gate;
            }
            return lookup(query, request);
          },
        });
        const holder = resolverOn(holderStore).submit(answer(card, 'replace'));
        await locked;
        // The late answer's first read does not wait; its read-back, after the timeout, lets the holder commit first.
        let reads = 0;
        const readBackAfterHolder: InteractionStore<OpenCardSnapshotV1, string> = {
          transact: (request, decide) => store.transact(request, decide),
          read: async (request) => {
            reads += 1;
            if (reads === 2) {
              letHolderGo();
              await holder;
            }
            return store.read(request);
          },
        };
        const late = await resolverOn(readBackAfterHolder).submit(answer(card, 'refund'));
        expect(reads).toBe(2);
        expect(late).toEqual({ ok: false, code: 'already-closed', message: 'the card was already submitted', status: 'submitted' });
        expect(await holder).toMatchObject({ ok: true, outcome: 'submitted', replayed: false });
        expect((await committed(card)).outbox.map((row) => row.revision)).toEqual([1, 2]);
      } finally {
        await pool.end();
      }
    });
  });
});

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres', () => databases.postgres()],
])('createPostgresInteractionStore on %s', (_name, database) => {
  it('a read-only decision on a missing card leaves no row: the placeholder is rolled back (DESIGN §7.3)', async () => {
    const card = await openCard(database());
    const missing = { conversationId: card.conversationId, correlationId: 'card_missing', caller: OWNER };
    expect(await card.store().transact(missing, (snapshot) => ({ result: snapshot }))).toEqual({ record: null, authority: AUTHORITY });
    const { rows } = await database().query(`SELECT * FROM "${card.schema}".interactions WHERE correlation_id = 'card_missing'`);
    expect(rows).toEqual([]);
    expect(await card.store().read(missing)).toEqual({ record: null, authority: AUTHORITY });
  });

  it('a write that does not advance the revision by one, or writes a closed card, rejects with TypeError and writes nothing', async () => {
    const card = await openCard(database());
    const request = { conversationId: card.conversationId, correlationId: card.correlationId, caller: OWNER };
    const rewrite = (revision: number) =>
      card.store().transact(request, (snapshot) => {
        const record = snapshot.record as Readonly<Record<string, unknown>>;
        const transition = { ...request, type: 'interaction-opened', status: 'pending', revision, at: ANSWERED_AT } as const;
        return { result: 'written', next: { ...record, revision } as never, transition };
      });
    await expect(rewrite(1)).rejects.toThrow(new TypeError('postgres interaction store: the revision must go up by one'));
    await expect(rewrite(3)).rejects.toThrow(new TypeError('postgres interaction store: the revision must go up by one'));
    expect(await resolverOn(card.store()).submit(answer(card, 'refund'))).toMatchObject({ ok: true, outcome: 'submitted' });
    const closed = (await card.store().read(request)).record as Readonly<Record<string, unknown>>;
    await expect(
      card.store().transact(request, () => ({
        result: 'written',
        next: { ...closed, revision: 3 } as never,
        transition: { ...request, type: 'interaction-closed', status: 'submitted', revision: 3, at: ANSWERED_AT },
      })),
    ).rejects.toThrow(new TypeError('postgres interaction store: a closed card was written again'));
    expect(await committed(card)).toMatchObject({ row: { revision: 2, status: 'submitted' } });
  });

  it('without interactionAuthority every caller has no authority: the store fails closed (DESIGN §9.1)', async () => {
    const card = await openCard(database());
    const store = createPostgresInteractionStore<string>(database(), { schema: card.schema });
    const request = { conversationId: card.conversationId, correlationId: card.correlationId, caller: OWNER };
    expect((await store.read(request)).authority).toBeNull();
    expect(await resolverOn(store).submit(answer(card, 'refund'))).toMatchObject({ ok: false, code: 'not-found' });
  });

  it('an authority lookup that throws fails the transaction: transact and read reject, nothing is written, the resolver answers store-unavailable', async () => {
    const card = await openCard(database());
    const failure = new Error('grants unavailable');
    const store = createPostgresInteractionStore<string>(database(), {
      schema: card.schema,
      interactionAuthority: () => {
        throw failure;
      },
    });
    const request = { conversationId: card.conversationId, correlationId: card.correlationId, caller: OWNER };
    let calls = 0;
    await expect(
      store.transact(request, () => {
        calls += 1;
        return { result: 'decided' };
      }),
    ).rejects.toBe(failure);
    expect(calls).toBe(0);
    await expect(store.read(request)).rejects.toBe(failure);
    expect(await resolverOn(store).submit(answer(card, 'refund'))).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: 'the store could not be read; nothing was written',
    });
    expect(await committed(card)).toMatchObject({ row: { revision: 1, status: 'pending' } });
  });

  it('hostile requests never throw synchronously; one that names no card sees nothing, and transact decides once (issue 12)', async () => {
    const card = await openCard(database());
    const store = card.store();
    const valid = [{ conversationId: card.conversationId, correlationId: card.correlationId, caller: OWNER }];
    const check = async (args: readonly unknown[]) => {
      let calls = 0;
      const decide = () => {
        calls += 1;
        return { result: 'decided' };
      };
      const transacted = syncOutcomeOf(() => store.transact(args[0] as never, decide));
      const read = syncOutcomeOf(() => store.read(args[0] as never));
      expect('returned' in transacted && 'returned' in read).toBe(true);
      if (!('returned' in transacted) || !('returned' in read)) return;
      expect(await transacted.returned).toBe('decided');
      expect(calls).toBe(1);
      const snapshot = (await read.returned) as { readonly record: unknown; readonly authority: unknown };
      expect(snapshot.record === null || (snapshot.record as { readonly revision?: unknown }).revision === 1).toBe(true);
    };
    for (const hostile of everyHostileArgument(valid)) await check(hostile.args);
    // A caller Postgres cannot bind (a NUL): the host's lookup answers no grant, so the store answers, never rejects.
    await check([{ ...valid[0], caller: 'a\u0000b' }]);
    await fc.assert(
      fc.asyncProperty(hostileArgumentsArbitrary(valid), (hostile) => check(hostile.args)),
      { numRuns: runs(50) },
    );
  });
});

describe('createPostgresInteractionStore options', () => {
  it.each(['Chat', 'chat-protocol', '1chat', '', 'a'.repeat(64), 'x"; DROP TABLE y; --', 7])(
    'throws TypeError at creation for the schema %j',
    (schema) => {
      expect(() => createPostgresInteractionStore(databases.pglite(), { schema: schema as string })).toThrow(TypeError);
    },
  );
});
