/**
 * The host's routes end to end over loopback: a real `node:http` server on a
 * free port, the transport's `writeChatSseResponse`, the client's
 * `readChatStream`/`followChatTurn`, and the Postgres store on PGlite.
 */
import { createTurnId, parseTurnStatusResponse } from '@papercusp/chat-protocol-recovery';
import { readChatStream } from '@papercusp/chat-protocol-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, call, cardOf, follow, openTestStore, startHost, startTurn, type Host, type TestStore } from './loopback-host.testing.js';
import { hostTurnId } from './use-cases/host-turn-id.js';
import { SCRIPTED_REFUND_CALL_ID } from './scripted/scripted-agent.js';

let testStore: TestStore;
beforeAll(async () => {
  testStore = await openTestStore();
}, 60_000);
afterAll(() => testStore.close());

describe('createChatHost over loopback on PGlite (DESIGN §11)', () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost(testStore);
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

  it('§11 a resend under the same client turn id with a different body is 409 turn-id-reused with its turnId, while it runs and after it ended; never a 5xx', async () => {
    const { clientTurnId, turnId } = await startTurn(host, 'c_ana_reused', 'refund please');
    const first = await follow(host, 'c_ana_reused', turnId, (envelope) => envelope.event.type === 'card');
    const resend = (text: string) =>
      call(host, 'POST', '/v1/conversations/c_ana_reused/turns', 'token-ana', { clientTurnId, text }, { 'Idempotency-Key': clientTurnId });
    const reused = { status: 409, body: { code: 'turn-id-reused', message: 'this client turn id was used for another message', turnId } };
    // Two other texts: the turn's user_input tells them apart.
    expect(await resend('fail please')).toEqual(reused);
    expect(await resend('refund please, quickly')).toEqual(reused);
    expect(await resend('refund please')).toMatchObject({ status: 409, body: { code: 'turn-in-flight', turnId } });
    const correlationId = cardOf(first.envelopes);
    await call(host, 'POST', `/v1/conversations/c_ana_reused/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: true },
    });
    expect((await follow(host, 'c_ana_reused', turnId)).state?.turns[0]?.status).toBe('completed');
    expect(await resend('fail please')).toEqual(reused);
    expect(await resend('refund please, quickly')).toEqual(reused);
    expect(await resend('refund please')).toMatchObject({ status: 409, body: { code: 'turn-already-processed', turnId } });
    // Nothing the resends sent ran: the first text's turn alone, its refund once.
    const { state } = await follow(host, 'c_ana_reused', turnId);
    expect(state?.turns.map((turn) => turn.userInput)).toEqual([{ text: 'refund please', source: 'text_typed' }]);
    expect(host.effects.filter((id) => id === turnId)).toHaveLength(1);
  });

  it('§11 a turn store that cannot answer is still 503 store-unavailable on POST /turns', async () => {
    const down = () => Promise.reject(new Error('connection refused'));
    const { turnStore } = testStore.store;
    const broken = await startHost({
      ...testStore,
      store: { ...testStore.store, turnStore: { ...turnStore, read: down, compareAndSwap: down } },
    });
    const clientTurnId = createTurnId();
    const answer = await call(
      broken,
      'POST',
      '/v1/conversations/c_ana_outage/turns',
      'token-ana',
      { clientTurnId, text: 'refund please' },
      { 'Idempotency-Key': clientTurnId },
    );
    expect(answer).toEqual({ status: 503, body: { code: 'store-unavailable', message: 'the turn could not be created or confirmed' } });
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
      new Set([
        'user_input',
        'provenance',
        'reasoning',
        'delta',
        'tool_call',
        'tool_result',
        'state',
        'navigate',
        'card',
        'card_closed',
        'done',
      ]),
    );
    expect(all.envelopes.map((envelope) => envelope.seq)).toEqual(all.envelopes.map((_, index) => index + 1));
    const turn = all.state?.turns[0];
    expect(turn?.status).toBe('completed');
    expect(turn?.text).toContain('Looking into order 1042. The refund is issued. <report>');
    expect(turn?.text.endsWith('</ask>Ticket closed.')).toBe(true);
    const result = all.envelopes.find((envelope) => envelope.event.type === 'tool_result')?.event;
    expect(result).toEqual({
      type: 'tool_result',
      callId: SCRIPTED_REFUND_CALL_ID,
      name: 'issue_refund',
      status: 'succeeded',
      summary: 'refund 1042 issued',
      blocks: [{ kind: 'data', data: { orderId: '1042', refund: 'issued' }, sources: [{ ref: 'order:1042', label: 'Order 1042' }] }],
    });
    const closed = all.envelopes.find((envelope) => envelope.event.type === 'card_closed')?.event;
    expect(closed).toEqual({ type: 'card_closed', correlationId, resolution: 'submitted' });
    // The completed effect is checkpointed in the turn store.
    const stored = await testStore.store.turnStore.read(turnId);
    expect(stored?.record.effects).toEqual([
      expect.objectContaining({
        effectId: `effect_${turnId}_1`,
        status: 'completed',
        result: expect.objectContaining({ summary: 'refund 1042 issued' }),
      }),
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
    expect(again).toEqual({
      status: 409,
      body: { code: 'already-closed', message: 'the card was already submitted', correlationId, status: 'submitted' },
    });
    const all = await follow(host, 'c_ana_card', turnId);
    expect(all.state?.turns[0]?.text.endsWith('Ticket closed.')).toBe(true);
  });
});

describe('claimConversation: a first-use grant only for an accepted turn (issue 24, DESIGN §11 "The HTTP edge")', () => {
  it('§11 no refused POST reaches the hook (415, invalid-json, invalid-body, 413, missing or mismatched key, a peer body); an accepted one on an ungranted conversation does, once, and its grant is read again', async () => {
    const claims: string[] = [];
    const host = await startHost(
      testStore,
      {},
      { claimConversation: ({ caller, conversationId }) => void claims.push(`${caller.callerId}:${conversationId}`) },
    );
    const turns = '/v1/conversations/c_zed_claim/turns';
    const clientTurnId = createTurnId();
    const key = { 'Idempotency-Key': clientTurnId };
    const raw = async (body: string, headers: Record<string, string>) => {
      const answer = await fetch(`${host.base}${turns}`, { method: 'POST', headers: { ...auth('token-bob'), ...headers }, body });
      return { status: answer.status, code: ((await answer.json()) as { code: string }).code };
    };
    const json = { 'content-type': 'application/json' };
    const valid = JSON.stringify({ clientTurnId, text: 'refund please' });
    expect(await raw(valid, { ...key, 'content-type': 'text/plain' })).toEqual({ status: 415, code: 'unsupported-media-type' });
    expect(await raw('{"clientTurnId":', { ...key, ...json })).toEqual({ status: 400, code: 'invalid-json' });
    expect(await raw(JSON.stringify({ clientTurnId, text: '' }), { ...key, ...json })).toEqual({ status: 400, code: 'invalid-body' });
    expect(await raw(JSON.stringify({ clientTurnId, text: 'x'.repeat(20_000) }), { ...key, ...json })).toEqual({
      status: 413,
      code: 'body-too-large',
    });
    expect(await raw(valid, json)).toEqual({ status: 400, code: 'missing-idempotency-key' });
    expect(await raw(valid, { ...json, 'Idempotency-Key': createTurnId() })).toEqual({ status: 400, code: 'idempotency-key-mismatch' });
    const chat = { id: 'c_zed_chat', messages: [{ id: 'msg_1', role: 'user', parts: [{ type: 'text', text: 'hi' }] }] };
    expect(await call(host, 'POST', '/v1/ai-sdk/chat', 'token-bob', { ...chat, trigger: 'regenerate-message' })).toMatchObject({
      status: 400,
      body: { code: 'invalid-body' },
    });
    expect(claims).toEqual([]);
    // Accepted: the hook runs; these grants never give c_zed_… to anyone, so the grant read again is still 404.
    const notFound = { status: 404, body: { code: 'not-found', message: 'no such conversation, turn or card' } };
    expect(await call(host, 'POST', turns, 'token-bob', JSON.parse(valid), key)).toEqual(notFound);
    expect(await call(host, 'POST', '/v1/ai-sdk/chat', 'token-bob', chat)).toEqual(notFound);
    expect(claims).toEqual(['bob:c_zed_claim', 'bob:c_zed_chat']);
    // A conversation the caller already holds needs no claim.
    await startTurn(host, 'c_ana_claim_held', 'fail please');
    expect(claims).toEqual(['bob:c_zed_claim', 'bob:c_zed_chat']);
  });

  it('§11 a hook that throws is 503 store-unavailable and starts nothing', async () => {
    const host = await startHost(
      testStore,
      {},
      {
        claimConversation: () => {
          throw new Error('connection refused');
        },
      },
    );
    const clientTurnId = createTurnId();
    const answer = await call(
      host,
      'POST',
      '/v1/conversations/c_zed_down/turns',
      'token-bob',
      { clientTurnId, text: 'hi' },
      {
        'Idempotency-Key': clientTurnId,
      },
    );
    expect(answer).toEqual({ status: 503, body: { code: 'store-unavailable', message: 'the conversation could not be claimed' } });
    expect(await testStore.store.turnStore.read(await hostTurnId('c_zed_down', clientTurnId))).toBeNull();
  });
});

describe('cancellation through the host (DESIGN §6.5, §6.8, §11)', () => {
  it('§11 POST /turns/:turnId/cancel commits, aborts the in-flight tool, ends the stream cancelled; the late result is retained', async () => {
    // The refund must still be running when the cancel lands: on a loaded machine following the stream to its tool call takes a while.
    const host = await startHost(testStore, { toolDelayMs: 1500 });
    const { clientTurnId, turnId } = await startTurn(host, 'c_ana_cancel', 'refund please');
    await follow(host, 'c_ana_cancel', turnId, (envelope) => envelope.event.type === 'tool_call');
    const cancelled = await call(host, 'POST', `/v1/conversations/c_ana_cancel/turns/${turnId}/cancel`, 'token-ana');
    expect(cancelled).toEqual({ status: 200, body: { turnId, committed: true, inFlight: [`effect_${turnId}_1`] } });
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
      .poll(async () => (await testStore.store.turnStore.read(turnId))?.record, { timeout: 5000 })
      .toMatchObject({
        status: 'cancelled',
        effects: [{ effectId: `effect_${turnId}_1`, status: 'completed', result: { summary: 'refund 1042 issued' } }],
      });
    expect(host.effects).toEqual([turnId]);
    // Cancelling again is idempotent: nothing new commits (§6.8 `committed: false`).
    const again = await call(host, 'POST', `/v1/conversations/c_ana_cancel/turns/${turnId}/cancel`, 'token-ana');
    expect(again).toEqual({ status: 200, body: { turnId, committed: false, inFlight: [] } });
  });

  it('§11 cancelling a turn that completed is 409 turn-finished with its status', async () => {
    const host = await startHost(testStore);
    const { turnId } = await startTurn(host, 'c_ana_cancel_done', 'fail now');
    await follow(host, 'c_ana_cancel_done', turnId);
    const late = await call(host, 'POST', `/v1/conversations/c_ana_cancel_done/turns/${turnId}/cancel`, 'token-ana');
    expect(late).toEqual({
      status: 409,
      body: { code: 'turn-finished', message: 'the turn already ended: failed', turnId, status: 'failed' },
    });
  });

  it('§11 cancelling a turn waiting on its card closes the card cancelled and ends the turn cancelled', async () => {
    const host = await startHost(testStore);
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
    expect(late).toEqual({
      status: 409,
      body: { code: 'already-closed', message: 'the card was already cancelled', correlationId, status: 'cancelled' },
    });
  });
});
