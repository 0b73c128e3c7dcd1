/**
 * The server side's test fixtures: a real `node:http` server on loopback that
 * answers each request with a handler's web `Response` (through
 * `writeChatSseResponse`), a fake log that counts its live subscriptions, turn
 * envelopes, and a reader of an event stream through `eventsource-parser`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChatEventEnvelope, ChatEventV1 } from '@papercusp/chat-protocol-core';
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { writeChatSseResponse } from '../src/write-chat-sse-response.js';

/** A running loopback server; `close` ends its connections and stops it. */
export interface LoopbackServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a `node:http` server on 127.0.0.1 that answers with `handle(request)`; the request's signal aborts when the client goes away. */
export async function startLoopbackServer(handle: (request: Request) => Promise<Response>): Promise<LoopbackServer> {
  const server: Server = createServer((incoming, outgoing) => {
    const gone = new AbortController();
    outgoing.once('close', () => gone.abort());
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    const request = new Request(new URL(incoming.url ?? '/', 'http://127.0.0.1'), { headers, signal: gone.signal });
    void handle(request).then((response) => writeChatSseResponse(response, outgoing));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A log that forwards to `log` and counts the subscriptions it opened and not yet released. */
export interface CountingLog extends ChatEventLog {
  liveSubscriptions(): number;
}

/** Wraps `log`, counting live subscriptions (a subscription counts until its unsubscribe is called or its `onEnd` fires). */
export function countSubscriptions(log: ChatEventLog): CountingLog {
  let live = 0;
  return {
    append: (envelope) => log.append(envelope),
    replayWindow: (request) => log.replayWindow(request),
    pruneTurns: (request) => log.pruneTurns(request),
    async subscribe(request, onEnvelope, onEnd) {
      let open = true;
      const release = (): void => {
        if (open) live -= 1;
        open = false;
      };
      live += 1;
      try {
        const unsubscribe = await log.subscribe(request, onEnvelope, (end) => {
          release();
          onEnd?.(end);
        });
        return () => {
          release();
          unsubscribe();
        };
      } catch (error) {
        release();
        throw error;
      }
    },
    liveSubscriptions: () => live,
  };
}

export const TURN = { conversationId: 'conv_sse', turnId: 'turn_sse' } as const;

/** Envelope `seq` of the test turn: a delta, or the terminal `done` when `last`. */
export function envelopeAt(seq: number, event: ChatEventV1 = { type: 'delta', text: `text ${seq}` }): ChatEventEnvelope {
  return { schemaVersion: 1, ...TURN, eventId: `evt_sse_${seq}`, seq, occurredAt: '2031-05-01T08:00:00Z', event };
}

export const DONE: ChatEventV1 = { type: 'done', status: 'completed' };

/** Seqs 1…`count` of a turn, the last one `done` when `finished`. */
export function turnOf(count: number, finished: boolean): ChatEventEnvelope[] {
  return Array.from({ length: count }, (_, index) => envelopeAt(index + 1, finished && index === count - 1 ? DONE : undefined));
}

/** Appends each envelope in order and fails the test on any answer but `appended`. */
export async function appendAll(log: ChatEventLog, envelopes: readonly ChatEventEnvelope[]): Promise<void> {
  for (const envelope of envelopes) {
    const answer = await log.append(envelope);
    if (!answer.ok || answer.outcome !== 'appended') throw new Error(`append ${envelope.seq}: ${JSON.stringify(answer)}`);
  }
}

/** What an event stream carried until it ended: its messages and how many comments (heartbeats). */
export interface ReadStream {
  readonly messages: EventSourceMessage[];
  readonly comments: number;
  /** `ended`: the body finished cleanly; `failed`: it broke off (the server closed the connection abruptly). */
  readonly outcome: 'ended' | 'failed';
}

/** Reads a body to its end through `eventsource-parser`; `until` may stop reading early (the body is then cancelled). */
export async function readEventStream(
  body: ReadableStream<Uint8Array>,
  until: (read: { readonly messages: readonly EventSourceMessage[]; readonly comments: number }) => boolean = () => false,
): Promise<ReadStream> {
  const messages: EventSourceMessage[] = [];
  let comments = 0;
  const parser = createParser({
    onEvent: (message) => messages.push(message),
    onComment: () => {
      comments += 1;
    },
  });
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return { messages, comments, outcome: 'ended' };
      parser.feed(decoder.decode(next.value, { stream: true }));
      if (until({ messages, comments })) {
        await reader.cancel();
        return { messages, comments, outcome: 'ended' };
      }
    }
  } catch {
    return { messages, comments, outcome: 'failed' };
  }
}

/** Resolves once `condition()` holds, checking after each macrotask; rejects after `attempts` checks (no clock involved). */
export async function eventually(condition: () => boolean, attempts = 100_000): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error('the condition never held');
}
