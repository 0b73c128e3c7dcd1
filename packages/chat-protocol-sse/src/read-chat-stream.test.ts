import { CHAT_LIMITS, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FrameServer, collect, cutEach, cutsArbitrary, frameBoundaries, sampleTurn, useFrameServers } from '../test/frame-server.js';
import { grownResources, quietResources } from '../test/open-handles.js';
import { readChatStream, type ChatStreamItem } from './read-chat-stream.js';

const turn = sampleTurn();
const fast = { attempts: 3, baseDelayMs: 1, maxDelayMs: 4 };
const serverFor = useFrameServers(turn);

const envelopesOf = (items: readonly ChatStreamItem[]): ChatEventEnvelope[] =>
  items.flatMap((item) => (item.type === 'envelope' ? [item.envelope] : []));
const last = (items: readonly ChatStreamItem[]): ChatStreamItem | undefined => items[items.length - 1];

describe('readChatStream on a clean connection (DESIGN §10)', () => {
  it('yields connected, every envelope strictly parsed in seq order, then ended terminal at done', async () => {
    const server = await serverFor(() => ({ kind: 'frames' }));
    const items = await collect(readChatStream({ url: server.url, headers: { authorization: 'Bearer t' } }));
    expect(items[0]).toEqual({ type: 'connected', attempt: 0, cursor: null });
    expect(envelopesOf(items)).toEqual(turn);
    expect(last(items)).toEqual({ type: 'ended', reason: 'terminal', cursor: { turnId: 'turn_1', seq: 7 } });
    expect(server.requests).toEqual([{ lastEventId: undefined, accept: 'text/event-stream', authorization: 'Bearer t' }]);
  });

  it('resumes after the given cursor: Last-Event-ID is formatChatCursor(cursor)', async () => {
    const server = await serverFor(() => ({ kind: 'frames' }));
    const items = await collect(readChatStream({ url: server.url, cursor: { turnId: 'turn_1', seq: 4 } }));
    expect(envelopesOf(items).map((envelope) => envelope.seq)).toEqual([5, 6, 7]);
    expect(server.requests[0]?.lastEventId).toBe('turn_1:4');
  });
});

describe('readChatStream resumes after a drop (issue 16: cut at every frame boundary and mid-frame)', () => {
  it('a connection cut at every frame boundary resumes with the last cursor and yields each envelope exactly once', async () => {
    for (const boundary of frameBoundaries(turn).slice(0, -1)) {
      const server = await serverFor((index) => (index === 0 ? { kind: 'frames', cutAfterBytes: boundary } : { kind: 'frames' }));
      const items = await collect(readChatStream({ url: server.url, retry: fast }));
      expect(envelopesOf(items)).toEqual(turn);
      const seqAtCut = frameBoundaries(turn).indexOf(boundary) + 1;
      expect(server.requests.map((request) => request.lastEventId)).toEqual([undefined, `turn_1:${seqAtCut}`]);
      expect(last(items)).toMatchObject({ type: 'ended', reason: 'terminal' });
    }
  });

  it('any list of cuts at any byte, reset or clean end, gives exactly the clean envelopes; the cursor never moves backwards', async () => {
    await fc.assert(
      fc.asyncProperty(cutsArbitrary(turn, 6), async (cuts) => {
        const server = await serverFor(cutEach(cuts));
        const items = await collect(readChatStream({ url: server.url, retry: { ...fast, attempts: cuts.length + 1 } }));
        expect(envelopesOf(items)).toEqual(turn);
        expect(last(items)).toMatchObject({ type: 'ended', reason: 'terminal' });
        const resumedAt = server.requests.map((request) => Number(request.lastEventId?.split(':')[1] ?? 0));
        expect(resumedAt).toEqual([...resumedAt].sort((a, b) => a - b));
        await server.close();
      }),
      { numRuns: 40 },
    );
  });

  it('a host that replays from the start after a reconnect: no seq is yielded twice', async () => {
    const cut = frameBoundaries(turn)[2]!;
    const server = await serverFor((index) =>
      index === 0 ? { kind: 'frames', cutAfterBytes: cut } : { kind: 'frames', ignoreCursor: true },
    );
    const items = await collect(readChatStream({ url: server.url, retry: fast }));
    expect(envelopesOf(items)).toEqual(turn);
  });

  it('a frame past the next seq is invalid-frame seq-gap and the client resumes after the last good frame', async () => {
    const server = await serverFor((index) => (index === 0 ? { kind: 'frames', skipSeq: 3 } : { kind: 'frames' }));
    const items = await collect(readChatStream({ url: server.url, retry: fast }));
    expect(items.find((item) => item.type === 'invalid-frame')).toMatchObject({ code: 'seq-gap', id: 'turn_1:4', event: 'delta' });
    expect(envelopesOf(items)).toEqual(turn);
    expect(server.requests[1]?.lastEventId).toBe('turn_1:2');
  });

  it('a frame of another turn than the cursor is invalid-frame foreign-turn', async () => {
    const server = await serverFor(() => ({ kind: 'frames' }), sampleTurn('turn_2'));
    const items = await collect(readChatStream({ url: server.url, cursor: { turnId: 'turn_1', seq: 0 }, retry: { ...fast, attempts: 0 } }));
    expect(items.map((item) => item.type)).toEqual(['connected', 'invalid-frame', 'ended']);
    expect(items[1]).toMatchObject({ code: 'foreign-turn' });
    expect(last(items)).toMatchObject({ reason: 'gave-up', failure: { code: 'invalid-frame' } });
  });

  it('a new envelope resets the attempt count: more drops than attempts still finish when each makes progress', async () => {
    const server = await serverFor(() => ({ kind: 'frames', cutAfterFrames: 1 }));
    const items = await collect(readChatStream({ url: server.url, retry: { ...fast, attempts: 1 } }));
    expect(envelopesOf(items)).toEqual(turn);
    expect(items.filter((item) => item.type === 'reconnecting').every((item) => item.type === 'reconnecting' && item.attempt === 1)).toBe(
      true,
    );
  });
});

describe('readChatStream stops and refuses with typed items (DESIGN §10)', () => {
  it('204 ends no-content without reconnecting', async () => {
    const server = await serverFor(() => ({ kind: 'status', status: 204 }));
    const items = await collect(readChatStream({ url: server.url, retry: fast }));
    expect(items).toEqual([{ type: 'ended', reason: 'no-content', cursor: null }]);
    expect(server.requests).toHaveLength(1);
  });

  it.each([
    [410, 'stale-cursor', 3, 7],
    [409, 'cursor-beyond-latest', 0, 7],
  ])(
    '%i with { code, lowerBound, latestSeq } is refused with those fields, and nothing is retried',
    async (status, code, lowerBound, latestSeq) => {
      const body = JSON.stringify({ code, lowerBound, latestSeq });
      const server = await serverFor(() => ({ kind: 'status', status, body, contentType: 'application/json' }));
      const cursor = { turnId: 'turn_1', seq: 9 };
      const items = await collect(readChatStream({ url: server.url, cursor, retry: fast }));
      expect(items).toEqual([
        { type: 'refused', status, code, lowerBound, latestSeq },
        { type: 'ended', reason: 'refused', cursor },
      ]);
      expect(server.requests).toHaveLength(1);
    },
  );

  it('a 4xx whose body is not the JSON refusal is refused as http-error', async () => {
    const server = await serverFor(() => ({ kind: 'status', status: 404, body: '<h1>Not found</h1>', contentType: 'text/html' }));
    const items = await collect(readChatStream({ url: server.url, retry: fast }));
    expect(items).toEqual([
      { type: 'refused', status: 404, code: 'http-error' },
      { type: 'ended', reason: 'refused', cursor: null },
    ]);
  });
});

describe('readChatStream against hostile servers: a typed outcome, never a hang or a throw (issue 16)', () => {
  it('500 is retried up to the attempt bound, then gave-up with the failure', async () => {
    const server = await serverFor(() => ({ kind: 'status', status: 500, body: 'oops' }));
    const items = await collect(readChatStream({ url: server.url, retry: fast }));
    expect(items.map((item) => item.type)).toEqual(['reconnecting', 'reconnecting', 'reconnecting', 'ended']);
    expect(items.map((item) => (item.type === 'reconnecting' ? item.attempt : null))).toEqual([1, 2, 3, null]);
    expect(last(items)).toEqual({
      type: 'ended',
      reason: 'gave-up',
      cursor: null,
      failure: { code: 'unexpected-status', message: 'HTTP 500', status: 500 },
    });
    expect(server.requests).toHaveLength(4);
  });

  it('an HTML 200 is not-event-stream', async () => {
    const server = await serverFor(() => ({ kind: 'raw', body: '<!doctype html><p>login</p>', contentType: 'text/html' }));
    const items = await collect(readChatStream({ url: server.url, retry: { ...fast, attempts: 1 } }));
    expect(last(items)).toMatchObject({ reason: 'gave-up', failure: { code: 'not-event-stream', status: 200 } });
    expect(server.requests).toHaveLength(2);
  });

  it('garbage frames are invalid-frame with the strict parser code, then gave-up', async () => {
    const garbage = 'event: delta\nid: turn_1:1\ndata: {"nope":\n\n';
    const server = await serverFor(() => ({ kind: 'raw', body: garbage }));
    const items = await collect(readChatStream({ url: server.url, retry: { ...fast, attempts: 1 } }));
    expect(items.filter((item) => item.type === 'invalid-frame').map((item) => item.type === 'invalid-frame' && item.code)).toEqual([
      'invalid-json',
      'invalid-json',
    ]);
    expect(last(items)).toMatchObject({ reason: 'gave-up', failure: { code: 'invalid-frame' } });
  });

  it('a message longer than the envelope limit is invalid-frame too-large before it ends (the parser buffers no more)', async () => {
    const huge = `event: delta\nid: turn_1:1\ndata: ${'x'.repeat(CHAT_LIMITS.maxEnvelopeLength + 2_048)}`;
    const server = await serverFor(() => ({ kind: 'raw', body: huge }));
    const items = await collect(readChatStream({ url: server.url, retry: { ...fast, attempts: 0 } }));
    expect(items.map((item) => item.type)).toEqual(['connected', 'invalid-frame', 'ended']);
    expect(items[1]).toMatchObject({ code: 'too-large' });
  });

  it('random bytes as an event stream always end with one typed ended item', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (bytes) => {
        const server = await serverFor(() => ({ kind: 'raw', body: bytes }));
        const items = await collect(readChatStream({ url: server.url, retry: { ...fast, attempts: 0 } }));
        expect(items.filter((item) => item.type === 'ended')).toHaveLength(1);
        expect(last(items)).toMatchObject({ type: 'ended', reason: 'gave-up' });
        await server.close();
      }),
      { numRuns: 30 },
    );
  });

  it('a server that never answers, or sends headers then nothing, times out per attempt', async () => {
    for (const kind of ['silent', 'headers-then-silent'] as const) {
      const server = await serverFor(() => ({ kind }));
      const items = await collect(readChatStream({ url: server.url, timeoutMs: 300, retry: { ...fast, attempts: 1 } }));
      expect(last(items)).toMatchObject({ reason: 'gave-up', failure: { code: 'timeout', message: 'no answer within 300 ms' } });
      expect(server.requests).toHaveLength(2);
    }
  });

  it('a fetch that throws or rejects is network-error', async () => {
    const throwing = (): Promise<Response> => {
      throw new Error('offline');
    };
    const rejecting = (): Promise<Response> => Promise.reject(new TypeError('fetch failed'));
    for (const [fetch, message] of [
      [throwing, 'offline'],
      [rejecting, 'fetch failed'],
    ] as const) {
      const items = await collect(readChatStream({ url: 'http://127.0.0.1:9/turn', fetch, retry: { ...fast, attempts: 0 } }));
      expect(items).toEqual([{ type: 'ended', reason: 'gave-up', cursor: null, failure: { code: 'network-error', message } }]);
    }
  });
});

describe('readChatStream and a resumed stream that disagrees with itself (DESIGN §10, issue 24)', () => {
  // Seq 3 of the turn, sent again with other content or under another event id.
  const third = turn[2]!;
  const withThird = (replacement: ChatEventEnvelope): ChatEventEnvelope[] =>
    turn.map((envelope) => (envelope.seq === 3 ? replacement : envelope));
  const otherContent = withThird({ ...third, event: { ...third.event, summary: 'refusé' } as ChatEventEnvelope['event'] });
  const otherEventId = withThird({ ...third, eventId: 'evt_turn_1_3_again' });

  for (const [name, replayed] of [
    ['other content', otherContent],
    ['another event id', otherEventId],
  ] as const) {
    it(`a delivered seq replayed on reconnect with ${name} is invalid-frame conflicting-duplicate, never dropped unseen`, async () => {
      // Cut after seq 3; the reconnect replays from the start with another seq 3 (then its own 4 and 5); the next one is clean.
      const server = await serverFor((index) =>
        index === 0
          ? { kind: 'frames', cutAfterFrames: 3 }
          : index === 1
            ? { kind: 'frames', ignoreCursor: true, envelopes: replayed }
            : { kind: 'frames' },
      );
      const items = await collect(readChatStream({ url: server.url, retry: fast }));
      expect(items.filter((item) => item.type === 'invalid-frame')).toEqual([
        {
          type: 'invalid-frame',
          code: 'conflicting-duplicate',
          message: 'seq 3 of turn turn_1 came again with other content',
          id: 'turn_1:3',
          event: 'tool_result',
        },
      ]);
      // The client keeps the seq 3 it delivered and takes nothing built on the other one.
      expect(envelopesOf(items)).toEqual(turn);
      expect(server.requests.map((request) => request.lastEventId)).toEqual([undefined, 'turn_1:3', 'turn_1:3']);
      expect(items.filter((item) => item.type === 'reconnecting').map((item) => item.type === 'reconnecting' && item.failure.code)).toEqual(
        ['stream-ended', 'invalid-frame'],
      );
      expect(last(items)).toEqual({ type: 'ended', reason: 'terminal', cursor: { turnId: 'turn_1', seq: 7 } });
    });
  }

  it('an identical redelivery of delivered seqs stays silently absorbed', async () => {
    const server = await serverFor((index) =>
      index === 0 ? { kind: 'frames', cutAfterFrames: 3 } : { kind: 'frames', ignoreCursor: true, envelopes: structuredClone(turn) },
    );
    const items = await collect(readChatStream({ url: server.url, retry: fast }));
    expect(items.filter((item) => item.type === 'invalid-frame')).toEqual([]);
    expect(envelopesOf(items)).toEqual(turn);
    expect(last(items)).toEqual({ type: 'ended', reason: 'terminal', cursor: { turnId: 'turn_1', seq: 7 } });
  });

  it('a seq at or below the starting cursor, which this iterator never delivered, is skipped: there is nothing to compare it with', async () => {
    const server = await serverFor(() => ({ kind: 'frames', ignoreCursor: true, envelopes: otherContent }));
    const items = await collect(readChatStream({ url: server.url, cursor: { turnId: 'turn_1', seq: 3 }, retry: fast }));
    expect(items.filter((item) => item.type === 'invalid-frame')).toEqual([]);
    expect(envelopesOf(items).map((envelope) => envelope.seq)).toEqual([4, 5, 6, 7]);
  });
});

describe('readChatStream backoff (DESIGN §10: exponential with jitter, honouring retry:, bounded)', () => {
  const delays = (items: readonly ChatStreamItem[]): number[] =>
    items.flatMap((item) => (item.type === 'reconnecting' ? [item.delayMs] : []));

  it('without retry: delay n is drawn in [½, 1] of min(maxDelayMs, baseDelayMs × 2^(n−1))', async () => {
    const server = await serverFor(() => ({ kind: 'status', status: 503 }));
    const items = await collect(readChatStream({ url: server.url, retry: { attempts: 5, baseDelayMs: 4, maxDelayMs: 40 } }));
    const ceilings = [4, 8, 16, 32, 40];
    delays(items).forEach((delay, index) => {
      expect(delay).toBeGreaterThanOrEqual(ceilings[index]! / 2);
      expect(delay).toBeLessThanOrEqual(ceilings[index]!);
    });
    expect(delays(items)).toHaveLength(5);
  });

  it("the server's retry: replaces the base delay, and maxDelayMs caps even a huge one", async () => {
    for (const [retryMs, ceiling] of [
      [6, 6],
      [1_000_000_000, 20],
    ] as const) {
      const server = await serverFor(() => ({ kind: 'frames', retryMs, cutAfterBytes: 12 + String(retryMs).length }));
      const items = await collect(readChatStream({ url: server.url, retry: { attempts: 1, baseDelayMs: 60_000, maxDelayMs: 20 } }));
      const [delay] = delays(items);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
  });
});

describe('readChatStream abort and leaving the loop release everything (issue 16: no open handle)', () => {
  // Closing is asynchronous: poll for at most two seconds (a bound, not a timing assertion).
  async function settled(server: FrameServer, before: Record<string, number>): Promise<void> {
    for (let round = 0; round < 200; round += 1) {
      server.closeUnusedConnections();
      if (server.openConnections() === 0 && grownResources(before).length === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it.each([
    ['while the consumer holds a frame', 2, false],
    ['while a read is pending', 3, true],
  ])('abort mid-stream %s ends aborted; the socket and every timer are gone', async (_, abortAt, later) => {
    const server = await serverFor(() => ({ kind: 'frames', holdOpen: true }), turn.slice(0, 3));
    const before = await quietResources();
    const controller = new AbortController();
    const items: ChatStreamItem[] = [];
    for await (const item of readChatStream({ url: server.url, signal: controller.signal, retry: fast })) {
      items.push(item);
      if (item.type === 'envelope' && item.envelope.seq === abortAt) {
        if (later) setImmediate(() => controller.abort());
        else controller.abort();
      }
    }
    expect(last(items)).toEqual({ type: 'ended', reason: 'aborted', cursor: { turnId: 'turn_1', seq: abortAt } });
    await settled(server, before);
    expect(server.openConnections()).toBe(0);
    expect(grownResources(before)).toEqual([]);
  });

  it('abort while waiting to reconnect ends at once and clears the backoff timer', async () => {
    const server = await serverFor(() => ({ kind: 'status', status: 503 }));
    const before = await quietResources();
    const controller = new AbortController();
    const items: ChatStreamItem[] = [];
    for await (const item of readChatStream({
      url: server.url,
      signal: controller.signal,
      retry: { attempts: 5, baseDelayMs: 600_000, maxDelayMs: 600_000 },
    })) {
      items.push(item);
      if (item.type === 'reconnecting') setImmediate(() => controller.abort());
    }
    expect(items.map((item) => item.type)).toEqual(['reconnecting', 'ended']);
    expect(last(items)).toMatchObject({ reason: 'aborted' });
    await settled(server, before);
    expect(grownResources(before)).toEqual([]);
  });

  it('break out of the loop closes the connection', async () => {
    const server = await serverFor(() => ({ kind: 'frames', holdOpen: true }), turn.slice(0, 3));
    const before = await quietResources();
    for await (const item of readChatStream({ url: server.url, retry: fast })) {
      if (item.type === 'envelope') break;
    }
    await settled(server, before);
    expect(server.openConnections()).toBe(0);
    expect(grownResources(before)).toEqual([]);
  });

  it('an already aborted signal ends aborted without a request', async () => {
    const server = await serverFor(() => ({ kind: 'frames' }));
    const items = await collect(readChatStream({ url: server.url, signal: AbortSignal.abort() }));
    expect(items).toEqual([{ type: 'ended', reason: 'aborted', cursor: null }]);
    expect(server.requests).toHaveLength(0);
  });
});

describe('readChatStream options', () => {
  it('throws TypeError when called with a malformed cursor or a negative setting', () => {
    expect(() => readChatStream({ url: 'http://127.0.0.1/', cursor: { turnId: 'has space', seq: 1 } })).toThrow(TypeError);
    expect(() => readChatStream({ url: 'http://127.0.0.1/', retry: { attempts: -1 } })).toThrow(TypeError);
    expect(() => readChatStream({ url: 'http://127.0.0.1/', timeoutMs: 1.5 })).toThrow(TypeError);
  });
});
