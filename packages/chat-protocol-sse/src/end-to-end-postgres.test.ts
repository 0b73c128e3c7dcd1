import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { createPostgresEventLog, pgDatabase } from '@papercusp/chat-protocol-postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { TEN_FRAMES, boundariesOf, foldTurn, servedInOrder } from '../test/end-to-end-turn.js';
import { collect } from '../test/frame-server.js';
import { startLogServer, type LogServer } from '../test/log-server.js';
import { E2E_SCHEMA, usePostgresPools } from '../test/postgres-pools.js';
import { appendAll } from '../test/sse-test-server.js';
import type { ChatStreamFetch } from './read-chat-stream.js';
import { followChatTurn } from './follow-chat-turn.js';

// The transport over the real Postgres event log, as two host processes would run it: each server its own pool and log.
const databases = usePostgresPools();
const fast = { attempts: 12, baseDelayMs: 1, maxDelayMs: 4 };

let servers: LogServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

let turns = 0;
// A turn of its own for each case: the ten frames under fresh ids.
function freshTurn(): { readonly conversationId: string; readonly turnId: string; readonly frames: ChatEventEnvelope[] } {
  turns += 1;
  const conversationId = `conv_e2e_${process.pid}_${turns}`;
  const turnId = `turn_e2e_${process.pid}_${turns}`;
  const frames = TEN_FRAMES.map((envelope) => ({ ...envelope, conversationId, turnId, eventId: `${turnId}_${envelope.seq}` }));
  return { conversationId, turnId, frames };
}

const boundaries = boundariesOf(TEN_FRAMES);
const middle = (frame: number): number => Math.floor(((boundaries[frame - 2] ?? 0) + (boundaries[frame - 1] as number)) / 2);

// (frames stored before the client connects, cuts of host A's connections, cuts of host B's connections), in bytes of each body.
const CASES: readonly (readonly [string, number, readonly number[], readonly number[]])[] = [
  ['everything stored, cuts mid-frame', 10, [middle(3), middle(2)], [middle(2), middle(2)]],
  ['half stored, cuts at boundaries and mid-frame', 5, [boundaries[1] as number, 0], [middle(2), boundaries[0] as number]],
  ['nothing stored, every connection cut early', 0, [middle(1), middle(1), middle(1)], [middle(1), middle(1), middle(1)]],
];

describe('followChatTurn resuming across two hosts over the Postgres event log (DESIGN §9.3, §10, issue 16)', () => {
  it.each(CASES)(
    '%s: a client cut off from one host resumes on the other while a writer appends through a third pool, and ends with every frame once, in order, and the terminal state',
    async (_, stored, cutsOfA, cutsOfB) => {
      const { conversationId, turnId, frames } = freshTurn();
      const [hostA, hostB, writer] = [databases.pool(), databases.pool(), databases.pool()].map((pool) =>
        createPostgresEventLog(pgDatabase(pool), { schema: E2E_SCHEMA }),
      ) as [
        ReturnType<typeof createPostgresEventLog>,
        ReturnType<typeof createPostgresEventLog>,
        ReturnType<typeof createPostgresEventLog>,
      ];
      await appendAll(writer, frames.slice(0, stored));
      const a = await startLogServer({ log: hostA, conversationId, turnId, cutAfterBytes: (index) => cutsOfA[index] });
      const b = await startLogServer({ log: hostB, conversationId, turnId, cutAfterBytes: (index) => cutsOfB[index] });
      servers.push(a, b);
      // Attempt 0 goes to host A, attempt 1 to host B, and so on: every resume lands on the other host.
      let attempts = 0;
      const alternate: ChatStreamFetch = (_url, init) => {
        const url = attempts % 2 === 0 ? a.url : b.url;
        attempts += 1;
        return fetch(url, init);
      };
      const appending = (async () => {
        for (const envelope of frames.slice(stored)) {
          await new Promise((resolve) => setTimeout(resolve, 2));
          await appendAll(writer, [envelope]);
        }
      })();
      const [items] = await Promise.all([
        collect(followChatTurn({ url: a.url, fetch: alternate, conversationId, retry: fast, timeoutMs: 10_000 })),
        appending,
      ]);
      expect(items.flatMap((item) => (item.type === 'state' ? [item.envelope.seq] : []))).toEqual(frames.map((frame) => frame.seq));
      expect(items[items.length - 1]).toEqual({
        type: 'ended',
        reason: 'terminal',
        cursor: { turnId, seq: 10 },
        state: foldTurn(frames, conversationId),
      });
      // Both hosts served, in turn, each resume after the client's last frame, each connection contiguous after its cursor.
      const served = [
        ...a.served.map((connection, index) => [2 * index, connection] as const),
        ...b.served.map((connection, index) => [2 * index + 1, connection] as const),
      ]
        .sort(([left], [right]) => left - right)
        .map(([, connection]) => connection);
      expect(served).toHaveLength(attempts);
      expect(b.served.length).toBeGreaterThan(0);
      const resumedAfter = items.flatMap((item) =>
        item.type === 'reconnecting' ? [item.cursor === null ? undefined : `${item.cursor.turnId}:${item.cursor.seq}`] : [],
      );
      expect(served.slice(1).map((connection) => connection.lastEventId)).toEqual(resumedAfter);
      expect(served.filter((connection) => !servedInOrder(connection).contiguous)).toEqual([]);
      // Every connection but the last was cut by the test (the last may be too, right after the terminal frame).
      expect(served.slice(0, -1).filter((connection) => !connection.cut)).toEqual([]);
    },
  );
});
