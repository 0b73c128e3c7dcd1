import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type { ChatEventLog, ChatEventLogSubscriptionEnd } from '@papercusp/chat-protocol-recovery';
import { describeChatEventLogConformance } from '@papercusp/chat-protocol-testkit/vitest';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrated, useTestDatabases, waitFor } from '../test/databases.js';
import { createPostgresEventLog, pgDatabase, type ChatDatabase, type ChatQueryable } from './index.js';

const databases = useTestDatabases();

let turns = 0;
const freshTurn = () => {
  turns += 1;
  return { conversationId: `conv_pglog_${process.pid}_${turns}`, turnId: `turn_pglog_${process.pid}_${turns}` };
};
type TurnKey = ReturnType<typeof freshTurn>;

const envelopeOf = (
  key: TurnKey,
  seq: number,
  event: ChatEventEnvelope['event'] = { type: 'delta', text: `text ${seq}` },
  occurredAt = '2031-05-01T08:00:00Z',
): ChatEventEnvelope => ({
  schemaVersion: 1,
  ...key,
  eventId: `${key.turnId}_event_${seq}`,
  seq,
  occurredAt,
  event,
});
const DONE: ChatEventEnvelope['event'] = { type: 'done', status: 'completed' };

/** Pools of their own on the real server, each a different set of connections; closed after the file. */
function usePools(count: number, options: pg.PoolConfig = {}): () => readonly pg.Pool[] {
  const pools: pg.Pool[] = [];
  beforeAll(() => {
    for (let index = 0; index < count; index += 1)
      pools.push(new pg.Pool({ connectionString: databases.cluster().url, max: 8, idleTimeoutMillis: 1_000, ...options }));
  });
  afterAll(async () => {
    await Promise.allSettled(pools.map((pool) => pool.end()));
  });
  return () => pools;
}

describe('createPostgresEventLog conformance on PGlite (DESIGN §9.3)', () => {
  let schema = '';
  beforeAll(async () => {
    schema = await migrated(databases.pglite(), 'eventlog_conformance');
  }, 120_000);
  describeChatEventLogConformance('PGlite', () => ({ connect: () => createPostgresEventLog(databases.pglite(), { schema }) }));
});

describe('createPostgresEventLog conformance on a real Postgres server, each connection a log over another pool (DESIGN §9.3)', () => {
  const pools = usePools(4);
  let schema = '';
  let next = 0;
  beforeAll(async () => {
    schema = await migrated(databases.postgres(), 'eventlog_conformance');
  }, 120_000);
  describeChatEventLogConformance('Postgres', () => ({
    connect: () => {
      next += 1;
      return createPostgresEventLog(pgDatabase(pools()[next % pools().length] as pg.Pool), { schema });
    },
  }));
});

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres', () => databases.postgres()],
])('createPostgresEventLog rules on %s', (_name, database) => {
  let schema = '';
  beforeAll(async () => {
    schema = await migrated(database(), 'eventlog_rules');
  }, 120_000);

  it.each(['Chat', 'chat-protocol', '', 'x"; DROP TABLE y; --'])(
    'an invalid schema %j is a TypeError at creation (issue 15: identifiers are validated)',
    (bad) => {
      expect(() => createPostgresEventLog(database(), { schema: bad })).toThrow(TypeError);
    },
  );

  it('a default channel past 63 characters is a TypeError, an explicit channel is accepted (identifiers are validated)', () => {
    expect(() => createPostgresEventLog(database(), { schema: 'a'.repeat(60) })).toThrow(TypeError);
    expect(() => createPostgresEventLog(database(), { schema: 'a'.repeat(60), channel: 'chat_events' })).not.toThrow();
  });

  it('pruneTurns compares the terminal occurredAt with before exactly, past the microsecond (DESIGN §9.3 retention)', async () => {
    const log = createPostgresEventLog(database(), { schema });
    const key = freshTurn();
    await log.append(envelopeOf(key, 1, undefined, '1999-01-01T00:00:00Z'));
    expect(await log.append(envelopeOf(key, 2, DONE, '1999-01-01T00:00:00.000000002Z'))).toMatchObject({ ok: true, outcome: 'appended' });
    expect(await log.pruneTurns({ before: '1999-01-01T00:00:00.000000002Z' })).toEqual({ ok: true, pruned: 0 });
    expect(await log.pruneTurns({ before: '1999-01-01T00:00:00.000000003Z' })).toEqual({ ok: true, pruned: 1 });
    expect(await log.replayWindow({ ...key, after: 0 })).toEqual({ lowerBound: 2, latestSeq: 2, frames: [] });
  });

  it('the database, not a cache, enforces contiguity and uniqueness: a frame past a hole or a taken event id is a constraint violation', async () => {
    const key = freshTurn();
    const log = createPostgresEventLog(database(), { schema });
    await log.append(envelopeOf(key, 1));
    const insert = (seq: number, eventId: string) =>
      database().query(
        `INSERT INTO "${schema}".event_log (turn_id, seq, conversation_id, event_id, envelope) VALUES ($1, $2, $3, $4, '{}'::jsonb)`,
        [key.turnId, seq, key.conversationId, eventId],
      );
    await expect(insert(3, 'hole')).rejects.toMatchObject({ code: '23503' });
    await expect(insert(1, 'taken_seq')).rejects.toMatchObject({ code: '23505' });
    await expect(insert(2, `${key.turnId}_event_1`)).rejects.toMatchObject({ code: '23505' });
    expect((await log.replayWindow({ ...key, after: 0 })).latestSeq).toBe(1);
  });
});

describe('createPostgresEventLog across connections and processes on a real server (DESIGN §9.3, issue 15)', () => {
  const pools = usePools(2);
  let schema = '';
  const logs = (): readonly [ChatEventLog, ChatEventLog] => [
    createPostgresEventLog(pgDatabase(pools()[0] as pg.Pool), { schema }),
    createPostgresEventLog(pgDatabase(pools()[1] as pg.Pool), { schema }),
  ];
  beforeAll(async () => {
    schema = await migrated(databases.postgres(), 'eventlog_server');
  }, 120_000);

  it('two logs on different pools racing seq 1: one appended, the same envelope duplicate, another envelope conflicting-duplicate', async () => {
    for (let round = 0; round < 20; round += 1) {
      const [first, second] = logs();
      const key = freshTurn();
      const same = envelopeOf(key, 1);
      const answers = await Promise.all([first.append(same), second.append(same)]);
      expect(answers.map((answer) => (answer.ok ? answer.outcome : answer.code)).sort()).toEqual(['appended', 'duplicate']);
      const rival = freshTurn();
      const rivals = await Promise.all([
        first.append(envelopeOf(rival, 1)),
        second.append({ ...envelopeOf(rival, 1), eventId: `${rival.turnId}_rival` }),
      ]);
      expect(rivals.map((answer) => (answer.ok ? answer.outcome : answer.code)).sort()).toEqual(['appended', 'conflicting-duplicate']);
      expect((await first.replayWindow({ ...rival, after: 0 })).frames).toHaveLength(1);
    }
  });

  it('two turns of one conversation racing the same event id from different pools: one appended, the other conflicting-duplicate (the unique key, read back)', async () => {
    for (let round = 0; round < 20; round += 1) {
      const [first, second] = logs();
      const left = freshTurn();
      const right = { conversationId: left.conversationId, turnId: `${left.turnId}_right` };
      const answers = await Promise.all([
        first.append(envelopeOf(left, 1)),
        second.append({ ...envelopeOf(right, 1), eventId: `${left.turnId}_event_1` }),
      ]);
      expect(answers.map((answer) => (answer.ok ? answer.outcome : answer.code)).sort()).toEqual(['appended', 'conflicting-duplicate']);
    }
  });

  it('NOTIFY carries only the cursor: the payload is [turnId, seq], never the frame', async () => {
    const client = new pg.Client({ connectionString: databases.cluster().url });
    await client.connect();
    try {
      const payloads: string[] = [];
      client.on('notification', (message) => payloads.push(`${message.channel} ${message.payload ?? ''}`));
      await client.query(`LISTEN "${schema}_event_log"`);
      const key = freshTurn();
      const [log] = logs();
      await log.append(envelopeOf(key, 1));
      await log.append(envelopeOf(key, 2));
      expect(await waitFor(() => payloads.length >= 2)).toBe(true);
      expect(payloads).toEqual([1, 2].map((seq) => `${schema}_event_log ${JSON.stringify([key.turnId, seq])}`));
    } finally {
      await client.end();
    }
  });

  it('subscribe resolves only once LISTEN is active: a frame appended right after it resolves is delivered, even when LISTEN is slow', async () => {
    const database = pgDatabase(pools()[1] as pg.Pool);
    // LISTEN that takes its time: a subscribe that read the table before LISTEN was active would miss the append below.
    const slow: ChatDatabase = {
      ...database,
      listen: async (channel, onNotification, onLost) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return database.listen(channel, onNotification, onLost);
      },
    };
    const [writer] = logs();
    const key = freshTurn();
    const seen: number[] = [];
    const unsubscribe = await createPostgresEventLog(slow, { schema }).subscribe({ ...key, after: 0 }, (envelope) =>
      seen.push(envelope.seq),
    );
    try {
      await writer.append(envelopeOf(key, 1));
      await waitFor(() => seen.length > 0, 3_000);
      expect(seen).toEqual([1]);
    } finally {
      unsubscribe();
    }
  });

  it('a lost LISTEN connection ends the subscription lost with the last delivered seq; subscribing again from it misses nothing', async () => {
    // A channel of its own, so the LISTEN backend to kill is this log's alone; the writer notifies on it too.
    const writer = createPostgresEventLog(pgDatabase(pools()[0] as pg.Pool), { schema, channel: `${schema}_lost` });
    const reader = createPostgresEventLog(pgDatabase(pools()[1] as pg.Pool), { schema, channel: `${schema}_lost` });
    const key = freshTurn();
    await writer.append(envelopeOf(key, 1));
    const seen: number[] = [];
    const ends: ChatEventLogSubscriptionEnd[] = [];
    await reader.subscribe(
      { ...key, after: 0 },
      (envelope) => seen.push(envelope.seq),
      (end) => ends.push(end),
    );
    expect(await waitFor(() => seen.length === 1)).toBe(true);
    const { rows } = await databases
      .pool()
      .query<{ terminated: boolean }>(`SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE query = $1`, [
        `LISTEN "${schema}_lost"`,
      ]);
    expect(rows).toEqual([{ terminated: true }]);
    expect(await waitFor(() => ends.length > 0)).toBe(true);
    expect(ends).toEqual([{ reason: 'lost', afterSeq: 1 }]);
    expect(seen).toEqual([1]);
    const again: number[] = [];
    const againEnds: ChatEventLogSubscriptionEnd[] = [];
    const unsubscribe = await reader.subscribe(
      { ...key, after: 1 },
      (envelope) => again.push(envelope.seq),
      (end) => againEnds.push(end),
    );
    await writer.append(envelopeOf(key, 2));
    await waitFor(() => again.length === 1 || againEnds.length > 0);
    unsubscribe();
    expect({ again, againEnds }).toEqual({ again: [2], againEnds: [] });
  });

  it('a statement timeout while a rival holds the turn is store-unavailable, and the redelivery after it is appended', async () => {
    const key = freshTurn();
    const [log] = logs();
    await log.append(envelopeOf(key, 1));
    const impatient = new pg.Pool({ connectionString: databases.cluster().url, max: 1, options: '-c statement_timeout=300' });
    const holder = await databases.pool().connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM "${schema}".event_log_turns WHERE turn_id = $1 FOR UPDATE`, [key.turnId]);
      const timedOut = await createPostgresEventLog(pgDatabase(impatient), { schema }).append(envelopeOf(key, 2));
      expect(timedOut).toMatchObject({ ok: false, code: 'store-unavailable' });
      await holder.query('ROLLBACK');
      expect(await createPostgresEventLog(pgDatabase(impatient), { schema }).append(envelopeOf(key, 2))).toEqual({
        ok: true,
        outcome: 'appended',
        seq: 2,
        latestSeq: 2,
      });
    } finally {
      holder.release();
      await impatient.end();
    }
  });

  it('a connection killed mid-append, and again on its frame-by-frame re-run, is store-unavailable, never a throw, and nothing half-written is visible', async () => {
    const key = freshTurn();
    const [log] = logs();
    await log.append(envelopeOf(key, 1));
    const name = `victim_${key.turnId}`.slice(0, 60);
    const victim = new pg.Pool({ connectionString: databases.cluster().url, max: 1, application_name: name });
    const holder = await databases.pool().connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM "${schema}".event_log_turns WHERE turn_id = $1 FOR UPDATE`, [key.turnId]);
      let settled = false;
      const pending = createPostgresEventLog(pgDatabase(victim), { schema })
        .append(envelopeOf(key, 2))
        .finally(() => (settled = true));
      // Kill the victim's backend each time it waits on the head's lock: the group commit's statement, then its re-run alone.
      let killed = 0;
      for (let tries = 0; !settled && tries < 400; tries += 1) {
        const { rows } = await databases
          .pool()
          .query<{ terminated: boolean }>(
            `SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
            [name],
          );
        killed += rows.length;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(killed).toBe(2);
      expect(await pending).toMatchObject({ ok: false, code: 'store-unavailable' });
      await holder.query('ROLLBACK');
      expect(await log.replayWindow({ ...key, after: 0 })).toMatchObject({ latestSeq: 1 });
    } finally {
      holder.release();
      await victim.end();
    }
  });

  it('an unreachable server: append and pruneTurns answer store-unavailable, replayWindow and subscribe reject', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres', connectionTimeoutMillis: 2_000 });
    try {
      const log = createPostgresEventLog(pgDatabase(pool), { schema });
      const key = freshTurn();
      expect(await log.append(envelopeOf(key, 1))).toMatchObject({ ok: false, code: 'store-unavailable' });
      expect(await log.pruneTurns({ before: '2001-01-01T00:00:00Z' })).toMatchObject({ ok: false, code: 'store-unavailable' });
      await expect(log.replayWindow({ ...key, after: 0 })).rejects.toThrow();
      await expect(log.subscribe({ ...key, after: 0 }, () => undefined)).rejects.toThrow();
    } finally {
      await pool.end();
    }
  });

  it('a subscription receives what another process appends, in order, and ends terminal', async () => {
    const [reader] = logs();
    const key = freshTurn();
    const seen: number[] = [];
    const ends: ChatEventLogSubscriptionEnd[] = [];
    const unsubscribe = await reader.subscribe(
      { ...key, after: 0 },
      (envelope) => seen.push(envelope.seq),
      (end) => ends.push(end),
    );
    const sent = [envelopeOf(key, 1), envelopeOf(key, 2), envelopeOf(key, 3, DONE)];
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('../test/append-from-child.mjs', import.meta.url)), databases.cluster().url, schema, JSON.stringify(sent)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(
      output
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    ).toEqual([1, 2, 3].map((seq) => ({ ok: true, outcome: 'appended', seq, latestSeq: seq })));
    expect(await waitFor(() => ends.length > 0)).toBe(true);
    expect(seen).toEqual([1, 2, 3]);
    expect(ends).toEqual([{ reason: 'terminal' }]);
    unsubscribe();
  });
});

/** `database` counting the statements it runs, and running `before(text)` ahead of each. */
function counted(database: ChatDatabase, before: (text: string) => Promise<void> = async () => undefined) {
  const statements: string[] = [];
  const run = async <Row extends object>(query: ChatQueryable, text: string, values?: readonly unknown[]) => {
    statements.push(text);
    await before(text);
    return query.query<Row>(text, values);
  };
  const wrapped: ChatDatabase = {
    query: (text, values) => run(database, text, values),
    listen: (channel, onNotification, onLost) => database.listen(channel, onNotification, onLost),
    session: (work) => database.session((connection) => work({ query: (text, values) => run(connection, text, values) })),
  };
  return { database: wrapped, statements };
}

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres', () => databases.postgres()],
])('createPostgresEventLog reads and prunes in bounded pages on %s (DESIGN §9.3, issue 27)', (_name, database) => {
  const FRAMES = 2_500;
  const ENDED_AT = '2001-01-01T00:00:00Z';

  /** A finished turn of `count` frames, stored in one statement (the appends' checks are not what is tested here). */
  async function storedTurn(schema: string, count: number): Promise<{ key: TurnKey; frames: ChatEventEnvelope[] }> {
    const key = freshTurn();
    const frames = Array.from({ length: count }, (_, index) =>
      envelopeOf(key, index + 1, index + 1 === count ? DONE : undefined, ENDED_AT),
    );
    await database().query(
      `INSERT INTO "${schema}".event_log_turns (turn_id, conversation_id, latest_seq, ended_occurred_at, ended_at) VALUES ($1, $2, $3, $4::text, $4::text::timestamptz)`,
      [key.turnId, key.conversationId, count, ENDED_AT],
    );
    await database().query(
      `INSERT INTO "${schema}".event_log (turn_id, seq, conversation_id, event_id, envelope)
       SELECT $1, (frame->>'seq')::int, $2, frame->>'eventId', frame FROM jsonb_array_elements($3::jsonb) AS frame`,
      [key.turnId, key.conversationId, JSON.stringify(frames)],
    );
    return { key, frames };
  }

  it('a 2,500-frame turn replays identically with a page of 1,000 and of 7, one statement per page', async () => {
    const schema = await migrated(database(), 'eventlog_pages');
    const { key, frames } = await storedTurn(schema, FRAMES);
    for (const [pageFrames, after, statements] of [
      [1_000, 0, 3],
      [7, 0, 358],
      [7, 1_234, 181],
      [100_000, 0, 1],
    ] as const) {
      const reads = counted(database());
      const log = createPostgresEventLog(reads.database, { schema, pageFrames });
      expect(await log.replayWindow({ ...key, after })).toEqual({ lowerBound: 0, latestSeq: FRAMES, frames: frames.slice(after) });
      expect(reads.statements.length).toBe(statements);
    }
  });

  it('the catch-up read of a subscription is paged too: every frame once, in order, then terminal', async () => {
    const schema = await migrated(database(), 'eventlog_pages');
    const { key, frames } = await storedTurn(schema, FRAMES);
    const log = createPostgresEventLog(database(), { schema, pageFrames: 7 });
    const delivered: number[] = [];
    let ended: ChatEventLogSubscriptionEnd | undefined;
    const unsubscribe = await log.subscribe(
      { ...key, after: 0 },
      (frame) => delivered.push(frame.seq),
      (end) => (ended = end),
    );
    expect(await waitFor(() => ended !== undefined)).toBe(true);
    unsubscribe();
    expect(delivered).toEqual(frames.map((frame) => frame.seq));
    expect(ended).toEqual({ reason: 'terminal' });
  });

  it('a prune that lands between two pages never tears the window: the replay answers the pruned turn', async () => {
    const schema = await migrated(database(), 'eventlog_pages');
    const { key } = await storedTurn(schema, 20);
    let pruned = false;
    const reads = counted(database(), async (text) => {
      if (pruned || !text.startsWith('SELECT envelope FROM')) return;
      pruned = true;
      expect(await createPostgresEventLog(database(), { schema }).pruneTurns({ before: '2002-01-01T00:00:00Z' })).toEqual({
        ok: true,
        pruned: 1,
      });
    });
    const log = createPostgresEventLog(reads.database, { schema, pageFrames: 7 });
    expect(await log.replayWindow({ ...key, after: 0 })).toEqual({ lowerBound: 20, latestSeq: 20, frames: [] });
    expect(pruned).toBe(true);
  });

  it('pruneTurns prunes more turns than one batch, each batch its own transaction, and answers the total', async () => {
    const schema = await migrated(database(), 'eventlog_prune_batches');
    const expired = await Promise.all(Array.from({ length: 12 }, () => storedTurn(schema, 3)));
    // Ends in the last millisecond of the sweep, after `before`: selected by the millisecond range, kept by the exact instant.
    const log = createPostgresEventLog(database(), { schema });
    const boundary = freshTurn();
    await log.append(envelopeOf(boundary, 1, DONE, '2002-01-01T00:00:00.000000001Z'));
    const running = freshTurn();
    await log.append(envelopeOf(running, 1, undefined, ENDED_AT));
    const batches = counted(database());
    const pruning = createPostgresEventLog(batches.database, { schema, pruneBatchTurns: 5 });
    expect(await pruning.pruneTurns({ before: '2002-01-01T00:00:00Z' })).toEqual({ ok: true, pruned: 12 });
    expect(batches.statements.filter((text) => text === 'BEGIN').length).toBe(3);
    for (const { key } of expired)
      expect(await log.replayWindow({ ...key, after: 0 })).toEqual({ lowerBound: 3, latestSeq: 3, frames: [] });
    expect((await log.replayWindow({ ...boundary, after: 0 })).frames.length).toBe(1);
    expect((await log.replayWindow({ ...running, after: 0 })).frames.length).toBe(1);
    expect(await pruning.pruneTurns({ before: '2002-01-01T00:00:00Z' })).toEqual({ ok: true, pruned: 0 });
  });

  it.each([
    ['pageFrames', 0],
    ['pageFrames', 100_001],
    ['pruneBatchTurns', 1.5],
    ['pruneBatchTurns', '500'],
    ['batchFrames', 0],
    ['batchFrames', 100_001],
  ])('a %s of %j is a TypeError at creation', (name, value) => {
    expect(() => createPostgresEventLog(database(), { [name]: value })).toThrow(
      new TypeError(`createPostgresEventLog: ${name} must be a whole number from 1 to 100000`),
    );
  });
});
