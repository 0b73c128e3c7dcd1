/**
 * The resumable client (DESIGN §10): fetch, read the body with eventsource-parser,
 * parse each message strictly, and reconnect after the last delivered frame with
 * `Last-Event-ID`. Everything that happens is an item of the iterable, never an
 * exception. It owns one turn's stream; folding it into state is `followChatTurn`'s.
 */
import {
  CHAT_LIMITS,
  formatChatCursor,
  parseChatSseMessage,
  type ChatCursor,
  type ChatEventEnvelope,
  type ParseChatSseMessageRefusalCode,
} from '@papercusp/chat-protocol-core';
import { digestEnvelope } from '@papercusp/chat-protocol-core/internal';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** The fetch the client calls: the platform's, or one the app wraps (auth, tracing). */
export type ChatStreamFetch = (input: string | URL, init: RequestInit) => Promise<Response>;

/** Reconnect policy of {@link readChatStream}. */
export interface ChatStreamRetryOptions {
  /** Reconnects allowed in a row without a new frame (0: never reconnect). Default 8. */
  readonly attempts?: number;
  /** Delay before the first reconnect, doubled on each next one. Default 500 ms; a server's `retry:` replaces it. */
  readonly baseDelayMs?: number;
  /** Cap of every delay, also of a server's `retry:`. Default 30 000 ms. */
  readonly maxDelayMs?: number;
}

/** Options of {@link readChatStream}. */
export interface ReadChatStreamOptions {
  /** The turn's SSE endpoint (a `createChatSseResponse` route). */
  readonly url: string | URL;
  /** Default: the global `fetch`. */
  readonly fetch?: ChatStreamFetch;
  /** Sent on every attempt; `accept` and `last-event-id` are the client's. */
  readonly headers?: ConstructorParameters<typeof Headers>[0];
  /** Resume after this cursor (`seq: 0`: from the start); without it the server starts the turn from its first frame. */
  readonly cursor?: ChatCursor;
  /** Aborting ends the iteration with `ended: aborted`, closing the connection and every timer. */
  readonly signal?: AbortSignal;
  readonly retry?: ChatStreamRetryOptions;
  /**
   * How long an attempt may wait for the response headers, then for each next
   * chunk (a heartbeat comment counts), before it is dropped and resumed.
   * Keep it above the server's heartbeat interval. Default 45 000 ms.
   */
  readonly timeoutMs?: number;
}

/** Why an attempt failed and the client reconnects (or gives up). */
export type ChatStreamFailureCode =
  'network-error' | 'timeout' | 'unexpected-status' | 'not-event-stream' | 'stream-ended' | 'invalid-frame';

/** One failed attempt: `status` when the server answered with an HTTP status the client retries (5xx, 408, 429, other non-200). */
export interface ChatStreamFailure {
  readonly code: ChatStreamFailureCode;
  readonly message: string;
  readonly status?: number;
}

/** Why the iteration ended; `ended` is always the last item, exactly once. */
export type ChatStreamEndReason = 'terminal' | 'no-content' | 'refused' | 'aborted' | 'gave-up';

/**
 * Codes of an `invalid-frame` item: the strict parser's (`too-large` also for a
 * message past the envelope limit), a frame of another turn, a seq past the next
 * one, or `conflicting-duplicate`: a seq this iterator already delivered, sent
 * again with another event id or content (a resumed stream that disagrees with
 * itself), as `applyChatEvent` would call it.
 */
export type ChatStreamFrameRefusalCode = ParseChatSseMessageRefusalCode | 'foreign-turn' | 'seq-gap' | 'conflicting-duplicate';

/** A frame the server delivered, strictly parsed; `cursor` is its own position. */
export interface ChatStreamEnvelopeItem {
  readonly type: 'envelope';
  readonly envelope: ChatEventEnvelope;
  readonly cursor: ChatCursor;
}

/** An attempt got a `200 text/event-stream` answer; `attempt` is 0 for the first connection. */
export interface ChatStreamConnectedItem {
  readonly type: 'connected';
  readonly attempt: number;
  readonly cursor: ChatCursor | null;
}

/** The client waits `delayMs`, then reconnects after `cursor`; `attempt` counts reconnects without a new frame, from 1. */
export interface ChatStreamReconnectingItem {
  readonly type: 'reconnecting';
  readonly attempt: number;
  readonly delayMs: number;
  readonly cursor: ChatCursor | null;
  readonly failure: ChatStreamFailure;
}

/**
 * The server refused the stream with a 4xx (not 408 or 429); nothing is retried.
 * `code`, `lowerBound` and `latestSeq` come from its JSON body (`410 stale-cursor`:
 * refetch the state; `409 cursor-beyond-latest`); `code` is `http-error` when the body names none.
 */
export interface ChatStreamRefusedItem {
  readonly type: 'refused';
  readonly status: number;
  readonly code: string;
  readonly lowerBound?: number;
  readonly latestSeq?: number;
}

/** A message the client cannot take; the attempt is dropped and resumed after the last good frame. */
export interface ChatStreamInvalidFrameItem {
  readonly type: 'invalid-frame';
  readonly code: ChatStreamFrameRefusalCode;
  readonly message: string;
  readonly id?: string;
  readonly event?: string;
}

/** The last item: why the stream stopped, the cursor to resume after later, and the failure for `gave-up`. */
export interface ChatStreamEndedItem {
  readonly type: 'ended';
  readonly reason: ChatStreamEndReason;
  readonly cursor: ChatCursor | null;
  readonly failure?: ChatStreamFailure;
}

/** Everything {@link readChatStream} yields, discriminated on `type`. */
export type ChatStreamItem =
  | ChatStreamEnvelopeItem
  | ChatStreamConnectedItem
  | ChatStreamReconnectingItem
  | ChatStreamRefusedItem
  | ChatStreamInvalidFrameItem
  | ChatStreamEndedItem;

const DEFAULT_ATTEMPTS = 8;
const DEFAULT_BASE_DELAY_MS = 500;
const DEFAULT_MAX_DELAY_MS = 30_000;
const DEFAULT_TIMEOUT_MS = 45_000;
// A message is at most one envelope plus its `id:` and `event:` lines. In a pure IIFE: bundlers keep a read of
// another module's property (it may run a getter) in a bundle that never uses it.
const MAX_MESSAGE_CHARS = /* @__PURE__ */ (() => CHAT_LIMITS.maxEnvelopeLength + 1_024)();
const MAX_REFUSAL_BODY_BYTES = 8_192;
const KEBAB_CODE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/**
 * Reads one turn's SSE stream as typed items (see {@link ChatStreamItem}).
 *
 * Guarantees: envelopes come in seq order, contiguous after the cursor, each
 * once (an identical redelivery of a seq after a reconnect is skipped; the
 * cursor never moves backwards). A seq it delivered that comes again with
 * another event id or content is never dropped unseen: it is an `invalid-frame`
 * item `conflicting-duplicate`, and the attempt is dropped like any invalid
 * frame. To compare, it keeps one line (event id and content digest) per seq it
 * delivered of its one turn; a seq at or below the starting `cursor`, which it
 * never saw, is skipped. A failed attempt (network error, timeout, 5xx, a body that is not
 * `text/event-stream`, a stream that ends before the terminal event, an invalid
 * frame) reconnects after the last envelope with `Last-Event-ID`, waiting a
 * jittered exponential backoff (a uniform draw in [½, 1] of
 * `min(maxDelayMs, base × 2^(attempt − 1))`, base the server's last `retry:`
 * or `baseDelayMs`); a new envelope resets the count, and more than
 * `retry.attempts` reconnects in a row ends `gave-up`. It stops at `done` or
 * `error`, on `204`, on a 4xx refusal or on abort, with `ended` as the last
 * item. Nothing escapes the iterator; leaving it (`break`, abort) closes the
 * connection and clears every timer.
 *
 * Throws `TypeError`, when called, for a malformed `cursor` or a negative or
 * non-integer retry or timeout setting (programming errors).
 */
export function readChatStream(options: ReadChatStreamOptions): AsyncIterableIterator<ChatStreamItem> {
  const settings = readSettings(options);
  return iterate(settings);
}

interface Settings {
  readonly url: string | URL;
  readonly fetch: ChatStreamFetch;
  readonly headers: Headers;
  readonly cursor: ChatCursor | null;
  readonly signal: AbortSignal | undefined;
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly timeoutMs: number;
}

function readSettings(options: ReadChatStreamOptions): Settings {
  const { cursor, retry = {} } = options;
  if (cursor !== undefined) formatChatCursor(cursor);
  return {
    url: options.url,
    fetch: options.fetch ?? ((input, init) => fetch(input, init)),
    headers: new Headers(options.headers),
    cursor: cursor === undefined ? null : { turnId: cursor.turnId, seq: cursor.seq },
    signal: options.signal,
    attempts: count('retry.attempts', retry.attempts, DEFAULT_ATTEMPTS),
    baseDelayMs: count('retry.baseDelayMs', retry.baseDelayMs, DEFAULT_BASE_DELAY_MS),
    maxDelayMs: count('retry.maxDelayMs', retry.maxDelayMs, DEFAULT_MAX_DELAY_MS),
    timeoutMs: count('timeoutMs', options.timeoutMs, DEFAULT_TIMEOUT_MS),
  };
}

function count(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`readChatStream: ${name} must be a non-negative safe integer`);
  return value;
}

// What one attempt came to: the item that ends the stream, or a failure to retry.
type AttemptOutcome = { readonly end: ChatStreamEndedItem } | { readonly failure: ChatStreamFailure };

async function* iterate(settings: Settings): AsyncGenerator<ChatStreamItem, void, undefined> {
  const { signal } = settings;
  const progress: Progress = { cursor: settings.cursor, retryMs: undefined, advanced: false, delivered: [] };
  let reconnects = 0;
  for (;;) {
    if (signal?.aborted) return yield ended('aborted', progress.cursor);
    progress.advanced = false;
    const outcome = yield* attempt(settings, progress, reconnects);
    if ('end' in outcome) return yield outcome.end;
    if (signal?.aborted) return yield ended('aborted', progress.cursor);
    reconnects = progress.advanced ? 1 : reconnects + 1;
    if (reconnects > settings.attempts) return yield { ...ended('gave-up', progress.cursor), failure: outcome.failure };
    const ceiling = Math.min(settings.maxDelayMs, (progress.retryMs ?? settings.baseDelayMs) * 2 ** (reconnects - 1));
    const delayMs = Math.round(ceiling * (0.5 + Math.random() / 2));
    yield { type: 'reconnecting', attempt: reconnects, delayMs, cursor: progress.cursor, failure: outcome.failure };
    if (!(await sleep(delayMs, signal))) return yield ended('aborted', progress.cursor);
  }
}

function ended(reason: ChatStreamEndReason, cursor: ChatCursor | null): ChatStreamEndedItem {
  return { type: 'ended', reason, cursor };
}

interface Progress {
  cursor: ChatCursor | null;
  retryMs: number | undefined;
  advanced: boolean;
  /** Entry `seq - 1`: what this iterator delivered at that seq (see {@link deliveredLine}); empty below the starting cursor. */
  readonly delivered: string[];
}

// What identifies a delivered frame's content, as core's idempotency memory does: its event id and content digest.
const deliveredLine = (envelope: ChatEventEnvelope): string => `${envelope.eventId} ${digestEnvelope(envelope)}`;

// One connection: request, check the answer, read its frames. Every exit path
// (return, a consumer leaving at a yield) runs the finally block, which aborts
// the request, cancels the body and clears the timer.
async function* attempt(
  settings: Settings,
  progress: Progress,
  reconnects: number,
): AsyncGenerator<ChatStreamItem, AttemptOutcome, undefined> {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, settings.timeoutMs);
  };
  const onAbort = (): void => controller.abort();
  settings.signal?.addEventListener('abort', onAbort);
  let body: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const failed = (error: unknown): AttemptOutcome =>
    timedOut
      ? { failure: { code: 'timeout', message: `no answer within ${settings.timeoutMs} ms` } }
      : { failure: { code: 'network-error', message: describeError(error) } };
  try {
    arm();
    const headers = new Headers(settings.headers);
    headers.set('accept', 'text/event-stream');
    if (progress.cursor) headers.set('last-event-id', formatChatCursor(progress.cursor));
    else headers.delete('last-event-id');
    const answer = await settle(callFetch(settings, headers, controller.signal), controller.signal);
    if ('error' in answer) return failed(answer.error);
    const response = answer.value;
    if (response.status !== 200 || !isEventStream(response)) {
      return yield* judgeAnswer(response, controller.signal, progress.cursor);
    }
    if (!response.body) return { failure: { code: 'stream-ended', message: 'the response has no body' } };
    body = response.body.getReader();
    clearTimeout(timer);
    yield { type: 'connected', attempt: reconnects, cursor: progress.cursor };
    const decoder = new TextDecoder();
    const messages: EventSourceMessage[] = [];
    let tooLarge = false;
    const parser = createParser({
      onEvent: (message) => messages.push(message),
      onRetry: (retryMs) => (progress.retryMs = retryMs),
      onError: (error) => (tooLarge ||= error.type === 'max-buffer-size-exceeded'),
      maxBufferSize: MAX_MESSAGE_CHARS,
    });
    for (;;) {
      arm();
      const read = await settle(body.read(), controller.signal);
      // No timer while the consumer handles what this chunk held: a slow consumer is not a silent server.
      clearTimeout(timer);
      if ('error' in read) return failed(read.error);
      if (read.value.done) return { failure: { code: 'stream-ended', message: 'the stream ended before the terminal event' } };
      parser.feed(decoder.decode(read.value.value, { stream: true }));
      if (tooLarge) {
        yield { type: 'invalid-frame', code: 'too-large', message: `a message exceeds ${MAX_MESSAGE_CHARS} characters` };
        return { failure: { code: 'invalid-frame', message: 'a message is too large' } };
      }
      for (const message of messages.splice(0)) {
        const taken = takeMessage(message, progress);
        if (taken === undefined) continue;
        yield taken;
        if (settings.signal?.aborted) return failed('aborted');
        if (taken.type === 'invalid-frame') return { failure: { code: 'invalid-frame', message: taken.message } };
        const type = taken.envelope.event.type;
        if (type === 'done' || type === 'error') return { end: ended('terminal', progress.cursor) };
      }
    }
  } finally {
    clearTimeout(timer);
    settings.signal?.removeEventListener('abort', onAbort);
    controller.abort();
    discard(body);
  }
}

// The app's fetch may throw synchronously or return a non-promise: both become a settled promise.
async function callFetch(settings: Settings, headers: Headers, signal: AbortSignal): Promise<Response> {
  const response = await settings.fetch(settings.url, { headers, signal });
  if (signal.aborted) await discard(response.body);
  return response;
}

// Strict parse, then the order rules: the cursor's turn, seqs contiguous after it, an identical redelivery skipped.
function takeMessage(message: EventSourceMessage, progress: Progress): ChatStreamEnvelopeItem | ChatStreamInvalidFrameItem | undefined {
  const parsed = parseChatSseMessage(message);
  const refused = (code: ChatStreamFrameRefusalCode, text: string): ChatStreamInvalidFrameItem => ({
    type: 'invalid-frame',
    code,
    message: text,
    ...(message.id === undefined ? {} : { id: message.id.slice(0, 300) }),
    ...(message.event === undefined ? {} : { event: message.event.slice(0, 300) }),
  });
  if (!parsed.ok) return refused(parsed.code, parsed.message);
  const envelope = parsed.value;
  const { cursor } = progress;
  if (cursor && envelope.turnId !== cursor.turnId)
    return refused('foreign-turn', `frame of turn ${envelope.turnId}, expected ${cursor.turnId}`);
  const expected = (cursor?.seq ?? 0) + 1;
  if (envelope.seq < expected) {
    const seen = progress.delivered[envelope.seq - 1];
    return seen === undefined || seen === deliveredLine(envelope)
      ? undefined
      : refused('conflicting-duplicate', `seq ${envelope.seq} of turn ${envelope.turnId} came again with other content`);
  }
  if (envelope.seq > expected) return refused('seq-gap', `frame seq ${envelope.seq}, expected ${expected}`);
  progress.cursor = { turnId: envelope.turnId, seq: envelope.seq };
  progress.delivered[envelope.seq - 1] = deliveredLine(envelope);
  progress.advanced = true;
  return { type: 'envelope', envelope, cursor: progress.cursor };
}

function isEventStream(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return type.split(';')[0]?.trim().toLowerCase() === 'text/event-stream';
}

// A non-stream answer: 204 ends, a 4xx refuses (its JSON body read, bounded, yielded as `refused`), anything else is retried.
async function* judgeAnswer(
  response: Response,
  signal: AbortSignal,
  cursor: ChatCursor | null,
): AsyncGenerator<ChatStreamRefusedItem, AttemptOutcome, undefined> {
  const { status } = response;
  if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
    yield { type: 'refused', status, ...refusalFields(await readSmallJson(response, signal)) };
    return { end: ended('refused', cursor) };
  }
  await discard(response.body);
  if (status === 204) return { end: ended('no-content', cursor) };
  if (status === 200) {
    const message = `content-type ${response.headers.get('content-type') ?? 'missing'}`;
    return { failure: { code: 'not-event-stream', message, status } };
  }
  return { failure: { code: 'unexpected-status', message: `HTTP ${status}`, status } };
}

function refusalFields(body: unknown): { code: string; lowerBound?: number; latestSeq?: number } {
  if (typeof body !== 'object' || body === null) return { code: 'http-error' };
  const { code, lowerBound, latestSeq } = body as Record<string, unknown>;
  return {
    code: typeof code === 'string' && code.length <= 64 && KEBAB_CODE.test(code) ? code : 'http-error',
    ...(isSeq(lowerBound) ? { lowerBound } : {}),
    ...(isSeq(latestSeq) ? { latestSeq } : {}),
  };
}

function isSeq(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

// Reads at most MAX_REFUSAL_BODY_BYTES of a refusal's body as JSON; `undefined` when it is not JSON or too long.
async function readSmallJson(response: Response, signal: AbortSignal): Promise<unknown> {
  const reader = response.body?.getReader();
  if (!reader) return undefined;
  // A streaming decode of each chunk reads the same text as one decode of all the bytes.
  const decoder = new TextDecoder();
  let text = '';
  let length = 0;
  try {
    for (;;) {
      const read = await settle(reader.read(), signal);
      if ('error' in read) return undefined;
      if (read.value.done) return JSON.parse(text + decoder.decode()) as unknown;
      length += read.value.value.byteLength;
      if (length > MAX_REFUSAL_BODY_BYTES) return undefined;
      text += decoder.decode(read.value.value, { stream: true });
    }
  } catch {
    return undefined;
  } finally {
    discard(reader);
  }
}

// Releases a body or reader the client no longer reads; a failure to cancel changes nothing.
function discard(body: { cancel(): Promise<void> } | null | undefined): Promise<void> | undefined {
  return body?.cancel().catch(() => undefined);
}

type Settled<T> = { readonly value: T } | { readonly error: unknown };

// Waits for `promise` or for `signal`, whichever comes first, without ever rejecting
// (an abort settles as the error 'aborted'): a fetch or a read that ignores the signal cannot hold the iterator.
function settle<T>(promise: Promise<T>, signal: AbortSignal): Promise<Settled<T>> {
  return new Promise((resolve) => {
    const onAbort = (): void => resolve({ error: 'aborted' });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ value });
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ error });
      },
    );
  });
}

// Resolves true after `ms`, or false at once when `signal` aborts (the timer cleared).
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function describeError(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === 'string' ? error : 'the request failed';
}
