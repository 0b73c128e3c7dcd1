/**
 * Serving a web-standard handler from `node:http`: each incoming request
 * becomes a `Request` (its body streamed, aborted when the client leaves) and
 * the `Response` is written back through the transport's
 * `writeChatSseResponse`, which paces event streams to the socket. It owns the
 * conversion only, not routing or authority.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { writeChatSseResponse } from '@papercusp/chat-protocol-sse';
import { refusalResponse } from './host-responses.js';

/**
 * A `node:http` request listener for `handler`, for hosts served by
 * `node:http`, Express or Fastify. Guarantees: the request's signal aborts
 * when the connection closes; a request target no URL can be made of (such
 * as `http://[`) is answered `400 { code: 'invalid-request-target' }`, never a
 * throw that would end the process; a handler that rejects is answered
 * `500 { code: 'internal-error' }`, never an unhandled rejection.
 */
export function createNodeRequestListener(handler: (request: Request) => Promise<Response>): RequestListener {
  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    const controller = new AbortController();
    outgoing.on('close', () => controller.abort());
    const method = incoming.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
    const init: RequestInit & { duplex?: 'half' } = { method, headers, body, signal: controller.signal };
    if (body !== null) init.duplex = 'half';
    // The path is routed as given; the origin is a placeholder (the handler reads only path and query).
    let request: Request;
    try {
      request = new Request(new URL(incoming.url ?? '/', 'http://127.0.0.1'), init);
    } catch {
      void writeChatSseResponse(refusalResponse('invalid-request-target', 'the request target is not a URL'), outgoing);
      return;
    }
    void handler(request)
      .catch(() => refusalResponse('internal-error', 'the host failed'))
      .then((response) => writeChatSseResponse(response, outgoing));
  };
}
