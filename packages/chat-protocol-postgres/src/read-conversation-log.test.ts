import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import { createPostgresChatStore, migrateChatStore, pgDatabase, type ChatDatabase } from './index.js';
import { quoteIdentifier } from './identifiers.js';
import { CHAT_STORE_MIGRATIONS } from './migrations.js';

const databases = useTestDatabases();

const envelopeOf = (
  conversationId: string,
  turnId: string,
  seq: number,
  event: ChatEventEnvelope['event'] = { type: 'delta', text: `text ${seq}` },
  occurredAt = '2031-05-01T08:00:00Z',
): ChatEventEnvelope => ({ schemaVersion: 1, conversationId, turnId, eventId: `${turnId}_e${seq}`, seq, occurredAt, event });
const DONE: ChatEventEnvelope['event'] = { type: 'done', status: 'completed' };

async function openStore(database: ChatDatabase) {
  const schema = freshSchema('conversation_log');
  const migrated = await migrateChatStore(database, { schema });
  if (!migrated.ok) throw new Error(migrated.message);
  return createPostgresChatStore(database, { schema });
}

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres', () => databases.postgres()],
])('readConversationLog on %s (issue 17: the state route reads a conversation in one snapshot)', (_name, database) => {
  it('lists the conversation’s turns in the order they started, each with its frames in seq order, and no other conversation’s', async () => {
    const store = await openStore(database());
    const { eventLog } = store;
    await eventLog.append(envelopeOf('conv_a', 'turn_2', 1));
    await eventLog.append(envelopeOf('conv_b', 'turn_other', 1));
    await eventLog.append(envelopeOf('conv_a', 'turn_1', 1));
    await eventLog.append(envelopeOf('conv_a', 'turn_2', 2, DONE));
    await eventLog.append(envelopeOf('conv_a', 'turn_1', 2));
    expect(await store.readConversationLog({ conversationId: 'conv_a' })).toEqual({
      ok: true,
      value: {
        conversationId: 'conv_a',
        turns: [
          {
            turnId: 'turn_2',
            lowerBound: 0,
            latestSeq: 2,
            ended: true,
            pruned: false,
            frames: [envelopeOf('conv_a', 'turn_2', 1), envelopeOf('conv_a', 'turn_2', 2, DONE)],
          },
          {
            turnId: 'turn_1',
            lowerBound: 0,
            latestSeq: 2,
            ended: false,
            pruned: false,
            frames: [envelopeOf('conv_a', 'turn_1', 1), envelopeOf('conv_a', 'turn_1', 2)],
          },
        ],
      },
    });
    expect(await store.readConversationLog({ conversationId: 'conv_none' })).toEqual({
      ok: true,
      value: { conversationId: 'conv_none', turns: [] },
    });
  });

  it('lists a pruned turn in its place with no frames (DESIGN §9.3 retention)', async () => {
    const store = await openStore(database());
    const { eventLog } = store;
    await eventLog.append(envelopeOf('conv_p', 'turn_old', 1, DONE, '2031-01-01T00:00:00Z'));
    await eventLog.append(envelopeOf('conv_p', 'turn_new', 1));
    expect(await eventLog.pruneTurns({ before: '2031-02-01T00:00:00Z' })).toEqual({ ok: true, pruned: 1 });
    const read = await store.readConversationLog({ conversationId: 'conv_p' });
    expect(read.ok && read.value.turns.map(({ frames, ...turn }) => ({ ...turn, frames: frames.length }))).toEqual([
      { turnId: 'turn_old', lowerBound: 1, latestSeq: 1, ended: true, pruned: true, frames: 0 },
      { turnId: 'turn_new', lowerBound: 0, latestSeq: 1, ended: false, pruned: false, frames: 1 },
    ]);
  });

  it('refuses a conversation past its turn or frame bound with the limit, and reads one exactly at the bound', async () => {
    const store = await openStore(database());
    for (const turnId of ['turn_1', 'turn_2']) {
      await store.eventLog.append(envelopeOf('conv_big', turnId, 1));
      await store.eventLog.append(envelopeOf('conv_big', turnId, 2));
    }
    expect(await store.readConversationLog({ conversationId: 'conv_big', maxTurns: 1 })).toEqual({
      ok: false,
      code: 'too-many-turns',
      message: 'readConversationLog: the conversation has more than 1 turns',
      limit: 1,
    });
    expect(await store.readConversationLog({ conversationId: 'conv_big', maxFrames: 3 })).toEqual({
      ok: false,
      code: 'too-many-frames',
      message: 'readConversationLog: the conversation has more than 3 frames',
      limit: 3,
    });
    const atBound = await store.readConversationLog({ conversationId: 'conv_big', maxTurns: 2, maxFrames: 4 });
    expect(atBound.ok && atBound.value.turns.map((turn) => turn.frames.length)).toEqual([2, 2]);
  });

  it.each([
    [{ conversationId: 'conv with space' }],
    [{ conversationId: 42 }],
    [{ conversationId: 'conv_a', maxTurns: 0 }],
    [{ conversationId: 'conv_a', maxFrames: 1.5 }],
    [{ conversationId: 'conv_a', maxTurns: 2 ** 31 }],
    [null],
  ])('refuses %j as invalid-request without a query', async (request) => {
    const store = await openStore(database());
    expect(await store.readConversationLog(request as never)).toMatchObject({ ok: false, code: 'invalid-request' });
  });

  it('migration 2 numbers the turns a version-1 schema already holds, and new turns follow them', async () => {
    const schema = freshSchema('conversation_log_v1');
    const quoted = quoteIdentifier(schema);
    const v1 = CHAT_STORE_MIGRATIONS[0];
    if (v1 === undefined) throw new Error('no migration 1');
    await database().query(`CREATE SCHEMA ${quoted}`);
    await database().query(
      `CREATE TABLE ${quoted}.migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    for (const statement of v1.statements(quoted)) await database().query(statement);
    await database().query(`INSERT INTO ${quoted}.migrations (version, name) VALUES (1, $1)`, [v1.name]);
    await database().query(`INSERT INTO ${quoted}.event_log_turns (turn_id, conversation_id, latest_seq) VALUES ('turn_v1', 'conv_v', 1)`);
    await database().query(
      `INSERT INTO ${quoted}.event_log (turn_id, seq, conversation_id, event_id, envelope) VALUES ('turn_v1', 1, 'conv_v', $1, $2::jsonb)`,
      ['turn_v1_e1', JSON.stringify(envelopeOf('conv_v', 'turn_v1', 1))],
    );
    expect(await migrateChatStore(database(), { schema })).toEqual({
      ok: true,
      schema,
      fromVersion: 1,
      toVersion: 3,
      applied: [
        { version: 2, name: 'event log turn order per conversation' },
        { version: 3, name: 'running turns by turn id' },
      ],
    });
    const store = createPostgresChatStore(database(), { schema });
    await store.eventLog.append(envelopeOf('conv_v', 'turn_v2', 1));
    const read = await store.readConversationLog({ conversationId: 'conv_v' });
    expect(read.ok && read.value.turns.map((turn) => [turn.turnId, turn.frames.length])).toEqual([
      ['turn_v1', 1],
      ['turn_v2', 1],
    ]);
  });
});

describe('readConversationLog on a real server (one snapshot)', () => {
  it('never tears a turn while another connection appends to it: every read holds exactly seqs lowerBound+1..latestSeq', async () => {
    const store = await openStore(databases.postgres());
    const reads: number[][] = [];
    const appending = (async () => {
      for (let seq = 1; seq <= 60; seq += 1) await store.eventLog.append(envelopeOf('conv_race', 'turn_race', seq));
    })();
    let done = false;
    void appending.then(() => (done = true));
    while (!done) {
      const read = await store.readConversationLog({ conversationId: 'conv_race' });
      if (!read.ok) throw new Error(read.code);
      for (const turn of read.value.turns) {
        expect(turn.frames.map((frame) => frame.seq)).toEqual(Array.from({ length: turn.latestSeq }, (_, index) => index + 1));
        reads.push([turn.latestSeq]);
      }
    }
    await appending;
    expect(reads.length).toBeGreaterThan(0);
  });

  it('answers store-unavailable, never a throw, when the server cannot be reached', async () => {
    const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/postgres', connectionTimeoutMillis: 2_000 });
    try {
      const store = createPostgresChatStore(pgDatabase(pool));
      expect(await store.readConversationLog({ conversationId: 'conv_a' })).toMatchObject({ ok: false, code: 'store-unavailable' });
    } finally {
      await pool.end();
    }
  });
});
