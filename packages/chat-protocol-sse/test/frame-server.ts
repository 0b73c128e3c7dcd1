/**
 * The client tests' server: a real `node:http` server on loopback that serves a
 * list of frames (`encodeChatSseFrame`) after the request's `Last-Event-ID`, and
 * misbehaves on demand (cut after N bytes, 204/4xx/5xx, HTML, garbage, silence,
 * `retry:`). Each test closes it in teardown; it never mocks `fetch`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import fc from 'fast-check';
import { afterEach } from 'vitest';
import {
  CHAT_SSE_HEARTBEAT,
  encodeChatSseFrame,
  parseChatCursor,
  type ChatEventEnvelope,
  type ChatEventV1,
} from '@papercusp/chat-protocol-core';

/** How the server answers one request. */
export type FrameAnswer =
  | {
      readonly kind: 'frames';
      /** Bytes of the body to send before cutting the connection. */
      readonly cutAfterBytes?: number;
      /** Frames of this response to send before cutting the connection (instead of bytes). */
      readonly cutAfterFrames?: number;
      /** `destroy` resets the socket; `end` finishes the response cleanly (a stream that ends early). */
      readonly cut?: 'destroy' | 'end';
      readonly retryMs?: number;
      /** Serve from seq 1 whatever the cursor (a host that replays everything). */
      readonly ignoreCursor?: boolean;
      /** Leave this seq out. */
      readonly skipSeq?: number;
      /** Keep the connection open after the frames. */
      readonly holdOpen?: boolean;
      /** Serve these frames on this connection instead of the server's (a host that disagrees with itself). */
      readonly envelopes?: readonly ChatEventEnvelope[];
    }
  | { readonly kind: 'status'; readonly status: number; readonly body?: string; readonly contentType?: string }
  | { readonly kind: 'raw'; readonly body: string | Uint8Array; readonly contentType?: string }
  | { readonly kind: 'silent' }
  | { readonly kind: 'headers-then-silent' };

/** What the server saw of one request. */
export interface SeenRequest {
  readonly lastEventId: string | undefined;
  readonly accept: string | undefined;
  readonly authorization: string | undefined;
}

/** A running frame server. */
export interface FrameServer {
  readonly url: string;
  readonly requests: SeenRequest[];
  /** Connections that carried a request and are still open on the server side. */
  openConnections(): number;
  /**
   * Closes connections that carry no request. Node 20's fetch (undici 6) opens
   * a spare connection to the origin after it destroys one (plain `fetch` with
   * an abort does the same); its client side is unreferenced, its server side
   * is this server's, so the leak checks close it before counting.
   */
  closeUnusedConnections(): void;
  close(): Promise<void>;
}

/** Starts a server on 127.0.0.1 that answers request `index` (from 0) with `answer(index)`. */
export async function startFrameServer(
  envelopes: readonly ChatEventEnvelope[],
  answer: (index: number) => FrameAnswer,
): Promise<FrameServer> {
  const sockets = new Set<Socket>();
  const connected = new Set<Socket>();
  const requests: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const index = requests.length;
    requests.push({
      lastEventId: header(request, 'last-event-id'),
      accept: header(request, 'accept'),
      authorization: header(request, 'authorization'),
    });
    const { socket } = request;
    if (!sockets.has(socket) && !socket.destroyed) {
      // A socket that has carried a request stays counted until it closes.
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    serve(envelopes, answer(index), request, response);
  });
  server.on('connection', (socket: Socket) => {
    connected.add(socket);
    socket.on('close', () => connected.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/turn`,
    requests,
    openConnections: () => sockets.size,
    closeUnusedConnections: () => {
      for (const socket of connected) if (!sockets.has(socket)) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** The body a clean connection after `lastEventId` gets (heartbeats between frames). */
export function frameBody(envelopes: readonly ChatEventEnvelope[], lastEventId: string | undefined, skipSeq?: number): string {
  const cursor = parseChatCursor(lastEventId);
  const after = cursor?.seq ?? 0;
  return envelopes
    .filter((envelope) => envelope.seq > after && envelope.seq !== skipSeq)
    .map((envelope) => `${encodeChatSseFrame(envelope)}${CHAT_SSE_HEARTBEAT}`)
    .join('');
}

function serve(envelopes: readonly ChatEventEnvelope[], plan: FrameAnswer, request: IncomingMessage, response: ServerResponse): void {
  switch (plan.kind) {
    case 'silent':
      return;
    case 'headers-then-silent':
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      return;
    case 'status':
      // `connection: close`, so a finished answer leaves no keep-alive socket for the leak checks to count.
      response.writeHead(plan.status, { connection: 'close', ...(plan.contentType ? { 'content-type': plan.contentType } : {}) });
      response.end(plan.body);
      return;
    case 'raw':
      response.writeHead(200, { connection: 'close', 'content-type': plan.contentType ?? 'text/event-stream' });
      response.end(plan.body);
      return;
    case 'frames': {
      response.writeHead(200, { connection: 'close', 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      const retry = plan.retryMs === undefined ? '' : `retry: ${plan.retryMs}\n\n`;
      const listed = plan.envelopes ?? envelopes;
      const served = plan.ignoreCursor
        ? listed
        : listed.filter((envelope) => envelope.seq > (parseChatCursor(header(request, 'last-event-id'))?.seq ?? 0));
      const body = Buffer.from(retry + frameBody(served, undefined, plan.skipSeq));
      const cutAfterBytes =
        plan.cutAfterFrames === undefined ? plan.cutAfterBytes : (frameBoundaries(served)[plan.cutAfterFrames - 1] ?? body.length);
      if (cutAfterBytes === undefined) {
        if (plan.holdOpen) response.write(body);
        else response.end(body);
        return;
      }
      response.write(body.subarray(0, cutAfterBytes), () => {
        if (plan.cut === 'end') response.end();
        else response.destroy();
      });
      return;
    }
  }
}

/** A turn of every common shape, with text that is more than one byte per character (so cuts land mid-character). */
export function sampleTurn(turnId = 'turn_1', conversationId = 'conv_1'): ChatEventEnvelope[] {
  const events: ChatEventV1[] = [
    { type: 'user_input', text: 'Où est mon remboursement ?', source: 'text_typed' },
    { type: 'tool_call', callId: 'call_1', name: 'refund_status', input: { order: '42' } },
    { type: 'tool_result', callId: 'call_1', name: 'refund_status', status: 'succeeded', summary: 'envoyé' },
    { type: 'delta', text: 'Votre remboursement ' },
    { type: 'delta', text: 'est en route 🚚 — ' },
    { type: 'delta', text: 'comptez 3 jours.' },
    { type: 'done', status: 'completed' },
  ];
  return events.map((event, index) => ({
    schemaVersion: 1,
    conversationId,
    turnId,
    eventId: `evt_${turnId}_${index + 1}`,
    seq: index + 1,
    occurredAt: `2026-12-01T12:00:0${index}Z`,
    event,
  }));
}

/** Byte offsets of every frame boundary of a clean body from the start. */
export function frameBoundaries(envelopes: readonly ChatEventEnvelope[]): number[] {
  const boundaries: number[] = [];
  let offset = 0;
  for (const envelope of envelopes) {
    offset += Buffer.byteLength(`${encodeChatSseFrame(envelope)}${CHAT_SSE_HEARTBEAT}`);
    boundaries.push(offset);
  }
  return boundaries;
}

/** Collects every item of an async iterable. */
export async function collect<Item>(items: AsyncIterable<Item>): Promise<Item[]> {
  const all: Item[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/**
 * The server factory of one test file: each server it starts serves `envelopes`
 * (or the turn given) and is closed after its test, also when the test fails.
 */
export function useFrameServers(
  envelopes: readonly ChatEventEnvelope[],
): (answer: (index: number) => FrameAnswer, served?: readonly ChatEventEnvelope[]) => Promise<FrameServer> {
  let servers: FrameServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    servers = [];
  });
  return async (answer, served = envelopes) => {
    const server = await startFrameServer(served, answer);
    servers.push(server);
    return server;
  };
}

/** One cut of a connection: after `at` bytes, by a reset or a clean end. */
export interface Cut {
  readonly at: number;
  readonly cut: 'destroy' | 'end';
}

/** Up to `maxLength` cuts anywhere in the clean body of `envelopes`, one per connection in turn. */
export function cutsArbitrary(envelopes: readonly ChatEventEnvelope[], maxLength: number): fc.Arbitrary<Cut[]> {
  const total = Buffer.byteLength(frameBody(envelopes, undefined));
  return fc.array(fc.record({ at: fc.integer({ min: 0, max: total }), cut: fc.constantFrom('destroy' as const, 'end' as const) }), {
    maxLength,
  });
}

/** Answers connection `index` cut as `cuts[index]` says, and the ones after them in full. */
export function cutEach(cuts: readonly Cut[]): (index: number) => FrameAnswer {
  return (index) => {
    const plan = cuts[index];
    return plan ? { kind: 'frames', cutAfterBytes: plan.at, cut: plan.cut } : { kind: 'frames' };
  };
}
