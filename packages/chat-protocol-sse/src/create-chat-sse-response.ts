/**
 * The server side of the transport (DESIGN §10): one turn's event log as a
 * resumable `text/event-stream` `Response`, web-standard so it runs unchanged
 * in Node, Bun, Deno, edge runtimes and `Request`/`Response` frameworks. It owns
 * the cursor, the subscribe-then-replay handoff, heartbeats, the slow-reader
 * bound and releasing the subscription; it authorizes nothing (the host checks
 * the caller before calling it) and writes nothing to the log.
 */
import {
  CHAT_SSE_HEARTBEAT,
  formatChatCursor,
  isChatId,
  parseChatCursor,
  type ChatCursor,
  type ChatEventEnvelope,
} from '@papercusp/chat-protocol-core';
import {
  validateReplayWindow,
  type ChatEventLog,
  type ChatEventLogSubscriptionEnd,
  type ChatEventLogUnsubscribe,
  type ReplayWindow,
} from '@papercusp/chat-protocol-recovery';
import { createUnreadByteQueue } from './unread-byte-queue.js';

/** The default interval between heartbeat comments: under the idle timeouts of common proxies and load balancers (30–60 s). */
export const DEFAULT_CHAT_SSE_HEARTBEAT_MS = 15_000;

/** The default per-connection limit on bytes queued for a reader and not yet read (1 MiB). */
// A literal: bundlers keep a computed top-level constant in a bundle that never reads it.
export const DEFAULT_CHAT_SSE_MAX_UNREAD_BYTES: number = 1_048_576;

/**
 * The default `retry:` the stream opens with: how long a client waits before it
 * reconnects after a drop (`EventSource` waits about 3 s without one;
 * `readChatStream` takes it as its backoff base).
 */
export const DEFAULT_CHAT_SSE_RETRY_MS = 1_000;

/** The query parameter that carries the cursor for clients that cannot set `Last-Event-ID`. */
export const CHAT_SSE_CURSOR_QUERY_PARAMETER = 'lastEventId';

/**
 * A caller's own frames for the stream (the reference host's AG-UI and AI SDK
 * routes): each envelope is encoded once, from the envelope, into the caller's
 * SSE messages, instead of as `encodeChatSseFrame`. Everything else (cursor,
 * replay, live tail, heartbeats, the slow-reader bound, refusals) is the transport's.
 */
export interface ChatSseFraming {
  /**
   * The SSE messages for one envelope, each whole (ending in a blank line) and
   * without an `id:` field: the transport writes the envelope's v1 cursor as the
   * `id:` of the last one, so `Last-Event-ID` resumes exactly as on the v1
   * stream, and a cut inside one envelope's messages resends them all. None
   * writes nothing for the envelope (and no cursor). A throw ends the stream
   * cleanly after the frames before it, without `end`'s messages.
   */
  encode(envelope: ChatEventEnvelope): readonly string[];
  /**
   * The messages that close the stream when it ends by itself (the terminal
   * envelope, the end of the subscription, an abort), asked once after every
   * frame before them was encoded; `ended` says whether the turn's terminal
   * envelope was encoded. Not asked when the stream errors (the slow-reader
   * bound), the reader leaves, or `encode` threw; a throw writes none.
   */
  end?(ended: boolean): readonly string[];
}

/** Options of {@link createChatSseResponse}. */
export interface CreateChatSseResponseOptions {
  /** The log to replay and tail. */
  readonly log: ChatEventLog;
  readonly conversationId: string;
  readonly turnId: string;
  /** Milliseconds between heartbeat comments (default {@link DEFAULT_CHAT_SSE_HEARTBEAT_MS}). */
  readonly heartbeatMs?: number;
  /**
   * Aborting it closes the stream (the host shuts down or drains): a v1 stream's last field is then `retry:
   * <retryMs>` again, the hint to resume, on another process, after that delay.
   */
  readonly signal?: AbortSignal;
  /** The `retry:` field the stream opens with, in milliseconds (default {@link DEFAULT_CHAT_SSE_RETRY_MS}). */
  readonly retryMs?: number;
  /**
   * The most bytes of live frames and heartbeats this connection holds for a
   * reader that does not keep up (default {@link DEFAULT_CHAT_SSE_MAX_UNREAD_BYTES});
   * past it the connection is closed and the client resumes from its last cursor.
   */
  readonly maxUnreadBytes?: number;
  /**
   * Write each envelope as the caller's own messages (see {@link ChatSseFraming}).
   * The stream then opens without the `retry:` field, which is v1's reconnect
   * advice to `readChatStream`; heartbeats stay `CHAT_SSE_HEARTBEAT` comments.
   */
  readonly framing?: ChatSseFraming;
}

/**
 * The `code` of every answer other than a stream, with its HTTP status:
 * `invalid-request` 400 (the conversation or turn id is not a v1 id),
 * `invalid-cursor` 400 (`Last-Event-ID` or `lastEventId` is not `<turnId>:<seq>`),
 * `foreign-turn` 400 (the cursor names another turn), `stale-cursor` 410 (the
 * frames after the cursor were pruned: refetch the state), `cursor-beyond-latest`
 * 409 (the cursor is past the turn's latest seq), `store-unavailable` 503 (the log
 * could not subscribe or read: retry later), `invalid-window` 500 (the log
 * answered a window that fails `validateReplayWindow`; the message names the
 * rule), `aborted` 503 (the request or `signal` was aborted before the stream began).
 */
export type ChatSseRefusalCode =
  | 'invalid-request'
  | 'invalid-cursor'
  | 'foreign-turn'
  | 'stale-cursor'
  | 'cursor-beyond-latest'
  | 'store-unavailable'
  | 'invalid-window'
  | 'aborted';

/** The JSON body of a `410` or `409`: where the log's retained window starts and ends. */
export interface ChatSseCursorRefusalBody {
  readonly code: 'stale-cursor' | 'cursor-beyond-latest';
  readonly lowerBound: number;
  readonly latestSeq: number;
}

/** The JSON body of every other refusal. */
export interface ChatSseRefusalBody {
  readonly code: Exclude<ChatSseRefusalCode, 'stale-cursor' | 'cursor-beyond-latest'>;
  readonly message: string;
}

/** The headers of the event stream: no caching, no transformation, no proxy buffering. */
const STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

const REFUSAL_STATUS: Readonly<Record<ChatSseRefusalCode, number>> = {
  'invalid-request': 400,
  'invalid-cursor': 400,
  'foreign-turn': 400,
  'stale-cursor': 410,
  'cursor-beyond-latest': 409,
  'store-unavailable': 503,
  'invalid-window': 500,
  aborted: 503,
};

function answer(body: ChatSseRefusalBody | ChatSseCursorRefusalBody): Response {
  return new Response(JSON.stringify(body), {
    status: REFUSAL_STATUS[body.code],
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });
}

// How the window's rules read the log's frames: the log parsed each strictly on append (DESIGN §10, one strict parse per side).
const LOGGED = { frames: 'logged' } as const;

// A logged envelope's frame, the message `encodeChatSseFrame` writes for it (its JSON in the key order the log hands
// back: Postgres' jsonb sorts keys), without parsing it a second time: the `id:` and `event:` come from the fields the
// window's rules checked, and JSON text never holds a raw newline. A frame the log holds in another shape than it
// parsed reaches the client as it is, and the client's strict parse refuses it.
const loggedFrame = (envelope: ChatEventEnvelope): string =>
  `id: ${envelope.turnId}:${envelope.seq}\nevent: ${envelope.event.type}\ndata: ${JSON.stringify(envelope)}\n\n`;

const isTerminal = (envelope: ChatEventEnvelope): boolean => envelope.event.type === 'done' || envelope.event.type === 'error';
const isPositive = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value > 0;

// The cursor the request names: `Last-Event-ID` first (EventSource sends it on reconnect), then the query; neither is the turn's start.
function readCursor(request: Request, turnId: string): ChatCursor | ChatSseRefusalBody {
  const header = request.headers.get('last-event-id');
  const query = new URL(request.url).searchParams.get(CHAT_SSE_CURSOR_QUERY_PARAMETER);
  const text = header !== null && header !== '' ? header : query !== null && query !== '' ? query : null;
  if (text === null) return { turnId, seq: 0 };
  const cursor = parseChatCursor(text);
  if (cursor === null)
    return { code: 'invalid-cursor', message: `the cursor ${JSON.stringify(text.slice(0, 200))} is not "<turnId>:<seq>"` };
  if (cursor.turnId !== turnId) {
    return { code: 'foreign-turn', message: `the cursor names turn ${JSON.stringify(cursor.turnId)}, not ${JSON.stringify(turnId)}` };
  }
  return cursor;
}

const unavailable = (operation: string, error: unknown): ChatSseRefusalBody => ({
  code: 'store-unavailable',
  message: `${operation}: ${error instanceof Error ? error.message : 'the event log could not answer'}`,
});

/**
 * Answers a request for one turn's frames as a resumable SSE stream.
 *
 * Guarantees:
 * - The cursor is `Last-Event-ID`, else the `lastEventId` query parameter
 *   (empty or absent: the turn's start), read with core's `parseChatCursor`.
 * - It subscribes to the log's tail after the cursor *before* reading the replay
 *   window, validates the window with `validateReplayWindow`, sends its frames,
 *   then the live frames in seq order, skipping any seq already sent: every frame
 *   after the cursor is sent exactly once, in order, whatever appends race the
 *   handoff. A live frame that skips a seq closes the stream (the client resumes
 *   and the replay fills the hole). Each frame is the message `encodeChatSseFrame`
 *   writes (its JSON in the key order the log returns), or the caller's messages under `framing` (see {@link ChatSseFraming}),
 *   each envelope encoded once and never parsed again: the log parsed it on
 *   `append`, and the window (`validateReplayWindow` with `frames: 'logged'`) and
 *   each live frame are checked by the window's rules (ids, event type, seq order,
 *   this conversation and turn, cursor bounds). A live frame that fails them
 *   closes the stream after the frames before it.
 * - `200` with `content-type: text/event-stream; charset=utf-8`,
 *   `cache-control: no-cache, no-transform` and `x-accel-buffering: no` (no
 *   `connection` header: HTTP/1.1 keeps alive by default, HTTP/2 forbids it).
 *   The body opens with a `retry: <retryMs>` field (not under `framing`), so a client that drops
 *   reconnects after that delay. Heartbeat comments (`CHAT_SSE_HEARTBEAT`) every `heartbeatMs`.
 * - The stream ends after the terminal frame (`done`, `error`), or when the
 *   subscription ends (`terminal`, or `lost`: the client resumes), or on abort
 *   of `request.signal` or `options.signal` (a v1 stream ended by `options.signal`
 *   closes with a `retry: <retryMs>` field: resume elsewhere).
 * - `204` (no body) when the cursor is at the end of a finished turn: there is
 *   nothing more to send, ever, and the client stops.
 * - A reader that leaves more than `maxUnreadBytes` of live frames and
 *   heartbeats unread gets its stream errored (the connection closes) and its
 *   queue dropped; the replay window is produced only as the reader pulls it.
 * - However the stream ends (terminal, end of subscription, overflow, reader
 *   cancel, abort), the subscription is released and the heartbeat timer and
 *   abort listeners removed at once; nothing it started outlives the stream.
 * - Every refusal is a JSON answer (see {@link ChatSseRefusalCode}): `410` and
 *   `409` carry `{ code, lowerBound, latestSeq }`, the others `{ code, message }`.
 *   It never rejects for a request or a log failure; it rejects with a
 *   `TypeError` only when `options` are not usable (no log, a non-positive
 *   `heartbeatMs` or `maxUnreadBytes`, a `retryMs` that is not a non-negative
 *   safe integer): a host's bug, not a client's.
 */
export async function createChatSseResponse(request: Request, options: CreateChatSseResponseOptions): Promise<Response> {
  const { log, conversationId, turnId, signal, framing } = options;
  const heartbeatMs = options.heartbeatMs ?? DEFAULT_CHAT_SSE_HEARTBEAT_MS;
  const maxUnreadBytes = options.maxUnreadBytes ?? DEFAULT_CHAT_SSE_MAX_UNREAD_BYTES;
  const retryMs = options.retryMs ?? DEFAULT_CHAT_SSE_RETRY_MS;
  if (typeof log?.subscribe !== 'function' || typeof log.replayWindow !== 'function') {
    throw new TypeError('createChatSseResponse: options.log must be a ChatEventLog');
  }
  if (!isPositive(heartbeatMs)) throw new TypeError('createChatSseResponse: options.heartbeatMs must be a positive number');
  if (!isPositive(maxUnreadBytes)) throw new TypeError('createChatSseResponse: options.maxUnreadBytes must be a positive number');
  // The field's value is ASCII digits: anything else is ignored by every client.
  if (!Number.isSafeInteger(retryMs) || retryMs < 0) {
    throw new TypeError('createChatSseResponse: options.retryMs must be a non-negative safe integer');
  }
  if (framing !== undefined && typeof framing?.encode !== 'function') {
    throw new TypeError('createChatSseResponse: options.framing must have an encode function');
  }

  if (!isChatId(conversationId) || !isChatId(turnId)) {
    return answer({ code: 'invalid-request', message: 'the conversation and turn must be named by v1 ids' });
  }
  const cursor = readCursor(request, turnId);
  if ('code' in cursor) return answer(cursor);
  const signals = [request.signal, signal].filter((given): given is AbortSignal => given !== undefined);
  const isAborted = (): boolean => signals.some((given) => given.aborted);
  const aborted = (): Response => answer({ code: 'aborted', message: 'the request was aborted before the stream began' });
  if (isAborted()) return aborted();

  // Subscribe first, buffering what arrives, so the window read after it misses nothing the tail will not bring.
  const early: ChatEventEnvelope[] = [];
  let earlyEnd: ChatEventLogSubscriptionEnd | undefined;
  let onLive: ((envelope: ChatEventEnvelope) => void) | undefined;
  let onLiveEnd: ((end: ChatEventLogSubscriptionEnd) => void) | undefined;
  let unsubscribe: ChatEventLogUnsubscribe;
  try {
    unsubscribe = await log.subscribe(
      { conversationId, turnId, after: cursor.seq },
      (envelope) => (onLive === undefined ? early.push(envelope) : onLive(envelope)),
      (end) => (onLiveEnd === undefined ? (earlyEnd ??= end) : onLiveEnd(end)),
    );
  } catch (error) {
    return answer(unavailable('subscribe', error));
  }
  if (isAborted()) {
    unsubscribe();
    return aborted();
  }
  const read = await readFromCursor(log, conversationId, turnId, cursor);
  if ('refusal' in read) {
    unsubscribe();
    return answer(read.refusal);
  }
  const { frames, latestSeq, lowerBound, atCursor } = read;
  // At the latest seq with nothing after it: a finished turn has nothing more, ever (`204`).
  if (frames.length === 0 && cursor.seq > 0 && cursor.seq === latestSeq && !early.some((envelope) => envelope.seq > cursor.seq)) {
    const finished = earlyEnd?.reason === 'terminal' || lowerBound === latestSeq || (atCursor !== undefined && isTerminal(atCursor));
    if (finished) {
      unsubscribe();
      return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
    }
  }
  if (isAborted()) {
    unsubscribe();
    return aborted();
  }

  // From here on the stream owns the subscription, the timer and the listeners, and `release` drops them all, once.
  let lastSentSeq = frames.length > 0 ? latestSeq : cursor.seq;
  let ending = false;
  // The caller's framing: whether it encoded the terminal envelope, and whether it threw (then it is asked nothing more).
  let encodedTerminal = false;
  let broken = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const onAbort = (): void => end();
  const release = (): void => {
    ending = true;
    unsubscribe();
    if (timer !== undefined) clearInterval(timer);
    for (const given of signals) given.removeEventListener('abort', onAbort);
  };
  const queue = createUnreadByteQueue({ maxUnreadBytes, onFinish: release });
  // The envelope's text on the wire; a throw is the caller's framing (or a frame the encoder refuses) failing.
  const encode = (envelope: ChatEventEnvelope): string => {
    if (framing === undefined) return loggedFrame(envelope);
    const messages = framing.encode(envelope);
    if (isTerminal(envelope)) encodedTerminal = true;
    const last = messages.length - 1;
    return messages.map((message, index) => (index === last ? `id: ${formatChatCursor(envelope)}\n${message}` : message)).join('');
  };
  const closingMessages = (): string => {
    if (framing === undefined) return signal?.aborted === true ? `retry: ${retryMs}\n\n` : '';
    if (framing.end === undefined || broken) return '';
    try {
      return framing.end(encodedTerminal).join('');
    } catch {
      return '';
    }
  };
  const end = (): void => {
    release();
    queue.close(closingMessages);
  };
  const send = (envelope: ChatEventEnvelope): void => {
    if (ending || envelope.seq <= lastSentSeq) return;
    if (envelope.seq !== lastSentSeq + 1) return end();
    // The live frame is held to the window's rules too (ids, event type, this conversation and turn), unparsed.
    const tail = { lowerBound: lastSentSeq, latestSeq: envelope.seq, frames: [envelope] };
    const fits = validateReplayWindow(tail, { conversationId, turnId, after: { turnId, seq: lastSentSeq } }, LOGGED).ok;
    let frame: string | undefined;
    try {
      if (fits) frame = encode(envelope);
    } catch {
      frame = undefined;
    }
    if (frame === undefined) {
      broken = true;
      return end();
    }
    lastSentSeq = envelope.seq;
    if ((frame === '' || queue.push(frame)) && isTerminal(envelope)) end();
  };
  // The `retry:` field (v1 only), then the window's frames, encoded one at a time as the reader pulls them. A frame
  // that cannot be encoded cuts the stream there: live frames already held come after it and must not be sent.
  function* replayChunks(): Generator<string, void, undefined> {
    if (framing === undefined) yield `retry: ${retryMs}\n\n`;
    for (const envelope of frames) {
      let frame: string;
      try {
        frame = encode(envelope);
      } catch {
        broken = true;
        queue.cut();
        return;
      }
      if (frame !== '') yield frame;
    }
  }

  for (const given of signals) given.addEventListener('abort', onAbort, { once: true });
  timer = setInterval(() => queue.push(CHAT_SSE_HEARTBEAT), heartbeatMs);
  queue.replay(replayChunks());
  if (frames.length > 0 && isTerminal(frames[frames.length - 1] as ChatEventEnvelope)) end();
  onLive = send;
  onLiveEnd = () => end();
  for (const envelope of early) send(envelope);
  if (earlyEnd !== undefined) end();
  return new Response(queue.stream, { status: 200, headers: STREAM_HEADERS });
}

/** The validated frames after the cursor, with the frame at the cursor when the log still holds it. */
interface FramesFromCursor {
  readonly frames: readonly ChatEventEnvelope[];
  readonly lowerBound: number;
  readonly latestSeq: number;
  readonly atCursor: ChatEventEnvelope | undefined;
}

/**
 * The replay window after `cursor`, read from one frame before it, so one read
 * also tells whether a cursor at the latest seq names the turn's terminal
 * frame (then the answer is `204`). Only a log that dropped the cursor's own
 * frame but holds later ones is read a second time, from the cursor.
 */
async function readFromCursor(
  log: ChatEventLog,
  conversationId: string,
  turnId: string,
  cursor: ChatCursor,
): Promise<FramesFromCursor | { readonly refusal: ChatSseRefusalBody | ChatSseCursorRefusalBody }> {
  const from: ChatCursor = cursor.seq === 0 ? cursor : { turnId, seq: cursor.seq - 1 };
  let window: ReplayWindow;
  try {
    window = await log.replayWindow({ conversationId, turnId, after: from.seq });
  } catch (error) {
    return { refusal: unavailable('replayWindow', error) };
  }
  let validated = validateReplayWindow(window, { conversationId, turnId, after: from }, LOGGED);
  if (!validated.ok && validated.code === 'stale-cursor' && from !== cursor && cursor.seq === window.lowerBound) {
    // The cursor is the lower bound: at the latest seq too (a pruned turn) nothing comes after it, else read from it.
    const { lowerBound, latestSeq } = window;
    if (lowerBound === latestSeq) return { frames: [], lowerBound, latestSeq, atCursor: undefined };
    try {
      window = await log.replayWindow({ conversationId, turnId, after: cursor.seq });
    } catch (error) {
      return { refusal: unavailable('replayWindow', error) };
    }
    validated = validateReplayWindow(window, { conversationId, turnId, after: cursor }, LOGGED);
  }
  if (!validated.ok) {
    if (validated.code === 'stale-cursor' || validated.code === 'cursor-beyond-latest') {
      return { refusal: { code: validated.code, lowerBound: window.lowerBound, latestSeq: window.latestSeq } };
    }
    return { refusal: { code: 'invalid-window', message: `the event log's replay window: ${validated.code}: ${validated.message}` } };
  }
  const { frames, lowerBound, latestSeq } = validated.value;
  if (validated.value.after.seq === cursor.seq) return { frames, lowerBound, latestSeq, atCursor: undefined };
  // Read from the frame before the cursor: the first frame is the cursor's, unless the cursor is beyond the latest seq.
  if (cursor.seq > latestSeq) return { refusal: { code: 'cursor-beyond-latest', lowerBound, latestSeq } };
  return { frames: frames.slice(1), lowerBound, latestSeq, atCursor: frames[0] };
}
