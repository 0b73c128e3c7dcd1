/**
 * Serving a web-standard handler from `node:http`: each incoming request
 * becomes a `Request` (its body streamed as it is read, its signal aborted
 * when the client leaves) and the `Response` is written back through the
 * transport's `writeChatSseResponse`, which paces event streams to the socket.
 * It owns the conversion and the connection around it: `HEAD`, the methods a
 * `Request` cannot carry, and an answer that comes before its request's body
 * has arrived (RFC 9112 §9.6). Routing and authority are the handler's.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { writeChatSseResponse } from '@papercusp/chat-protocol-sse';
import { methodNotAllowedResponse, refusalResponse } from '../routes/host-responses.js';

// After an answer that came before its request's body ended, the rest of the body is read and thrown away for at
// most this long before the connection is closed: long enough for the client to read the answer, never a hold.
const LINGER_MS = 2000;
// The connection is kept after such an answer only when what is left is declared and at most this long.
const MAX_DRAIN_BYTES = 1024 * 1024;
// The Fetch standard forbids these in a `Request` (CONNECT never reaches a request listener).
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
// Statuses whose `Response` cannot carry a body, so their end cannot wait for the request's.
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

interface RequestBody {
  readonly stream: ReadableStream<Uint8Array>;
  /** Stops handing the body to `stream`; the listener then owns what is left of it. */
  readonly detach: () => void;
}

// The body as a web stream read only as fast as it is pulled. Unlike `Readable.toWeb`, cancelling it does not
// destroy the socket: the answer still has to go out on it, and what is left of the body is the listener's.
function readRequestBody(incoming: IncomingMessage): RequestBody {
  let detach = (): void => undefined;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const onData = (chunk: Buffer): void => {
        controller.enqueue(new Uint8Array(chunk));
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      };
      const onEnd = (): void => {
        detach();
        controller.close();
      };
      const onLeft = (): void => {
        detach();
        controller.error(new Error('the client left before its body ended'));
      };
      detach = () => {
        incoming.off('data', onData).off('end', onEnd).off('close', onLeft).off('error', onLeft);
        incoming.pause();
      };
      incoming.on('data', onData).once('end', onEnd).once('close', onLeft).once('error', onLeft);
      incoming.pause();
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      detach();
    },
  });
  return { stream, detach: () => detach() };
}

// An answer that came before its request's body ended (a 413 by content-length, a 401, a 408): the rest of the body
// is read and thrown away while the answer goes out, and the answer's end waits for the body's end, LINGER_MS at
// most, so the socket is never closed with unread bytes (that is a reset, which can lose the answer). The
// connection is kept when what is left is declared and small; otherwise, or for a 408 (RFC 9110 §15.5.9), the
// answer says `Connection: close`. A body still arriving after LINGER_MS gets the connection closed.
function answerBeforeBodyEnd(incoming: IncomingMessage, outgoing: ServerResponse, response: Response): Response {
  const declared = Number(incoming.headers['content-length'] ?? Number.NaN);
  const keepAlive = outgoing.shouldKeepAlive && response.status !== 408 && declared <= MAX_DRAIN_BYTES;
  const socket = incoming.socket;
  const drained = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), LINGER_MS);
    incoming.once('end', () => {
      clearTimeout(timer);
      resolve(true);
    });
    incoming.resume();
  });
  void drained.then((ended) => {
    if (!ended) setImmediate(() => socket.destroy());
  });
  const headers = new Headers(response.headers);
  if (!keepAlive) headers.set('connection', 'close');
  const init = { status: response.status, statusText: response.statusText, headers };
  if (NULL_BODY_STATUSES.has(response.status)) return new Response(null, init);
  const source = response.body?.getReader();
  const held = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = source === undefined ? undefined : await source.read();
      if (next !== undefined && !next.done) {
        controller.enqueue(next.value);
        return;
      }
      await drained;
      controller.close();
    },
    cancel: (reason) => source?.cancel(reason),
  });
  return new Response(held, init);
}

/**
 * A `node:http` request listener for `handler`, for hosts served by
 * `node:http`, Express or Fastify. Guarantees:
 * - The request's signal aborts when the connection closes; its body is read
 *   only as the handler reads it.
 * - A request target no URL can be made of (such as `http://[`) is answered
 *   `400 { code: 'invalid-request-target' }`, never a throw that would end
 *   the process; a handler that rejects is answered `500 { code:
 *   'internal-error' }`, never an unhandled rejection.
 * - A method a `Request` cannot carry (`TRACE`, `TRACK`) never reaches the
 *   handler as such: the handler is asked `OPTIONS` on the same target, and
 *   the client gets `405 { code: 'method-not-allowed' }` with the `Allow` it
 *   lists (empty when it lists none), or the handler's own refusal of
 *   `OPTIONS` (such as a `404`).
 * - A `HEAD` answer is sent without a body, and the body the handler gave is
 *   cancelled (never left unread, so what it holds is released).
 * - An answer that comes before the request's body has arrived (RFC 9112
 *   §9.6): the rest of the body is read and discarded; the connection stays
 *   open when that rest was declared and is at most 1 MiB, else (or after a
 *   `408`) the answer says `Connection: close`, and the connection ends
 *   cleanly once the body has arrived, or is closed 2 s after the answer.
 */
export function createNodeRequestListener(handler: (request: Request) => Promise<Response>): RequestListener {
  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    const controller = new AbortController();
    outgoing.on('close', () => controller.abort());
    const method = incoming.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? null : readRequestBody(incoming);
    // Every answer goes out through here: the body the request did not consume is handled first.
    const answer = (response: Response): Promise<void> => {
      body?.detach();
      let sent = response;
      if (method === 'HEAD' && response.body !== null) {
        void response.body.cancel().catch(() => undefined);
        sent = new Response(null, { status: response.status, statusText: response.statusText, headers: response.headers });
      }
      if (!incoming.readableEnded) {
        if (incoming.complete) incoming.resume();
        else sent = answerBeforeBodyEnd(incoming, outgoing, sent);
      }
      return writeChatSseResponse(sent, outgoing);
    };
    // The path is routed as given; the origin is a placeholder (the handler reads only path and query).
    let url: URL;
    try {
      url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    } catch {
      void answer(refusalResponse('invalid-request-target', 'the request target is not a URL'));
      return;
    }
    const answered = async (): Promise<Response> => {
      if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
        const options = await handler(new Request(url, { method: 'OPTIONS', headers, signal: controller.signal }));
        if (!options.ok) return options;
        await options.body?.cancel();
        return methodNotAllowedResponse(options.headers.get('allow') ?? '');
      }
      const init: RequestInit & { duplex?: 'half' } = { method, headers, body: body?.stream ?? null, signal: controller.signal };
      if (body !== null) init.duplex = 'half';
      return handler(new Request(url, init));
    };
    void answered()
      .catch(() => refusalResponse('internal-error', 'the host failed'))
      .then(answer);
  };
}
