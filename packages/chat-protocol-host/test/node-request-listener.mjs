// @ts-check
/**
 * Test support: a web-standard handler served through `node:http`, as the command will serve it. Each Node request
 * becomes a `Request` (its body streamed, its signal aborted when the connection closes) and each `Response` is
 * written with the transport's `writeChatSseResponse`. Shared by the in-process loopback hosts and the host processes.
 */
import { Readable } from 'node:stream';
import { writeChatSseResponse } from '@papercusp/chat-protocol-sse';

/**
 * The `node:http` request listener serving `handler`.
 * @param {(request: Request) => Promise<Response>} handler
 * @returns {(incoming: import('node:http').IncomingMessage, outgoing: import('node:http').ServerResponse) => void}
 */
export function nodeRequestListener(handler) {
  return (incoming, outgoing) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    const controller = new AbortController();
    outgoing.on('close', () => controller.abort());
    const method = incoming.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? null : /** @type {ReadableStream<Uint8Array>} */ (Readable.toWeb(incoming));
    const init = { method, headers, body, signal: controller.signal, ...(body === null ? {} : { duplex: 'half' }) };
    void handler(new Request(new URL(incoming.url ?? '/', 'http://127.0.0.1'), /** @type {RequestInit} */ (init))).then((response) =>
      writeChatSseResponse(response, outgoing),
    );
  };
}
