/**
 * The host's security rules over loopback on PGlite (issue 17 "Security",
 * DESIGN §11): another tenant's conversation, turn, stream or card answers
 * exactly like a missing one, a card answer takes no authority from its body,
 * and hostile requests get typed 4xx answers, never a 500.
 */
import { request } from 'node:http';
import fc from 'fast-check';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, call, cardOf, follow, openTestStore, startHost, startTurn, type Host, type TestStore } from './loopback-host.testing.js';

let testStore: TestStore;
let host: Host;
beforeAll(async () => {
  testStore = await openTestStore();
  host = await startHost(testStore, {}, { maxStreamsPerCaller: 2, maxBodyBytes: 2048 });
}, 60_000);
afterAll(() => testStore.close());

const NOT_FOUND = { status: 404, body: { code: 'not-found', message: 'no such conversation, turn or card' } };

describe('two tenants across every route (issue 17 Security, DESIGN §11)', () => {
  it("§11 every route answers bob on ana's conversation, turn and card exactly as on ones that do not exist, and changes nothing", async () => {
    const { clientTurnId, turnId } = await startTurn(host, 'c_ana_private', 'refund please');
    const first = await follow(host, 'c_ana_private', turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    const missingTurn = createTurnId();
    const missingClient = createTurnId();
    const answer = { action: 'submit', correlationId, value: { confirmed: true } };
    const key = { 'Idempotency-Key': clientTurnId };
    // Each probe of ana's things, next to the same request on things that exist for no one.
    const pairs: [Promise<unknown>, Promise<unknown>][] = [
      [
        call(host, 'POST', '/v1/conversations/c_ana_private/turns', 'token-bob', { clientTurnId, text: 'hi' }, key),
        call(host, 'POST', '/v1/conversations/c_nobody_1/turns', 'token-bob', { clientTurnId, text: 'hi' }, key),
      ],
      [
        call(host, 'GET', `/v1/conversations/c_ana_private/turns/${turnId}/events`, 'token-bob'),
        call(host, 'GET', `/v1/conversations/c_nobody_1/turns/${missingTurn}/events`, 'token-bob'),
      ],
      [
        call(host, 'GET', `/v1/conversations/c_bob_own/turns/${turnId}/events`, 'token-bob'),
        call(host, 'GET', `/v1/conversations/c_bob_own/turns/${missingTurn}/events`, 'token-bob'),
      ],
      [
        call(host, 'GET', `/v1/conversations/c_ana_private/turns/by-client-id/${clientTurnId}`, 'token-bob'),
        call(host, 'GET', `/v1/conversations/c_nobody_1/turns/by-client-id/${missingClient}`, 'token-bob'),
      ],
      [
        call(host, 'POST', `/v1/conversations/c_ana_private/turns/${turnId}/cancel`, 'token-bob'),
        call(host, 'POST', `/v1/conversations/c_nobody_1/turns/${missingTurn}/cancel`, 'token-bob'),
      ],
      [
        call(host, 'POST', `/v1/conversations/c_bob_own/turns/${turnId}/cancel`, 'token-bob'),
        call(host, 'POST', `/v1/conversations/c_bob_own/turns/${missingTurn}/cancel`, 'token-bob'),
      ],
      [
        call(host, 'POST', `/v1/conversations/c_ana_private/cards/${correlationId}`, 'token-bob', answer),
        call(host, 'POST', '/v1/conversations/c_nobody_1/cards/card_missing', 'token-bob', { ...answer, correlationId: 'card_missing' }),
      ],
      [
        call(host, 'POST', `/v1/conversations/c_bob_own/cards/${correlationId}`, 'token-bob', answer),
        call(host, 'POST', '/v1/conversations/c_bob_own/cards/card_missing', 'token-bob', { ...answer, correlationId: 'card_missing' }),
      ],
      [
        call(host, 'GET', '/v1/conversations/c_ana_private/state', 'token-bob'),
        call(host, 'GET', '/v1/conversations/c_nobody_1/state', 'token-bob'),
      ],
    ];
    for (const [probe, missing] of pairs) {
      const [probed, absent] = await Promise.all([probe, missing]);
      expect(probed).toEqual(NOT_FOUND);
      expect(absent).toEqual(NOT_FOUND);
    }
    // Nothing bob did reached ana's turn: it is still running, its card still open.
    const status = await call(host, 'GET', `/v1/conversations/c_ana_private/turns/by-client-id/${clientTurnId}`, 'token-ana');
    expect(status.body).toMatchObject({ turnId, status: 'running' });
    expect(await call(host, 'POST', `/v1/conversations/c_ana_private/cards/${correlationId}`, 'token-ana', answer)).toEqual({
      status: 200,
      body: { correlationId, status: 'submitted' },
    });
    expect((await follow(host, 'c_ana_private', turnId)).state?.turns[0]?.status).toBe('completed');
  });

  it('§7.1/§11 a card answer never takes authority from its body: scope fields in it are refused, not obeyed', async () => {
    const { turnId } = await startTurn(host, 'c_ana_body', 'refund please');
    const correlationId = cardOf((await follow(host, 'c_ana_body', turnId, (envelope) => envelope.event.type === 'card')).envelopes);
    const forged = { action: 'submit', correlationId, value: { confirmed: true }, tenantId: 'acme', principalId: 'user_ana' };
    expect(await call(host, 'POST', `/v1/conversations/c_ana_body/cards/${correlationId}`, 'token-bob', forged)).toEqual(NOT_FOUND);
    const own = await call(host, 'POST', `/v1/conversations/c_ana_body/cards/${correlationId}`, 'token-ana', forged);
    expect(own.status).toBe(400);
    expect(own.body).toMatchObject({ code: 'invalid-body' });
    await call(host, 'POST', `/v1/conversations/c_ana_body/turns/${turnId}/cancel`, 'token-ana');
  });
});

describe('hostile requests get typed 4xx answers (issue 17 Security)', () => {
  const turns = '/v1/conversations/c_ana_hostile/turns';
  const valid = () => {
    const clientTurnId = createTurnId();
    return { body: { clientTurnId, text: 'hi' }, headers: { 'Idempotency-Key': clientTurnId } };
  };

  it('§11 no bearer or an unknown one is 401 unauthenticated on every route', async () => {
    for (const token of [null, 'token-mallory']) {
      for (const [method, path] of [
        ['POST', turns],
        ['GET', `/v1/conversations/c_ana_hostile/turns/${createTurnId()}/events`],
        ['GET', `/v1/conversations/c_ana_hostile/turns/by-client-id/${createTurnId()}`],
        ['POST', `/v1/conversations/c_ana_hostile/turns/${createTurnId()}/cancel`],
        ['POST', '/v1/conversations/c_ana_hostile/cards/card_1'],
      ] as const) {
        expect(await call(host, method, path, token)).toEqual({
          status: 401,
          body: { code: 'unauthenticated', message: 'a bearer token is required' },
        });
      }
    }
  });

  it('§11 wrong content types, oversized, malformed and unsafe bodies are typed 4xx', async () => {
    const { body, headers } = valid();
    const raw = async (text: string, contentType: string) =>
      (
        await fetch(`${host.base}${turns}`, {
          method: 'POST',
          headers: { ...auth('token-ana'), ...headers, 'content-type': contentType },
          body: text,
        })
      ).status;
    expect(await raw(JSON.stringify(body), 'text/plain')).toBe(415);
    expect(await raw(JSON.stringify({ ...body, text: 'x'.repeat(4096) }), 'application/json')).toBe(413);
    // A chunked body declares no length: the bound holds on what arrives, and reading stops there.
    const chunked = await fetch(`${host.base}${turns}`, {
      method: 'POST',
      headers: { ...auth('token-ana'), ...headers, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(`{"clientTurnId":"${body.clientTurnId}","text":"`));
          for (let index = 0; index < 8; index += 1) controller.enqueue(new TextEncoder().encode('x'.repeat(1024)));
          controller.enqueue(new TextEncoder().encode('"}'));
          controller.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(await chunked.json()).toMatchObject({ code: 'body-too-large' });
    expect(await raw('{"clientTurnId":', 'application/json')).toBe(400);
    expect(await raw('{"__proto__":{"admin":true},"clientTurnId":"x","text":"hi"}', 'application/json')).toBe(400);
    expect(await raw('['.repeat(1000) + ']'.repeat(1000), 'application/json')).toBe(400);
    // Control characters are outside core's safe JSON (§2.7).
    expect(await raw(JSON.stringify({ ...body, text: 'a\u0000b' }), 'application/json')).toBe(400);
    const cases: [unknown, Record<string, string>, string][] = [
      [{ ...body, extra: true }, headers, 'invalid-body'],
      [{ ...body, clientTurnId: '../../etc' }, { 'Idempotency-Key': '../../etc' }, 'invalid-body'],
      [{ ...body, text: '' }, headers, 'invalid-body'],
      [body, {}, 'missing-idempotency-key'],
      [body, { 'Idempotency-Key': createTurnId() }, 'idempotency-key-mismatch'],
    ];
    for (const [given, requestHeaders, code] of cases) {
      const answer = await call(host, 'POST', turns, 'token-ana', given, requestHeaders);
      expect(answer.status, code).toBe(400);
      expect(answer.body).toMatchObject({ code });
    }
  });

  it('§11 path traversal and odd ids in route parameters are 400 invalid-id or the not-found answer, never 500', async () => {
    // These reach the route: each is exactly 400 invalid-id.
    const refused = ['a%00b', 'x'.repeat(300), '%F0%9F%92%A9', 'a%20b', 'a.b', '%25', '__proto__%2F', '..%2F..%2Fetc%2Fpasswd'];
    for (const id of refused) {
      const answer = await call(host, 'GET', `/v1/conversations/c_ana_hostile/turns/${id}/events`, 'token-ana');
      expect(answer, id.slice(0, 40)).toEqual({
        status: 400,
        body: { code: 'invalid-id', message: 'turnId: expected letters, digits, _ or -' },
      });
    }
    // Dot segments may be resolved by the URL before routing: then no route matches, and the answer is the not-found one.
    const odd = ['..', '%2e%2e', ...refused];
    for (const id of odd) {
      for (const [method, path] of [
        ['GET', `/v1/conversations/${id}/turns/${createTurnId()}/events`],
        ['GET', `/v1/conversations/c_ana_hostile/turns/${id}/events`],
        ['GET', `/v1/conversations/c_ana_hostile/turns/by-client-id/${id}`],
        ['POST', `/v1/conversations/c_ana_hostile/turns/${id}/cancel`],
        ['POST', `/v1/conversations/c_ana_hostile/cards/${id}`],
      ] as const) {
        const answer = await call(host, method, path, 'token-ana');
        expect([400, 404], `${method} ${path}`).toContain(answer.status);
        if (answer.status === 400) expect(answer.body).toMatchObject({ code: 'invalid-id' });
        else expect(answer).toEqual(NOT_FOUND);
      }
    }
    // A well-formed id that is not a client turn id is refused too.
    const notATurnId = await call(host, 'GET', '/v1/conversations/c_ana_hostile/turns/by-client-id/turn_1', 'token-ana');
    expect(notATurnId.status).toBe(400);
    expect(notATurnId.body).toMatchObject({ code: 'invalid-id' });
  });

  it('§10/§11 huge, malformed and foreign Last-Event-ID cursors are typed 400s', async () => {
    const { turnId } = await startTurn(host, 'c_ana_cursor', 'fail now');
    await follow(host, 'c_ana_cursor', turnId);
    const events = `/v1/conversations/c_ana_cursor/turns/${turnId}/events`;
    for (const cursor of ['x'.repeat(8000), 'not-a-cursor', `${turnId}:-1`, `${turnId}:1.5`, `${createTurnId()}:1`]) {
      const answer = await call(host, 'GET', events, 'token-ana', undefined, { 'last-event-id': cursor });
      expect(answer.status, cursor.slice(0, 40)).toBe(400);
      expect(['invalid-cursor', 'foreign-turn']).toContain((answer.body as { code: string }).code);
    }
    const beyond = await call(host, 'GET', events, 'token-ana', undefined, { 'last-event-id': `${turnId}:99` });
    expect(beyond.status).toBe(409);
    expect(beyond.body).toMatchObject({ code: 'cursor-beyond-latest' });
  });

  it('§11 a flood of connections hits the per-caller stream limit (429 too-many-streams) and a closed stream frees its slot', async () => {
    // Bob holds no other stream in this file: his count starts at zero.
    const { turnId } = await startTurn(host, 'c_bob_flood', 'refund please', 'token-bob');
    const path = `/v1/conversations/c_bob_flood/turns/${turnId}/events`;
    const url = `${host.base}${path}`;
    const open = [new AbortController(), new AbortController()];
    const held = await Promise.all(open.map((controller) => fetch(url, { headers: auth('token-bob'), signal: controller.signal })));
    expect(held.map((response) => response.status)).toEqual([200, 200]);
    expect(await call(host, 'GET', path, 'token-bob')).toEqual({
      status: 429,
      body: { code: 'too-many-streams', message: 'this caller holds too many open streams' },
    });
    open[0]?.abort();
    await expect
      .poll(
        async () => {
          const controller = new AbortController();
          const response = await fetch(url, { headers: auth('token-bob'), signal: controller.signal });
          controller.abort();
          return response.status;
        },
        { timeout: 5000 },
      )
      .toBe(200);
    open[1]?.abort();
    await call(host, 'POST', `/v1/conversations/c_bob_flood/turns/${turnId}/cancel`, 'token-bob');
  });

  it('§2.7 any body, content type and id on the POST routes gets a 4xx with a typed code, never a 500 (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.string({ maxLength: 300 }), fc.json({ maxDepth: 4 })),
        fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', ''),
        fc.constantFrom('turns', `cards/card_1`, `turns/${createTurnId()}/cancel`),
        async (text, contentType, route) => {
          const response = await fetch(`${host.base}/v1/conversations/c_ana_fuzz/${route}`, {
            method: 'POST',
            headers: { ...auth('token-ana'), ...(contentType === '' ? {} : { 'content-type': contentType }), 'Idempotency-Key': 'turn_x' },
            body: text,
          });
          const answer = (await response.json()) as { code?: unknown };
          expect(response.status).toBeGreaterThanOrEqual(400);
          expect(response.status).toBeLessThan(500);
          expect(typeof answer.code).toBe('string');
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the node:http listener (createNodeRequestListener)', () => {
  it('a request target no URL can be made of is 400 invalid-request-target, and the host still serves the next request', async () => {
    const { port } = new URL(host.base);
    const answer = await new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
      const sent = request({ host: '127.0.0.1', port: Number(port), path: 'http://[', method: 'GET' }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode, body }));
      });
      sent.on('error', reject);
      sent.end();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ code: 'invalid-request-target', message: 'the request target is not a URL' });
    expect((await call(host, 'GET', '/v1/conversations/c_ana_after_bad_target/state', 'token-ana')).status).toBe(200);
  });
});
