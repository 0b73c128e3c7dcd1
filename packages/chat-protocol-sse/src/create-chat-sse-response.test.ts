import { connect } from 'node:net';
import { parseChatSseMessage, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import { createFakeChatEventLog, createFakeDatabase, type FakeDatabase } from '@papercusp/chat-protocol-testkit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  TURN,
  appendAll,
  countSubscriptions,
  envelopeAt,
  eventually,
  readEventStream,
  startLoopbackServer,
  turnOf,
  type CountingLog,
  type LoopbackServer,
} from '../test/sse-test-server.js';
import { DEFAULT_CHAT_SSE_RETRY_MS, createChatSseResponse, type CreateChatSseResponseOptions } from './create-chat-sse-response.js';

let server: LoopbackServer;
let options: CreateChatSseResponseOptions;
let database: FakeDatabase;
let log: CountingLog;
const opened: AbortController[] = [];

beforeAll(async () => {
  server = await startLoopbackServer((request) => createChatSseResponse(request, options));
});
afterAll(() => server.close());
beforeEach(() => {
  database = createFakeDatabase();
  log = countSubscriptions(createFakeChatEventLog(database));
  options = { log, ...TURN };
});
afterEach(async () => {
  vi.restoreAllMocks();
  for (const controller of opened.splice(0)) controller.abort();
  await eventually(() => log.liveSubscriptions() === 0);
});

/** Fetches the test turn's stream over loopback with `headers` (and a query), aborted in teardown. */
function get(headers: Record<string, string> = {}, query = ''): Promise<Response> {
  const controller = new AbortController();
  opened.push(controller);
  return fetch(`${server.url}/turn${query}`, { headers, signal: controller.signal });
}

const seqsOf = (messages: readonly { readonly data: string; readonly event?: string | undefined; readonly id?: string | undefined }[]) =>
  messages.map((message) => {
    const parsed = parseChatSseMessage(message);
    if (!parsed.ok) throw new Error(`a frame failed to parse: ${parsed.code}`);
    return parsed.value.seq;
  });
const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);
const timers = (): number => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;

// The intervals this process started and has not cleared: exact even while the HTTP client's own timers come and go.
function trackIntervals(): () => number {
  const live = new Set<unknown>();
  const realSetInterval = globalThis.setInterval;
  const realClearInterval = globalThis.clearInterval;
  vi.spyOn(globalThis, 'setInterval').mockImplementation(((...args: Parameters<typeof setInterval>) => {
    const handle = realSetInterval(...args);
    live.add(handle);
    return handle;
  }) as typeof setInterval);
  vi.spyOn(globalThis, 'clearInterval').mockImplementation((handle) => {
    live.delete(handle);
    realClearInterval(handle);
  });
  return () => live.size;
}

describe('createChatSseResponse: resume (DESIGN §10)', () => {
  it('answers 200 with the event-stream headers that stop proxies buffering', async () => {
    await appendAll(log, turnOf(2, true));
    const response = await get();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-transform');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    await response.body?.cancel();
  });

  it('sends from every cursor of a finished turn exactly the suffix after it, each frame once and in order, then closes', async () => {
    const frames = turnOf(6, true);
    await appendAll(log, frames);
    for (let cursor = 0; cursor < frames.length; cursor += 1) {
      const response = await get(cursor === 0 ? {} : { 'last-event-id': `${TURN.turnId}:${cursor}` });
      expect(response.status).toBe(200);
      const read = await readEventStream(response.body as ReadableStream<Uint8Array>);
      expect(read.outcome).toBe('ended');
      expect(seqsOf(read.messages)).toEqual(range(cursor + 1, frames.length));
      expect(read.messages.map((message) => message.id)).toEqual(range(cursor + 1, frames.length).map((seq) => `${TURN.turnId}:${seq}`));
    }
  });

  it('opens the stream with a retry: field, DEFAULT_CHAT_SSE_RETRY_MS or options.retryMs, before the first frame (issue 24)', async () => {
    await appendAll(log, turnOf(2, true));
    const opening = async (): Promise<string> => (await (await get()).text()).split('id: ')[0] as string;
    expect(await opening()).toBe(`retry: ${DEFAULT_CHAT_SSE_RETRY_MS}\n\n`);
    expect(DEFAULT_CHAT_SSE_RETRY_MS).toBe(1_000);
    options = { ...options, retryMs: 250 };
    expect(await opening()).toBe('retry: 250\n\n');
  });

  it('answers 204 with no body when the cursor is at the end of a finished turn (the client stops)', async () => {
    await appendAll(log, turnOf(3, true));
    const response = await get({ 'last-event-id': `${TURN.turnId}:3` });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('keeps a cursor at the latest frame of a running turn open and sends what comes next', async () => {
    await appendAll(log, turnOf(3, false));
    const response = await get({ 'last-event-id': `${TURN.turnId}:3` });
    expect(response.status).toBe(200);
    const reading = readEventStream(response.body as ReadableStream<Uint8Array>);
    await appendAll(log, [envelopeAt(4), envelopeAt(5, { type: 'done', status: 'completed' })]);
    const read = await reading;
    expect(seqsOf(read.messages)).toEqual([4, 5]);
    expect(read.outcome).toBe('ended');
  });

  it('reads the cursor from the lastEventId query parameter, and Last-Event-ID wins over it', async () => {
    await appendAll(log, turnOf(5, true));
    const fromQuery = await readEventStream((await get({}, `?lastEventId=${TURN.turnId}:3`)).body as ReadableStream<Uint8Array>);
    expect(seqsOf(fromQuery.messages)).toEqual([4, 5]);
    const both = await get({ 'last-event-id': `${TURN.turnId}:1` }, `?lastEventId=${TURN.turnId}:3`);
    expect(seqsOf((await readEventStream(both.body as ReadableStream<Uint8Array>)).messages)).toEqual([2, 3, 4, 5]);
  });

  it('tails a running turn from the start: replayed and live frames in seq order, and the terminal frame closes the stream', async () => {
    await appendAll(log, turnOf(2, false));
    const response = await get();
    const reading = readEventStream(response.body as ReadableStream<Uint8Array>);
    await appendAll(log, [
      envelopeAt(3),
      envelopeAt(4),
      envelopeAt(5, { type: 'error', code: 'provider-failed', message: 'no', retryable: false }),
    ]);
    const read = await reading;
    expect(seqsOf(read.messages)).toEqual([1, 2, 3, 4, 5]);
    expect(read.messages.map((message) => message.event)).toEqual(['delta', 'delta', 'delta', 'delta', 'error']);
    expect(read.outcome).toBe('ended');
    await eventually(() => log.liveSubscriptions() === 0);
  });

  it.each([
    ['replayed', 3],
    ['live', 1],
  ])('closes the stream after a %s terminal frame by itself, even when the log never reports the end', async (_name, stored) => {
    const frames = turnOf(3, true);
    await appendAll(log, frames.slice(0, stored));
    options = { ...options, log: { ...log, subscribe: (request, onEnvelope) => log.subscribe(request, onEnvelope) } };
    const response = await get();
    const reading = readEventStream(response.body as ReadableStream<Uint8Array>);
    await appendAll(log, frames.slice(stored));
    const read = await reading;
    expect(seqsOf(read.messages)).toEqual([1, 2, 3]);
    expect(read.outcome).toBe('ended');
  });

  it('closes the stream at a live frame that skips a seq, so the client resumes and the replay fills the hole', async () => {
    await appendAll(log, turnOf(2, false));
    const skipping: ChatEventLog = {
      ...log,
      subscribe: (request, onEnvelope, onEnd) => log.subscribe(request, (envelope) => envelope.seq !== 4 && onEnvelope(envelope), onEnd),
    };
    options = { ...options, log: skipping };
    const response = await get();
    const reading = readEventStream(response.body as ReadableStream<Uint8Array>);
    await appendAll(log, [envelopeAt(3), envelopeAt(4), envelopeAt(5), envelopeAt(6, { type: 'done', status: 'completed' })]);
    const read = await reading;
    expect(seqsOf(read.messages)).toEqual([1, 2, 3]);
    expect(read.outcome).toBe('ended');
  });
});

describe('createChatSseResponse: one read of the log before the answer (issue 25)', () => {
  /** `log` with its window reads counted, and its subscription never reporting the end (so no answer leans on it). */
  function countingReads(source: ChatEventLog = log): { reads: () => number } {
    let reads = 0;
    options = {
      ...options,
      log: {
        ...source,
        replayWindow: (request) => {
          reads += 1;
          return source.replayWindow(request);
        },
        subscribe: (request, onEnvelope) => log.subscribe(request, onEnvelope),
      },
    };
    return { reads: () => reads };
  }
  const cursorAt = (seq: number): Record<string, string> => ({ 'last-event-id': `${TURN.turnId}:${seq}` });

  it.each([
    ['the start of a finished turn', 200, true, 0],
    ['a cursor inside a finished turn', 200, true, 2],
    ['the terminal frame of a finished turn', 204, true, 4],
    ['the latest frame of a running turn', 200, false, 4],
    ['a cursor beyond the latest seq', 409, false, 7],
  ])('%s: one window read, answered %i', async (_name, status, finished, seq) => {
    await appendAll(log, turnOf(4, finished));
    const { reads } = countingReads();
    const response = await get(seq === 0 ? {} : cursorAt(seq));
    expect({ status: response.status, reads: reads() }).toEqual({ status, reads: 1 });
    await response.body?.cancel();
  });

  it('a pruned turn: one read, 204 at its end and 410 before it', async () => {
    await appendAll(log, turnOf(4, true));
    expect(await log.pruneTurns({ before: '2040-01-01T00:00:00Z' })).toEqual({ ok: true, pruned: 1 });
    const { reads } = countingReads();
    expect((await get(cursorAt(4))).status).toBe(204);
    expect(reads()).toBe(1);
    const stale = await get(cursorAt(3));
    expect({ status: stale.status, body: (await stale.json()) as unknown, reads: reads() }).toEqual({
      status: 410,
      body: { code: 'stale-cursor', lowerBound: 4, latestSeq: 4 },
      reads: 2,
    });
  });

  it("a log that dropped the cursor's own frame but holds later ones is read again from the cursor, and sends what follows", async () => {
    await appendAll(log, turnOf(4, true));
    // Frames up to seq 2 are gone: the lower bound is 2, so a cursor at 2 is fresh, one at 1 is stale.
    const trimmed: ChatEventLog = {
      ...log,
      replayWindow: async (request) => {
        const window = await log.replayWindow({ ...request, after: Math.max(request.after, 2) });
        return { ...window, lowerBound: 2 };
      },
    };
    const { reads } = countingReads(trimmed);
    const read = await readEventStream((await get(cursorAt(2))).body as ReadableStream<Uint8Array>);
    expect({ seqs: seqsOf(read.messages), outcome: read.outcome, reads: reads() }).toEqual({ seqs: [3, 4], outcome: 'ended', reads: 2 });
    expect((await get(cursorAt(1))).status).toBe(410);
  });
});

describe('createChatSseResponse: refusals (DESIGN §10)', () => {
  it('answers a stale cursor 410 with exactly { code, lowerBound, latestSeq }', async () => {
    await appendAll(log, turnOf(4, true));
    expect(await log.pruneTurns({ before: '2040-01-01T00:00:00Z' })).toEqual({ ok: true, pruned: 1 });
    const response = await get({ 'last-event-id': `${TURN.turnId}:2` });
    expect(response.status).toBe(410);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ code: 'stale-cursor', lowerBound: 4, latestSeq: 4 });
  });

  it('answers a cursor beyond the latest seq 409 with exactly { code, lowerBound, latestSeq }', async () => {
    await appendAll(log, turnOf(2, false));
    const response = await get({ 'last-event-id': `${TURN.turnId}:7` });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({ code: 'cursor-beyond-latest', lowerBound: 0, latestSeq: 2 });
  });

  it.each([['turn_sse'], ['turn_sse:01'], ['turn_sse:-1'], ['turn sse:1'], [':1']])(
    'answers a malformed cursor %j 400 invalid-cursor',
    async (cursor) => {
      const response = await get({ 'last-event-id': cursor });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe('invalid-cursor');
      expect(Object.keys(body).sort()).toEqual(['code', 'message']);
    },
  );

  it('answers a cursor naming another turn 400 foreign-turn, without subscribing', async () => {
    const response = await get({ 'last-event-id': 'turn_other:1' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('foreign-turn');
    expect(log.liveSubscriptions()).toBe(0);
  });

  it('answers ids that are not v1 ids 400 invalid-request', async () => {
    options = { ...options, turnId: 'turn with spaces' };
    const response = await get();
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('invalid-request');
  });

  it('answers 503 aborted, holding nothing, when options.signal is aborted before the stream begins', async () => {
    options = { ...options, signal: AbortSignal.abort() };
    const response = await get();
    expect(response.status).toBe(503);
    expect(((await response.json()) as { code: string }).code).toBe('aborted');
    expect(log.liveSubscriptions()).toBe(0);
  });

  it.each([
    ['no log', { log: undefined }],
    ['a zero heartbeatMs', { heartbeatMs: 0 }],
    ['a negative maxUnreadBytes', { maxUnreadBytes: -1 }],
    ['a fractional retryMs', { retryMs: 1.5 }],
    ['a negative retryMs', { retryMs: -1 }],
  ])('rejects with a TypeError for unusable options (a host bug): %s', async (_name, broken) => {
    const given = { ...options, ...broken } as unknown as CreateChatSseResponseOptions;
    await expect(createChatSseResponse(new Request('http://127.0.0.1/turn'), given)).rejects.toThrow(TypeError);
  });

  it('answers 503 store-unavailable when the log cannot read the window, and releases the subscription it took', async () => {
    database.inject({ operation: 'replayWindow', kind: 'fail-before-commit' });
    const response = await get();
    expect(response.status).toBe(503);
    expect(((await response.json()) as { code: string }).code).toBe('store-unavailable');
    expect(log.liveSubscriptions()).toBe(0);
  });

  it('answers 503 store-unavailable when the log cannot subscribe', async () => {
    database.inject({ operation: 'subscribe', kind: 'fail-before-commit' });
    const response = await get();
    expect(response.status).toBe(503);
    expect(((await response.json()) as { code: string }).code).toBe('store-unavailable');
  });

  it('answers 500 invalid-window when the log answers a window with a hole', async () => {
    await appendAll(log, turnOf(3, false));
    const holed: ChatEventLog = {
      ...log,
      subscribe: (...args) => log.subscribe(...args),
      replayWindow: async (request) => {
        const window = await log.replayWindow(request);
        return { ...window, frames: window.frames.filter((frame) => frame.seq !== 2) };
      },
    };
    options = { ...options, log: holed };
    const response = await get();
    expect(response.status).toBe(500);
    expect(((await response.json()) as { code: string }).code).toBe('invalid-window');
    expect(log.liveSubscriptions()).toBe(0);
  });
});

describe('createChatSseResponse: heartbeats and ends (DESIGN §10)', () => {
  it('sends heartbeat comments every heartbeatMs while the turn is quiet', async () => {
    options = { ...options, heartbeatMs: 5 };
    const response = await get();
    const read = await readEventStream(response.body as ReadableStream<Uint8Array>, ({ comments }) => comments >= 3);
    expect(read.comments).toBeGreaterThanOrEqual(3);
    expect(read.messages).toEqual([]);
  });

  it('closes the stream (without a terminal frame, so the client resumes) when the log loses the subscription', async () => {
    await appendAll(log, turnOf(2, false));
    const response = await get();
    const reading = readEventStream(response.body as ReadableStream<Uint8Array>);
    await eventually(() => log.liveSubscriptions() === 1);
    database.restart();
    const read = await reading;
    expect(seqsOf(read.messages)).toEqual([1, 2]);
    expect(log.liveSubscriptions()).toBe(0);
  });

  it('releases the subscription and the heartbeat timer at once when the client goes away', async () => {
    const liveIntervals = trackIntervals();
    options = { ...options, heartbeatMs: 60_000 };
    await appendAll(log, turnOf(1, false));
    const controller = new AbortController();
    const response = await fetch(`${server.url}/turn`, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    expect(log.liveSubscriptions()).toBe(1);
    expect(liveIntervals()).toBe(1);
    controller.abort();
    await eventually(() => log.liveSubscriptions() === 0);
    expect(liveIntervals()).toBe(0);
  });

  it('closes the stream and releases everything when options.signal aborts', async () => {
    const liveIntervals = trackIntervals();
    const shutdown = new AbortController();
    options = { ...options, heartbeatMs: 60_000, signal: shutdown.signal };
    await appendAll(log, turnOf(1, false));
    const response = await get();
    const reading = readEventStream(response.body as ReadableStream<Uint8Array>);
    await eventually(() => log.liveSubscriptions() === 1);
    shutdown.abort();
    const read = await reading;
    expect(read.outcome).toBe('ended');
    expect(seqsOf(read.messages)).toEqual([1]);
    expect(log.liveSubscriptions()).toBe(0);
    expect(liveIntervals()).toBe(0);
  });

  it('a v1 stream ended by options.signal closes with a retry: field, the hint to resume elsewhere (a draining host)', async () => {
    const shutdown = new AbortController();
    options = { ...options, heartbeatMs: 60_000, retryMs: 250, signal: shutdown.signal };
    await appendAll(log, turnOf(1, false));
    const response = await get();
    const text = response.text();
    await eventually(() => log.liveSubscriptions() === 1);
    shutdown.abort();
    const body = await text;
    expect(body.startsWith('retry: 250\n\n')).toBe(true);
    expect(body.endsWith('\n\nretry: 250\n\n')).toBe(true);
  });

  it.each([
    ['a finished turn replayed whole', true],
    ['a running turn whose reader cancels', false],
  ])('leaves no abort listener on options.signal or request.signal: %s', async (_name, finished) => {
    await appendAll(log, turnOf(3, finished));
    // The listeners registered on each signal and not removed (removing one that is not registered does nothing, as on EventTarget).
    const listening = new Map<AbortSignal, Set<unknown>>();
    const watch = (signal: AbortSignal): AbortSignal => {
      const registered = new Set<unknown>();
      listening.set(signal, registered);
      const add = signal.addEventListener.bind(signal);
      const remove = signal.removeEventListener.bind(signal);
      vi.spyOn(signal, 'addEventListener').mockImplementation((...args: Parameters<AbortSignal['addEventListener']>) => {
        registered.add(args[1]);
        add(...args);
      });
      vi.spyOn(signal, 'removeEventListener').mockImplementation((...args: Parameters<AbortSignal['removeEventListener']>) => {
        registered.delete(args[1]);
        remove(...args);
      });
      return signal;
    };
    const request = new Request('http://127.0.0.1/turn');
    watch(request.signal);
    const response = await createChatSseResponse(request, { ...options, signal: watch(new AbortController().signal) });
    const read = await readEventStream(response.body as ReadableStream<Uint8Array>, ({ messages }) => !finished && messages.length === 3);
    expect(seqsOf(read.messages)).toEqual([1, 2, 3]);
    expect([...listening.values()].map((registered) => registered.size)).toEqual([0, 0]);
    expect(log.liveSubscriptions()).toBe(0);
  });

  it('releases the subscription and timer when the reader cancels the body (in process, no HTTP)', async () => {
    const before = timers();
    const liveIntervals = trackIntervals();
    const response = await createChatSseResponse(new Request('http://127.0.0.1/turn'), { ...options, heartbeatMs: 60_000 });
    expect(log.liveSubscriptions()).toBe(1);
    expect(liveIntervals()).toBe(1);
    await response.body?.cancel();
    expect(log.liveSubscriptions()).toBe(0);
    expect(liveIntervals()).toBe(0);
    expect(timers()).toBeLessThanOrEqual(before);
  });
});

describe('createChatSseResponse: a slow reader is bounded (issue 16)', () => {
  it('closes a connection whose reader never reads once the unread frames pass maxUnreadBytes, and releases it', async () => {
    options = { ...options, maxUnreadBytes: 64 * 1024 };
    await appendAll(log, turnOf(1, false));
    // A raw socket that sends the request and never reads: the kernel's buffers fill, then the server's queue.
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    socket.pause();
    try {
      socket.write(`GET /turn HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n`);
      await eventually(() => log.liveSubscriptions() === 1);
      const text = 'x'.repeat(4096);
      let seq = 1;
      // Far more than any socket buffer: without the bound the server would queue all of it.
      while (log.liveSubscriptions() === 1 && seq < 16_000) {
        seq += 1;
        await appendAll(log, [envelopeAt(seq, { type: 'delta', text })]);
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      expect(log.liveSubscriptions()).toBe(0);
      expect(seq).toBeLessThan(16_000);
    } finally {
      socket.destroy();
    }
  });

  it('errors the body of a reader that never reads, in process, once past maxUnreadBytes', async () => {
    const response = await createChatSseResponse(new Request('http://127.0.0.1/turn'), { ...options, maxUnreadBytes: 8 * 1024 });
    const text = 'y'.repeat(1024);
    let seq = 0;
    while (log.liveSubscriptions() === 1 && seq < 1000) {
      seq += 1;
      await appendAll(log, [envelopeAt(seq, { type: 'delta', text })]);
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    expect(log.liveSubscriptions()).toBe(0);
    // At most the limit's worth of 1 KiB frames went in before the connection was closed.
    expect(seq).toBeLessThanOrEqual(10);
    await expect((response.body as ReadableStream<Uint8Array>).getReader().read()).rejects.toThrow(/unread/);
  });

  it('sends a replay window larger than maxUnreadBytes to a reader that reads (the window is produced as it is read)', async () => {
    const frames: ChatEventEnvelope[] = Array.from({ length: 40 }, (_, index) =>
      envelopeAt(index + 1, index === 39 ? { type: 'done', status: 'completed' } : { type: 'delta', text: 'z'.repeat(1024) }),
    );
    await appendAll(log, frames);
    options = { ...options, maxUnreadBytes: 8 * 1024 };
    const read = await readEventStream((await get()).body as ReadableStream<Uint8Array>);
    expect(read.outcome).toBe('ended');
    expect(seqsOf(read.messages)).toEqual(range(1, 40));
  });
});
