/**
 * Restart durability (issue 15): one process writes through the store while
 * the server is stopped hard (`pg_ctl stop -m immediate`, a crash recovered
 * from the WAL), and a fresh process reads after it starts again. Everything
 * the writer was told committed is there; nothing half-written is visible.
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import { migrateChatStore } from './index.js';

const databases = useTestDatabases();
const writerScript = fileURLToPath(new URL('../test/durability-writer.mjs', import.meta.url));
const readerScript = fileURLToPath(new URL('../test/durability-reader.mjs', import.meta.url));

interface Acknowledged {
  readonly event: number[];
  readonly turn: number[];
  readonly card: number[];
}

/** Runs the writer until each of its loops had `enough` writes acknowledged, then crashes the server under it. */
async function writeThenCrash(url: string, schema: string, enough: number): Promise<Acknowledged> {
  const acknowledged: Acknowledged = { event: [], turn: [], card: [] };
  const writer = spawn(process.execPath, [writerScript, url, schema], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  writer.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let pending = '';
  try {
    await new Promise<void>((resolve, reject) => {
      writer.once('exit', (code) => reject(new Error(`the writer exited (${code}) before the crash: ${stderr}`)));
      writer.stdout.on('data', (chunk: Buffer) => {
        pending += chunk.toString();
        const lines = pending.split('\n');
        pending = lines.pop() ?? '';
        for (const line of lines) {
          const [kind, number] = line.split(' ') as [keyof Acknowledged, string];
          acknowledged[kind].push(Number(number));
        }
        if (Object.values(acknowledged).every((numbers) => numbers.length >= enough)) resolve();
      });
    });
    // Stop the server under the writer's writes in flight: a crash, not a shutdown.
    await databases.cluster().stop('immediate');
  } finally {
    writer.kill('SIGKILL');
  }
  return acknowledged;
}

describe('restart durability on a real server (issue 15)', () => {
  it('keeps every acknowledged write through a crash, and shows nothing half-written', async () => {
    const schema = freshSchema('durable');
    expect(await migrateChatStore(databases.postgres(), { schema })).toMatchObject({ ok: true });
    const url = databases.cluster().url;
    const acknowledged = await writeThenCrash(url, schema, 30);
    await databases.cluster().start();

    const turnsToRead = Math.max(...acknowledged.turn) + 5;
    const cardsToRead = Math.max(...acknowledged.card) + 5;
    const reader = spawnSync(process.execPath, [readerScript, url, schema, String(turnsToRead), String(cardsToRead)], { encoding: 'utf8' });
    expect(reader.stderr).toBe('');
    const read = JSON.parse(reader.stdout) as {
      latestSeq: number;
      seqs: number[];
      turns: ({ revision: number; status: string; effects: number } | null)[];
      cards: string[];
    };

    // Every acknowledged frame is there, the log is contiguous from 1, and the head agrees with its frames.
    expect(read.latestSeq).toBeGreaterThanOrEqual(Math.max(...acknowledged.event));
    expect(read.seqs).toEqual(Array.from({ length: read.latestSeq }, (_, index) => index + 1));
    // Every acknowledged turn and card is there, whole; past them, a write either landed whole or not at all.
    for (const index of acknowledged.turn) expect(read.turns[index]).toEqual({ revision: 1, status: 'running', effects: 2 });
    for (const turn of read.turns) if (turn !== null) expect(turn).toEqual({ revision: 1, status: 'running', effects: 2 });
    for (const index of acknowledged.card) expect(read.cards[index]).toBe('pending');
    for (const status of read.cards) expect(['pending', 'not-found']).toContain(status);

    // Nothing half-written: every card row has its outbox row, and no placeholder or admission outlived its transaction.
    const pool = databases.pool();
    const orphanRows = await pool.query(
      `SELECT count(*)::int AS count FROM "${schema}".interactions AS card
        WHERE card.record IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM "${schema}".interaction_outbox AS outbox
           WHERE outbox.conversation_id = card.conversation_id AND outbox.correlation_id = card.correlation_id AND outbox.revision = card.revision)`,
    );
    expect(orphanRows.rows).toEqual([{ count: 0 }]);
    const heads = await pool.query(
      `SELECT head.latest_seq, (SELECT count(*)::int FROM "${schema}".event_log AS frame WHERE frame.turn_id = head.turn_id) AS frames
         FROM "${schema}".event_log_turns AS head`,
    );
    for (const head of heads.rows as { latest_seq: number; frames: number }[]) expect(head.frames).toBe(head.latest_seq);
  }, 120_000);
});
