/**
 * The host's routes end to end over loopback: a real `node:http` server on a
 * free port, the transport's `writeChatSseResponse`, the client's
 * `readChatStream`/`followChatTurn`, and the Postgres store on PGlite.
 */
import { createServer, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import type { ChatEventEnvelope, ChatStateV1 } from '@papercusp/chat-protocol-core';
import { createPostgresChatStore, migrateChatStore, pgliteDatabase } from '@papercusp/chat-protocol-postgres';
import { createTurnId, parseTurnStatusResponse } from '@papercusp/chat-protocol-recovery';
import { followChatTurn, readChatStream, writeChatSseResponse } from '@papercusp/chat-protocol-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatHostCaller } from './chat-host-caller.js';
import { createChatHost } from './create-chat-host.js';
import { createScriptedChatAgent, SCRIPTED_REFUND_CALL_ID, type ScriptedChatAgentOptions } from './scripted-agent.js';

const CALLERS: Readonly<Record<string, ChatHostCaller>> = {
  'token-ana': { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null },
  'token-bob': { callerId: 'bob', principalId: 'user_bob', tenantId: 'globex', customerId: null, publicOwnerId: null },
};
// The host's grants: a caller owns the conversations named c_<callerId>_…
const owns = (caller: unknown, conversationId: string): boolean =>
  typeof caller === 'object' && caller !== null && conversationId.startsWith(`c_${(caller as ChatHostCaller).callerId}_`);

let db: PGlite;
let store: ReturnType<typeof createPostgresChatStore<unknown, ChatHostCaller>>;
const servers: Server[] = [];

beforeAll(async () => {
  db = await PGlite.create();
  const database = pgliteDatabase(db);
  expect((await migrateChatStore(database)).ok).toBe(true);
  store = createPostgresChatStore<unknown, ChatHostCaller>(database, {
    authorizeDispatch: (_query, { caller, conversationId }) => owns(caller, conversationId),
    interactionAuthority: (_query, { caller, conversationId }) => {
      if (!owns(caller, conversationId)) return null;
      const { principalId, tenantId, customerId, publicOwnerId } = caller;
      return { principalId, tenantId, customerId, publicOwnerId };
    },
  });
}, 60_000);

afterAll(async () => {
  for (const server of servers) server.close();
  await db.close();
});

interface Host {
  readonly base: string;
  readonly effects: string[];
}

// Serves a host on a free loopback port through node:http, as the command will.
async function startHost(agentOptions: ScriptedChatAgentOptions = {}, hostOptions: { maxStreamsPerCaller?: number } = {}): Promise<Host> {
  const effects: string[] = [];
  const handler = createChatHost({
    store,
    agent: createScriptedChatAgent({ ...agentOptions, onEffect: (turn) => effects.push(turn.turnId) }),
    authenticate: (request) => {
      const header = request.headers.get('authorization') ?? '';
      return header.startsWith('Bearer ') ? (CALLERS[header.slice('Bearer '.length)] ?? null) : null;
    },
    authorize: ({ caller, conversationId }) => owns(caller, conversationId),
    heartbeatMs: 1000,
    cardPollMs: 200,
    ...hostOptions,
  });
  const server = createServer((incoming, outgoing) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === 'string') headers.set(name, value);
    const controller = new AbortController();
    outgoing.on('close', () => controller.abort());
    const method = incoming.method ?? 'GET';
    const body = method === 'GET' || method === 'HEAD' ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
    const request = new Request(new URL(incoming.url ?? '/', 'http://127.0.0.1'), {
      method,
      headers,
      body,
      signal: controller.signal,
      ...(body === null ? {} : { duplex: 'half' }),
    } as RequestInit);
    void handler(request).then((response) => writeChatSseResponse(response, outgoing));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { base: `http://127.0.0.1:${address.port}`, effects };
}

const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

async function call(
  host: Host,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${host.base}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : auth(token)),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an event stream or an empty body: keep the text
  }
  return { status: response.status, body: parsed };
}

async function startTurn(host: Host, conversationId: string, text: string, token = 'token-ana') {
  const clientTurnId = createTurnId();
  const answer = await call(
    host,
    'POST',
    `/v1/conversations/${conversationId}/turns`,
    token,
    { clientTurnId, text },
    { 'Idempotency-Key': clientTurnId },
  );
  expect(answer.status).toBe(202);
  return { clientTurnId, turnId: (answer.body as { turnId: string }).turnId };
}

// Follows the turn until `until` says stop (or the stream ends); returns every envelope and the last state.
async function follow(
  host: Host,
  conversationId: string,
  turnId: string,
  until: (envelope: ChatEventEnvelope) => boolean = () => false,
  token = 'token-ana',
): Promise<{ envelopes: ChatEventEnvelope[]; state: ChatStateV1 | undefined; ended: string | undefined }> {
  const envelopes: ChatEventEnvelope[] = [];
  let state: ChatStateV1 | undefined;
  let ended: string | undefined;
  const url = `${host.base}/v1/conversations/${conversationId}/turns/${turnId}/events`;
  for await (const item of followChatTurn({ url, conversationId, headers: auth(token) })) {
    if (item.type === 'state') {
      envelopes.push(item.envelope);
      state = item.state;
      if (until(item.envelope)) break;
    }
    if (item.type === 'ended') ended = item.reason;
  }
  return { envelopes, state, ended };
}

const cardOf = (envelopes: readonly ChatEventEnvelope[]): string => {
  const card = envelopes.find((envelope) => envelope.event.type === 'card');
  if (card?.event.type !== 'card') throw new Error('no card');
  return card.event.card.correlationId;
};

describe('createChatHost over loopback on PGlite (DESIGN §11)', () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost();
  });

  it('§11 POST /turns: 202 { turnId }; a resend while running is 409 turn-in-flight, after it finished 409 turn-already-processed', async () => {
    const { clientTurnId, turnId } = await startTurn(host, 'c_ana_resend', 'refund please');
    expect(turnId).toMatch(/^turn_[0-9a-f]{32}$/);
    const first = await follow(host, 'c_ana_resend', turnId, (envelope) => envelope.event.type === 'card');
    const resend = () =>
      call(
        host,
        'POST',
        '/v1/conversations/c_ana_resend/turns',
        'token-ana',
        { clientTurnId, text: 'refund please' },
        { 'Idempotency-Key': clientTurnId },
      );
    expect(await resend()).toEqual({ status: 409, body: { code: 'turn-in-flight', message: 'this client turn is running', turnId } });
    const correlationId = cardOf(first.envelopes);
    const answered = await call(host, 'POST', `/v1/conversations/c_ana_resend/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: true },
    });
    expect(answered).toEqual({ status: 200, body: { correlationId, status: 'submitted' } });
    const rest = await follow(host, 'c_ana_resend', turnId);
    expect(rest.state?.turns[0]?.status).toBe('completed');
    expect(await resend()).toEqual({
      status: 409,
      body: { code: 'turn-already-processed', message: 'this client turn was already processed', turnId },
    });
    // The resends started nothing: the refund ran once.
    expect(host.effects.filter((id) => id === turnId)).toHaveLength(1);
  });

  it('§11 GET /turns/:turnId/events streams the scripted turn: every step as a v1 frame, the effect once through TurnRecovery, the card through InteractionResolver', async () => {
    const { turnId } = await startTurn(host, 'c_ana_stream', 'refund please');
    const first = await follow(host, 'c_ana_stream', turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    await call(host, 'POST', `/v1/conversations/c_ana_stream/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: true },
    });
    const all = await follow(host, 'c_ana_stream', turnId);
    expect(all.ended).toBe('terminal');
    const types = all.envelopes.map((envelope) => envelope.event.type);
    expect(types[0]).toBe('user_input');
    expect(types.at(-1)).toBe('done');
    expect(new Set(types)).toEqual(
      new Set(['user_input', 'reasoning', 'delta', 'tool_call', 'tool_result', 'card', 'card_closed', 'done']),
    );
    expect(all.envelopes.map((envelope) => envelope.seq)).toEqual(all.envelopes.map((_, index) => index + 1));
    const turn = all.state?.turns[0];
    expect(turn?.status).toBe('completed');
    expect(turn?.text).toContain('Looking into order 1042. The refund is issued. <report>');
    expect(turn?.text.endsWith('</report>Ticket closed.')).toBe(true);
    const result = all.envelopes.find((envelope) => envelope.event.type === 'tool_result')?.event;
    expect(result).toEqual({
      type: 'tool_result',
      callId: SCRIPTED_REFUND_CALL_ID,
      name: 'issue_refund',
      status: 'succeeded',
      summary: 'refund 1042 issued',
    });
    const closed = all.envelopes.find((envelope) => envelope.event.type === 'card_closed')?.event;
    expect(closed).toEqual({ type: 'card_closed', correlationId, resolution: 'submitted' });
    // The completed effect is checkpointed in the turn store.
    const stored = await store.turnStore.read(turnId);
    expect(stored?.record.effects).toEqual([
      expect.objectContaining({ effectId: SCRIPTED_REFUND_CALL_ID, status: 'completed', result: { summary: 'refund 1042 issued' } }),
    ]);
  });

  it('§10/§11 the events route resumes after Last-Event-ID without repeating a frame', async () => {
    const { turnId } = await startTurn(host, 'c_ana_resume', 'refund please');
    const first = await follow(host, 'c_ana_resume', turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    await call(host, 'POST', `/v1/conversations/c_ana_resume/cards/${correlationId}`, 'token-ana', { action: 'decline', correlationId });
    const seqs: number[] = [];
    const url = `${host.base}/v1/conversations/c_ana_resume/turns/${turnId}/events`;
    for await (const item of readChatStream({ url, headers: auth('token-ana'), cursor: { turnId, seq: 3 } })) {
      if (item.type === 'envelope') seqs.push(item.envelope.seq);
    }
    expect(seqs[0]).toBe(4);
    expect(seqs).toEqual(seqs.map((_, index) => index + 4));
    const all = await follow(host, 'c_ana_resume', turnId);
    expect(all.state?.turns[0]?.text.endsWith('Ticket left open.')).toBe(true);
    expect(all.envelopes.at(-1)?.seq).toBe(seqs.at(-1));
  });

  it("§11 GET /turns/by-client-id/:clientTurnId answers recovery's TurnStatusResponse: not-found, running with lastSeq, then completed; no side effects", async () => {
    const clientTurnId = createTurnId();
    const path = `/v1/conversations/c_ana_status/turns/by-client-id/${clientTurnId}`;
    const before = await call(host, 'GET', path, 'token-ana');
    expect(before.status).toBe(200);
    const statusBefore = parseTurnStatusResponse(before.body);
    expect(statusBefore.ok && statusBefore.value.status).toBe('not-found');
    // Asking started nothing.
    expect((await call(host, 'GET', path, 'token-ana')).body).toEqual(before.body);
    await call(
      host,
      'POST',
      '/v1/conversations/c_ana_status/turns',
      'token-ana',
      { clientTurnId, text: 'refund please' },
      { 'Idempotency-Key': clientTurnId },
    );
    const statusTurnId = (before.body as { turnId: string }).turnId;
    const first = await follow(host, 'c_ana_status', statusTurnId, (envelope) => envelope.event.type === 'card');
    const running = await call(host, 'GET', path, 'token-ana');
    expect(running).toEqual({ status: 200, body: { turnId: statusTurnId, status: 'running', lastSeq: first.envelopes.at(-1)?.seq } });
    expect(parseTurnStatusResponse(running.body).ok).toBe(true);
    const correlationId = cardOf(first.envelopes);
    await call(host, 'POST', `/v1/conversations/c_ana_status/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: false },
    });
    const all = await follow(host, 'c_ana_status', statusTurnId);
    expect(await call(host, 'GET', path, 'token-ana')).toEqual({
      status: 200,
      body: { turnId: statusTurnId, status: 'completed', lastSeq: all.envelopes.at(-1)?.seq },
    });
  });

  it('§3.3/§11 a failed turn ends with an error that states its retry permission, and the status route says failed', async () => {
    const { clientTurnId, turnId } = await startTurn(host, 'c_ana_fail', 'fail now');
    const all = await follow(host, 'c_ana_fail', turnId);
    expect(all.envelopes.at(-1)?.event).toEqual({
      type: 'error',
      code: 'provider-unavailable',
      message: 'the scripted provider is down',
      retryable: true,
      retryAfterMs: 1000,
    });
    expect(all.state?.turns[0]?.status).toBe('failed');
    const status = await call(host, 'GET', `/v1/conversations/c_ana_fail/turns/by-client-id/${clientTurnId}`, 'token-ana');
    expect(status.body).toEqual({ turnId, status: 'failed', lastSeq: all.envelopes.length });
  });

  it('§11 a card answer that breaks its kind is a typed 400, and a second answer a typed 409; the first answer stands', async () => {
    const { turnId } = await startTurn(host, 'c_ana_card', 'refund please');
    const first = await follow(host, 'c_ana_card', turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    const path = `/v1/conversations/c_ana_card/cards/${correlationId}`;
    const wrongShape = await call(host, 'POST', path, 'token-ana', { action: 'submit', correlationId, value: { text: 'yes' } });
    expect(wrongShape.status).toBe(400);
    expect((wrongShape.body as { code: string }).code).toBe('invalid-body');
    const otherCard = await call(host, 'POST', path, 'token-ana', {
      action: 'submit',
      correlationId: 'card_other',
      value: { confirmed: true },
    });
    expect(otherCard.status).toBe(400);
    expect(await call(host, 'POST', path, 'token-ana', { action: 'submit', correlationId, value: { confirmed: true } })).toEqual({
      status: 200,
      body: { correlationId, status: 'submitted' },
    });
    const again = await call(host, 'POST', path, 'token-ana', { action: 'decline', correlationId });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'card-refused', reason: 'already-closed' });
    const all = await follow(host, 'c_ana_card', turnId);
    expect(all.state?.turns[0]?.text.endsWith('Ticket closed.')).toBe(true);
  });
});

describe('cancellation through the host (DESIGN §6.5, §6.8, §11)', () => {
  it('§11 POST /turns/:turnId/cancel commits, aborts the in-flight tool, ends the stream cancelled; the late result is retained', async () => {
    const host = await startHost({ toolDelayMs: 400 });
    const { clientTurnId, turnId } = await startTurn(host, 'c_ana_cancel', 'refund please');
    await follow(host, 'c_ana_cancel', turnId, (envelope) => envelope.event.type === 'tool_call');
    const cancelled = await call(host, 'POST', `/v1/conversations/c_ana_cancel/turns/${turnId}/cancel`, 'token-ana');
    expect(cancelled).toEqual({ status: 200, body: { turnId, committed: true, inFlight: [SCRIPTED_REFUND_CALL_ID] } });
    const all = await follow(host, 'c_ana_cancel', turnId);
    expect(all.envelopes.slice(-2).map((envelope) => envelope.event)).toEqual([
      { type: 'tool_result', callId: SCRIPTED_REFUND_CALL_ID, name: 'issue_refund', status: 'cancelled' },
      { type: 'done', status: 'cancelled' },
    ]);
    expect(all.state?.turns[0]?.status).toBe('cancelled');
    const status = await call(host, 'GET', `/v1/conversations/c_ana_cancel/turns/by-client-id/${clientTurnId}`, 'token-ana');
    expect(status.body).toMatchObject({ turnId, status: 'cancelled' });
    // The external effect had started: its late result is stored, the turn stays cancelled.
    await expect
      .poll(async () => (await store.turnStore.read(turnId))?.record, { timeout: 5000 })
      .toMatchObject({
        status: 'cancelled',
        effects: [{ effectId: SCRIPTED_REFUND_CALL_ID, status: 'completed', result: { summary: 'refund 1042 issued' } }],
      });
    expect(host.effects).toEqual([turnId]);
    // Cancelling again is idempotent: nothing new commits (§6.8 `committed: false`).
    const again = await call(host, 'POST', `/v1/conversations/c_ana_cancel/turns/${turnId}/cancel`, 'token-ana');
    expect(again).toEqual({ status: 200, body: { turnId, committed: false, inFlight: [] } });
  });

  it('§11 cancelling a turn that completed is 409 turn-finished with its status', async () => {
    const host = await startHost();
    const { turnId } = await startTurn(host, 'c_ana_cancel_done', 'fail now');
    await follow(host, 'c_ana_cancel_done', turnId);
    const late = await call(host, 'POST', `/v1/conversations/c_ana_cancel_done/turns/${turnId}/cancel`, 'token-ana');
    expect(late).toEqual({
      status: 409,
      body: { code: 'turn-finished', message: 'the turn already ended: failed', turnId, status: 'failed' },
    });
  });

  it('§11 cancelling a turn waiting on its card closes the card cancelled and ends the turn cancelled', async () => {
    const host = await startHost();
    const { turnId } = await startTurn(host, 'c_ana_cancel_card', 'refund please');
    const first = await follow(host, 'c_ana_cancel_card', turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    const cancelled = await call(host, 'POST', `/v1/conversations/c_ana_cancel_card/turns/${turnId}/cancel`, 'token-ana');
    expect(cancelled).toEqual({ status: 200, body: { turnId, committed: true, inFlight: [] } });
    const all = await follow(host, 'c_ana_cancel_card', turnId);
    expect(all.envelopes.slice(-2).map((envelope) => envelope.event)).toEqual([
      { type: 'card_closed', correlationId, resolution: 'cancelled' },
      { type: 'done', status: 'cancelled' },
    ]);
    const late = await call(host, 'POST', `/v1/conversations/c_ana_cancel_card/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: true },
    });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ code: 'card-refused', reason: 'already-closed' });
  });
});
