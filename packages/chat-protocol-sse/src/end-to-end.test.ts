import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { FAKE_EVENT_LOG_TABLES, createFakeChatEventLog, createFakeDatabase } from '@papercusp/chat-protocol-testkit';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { runs } from '../../../test-support/property-runs.js';
import { TEN_FRAMES, boundariesOf, foldTurn, servedInOrder } from '../test/end-to-end-turn.js';
import { collect } from '../test/frame-server.js';
import { grownResources, quietResources } from '../test/open-handles.js';
import { startLogServer, type LogServer, type LogServerOptions } from '../test/log-server.js';
import { TURN, appendAll } from '../test/sse-test-server.js';
import { followChatTurn, type FollowChatTurnItem } from './follow-chat-turn.js';
import { readChatStream, type ChatStreamItem } from './read-chat-stream.js';
import { encodeChatSseFrame } from '@papercusp/chat-protocol-core';

// The client and the server of this package together, over a real loopback connection and the testkit's fake log.
const fast = { attempts: 12, baseDelayMs: 1, maxDelayMs: 4 };
const cleanState = foldTurn(TEN_FRAMES, TURN.conversationId);
const total = boundariesOf(TEN_FRAMES).at(-1) as number;

let servers: LogServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});
async function serve(options: Omit<LogServerOptions, 'conversationId' | 'turnId'>): Promise<LogServer> {
  const server = await startLogServer({ ...options, ...TURN });
  servers.push(server);
  return server;
}

const last = <Item>(items: readonly Item[]): Item | undefined => items[items.length - 1];
const stateSeqs = (items: readonly FollowChatTurnItem[]): number[] =>
  items.flatMap((item) => (item.type === 'state' ? [item.envelope.seq] : []));
const envelopeSeqs = (items: readonly ChatStreamItem[]): number[] =>
  items.flatMap((item) => (item.type === 'envelope' ? [item.envelope.seq] : []));
const allSeqs = TEN_FRAMES.map((envelope) => envelope.seq);
// The `Last-Event-ID` each reconnect should carry: the cursor its `reconnecting` item names.
const resumedAfter = (items: readonly (FollowChatTurnItem | ChatStreamItem)[]): (string | undefined)[] =>
  items.flatMap((item) =>
    item.type === 'reconnecting' ? [item.cursor === null ? undefined : `${item.cursor.turnId}:${item.cursor.seq}`] : [],
  );

async function storedLog(envelopes: readonly ChatEventEnvelope[] = TEN_FRAMES) {
  const database = createFakeDatabase();
  const log = createFakeChatEventLog(database);
  await appendAll(log, envelopes);
  return { database, log };
}

describe('followChatTurn against createChatSseResponse over the fake log, cut server-side (issue 16 tests)', () => {
  it('a client cut at every frame boundary, next to each, and in the middle of each frame ends with exactly the state of a clean connection', async () => {
    const { log } = await storedLog();
    const boundaries = boundariesOf(TEN_FRAMES);
    const middles = boundaries.map((end, index) => Math.floor(((boundaries[index - 1] ?? 0) + end) / 2));
    // And every byte of frame 7, whose text holds a four-byte character and a three-byte dash.
    const [start, end] = [boundaries[5] as number, boundaries[6] as number];
    const inFrame = Array.from({ length: end - start }, (_, index) => start + index);
    const cutPoints = [...new Set([0, ...boundaries.flatMap((at) => [at - 1, at, at + 1]), ...middles, ...inFrame])].filter(
      (at) => at < total,
    );
    for (const at of cutPoints) {
      const server = await serve({ log, cutAfterBytes: (index) => (index === 0 ? at : undefined) });
      const items = await collect(followChatTurn({ url: server.url, conversationId: TURN.conversationId, retry: fast }));
      expect(last(items)).toEqual({ type: 'ended', reason: 'terminal', cursor: { turnId: TURN.turnId, seq: 10 }, state: cleanState });
      expect(stateSeqs(items)).toEqual(allSeqs);
      // The cut connection and its resume: one reconnect, the resume after the last whole frame the client got.
      expect(server.served).toHaveLength(2);
      const delivered = boundaries.filter((boundary) => boundary <= at).length;
      expect(server.served[1]?.lastEventId).toBe(delivered === 0 ? undefined : `${TURN.turnId}:${delivered}`);
      expect(server.served.map((connection) => servedInOrder(connection).contiguous)).toEqual([true, true]);
      await server.close();
    }
  });

  it('several cuts at random bytes, one per connection in turn, still end with the clean state, each frame applied once', async () => {
    const { log } = await storedLog();
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: total - 1 }), { maxLength: 6 }), async (cuts) => {
        const server = await serve({ log, cutAfterBytes: (index) => cuts[index] });
        const items = await collect(followChatTurn({ url: server.url, conversationId: TURN.conversationId, retry: fast }));
        expect(last(items)).toEqual({ type: 'ended', reason: 'terminal', cursor: { turnId: TURN.turnId, seq: 10 }, state: cleanState });
        expect(stateSeqs(items)).toEqual(allSeqs);
        expect(server.served.slice(1).map((connection) => connection.lastEventId)).toEqual(resumedAfter(items));
        expect(server.served.every((connection) => servedInOrder(connection).contiguous)).toBe(true);
        await server.close();
      }),
      { numRuns: runs(25) },
    );
  });

  it('frames a writer appends while the client reads and reconnects are all delivered exactly once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 9 }),
        fc.array(fc.integer({ min: 0, max: total - 1 }), { maxLength: 5 }),
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 10, maxLength: 10 }),
        async (stored, cuts, pauses) => {
          const { log } = await storedLog(TEN_FRAMES.slice(0, stored));
          const server = await serve({ log, cutAfterBytes: (index) => cuts[index] });
          // The writer runs beside the client: each append after a drawn number of event-loop turns, racing reads, cuts and resumes.
          const writer = (async () => {
            for (const [index, envelope] of TEN_FRAMES.slice(stored).entries()) {
              for (let turn = 0; turn < (pauses[index] ?? 0); turn += 1) await new Promise((resolve) => setImmediate(resolve));
              await appendAll(log, [envelope]);
            }
          })();
          const [items] = await Promise.all([collect(readChatStream({ url: server.url, retry: fast, timeoutMs: 2_000 })), writer]);
          expect(envelopeSeqs(items)).toEqual(allSeqs);
          expect(last(items)).toEqual({ type: 'ended', reason: 'terminal', cursor: { turnId: TURN.turnId, seq: 10 } });
          expect(server.served.slice(1).map((connection) => connection.lastEventId)).toEqual(resumedAfter(items));
          // No frame lost on the way: every connection but the last ended because the test cut it, none because the server
          // closed on a gap or the client timed out waiting for a frame that never came. The last one may be cut too, when
          // the cut falls right after the terminal frame (the client has it all and does not come back).
          expect(server.served.slice(0, -1).filter((connection) => !connection.cut)).toEqual([]);
          // The server side too: each connection sent the frames after its cursor, in order, none twice.
          expect(server.served.filter((connection) => !servedInOrder(connection).contiguous)).toEqual([]);
          await server.close();
        },
      ),
      {
        numRuns: runs(25),
        // A cut right after the terminal frame, where the last connection is cut too (found by the soak run).
        examples: [[0, [624, 1497], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]],
      },
    );
  });
});

describe('the end of the road, end to end (DESIGN §10)', () => {
  it('a cursor the log pruned away: the client yields refused 410 stale-cursor with lowerBound and latestSeq, and ends refused', async () => {
    const { log } = await storedLog();
    const pruned = await log.pruneTurns({ before: '2099-01-01T00:00:00Z' });
    expect(pruned).toEqual({ ok: true, pruned: 1 });
    const server = await serve({ log });
    const cursor = { turnId: TURN.turnId, seq: 4 };
    const items = await collect(followChatTurn({ url: server.url, conversationId: TURN.conversationId, cursor, retry: fast }));
    expect(items).toEqual([
      { type: 'refused', status: 410, code: 'stale-cursor', lowerBound: 10, latestSeq: 10 },
      { type: 'ended', reason: 'refused', cursor, state: foldTurn([], TURN.conversationId) },
    ]);
  });

  it('a cursor at the end of a finished turn: the server answers 204 and the client ends no-content', async () => {
    const { log } = await storedLog();
    const server = await serve({ log });
    const cursor = { turnId: TURN.turnId, seq: 10 };
    const items = await collect(
      followChatTurn({ url: server.url, conversationId: TURN.conversationId, cursor, state: cleanState, retry: fast }),
    );
    expect(items).toEqual([{ type: 'ended', reason: 'no-content', cursor, state: cleanState }]);
    expect(server.served.map((connection) => connection.status)).toEqual([204]);
  });
});

describe('abort mid-stream, end to end (issue 16: no open handle on either side)', () => {
  it('aborting a live turn leaves no socket, timer or subscription on the client or the server', async () => {
    // An unfinished turn: the server holds the stream open on a live subscription and a heartbeat timer.
    const { database, log } = await storedLog(TEN_FRAMES.slice(0, 4));
    const subscriptions = database.table(FAKE_EVENT_LOG_TABLES.subscriptions);
    const server = await serve({ log });
    const before = await quietResources();
    const controller = new AbortController();
    const items: FollowChatTurnItem[] = [];
    for await (const item of followChatTurn({
      url: server.url,
      conversationId: TURN.conversationId,
      signal: controller.signal,
      retry: fast,
    })) {
      items.push(item);
      if (item.type === 'state' && item.envelope.seq === 4) {
        expect(subscriptions.size).toBe(1);
        setImmediate(() => controller.abort());
      }
    }
    expect(last(items)).toEqual({
      type: 'ended',
      reason: 'aborted',
      cursor: { turnId: TURN.turnId, seq: 4 },
      state: foldTurn(TEN_FRAMES.slice(0, 4), TURN.conversationId),
    });
    // Closing is asynchronous: poll for at most two seconds (a bound, not a timing assertion).
    for (let round = 0; round < 200; round += 1) {
      server.closeUnusedConnections();
      if (server.openConnections() === 0 && subscriptions.size === 0 && grownResources(before).length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(server.openConnections()).toBe(0);
    expect(subscriptions.size).toBe(0);
    expect(grownResources(before)).toEqual([]);
  });
});

describe("readChatStream honours createChatSseResponse's retry: field (DESIGN §10, issue 24)", () => {
  it('after a drop it waits the server-sent retry, not its own far longer base delay', async () => {
    const { log } = await storedLog();
    const retryMs = 40;
    // Cut connection 0 right after its retry: field and two frames.
    const cut = Buffer.byteLength(`retry: ${retryMs}\n\n${encodeChatSseFrame(TEN_FRAMES[0]!)}${encodeChatSseFrame(TEN_FRAMES[1]!)}`);
    const server = await serve({ log, retryMs, cutAfterBytes: (index) => (index === 0 ? cut : undefined) });
    const items = await collect(
      readChatStream({ url: server.url, retry: { attempts: 2, baseDelayMs: 600_000, maxDelayMs: 600_000 }, timeoutMs: 10_000 }),
    );
    const reconnects = items.flatMap((item) => (item.type === 'reconnecting' ? [item] : []));
    expect(reconnects).toHaveLength(1);
    expect(reconnects[0]?.cursor).toEqual({ turnId: TURN.turnId, seq: 2 });
    // A uniform draw in [½, 1] of the server's retry.
    expect(reconnects[0]?.delayMs).toBeGreaterThanOrEqual(retryMs / 2);
    expect(reconnects[0]?.delayMs).toBeLessThanOrEqual(retryMs);
    expect(envelopeSeqs(items)).toEqual(allSeqs);
    expect(last(items)).toMatchObject({ type: 'ended', reason: 'terminal' });
  });
});
