/**
 * Test support: a real AG-UI agent server on loopback (`node:http`, events written by `@ag-ui/encoder`'s own
 * `EventEncoder`), for `createAgUiChatAgent`'s tests to drive through `@ag-ui/client`'s `HttpAgent`. Each request's
 * run input is kept as the server parsed it, with how its response ended: `finished` when the script ended it,
 * `closed` when the client went away first (an aborted fetch closes the connection).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BaseEvent, RunAgentInput } from '@ag-ui/client';
import { EventEncoder } from '@ag-ui/encoder';

/** An AG-UI event as a script writes it: plain JSON with a type (it may be deliberately unusual). */
export interface AgUiServerEvent {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** What a script writes to one run's response. */
export interface AgUiServerRun {
  readonly input: RunAgentInput;
  /** Writes one event, unless the connection is gone. */
  send(event: AgUiServerEvent): void;
  /** Ends the response. */
  end(): void;
}

/** Streams one run: the server calls it for each request, in order (`index` from 0). */
export type AgUiServerScript = (run: AgUiServerRun, index: number) => void | Promise<void>;

/** One request the server took. */
export interface AgUiServerRequest {
  readonly input: RunAgentInput;
  /** How its response ended. */
  readonly ended: Promise<'finished' | 'closed'>;
}

/** A running server. */
export interface AgUiServer {
  readonly url: string;
  /** The requests taken so far, in order. */
  readonly requests: readonly AgUiServerRequest[];
  /** Ends every connection and stops the server. */
  close(): Promise<void>;
}

/**
 * Starts a server on 127.0.0.1 that answers each POST with status `status` and, for 200, an SSE stream `script`
 * writes (`@ag-ui/encoder`'s content type); any other status answers a short text body.
 */
export async function startAgUiServer(script: AgUiServerScript, status = 200): Promise<AgUiServer> {
  const requests: AgUiServerRequest[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const input = JSON.parse(body) as RunAgentInput;
      const index = requests.length;
      requests.push({ input, ended: endOf(response) });
      if (status !== 200) {
        response.writeHead(status, { 'content-type': 'text/plain' }).end('the agent is down');
        return;
      }
      const encoder = new EventEncoder();
      response.writeHead(200, { 'content-type': encoder.getContentType() });
      void script(
        {
          input,
          send: (event) => {
            // The encoder only serialises: the event's own shape is the script's to get right (or wrong).
            if (!response.writableEnded && !response.destroyed) response.write(encoder.encode(event as unknown as BaseEvent));
          },
          end: () => response.end(),
        },
        index,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/agent`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}

function endOf(response: ServerResponse): Promise<'finished' | 'closed'> {
  return new Promise((resolve) => response.once('close', () => resolve(response.writableFinished ? 'finished' : 'closed')));
}

/** The `RUN_STARTED` that opens the run of `input`, as a server echoes it. */
export function runStarted(input: RunAgentInput): AgUiServerEvent {
  return { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
}

/** A successful `RUN_FINISHED` of the run of `input`, with extra fields (`usage`, `outcome`). */
export function runFinished(input: RunAgentInput, extra: Readonly<Record<string, unknown>> = {}): AgUiServerEvent {
  return { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId, ...extra };
}
