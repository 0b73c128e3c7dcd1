/**
 * The host's HTTP edge (issue 24, DESIGN §11 "The HTTP edge") over a real
 * loopback server (`createNodeRequestListener`), raw `node:net` sockets and
 * the handler in process, on PGlite: every way a stream ends releases its
 * slot (`HEAD` included), stream limits are keyed on the caller's whole
 * authority, an early `413` leaves the connection usable or closes it
 * cleanly, a body has a deadline (`408`), and an unknown method is `405`
 * with `Allow`.
 */
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AG_UI_RUN_PATH } from './routes/ag-ui-route.js';
import { AI_SDK_CHAT_PATH } from './routes/ai-sdk-routes.js';
import type { ChatHostCaller } from './chat-host-caller.js';
import { auth, call, openTestStore, startHost, startTurn, type Host, type LoopbackHost, type TestStore } from './loopback-host.testing.js';
import { openRawConnection, requestHead, type RawConnection } from './raw-http.testing.js';

// Two callers that differ only in their tenant: the same caller id and principal name.
const TENANT_CALLERS: Readonly<Record<string, ChatHostCaller>> = {
  'token-ana': { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null },
  'token-ana-globex': { callerId: 'ana', principalId: 'user_ana', tenantId: 'globex', customerId: null, publicOwnerId: null },
  'token-bob': { callerId: 'bob', principalId: 'user_bob', tenantId: 'globex', customerId: null, publicOwnerId: null },
};
const BODY_TIMEOUT_MS = 300;

let testStore: TestStore;
// The default stream limit (8), a 2 KiB body bound and a short body deadline.
let edge: LoopbackHost;
// Two streams per caller, and the two tenants' anas.
let limited: LoopbackHost;
beforeAll(async () => {
  testStore = await openTestStore();
  edge = await startHost(testStore, {}, { maxBodyBytes: 2048, bodyTimeoutMs: BODY_TIMEOUT_MS });
  limited = await startHost(
    testStore,
    {},
    {
      maxStreamsPerCaller: 2,
      authenticate: (request) => TENANT_CALLERS[(request.headers.get('authorization') ?? '').replace(/^Bearer /, '')] ?? null,
    },
  );
}, 60_000);
afterAll(() => testStore.close());

const connections: RawConnection[] = [];
const rawConnection = async (host: Host): Promise<RawConnection> => {
  const connection = await openRawConnection(host.base);
  connections.push(connection);
  return connection;
};
afterAll(() => {
  for (const connection of connections) connection.socket.destroy();
});

const eventsPath = (conversationId: string, turnId: string): string => `/v1/conversations/${conversationId}/turns/${turnId}/events`;

// Opens `count` event streams at once and returns their statuses and a way to close them all.
async function openStreams(host: Host, path: string, token: string, count: number) {
  const controllers = Array.from({ length: count }, () => new AbortController());
  const responses = await Promise.all(
    controllers.map((controller) => fetch(`${host.base}${path}`, { headers: auth(token), signal: controller.signal })),
  );
  return { statuses: responses.map((response) => response.status), close: () => controllers.forEach((controller) => controller.abort()) };
}

describe('every way a stream ends releases its slot, HEAD included (issue 24, DESIGN §11)', () => {
  it('§11 ten HEADs on the events route over loopback hold no slot: each is 200 with the stream headers, then eight GETs stream', async () => {
    const { turnId } = await startTurn(edge, 'c_ana_head', 'refund please');
    const path = eventsPath('c_ana_head', turnId);
    for (let index = 0; index < 10; index += 1) {
      const head = await fetch(`${edge.base}${path}`, { method: 'HEAD', headers: auth('token-ana') });
      expect([index, head.status]).toEqual([index, 200]);
      expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(await head.text()).toBe('');
    }
    const streams = await openStreams(edge, path, 'token-ana', 8);
    expect(streams.statuses).toEqual(Array.from({ length: 8 }, () => 200));
    streams.close();
    await call(edge, 'POST', `/v1/conversations/c_ana_head/turns/${turnId}/cancel`, 'token-ana');
  });

  it('§11 ten HEADs on the events route through the handler in process hold no slot: each answers headers and no body, then eight GETs stream', async () => {
    const { turnId } = await startTurn(edge, 'c_bob_head', 'refund please', 'token-bob');
    const url = `http://127.0.0.1${eventsPath('c_bob_head', turnId)}`;
    for (let index = 0; index < 10; index += 1) {
      const head = await edge.handler(new Request(url, { method: 'HEAD', headers: auth('token-bob') }));
      expect([index, head.status]).toEqual([index, 200]);
      expect(head.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(head.body).toBeNull();
    }
    const opened = await Promise.all(Array.from({ length: 8 }, () => edge.handler(new Request(url, { headers: auth('token-bob') }))));
    expect(opened.map((response) => response.status)).toEqual(Array.from({ length: 8 }, () => 200));
    await Promise.all(opened.map((response) => response.body?.cancel()));
    await call(edge, 'POST', `/v1/conversations/c_bob_head/turns/${turnId}/cancel`, 'token-bob');
  });
});

describe('the stream limit is keyed on the caller’s whole authority (issue 24, DESIGN §11)', () => {
  it('§11 ana of tenant globex streams while ana of tenant acme holds all her streams (same caller id and principal)', async () => {
    const { turnId } = await startTurn(limited, 'c_ana_tenants', 'refund please');
    const path = eventsPath('c_ana_tenants', turnId);
    const acme = await openStreams(limited, path, 'token-ana', 2);
    expect(acme.statuses).toEqual([200, 200]);
    expect(await call(limited, 'GET', path, 'token-ana')).toEqual({
      status: 429,
      body: { code: 'too-many-streams', message: 'this caller holds too many open streams' },
    });
    const globex = await openStreams(limited, path, 'token-ana-globex', 2);
    expect(globex.statuses).toEqual([200, 200]);
    acme.close();
    globex.close();
    await call(limited, 'POST', `/v1/conversations/c_ana_tenants/turns/${turnId}/cancel`, 'token-ana');
  });
});

describe('an early 413 leaves the connection usable or closes it cleanly (issue 24, RFC 9112 §9.6)', () => {
  const turnRequest = (conversationId: string, text: string, headers: Record<string, string | number> = {}) => {
    const clientTurnId = createTurnId();
    const body = JSON.stringify({ clientTurnId, text });
    const head = requestHead('POST', `/v1/conversations/${conversationId}/turns`, {
      authorization: 'Bearer token-ana',
      'content-type': 'application/json',
      'idempotency-key': clientTurnId,
      'content-length': Buffer.byteLength(body),
      ...headers,
    });
    return { head, body };
  };
  const TOO_LARGE = { code: 'body-too-large', message: 'the body is over 2048 bytes' };

  it('§11 kept alive: the 413 comes before the body is sent, the host reads the rest, and the next request on the same socket is answered', async () => {
    const connection = await rawConnection(edge);
    const { head, body } = turnRequest('c_ana_keepalive', 'x'.repeat(512 * 1024));
    await connection.write(head);
    const refused = await connection.answer(0);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toEqual(TOO_LARGE);
    expect(refused.headers['connection']).toBe('keep-alive');
    await connection.write(body);
    await connection.write(requestHead('GET', '/v1/conversations/c_ana_keepalive/state', { authorization: 'Bearer token-ana' }));
    const next = await connection.answer(1);
    expect(next.status).toBe(200);
    expect(JSON.parse(next.body)).toMatchObject({ state: { conversationId: 'c_ana_keepalive' } });
    expect(connection.errors).toEqual([]);
  });

  it('§11 kept alive, the body sent at once with the next request behind it: both are answered on the same socket', async () => {
    const connection = await rawConnection(edge);
    const { head, body } = turnRequest('c_ana_pipelined', 'y'.repeat(768 * 1024));
    await connection.write(
      head + body + requestHead('GET', '/v1/conversations/c_ana_pipelined/state', { authorization: 'Bearer token-ana' }),
    );
    expect(JSON.parse((await connection.answer(0)).body)).toEqual(TOO_LARGE);
    expect((await connection.answer(1)).status).toBe(200);
    expect(connection.errors).toEqual([]);
  });

  it('§11 Connection: close with a 4 MiB body: the client reads the whole 413, then the host closes with a FIN, never a reset', async () => {
    const connection = await rawConnection(edge);
    const { head, body } = turnRequest('c_ana_close', 'z'.repeat(4 * 1024 * 1024), { connection: 'close' });
    await connection.write(head);
    // Sent as fast as the socket takes it: the 413 comes while it is still arriving.
    const bytes = Buffer.from(body);
    for (let offset = 0; offset < bytes.length; offset += 64 * 1024) await connection.write(bytes.subarray(offset, offset + 64 * 1024));
    const refused = await connection.answer(0);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toEqual(TOO_LARGE);
    expect(refused.headers['connection']).toBe('close');
    expect(await connection.ended).toBe('end');
    expect(connection.errors).toEqual([]);
  });

  it('§11 a chunked body past the bound (no declared length): 413 with Connection: close, the rest is read, then a FIN', async () => {
    const connection = await rawConnection(edge);
    const clientTurnId = createTurnId();
    await connection.write(
      requestHead('POST', '/v1/conversations/c_ana_chunked/turns', {
        authorization: 'Bearer token-ana',
        'content-type': 'application/json',
        'idempotency-key': clientTurnId,
        'transfer-encoding': 'chunked',
      }),
    );
    const chunk = 'x'.repeat(16 * 1024);
    for (let index = 0; index < 16; index += 1) await connection.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await connection.write('0\r\n\r\n');
    const refused = await connection.answer(0);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toEqual(TOO_LARGE);
    expect(refused.headers['connection']).toBe('close');
    expect(await connection.ended).toBe('end');
    expect(connection.errors).toEqual([]);
  });
});

describe('reading a body has a deadline: 408 request-timeout (issue 24, DESIGN §11)', () => {
  const TIMED_OUT = { code: 'request-timeout', message: `the body did not arrive within ${BODY_TIMEOUT_MS} ms` };

  it('§11 a body dribbled at 0.5 B/s over a real socket is answered 408 at the deadline, with Connection: close, and nothing starts', async () => {
    const connection = await rawConnection(edge);
    const clientTurnId = createTurnId();
    const started = Date.now();
    await connection.write(
      requestHead('POST', '/v1/conversations/c_ana_dribble/turns', {
        authorization: 'Bearer token-ana',
        'content-type': 'application/json',
        'idempotency-key': clientTurnId,
        'content-length': 200,
      }),
    );
    const body = `{"clientTurnId":"${clientTurnId}","text":"`;
    let sent = 0;
    const dribble = setInterval(() => {
      if (!connection.socket.destroyed) connection.socket.write(body.charAt(sent));
      sent += 1;
    }, 2000);
    try {
      await connection.write(body.charAt(0));
      sent = 1;
      const answer = await connection.answer(0, 4000);
      expect(answer.status).toBe(408);
      expect(JSON.parse(answer.body)).toEqual(TIMED_OUT);
      expect(answer.headers['connection']).toBe('close');
      expect(Date.now() - started).toBeLessThan(BODY_TIMEOUT_MS + 1500);
    } finally {
      clearInterval(dribble);
    }
    expect(await connection.ended).toBe('end');
    const status = await call(edge, 'GET', `/v1/conversations/c_ana_dribble/turns/by-client-id/${clientTurnId}`, 'token-ana');
    expect(status.body).toMatchObject({ status: 'not-found' });
  });

  it('§11 in process, a body that never ends is 408 on POST /turns, the cards route and both peer POST routes', async () => {
    const stalled = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"a":'));
        },
      });
    for (const path of [
      '/v1/conversations/c_ana_stall/turns',
      '/v1/conversations/c_ana_stall/cards/card_1',
      AG_UI_RUN_PATH,
      AI_SDK_CHAT_PATH,
    ]) {
      const clientTurnId = createTurnId();
      const started = Date.now();
      const answer = await edge.handler(
        new Request(`http://127.0.0.1${path}`, {
          method: 'POST',
          headers: { ...auth('token-ana'), 'content-type': 'application/json', 'idempotency-key': clientTurnId },
          body: stalled(),
          duplex: 'half',
        } as RequestInit),
      );
      expect([path, answer.status]).toEqual([path, 408]);
      expect(await answer.json()).toEqual(TIMED_OUT);
      expect(Date.now() - started).toBeLessThan(BODY_TIMEOUT_MS + 1000);
    }
  });
});

describe('an unknown method is 405 with Allow (issue 24, DESIGN §11)', () => {
  const turnId = createTurnId();
  const ROUTES: readonly (readonly [string, string])[] = [
    ['/v1/conversations/c_ana_methods/turns', 'POST, OPTIONS'],
    [eventsPath('c_ana_methods', turnId), 'GET, HEAD, OPTIONS'],
    [`/v1/conversations/c_ana_methods/turns/by-client-id/${turnId}`, 'GET, HEAD, OPTIONS'],
    [`/v1/conversations/c_ana_methods/turns/${turnId}/cancel`, 'POST, OPTIONS'],
    ['/v1/conversations/c_ana_methods/cards/card_1', 'POST, OPTIONS'],
    ['/v1/conversations/c_ana_methods/state', 'GET, HEAD, OPTIONS'],
    ['/', 'GET, HEAD, OPTIONS'],
    [AI_SDK_CHAT_PATH, 'POST, OPTIONS'],
    [`${AI_SDK_CHAT_PATH}/c_ana_methods/stream`, 'GET, HEAD, OPTIONS'],
    [AG_UI_RUN_PATH, 'POST, OPTIONS'],
  ];
  const notAllowed = (allow: string) => ({ code: 'method-not-allowed', message: `this path allows ${allow}` });
  const NOT_FOUND = { code: 'not-found', message: 'no such conversation, turn or card' };
  // The methods a route does not serve: every route refuses PUT, DELETE and PATCH, and GET or POST when it is the other's.
  const refusedOn = (allow: string): string[] => ['PUT', 'DELETE', 'PATCH', allow.startsWith('GET') ? 'POST' : 'GET'];

  it('§11 in process: PUT, DELETE, PATCH (and GET on a POST route, POST on a GET route) are 405 with the path’s Allow, with or without a bearer', async () => {
    for (const [path, allow] of ROUTES) {
      for (const method of refusedOn(allow)) {
        for (const headers of [auth('token-ana'), {}]) {
          const answer = await edge.handler(new Request(`http://127.0.0.1${path}`, { method, headers }));
          expect([method, path, answer.status, answer.headers.get('allow')]).toEqual([method, path, 405, allow]);
          expect(await answer.json()).toEqual(notAllowed(allow));
        }
      }
      const options = await edge.handler(new Request(`http://127.0.0.1${path}`, { method: 'OPTIONS' }));
      expect([path, options.status, options.headers.get('allow'), await options.text()]).toEqual([path, 204, allow, '']);
    }
  });

  it('§11 over a real socket: TRACE, PUT, DELETE, PATCH are 405 with the path’s Allow, and the connection serves the next request', async () => {
    const connection = await rawConnection(edge);
    let index = 0;
    for (const [path, allow] of ROUTES) {
      for (const method of ['TRACE', ...refusedOn(allow)]) {
        await connection.write(requestHead(method, path, { authorization: 'Bearer token-ana' }));
        const answer = await connection.answer(index);
        index += 1;
        expect([method, path, answer.status, answer.headers['allow']]).toEqual([method, path, 405, allow]);
        expect(JSON.parse(answer.body)).toEqual(notAllowed(allow));
      }
    }
    await connection.write(requestHead('GET', '/v1/conversations/c_ana_methods/state', { authorization: 'Bearer token-ana' }));
    expect((await connection.answer(index)).status).toBe(200);
    expect(connection.errors).toEqual([]);
  });

  it('§11 a path no route has is the not-found answer for every method, TRACE included', async () => {
    const connection = await rawConnection(edge);
    let index = 0;
    for (const method of ['TRACE', 'PUT', 'DELETE', 'PATCH', 'GET', 'POST', 'OPTIONS']) {
      await connection.write(requestHead(method, '/v1/nothing-here', { authorization: 'Bearer token-ana', 'content-length': 0 }));
      const answer = await connection.answer(index);
      index += 1;
      expect([method, answer.status, answer.headers['allow']]).toEqual([method, 404, undefined]);
      expect(JSON.parse(answer.body)).toEqual(NOT_FOUND);
    }
    for (const method of ['PUT', 'DELETE', 'PATCH', 'GET', 'OPTIONS']) {
      const answer = await edge.handler(new Request('http://127.0.0.1/v1/nothing-here', { method }));
      expect([method, answer.status]).toEqual([method, 404]);
      expect(await answer.json()).toEqual(NOT_FOUND);
    }
  });
});
