/**
 * The byte-bounded queue behind one SSE connection: a `ReadableStream` of
 * UTF-8 chunks that feeds a replay backlog as the reader pulls it and holds
 * live chunks only up to a byte limit. Past the limit it errors the stream,
 * dropping what it held, so a reader that stops reading costs bounded memory
 * and its client resumes from its last cursor. It knows nothing of envelopes'
 * meaning, cursors or the log.
 */

/** What a connection's queue can do; see {@link createUnreadByteQueue}. */
export interface UnreadByteQueue {
  /** The response body. */
  readonly stream: ReadableStream<Uint8Array>;
  /** Bytes handed to the queue and not yet read: the stream's internal queue plus the chunks held behind it. */
  unreadBytes(): number;
  /** Hands over chunks to send before anything pushed later, produced one at a time as the reader pulls (the replay window). */
  replay(chunks: Iterator<string>): void;
  /** Queues one chunk; `false` when the queue is over its limit and was closed for it (or was closed already). */
  push(text: string): boolean;
  /**
   * Ends the stream once everything queued has been read; `last`, when given,
   * is asked for one final chunk at that moment (so it sees every chunk before it
   * produced), and an empty one adds nothing; it must not throw. A second `close` keeps the first `last`.
   */
  close(last?: () => string): void;
  /**
   * Ends the stream after the chunks already in its queue, dropping the replay
   * backlog and the held chunks: for a frame that could not be produced, after
   * which nothing later may be sent (the client resumes from the frame before).
   * Safe to call while the backlog is producing a chunk.
   */
  cut(): void;
  /** Ends the stream now with `reason`, dropping everything unread. */
  fail(reason: Error): void;
}

/** Options of {@link createUnreadByteQueue}. */
export interface UnreadByteQueueOptions {
  /** The most unread bytes the queue holds before it closes the stream. */
  readonly maxUnreadBytes: number;
  /** Called once when the stream ends for any reason: read to the end, failed, over the limit, or cancelled by the reader. */
  readonly onFinish: (reason: 'closed' | 'failed' | 'overflow' | 'cancelled') => void;
}

// Annotated and literal: bundlers keep an unannotated `new` or a computed constant in a bundle that never uses them.
const encoder = /* @__PURE__ */ new TextEncoder();

/** How far ahead of the reader the replay backlog is fed, at most (a few frames to keep the socket busy). */
const REPLAY_READ_AHEAD_BYTES = 16_384; // 16 KiB

// The chunks as one, `bytes` long.
function concat(chunks: readonly Uint8Array[], bytes: number): Uint8Array {
  const joined = new Uint8Array(bytes);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return joined;
}

/**
 * Creates a connection's queue.
 *
 * Guarantees: chunks reach the stream in the order given (`replay` first, then
 * `push`); the replay backlog is produced only while the stream's queue is
 * below its read-ahead (at most half the limit), so a long replay never counts
 * against the limit faster than the reader reads it; `unreadBytes()` never
 * exceeds `maxUnreadBytes` except by one chunk pushed while nothing else was
 * unread (a frame larger than the limit is still delivered, alone). Writes are
 * batched: the backlog goes in as one chunk per pull (as many of its chunks as
 * fill the read-ahead), and chunks pushed in one synchronous run go in as one
 * chunk at the next microtask checkpoint (no timer: a lone chunk is not delayed); when a push
 * would pass the limit the stream errors, the held chunks are dropped at once
 * and `onFinish('overflow')` is called. `onFinish` is called exactly once.
 */
export function createUnreadByteQueue(options: UnreadByteQueueOptions): UnreadByteQueue {
  const { maxUnreadBytes, onFinish } = options;
  const readAheadBytes = Math.max(1, Math.min(REPLAY_READ_AHEAD_BYTES, Math.floor(maxUnreadBytes / 2)));
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let backlog: Iterator<string> | undefined;
  let held: Uint8Array[] = [];
  let heldBytes = 0;
  let closing = false;
  let lastChunk: (() => string) | undefined;
  let finished = false;
  let producing = false;
  let cutAsked = false;
  let feedQueued = false;

  const finish = (reason: 'closed' | 'failed' | 'overflow' | 'cancelled'): void => {
    if (finished) return;
    finished = true;
    backlog = undefined;
    held = [];
    heldBytes = 0;
    onFinish(reason);
  };
  const queuedBytes = (): number => (finished ? 0 : readAheadBytes - (controller.desiredSize ?? readAheadBytes));

  // Ends the stream after what it holds; the held chunks and the backlog are dropped.
  const cutNow = (): void => {
    controller.close();
    finish('closed');
  };

  // As many backlog chunks as fill `room` (in UTF-16 units, never more than their UTF-8 bytes), joined: one enqueue.
  // A cut asked for while a chunk is produced keeps the chunks before it and drops that one and everything after.
  const produce = (room: number): string => {
    let text = '';
    producing = true;
    try {
      while (backlog !== undefined && text.length < room) {
        const next = backlog.next();
        if (cutAsked) break;
        if (next.done === true) backlog = undefined;
        else text += next.value;
      }
    } finally {
      producing = false;
    }
    return text;
  };

  // Moves the backlog, then the held chunks, into the stream while it is below its read-ahead, each as one chunk.
  const feed = (): void => {
    while (!finished && (controller.desiredSize ?? 0) > 0) {
      if (backlog !== undefined) {
        const text = produce(controller.desiredSize ?? 0);
        if (text !== '') controller.enqueue(encoder.encode(text));
        if (cutAsked) return cutNow();
        continue;
      }
      if (held.length === 0) break;
      const chunk = held.length === 1 ? (held[0] as Uint8Array) : concat(held, heldBytes);
      held = [];
      heldBytes = 0;
      controller.enqueue(chunk);
    }
    if (!finished && closing && backlog === undefined && held.length === 0) {
      const last = lastChunk?.() ?? '';
      // Finished before the last chunk goes in: its enqueue may fulfil a pending read and pull again, re-entering here.
      finish('closed');
      if (last !== '') controller.enqueue(encoder.encode(last));
      controller.close();
    }
  };

  // Pushed chunks go in together at the next microtask checkpoint: the frames a log hands over in one synchronous run
  // (a batch it committed, the tail buffered during the handoff) reach the socket as one write, and no timer waits.
  const feedSoon = (): void => {
    if (feedQueued) return;
    feedQueued = true;
    queueMicrotask(() => {
      feedQueued = false;
      feed();
    });
  };

  const stream = new ReadableStream<Uint8Array>(
    {
      start(given) {
        controller = given;
      },
      pull() {
        feed();
      },
      cancel() {
        finish('cancelled');
      },
    },
    { highWaterMark: readAheadBytes, size: (chunk) => chunk.byteLength },
  );

  return {
    stream,
    unreadBytes: () => queuedBytes() + heldBytes,
    replay(chunks) {
      if (finished || closing) return;
      backlog = chunks;
      feed();
    },
    push(text) {
      if (finished || closing) return false;
      const chunk = encoder.encode(text);
      const unread = queuedBytes() + heldBytes;
      if (unread > 0 && unread + chunk.byteLength > maxUnreadBytes) {
        controller.error(new Error(`the reader left more than ${maxUnreadBytes} bytes unread`));
        finish('overflow');
        return false;
      }
      held.push(chunk);
      heldBytes += chunk.byteLength;
      feedSoon();
      return true;
    },
    close(last) {
      if (finished) return;
      closing = true;
      lastChunk ??= last;
      feed();
    },
    cut() {
      if (finished) return;
      if (producing) cutAsked = true;
      else cutNow();
    },
    fail(reason) {
      if (finished) return;
      controller.error(reason);
      finish('failed');
    },
  };
}
