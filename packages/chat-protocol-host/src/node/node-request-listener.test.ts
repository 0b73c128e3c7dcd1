/**
 * The node:http listener's own edge (issue 24, DESIGN §11 "The HTTP edge"),
 * with small handlers on a real loopback server and raw sockets: a `HEAD`
 * answer's body is cancelled, never left unread; a method a `Request` cannot
 * carry is answered from the handler's `OPTIONS`; a client that leaves
 * mid-body fails the body read instead of hanging it; a kept connection whose
 * body stops arriving after an early answer is closed, not held.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeRequestListener } from './node-request-listener.js';
import { openRawConnection, requestHead, type RawConnection } from '../raw-http.testing.js';

const servers: Server[] = [];
const connections: RawConnection[] = [];
afterEach(async () => {
  for (const connection of connections.splice(0)) connection.socket.destroy();
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function serve(handler: (request: Request) => Promise<Response>): Promise<string> {
  const server = createServer(createNodeRequestListener(handler));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

async function connectTo(base: string): Promise<RawConnection> {
  const connection = await openRawConnection(base);
  connections.push(connection);
  return connection;
}

describe('createNodeRequestListener (issue 24)', () => {
  it('§11 a HEAD answer goes out without its body, and the body the handler gave is cancelled (what it holds is released)', async () => {
    let cancelled = false;
    const base = await serve(async () => {
      const endless = new ReadableStream<Uint8Array>({
        pull: (controller) => controller.enqueue(new TextEncoder().encode('data: tick\n\n')),
        cancel: () => {
          cancelled = true;
        },
      });
      return new Response(endless, { headers: { 'content-type': 'text/event-stream' } });
    });
    const head = await fetch(base, { method: 'HEAD' });
    expect([head.status, head.headers.get('content-type'), await head.text()]).toEqual([200, 'text/event-stream', '']);
    await expect.poll(() => cancelled, { timeout: 2000 }).toBe(true);
  });

  it('§11 TRACE never reaches the handler as TRACE: it is 405 with the Allow of the handler’s OPTIONS answer, or its refusal of OPTIONS', async () => {
    const seen: string[] = [];
    const base = await serve(async (request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname}`);
      if (new URL(request.url).pathname === '/known') return new Response(null, { status: 204, headers: { allow: 'GET, HEAD, OPTIONS' } });
      if (new URL(request.url).pathname === '/bare') return new Response('ok');
      return new Response(JSON.stringify({ code: 'not-found' }), { status: 404, headers: { 'content-length': '20' } });
    });
    const connection = await connectTo(base);
    await connection.write(requestHead('TRACE', '/known') + requestHead('TRACE', '/bare') + requestHead('TRACE', '/missing'));
    const known = await connection.answer(0);
    expect([known.status, known.headers['allow'], JSON.parse(known.body)]).toEqual([
      405,
      'GET, HEAD, OPTIONS',
      { code: 'method-not-allowed', message: 'this path allows GET, HEAD, OPTIONS' },
    ]);
    const bare = await connection.answer(1);
    expect([bare.status, bare.headers['allow'], JSON.parse(bare.body)]).toEqual([
      405,
      '',
      { code: 'method-not-allowed', message: 'this path allows no method' },
    ]);
    const missing = await connection.answer(2);
    expect([missing.status, JSON.parse(missing.body)]).toEqual([404, { code: 'not-found' }]);
    expect(seen).toEqual(['OPTIONS /known', 'OPTIONS /bare', 'OPTIONS /missing']);
  });

  it('§11 a client that leaves mid-body fails the handler’s body read; it does not hang', async () => {
    let outcome = 'pending';
    const base = await serve(async (request) => {
      outcome = await request.arrayBuffer().then(
        () => 'read',
        () => 'failed',
      );
      return new Response(null, { status: 204 });
    });
    const connection = await connectTo(base);
    await connection.write(requestHead('POST', '/upload', { 'content-length': 1000 }) + 'x'.repeat(100));
    await new Promise((resolve) => setTimeout(resolve, 100));
    connection.socket.destroy();
    await expect.poll(() => outcome, { timeout: 2000 }).toBe('failed');
  });

  it('§11 after an early answer on a kept connection, a body that stops arriving gets the connection closed about 2 s later', async () => {
    const base = await serve(async () => new Response('{"code":"unauthenticated"}', { status: 401, headers: { 'content-length': '26' } }));
    const connection = await connectTo(base);
    const started = Date.now();
    await connection.write(requestHead('POST', '/upload', { 'content-length': 1000 }) + 'x'.repeat(100));
    const refused = await connection.answer(0);
    expect([refused.status, refused.headers['connection']]).toEqual([401, 'keep-alive']);
    expect(await connection.ended).toBe('end');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(Date.now() - started).toBeLessThan(4000);
  });
});
