import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/sse-test-server.js';
import { writeChatSseResponse } from './write-chat-sse-response.js';

let server: Server;
let url: string;
let respond: () => Response;
let copies: Promise<void>[] = [];

beforeAll(async () => {
  server = createServer((_incoming, outgoing) => {
    copies.push(writeChatSseResponse(respond(), outgoing));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const encoder = new TextEncoder();

describe('writeChatSseResponse: a web Response on a Node http response (issue 16)', () => {
  it('writes the status, every header (each set-cookie on its own) and the body, and resolves when done', async () => {
    copies = [];
    const headers = new Headers({ 'content-type': 'text/plain; charset=utf-8', 'x-answer': '42' });
    headers.append('set-cookie', 'a=1');
    headers.append('set-cookie', 'b=2');
    respond = () => new Response('hello, node', { status: 201, headers });
    const response = await fetch(url);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-answer')).toBe('42');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe('hello, node');
    await expect(Promise.all(copies)).resolves.toEqual([undefined]);
  });

  it('ends a response without a body (a 204)', async () => {
    respond = () => new Response(null, { status: 204 });
    const response = await fetch(url);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('cancels the body when the client goes away before it ends, and resolves', async () => {
    copies = [];
    let cancelled = false;
    respond = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(encoder.encode('first')),
          cancel: () => {
            cancelled = true;
          },
        }),
      );
    const client = new AbortController();
    const response = await fetch(url, { signal: client.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('first');
    client.abort();
    await eventually(() => cancelled);
    await expect(Promise.all(copies)).resolves.toEqual([undefined]);
  });

  it('breaks the connection (not a clean end) when the body errors, so the client sees the failure and resumes', async () => {
    respond = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(encoder.encode('partial')),
          pull: (controller) => controller.error(new Error('over the limit')),
        }),
      );
    const response = await fetch(url);
    await expect(response.text()).rejects.toThrow();
  });
});
