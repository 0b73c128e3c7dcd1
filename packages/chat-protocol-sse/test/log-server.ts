/**
 * The end-to-end tests' server: a real `node:http` server on loopback that
 * answers every request with `createChatSseResponse` over a given event log,
 * written by `writeChatSseResponse`, and cuts a connection on demand after N
 * bytes of its body (the socket is destroyed, as a proxy or a crash would). It
 * records what each connection was sent, so a test can check the server side too.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import { createChatSseResponse } from '../src/create-chat-sse-response.js';
import { writeChatSseResponse } from '../src/write-chat-sse-response.js';

/** What one connection asked for and was sent (the body bytes that left before any cut). */
export interface ServedConnection {
  readonly lastEventId: string | undefined;
  status: number;
  body: string;
  /** Whether the server cut this connection (the test's limit), rather than the stream ending on its own. */
  cut: boolean;
}

/** A running log server; `close` ends its connections and stops it. */
export interface LogServer {
  readonly url: string;
  readonly served: readonly ServedConnection[];
  /** Connections that carried a request and are still open on the server side. */
  openConnections(): number;
  /** Closes connections that never carried a request (Node's fetch opens a spare one after it destroys a socket). */
  closeUnusedConnections(): void;
  close(): Promise<void>;
}

/** Options of {@link startLogServer}. */
export interface LogServerOptions {
  readonly log: ChatEventLog;
  readonly conversationId: string;
  readonly turnId: string;
  /** Bytes of request `index`'s body (from 0) to send before destroying the socket; `undefined`: no cut. */
  readonly cutAfterBytes?: (index: number) => number | undefined;
  /** The stream's `retry:` (default: the server's). */
  readonly retryMs?: number;
}

/** Starts a server on 127.0.0.1 whose every request is one turn's SSE stream over `options.log`. */
export async function startLogServer(options: LogServerOptions): Promise<LogServer> {
  const served: ServedConnection[] = [];
  const carried = new Set<Socket>();
  const connected = new Set<Socket>();
  const server = createServer((incoming, outgoing) => {
    const index = served.length;
    const header = incoming.headers['last-event-id'];
    const connection: ServedConnection = { lastEventId: typeof header === 'string' ? header : undefined, status: 0, body: '', cut: false };
    served.push(connection);
    const { socket } = incoming;
    if (!carried.has(socket) && !socket.destroyed) {
      carried.add(socket);
      socket.once('close', () => carried.delete(socket));
    }
    cutAfter(outgoing, options.cutAfterBytes?.(index), connection);
    const gone = new AbortController();
    outgoing.once('close', () => gone.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    const request = new Request(new URL(incoming.url ?? '/', 'http://127.0.0.1'), { headers, signal: gone.signal });
    void createChatSseResponse(request, {
      log: options.log,
      conversationId: options.conversationId,
      turnId: options.turnId,
      // No heartbeat inside a test: the bodies are frames only, so the cut offsets are exact.
      heartbeatMs: 600_000,
      ...(options.retryMs === undefined ? {} : { retryMs: options.retryMs }),
    }).then((response) => {
      connection.status = response.status;
      return writeChatSseResponse(response, outgoing);
    });
  });
  server.on('connection', (socket: Socket) => {
    connected.add(socket);
    socket.once('close', () => connected.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/turn`,
    served,
    openConnections: () => carried.size,
    closeUnusedConnections: () => {
      for (const socket of connected) if (!carried.has(socket)) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Wraps the response's `write` and `end`: records the body, and past `limit` bytes writes what fits and destroys the socket.
function cutAfter(outgoing: ServerResponse, limit: number | undefined, connection: ServedConnection): void {
  const write = outgoing.write.bind(outgoing) as (chunk: Uint8Array, callback?: () => void) => boolean;
  const end = outgoing.end.bind(outgoing) as () => ServerResponse;
  let remaining = limit ?? Number.POSITIVE_INFINITY;
  let cut = false;
  const decoder = new TextDecoder();
  const record = (bytes: Uint8Array): void => {
    connection.body += decoder.decode(bytes, { stream: true });
  };
  Object.assign(outgoing, {
    write(chunk: Uint8Array | string): boolean {
      if (cut) return true;
      const bytes = typeof chunk === 'string' ? new TextEncoder().encode(chunk) : chunk;
      if (bytes.byteLength < remaining) {
        remaining -= bytes.byteLength;
        record(bytes);
        return write(bytes);
      }
      cut = true;
      connection.cut = true;
      const kept = bytes.subarray(0, remaining);
      record(kept);
      write(kept, () => outgoing.destroy());
      return true;
    },
    end(): ServerResponse {
      if (cut) return outgoing;
      // A body that ends exactly at the limit is cut as well: the client sees a reset, not a clean end.
      if (remaining === 0) {
        connection.cut = true;
        outgoing.destroy();
        return outgoing;
      }
      return end();
    },
  });
}
