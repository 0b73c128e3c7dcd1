/**
 * DESIGN §6 rule 12 and §11.2 (issue 27), in process on PGlite: no turn
 * outlives its run. Two hosts share one store; the owner's clock stands still
 * (so its renewals never move its lease), the other's runs, so past the lease
 * the other host meets a turn whose run is gone while the owner's run is
 * still there to prove it writes nothing more once it lost its turn. The same
 * races with real processes (SIGKILL, SIGSTOP, SIGTERM) run on a real Postgres
 * in `liveness-processes.test.ts`.
 */
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { deliveryStateFromResend } from '@papercusp/chat-protocol-recovery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAgent } from './chat-agent.js';
import { call, cardOf, follow, openTestStore, startHost, startTurn, type LoopbackHost, type TestStore } from './loopback-host.testing.js';

const LEASE_MS = 600;
const waitForAbort = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// What each turn's run saw of its signal.
const aborts = new Map<string, unknown>();

// The turn's text picks the script: a delta then a paid tool that hangs, a card, a delta and the end, or a delta then nothing.
const agent: ChatAgent = {
  tools: [
    {
      name: 'pay',
      execute: async (_input, execution) => {
        await waitForAbort(execution.signal);
        throw new Error('aborted');
      },
    },
  ],
  async *run(turn, context) {
    context.signal.addEventListener('abort', () => aborts.set(turn.turnId, context.signal.reason), { once: true });
    yield { type: 'delta', text: 'Working on it. ' };
    if (turn.text === 'done') return;
    if (turn.text === 'pay') yield { type: 'tool', name: 'pay', input: { amount: 5 } };
    if (turn.text === 'card') yield { type: 'card', card: { prompt: 'Go ahead?', presentation: { kind: 'confirm' } } };
    await waitForAbort(context.signal);
    yield { type: 'delta', text: 'too late' };
  },
};

let testStore: TestStore;
let owner: LoopbackHost;
let other: LoopbackHost;
beforeAll(async () => {
  testStore = await openTestStore();
  const frozen = new Date().toISOString();
  owner = await startHost(testStore, {}, { agent, runLeaseMs: LEASE_MS, cancelPollMs: 50, clock: () => frozen });
  other = await startHost(testStore, {}, { agent, runLeaseMs: LEASE_MS, cancelPollMs: 50 });
}, 60_000);
afterAll(() => testStore.close());

const frames = async (conversationId: string, turnId: string): Promise<readonly ChatEventEnvelope[]> =>
  (await testStore.store.eventLog.replayWindow({ conversationId, turnId, after: 0 })).frames;
const statusOn = async (host: LoopbackHost, conversationId: string, clientTurnId: string) =>
  (await call(host, 'GET', `/v1/conversations/${conversationId}/turns/by-client-id/${clientTurnId}`, 'token-ana')).body as {
    status: string;
    lastSeq: number;
  };

const ana = { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null };

describe('a turn whose run lost its lease (DESIGN §6 rule 12, §11.2)', () => {
  it('the status route interrupts it past the lease and writes its tail; the old run is aborted and writes nothing more; a resend is 410 turn-interrupted', async () => {
    const conversationId = 'c_ana_live_status';
    const { turnId, clientTurnId } = await startTurn(owner, conversationId, 'pay');
    await follow(owner, conversationId, turnId, (envelope) => envelope.event.type === 'tool_call');
    expect(await statusOn(other, conversationId, clientTurnId)).toMatchObject({ status: 'running' });
    await sleep(LEASE_MS + 50);
    expect(await statusOn(other, conversationId, clientTurnId)).toEqual({ turnId, status: 'interrupted', lastSeq: 5 });
    expect((await frames(conversationId, turnId)).slice(3).map((frame) => frame.event)).toEqual([
      { type: 'tool_result', callId: 'call_1', name: 'pay', status: 'needs-reconciliation' },
      { type: 'done', status: 'interrupted' },
    ]);
    await sleep(200);
    expect((aborts.get(turnId) as DOMException | undefined)?.name).toBe('AbortError');
    expect((await frames(conversationId, turnId)).length).toBe(5);
    const resend = await fetch(`${other.base}/v1/conversations/${conversationId}/turns`, {
      method: 'POST',
      headers: { authorization: 'Bearer token-ana', 'content-type': 'application/json', 'idempotency-key': clientTurnId },
      body: JSON.stringify({ clientTurnId, text: 'pay' }),
    });
    expect(resend.status).toBe(410);
    expect(await resend.json()).toMatchObject({ code: 'turn-interrupted', turnId });
    expect(deliveryStateFromResend({ type: 'response', status: resend.status })).toBe('not-sent');
    expect(await statusOn(owner, conversationId, clientTurnId)).toMatchObject({ status: 'interrupted' });
  });

  it('a follower on another host, opened while the lease held, receives the whole tail and its stream ends, with no sweeper', async () => {
    const conversationId = 'c_ana_live_follow';
    const { turnId } = await startTurn(owner, conversationId, 'hang');
    await follow(owner, conversationId, turnId, (envelope) => envelope.event.type === 'delta');
    const followed = await follow(other, conversationId, turnId);
    expect(followed.envelopes.map((envelope) => envelope.event.type)).toEqual(['user_input', 'delta', 'done']);
    expect(followed.state?.turns[0]?.status).toBe('interrupted');
    expect(followed.ended).toBe('terminal');
  });

  it('an open card is closed interrupted with the tail; answering it past the lease finds it closed', async () => {
    const conversationId = 'c_ana_live_card';
    const { turnId } = await startTurn(owner, conversationId, 'card');
    const shown = await follow(owner, conversationId, turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(shown.envelopes);
    await sleep(LEASE_MS + 50);
    const answer = await call(other, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: true },
    });
    expect(answer).toMatchObject({ status: 409, body: { code: 'already-closed', correlationId } });
    expect((await frames(conversationId, turnId)).slice(3).map((frame) => frame.event)).toEqual([
      { type: 'card_closed', correlationId, resolution: 'interrupted' },
      { type: 'done', status: 'interrupted' },
    ]);
  });
});

describe('the sweeper (DESIGN §11.2): sweepExpiredTurns', () => {
  it('interrupts a turn nobody meets once its lease ran out, under the caller callerOf names, and leaves a held lease alone', async () => {
    // The owner's clock stood still since the file began: its turns' leases ran out already; the other host renews.
    const conversationId = 'c_ana_live_sweep';
    const { turnId, clientTurnId } = await startTurn(owner, conversationId, 'hang');
    const held = await startTurn(other, 'c_ana_live_sweep_held', 'hang');
    await follow(owner, conversationId, turnId, (envelope) => envelope.event.type === 'delta');
    await follow(other, 'c_ana_live_sweep_held', held.turnId, (envelope) => envelope.event.type === 'delta');
    const asked: string[] = [];
    const callerOf = (id: string) => (asked.push(id), ana);
    expect(await other.handler.sweepExpiredTurns({ callerOf: () => null })).toMatchObject({ ok: true, interrupted: 0 });
    expect((await frames(conversationId, turnId)).at(-1)?.event.type).toBe('delta');
    const swept = await other.handler.sweepExpiredTurns({ callerOf });
    expect(swept.ok && swept.interrupted).toBeGreaterThanOrEqual(1);
    expect(asked).toContain(conversationId);
    expect(asked).not.toContain('c_ana_live_sweep_held');
    expect((await frames(conversationId, turnId)).at(-1)?.event).toEqual({ type: 'done', status: 'interrupted' });
    expect((await frames('c_ana_live_sweep_held', held.turnId)).at(-1)?.event.type).toBe('delta');
    expect(await statusOn(owner, conversationId, clientTurnId)).toMatchObject({ status: 'interrupted' });
    expect(await other.handler.sweepExpiredTurns({ callerOf })).toMatchObject({ ok: true, interrupted: 0 });
    await call(other, 'POST', `/v1/conversations/c_ana_live_sweep_held/turns/${held.turnId}/cancel`, 'token-ana');
  });

  it('a store that lists no running turns is sweep-unsupported; a callerOf that throws skips the turn', async () => {
    const { listRunningTurns: _listed, ...bare } = testStore.store.turnStore;
    // A turn store without the optional method, as a store adapter of another team may be.
    const turnStore = bare as TestStore['store']['turnStore'];
    const unlisted = await startHost({ ...testStore, store: { ...testStore.store, turnStore } }, {}, { agent });
    expect(await unlisted.handler.sweepExpiredTurns({ callerOf: () => ana })).toMatchObject({ ok: false, code: 'sweep-unsupported' });
    const conversationId = 'c_ana_live_sweep_throw';
    const { turnId } = await startTurn(owner, conversationId, 'hang');
    await follow(owner, conversationId, turnId, (envelope) => envelope.event.type === 'delta');
    const swept = await other.handler.sweepExpiredTurns({
      callerOf: (id) => {
        if (id === conversationId) throw new Error('no owner table');
        return null;
      },
    });
    expect(swept).toMatchObject({ ok: true });
    expect(swept.ok && swept.skipped).toBeGreaterThanOrEqual(1);
    expect((await frames(conversationId, turnId)).at(-1)?.event.type).toBe('delta');
  });
});

describe('a turn its run ended (DESIGN §6 rule 12)', () => {
  it('a turn its run ended is finished in the store: past its lease it is not listed as running, nobody interrupts it, and it stays completed', async () => {
    const conversationId = 'c_ana_live_done';
    const { turnId, clientTurnId } = await startTurn(other, conversationId, 'done');
    expect((await follow(other, conversationId, turnId)).ended).toBe('terminal');
    await expect.poll(async () => (await testStore.store.turnStore.read(turnId))?.record.status).toBe('completed');
    await sleep(LEASE_MS + 50);
    const running = (await testStore.store.turnStore.listRunningTurns?.({ limit: 500 })) ?? [];
    expect(running.map(({ record }) => record.turnId)).not.toContain(turnId);
    await other.handler.sweepExpiredTurns({ callerOf: () => ana });
    expect(await statusOn(other, conversationId, clientTurnId)).toEqual({ turnId, status: 'completed', lastSeq: 3 });
    expect((await testStore.store.turnStore.read(turnId))?.record.status).toBe('completed');
    expect((await frames(conversationId, turnId)).map((frame) => frame.event.type)).toEqual(['user_input', 'delta', 'done']);
  });
});

describe('drain (DESIGN §11.2): close({ drainMs })', () => {
  it('refuses new turns with 503 draining and Retry-After, interrupts what still runs after drainMs and writes its tail, ends other streams with retry: before it resolves', async () => {
    const draining = await startHost(testStore, {}, { agent, runLeaseMs: 30_000, cancelPollMs: 50 });
    const drainingServer = testStore.servers.at(-1);
    const alive = await startHost(testStore, {}, { agent, runLeaseMs: 30_000, cancelPollMs: 50 });
    const own = await startTurn(draining, 'c_ana_drain_own', 'hang');
    const elsewhere = await startTurn(alive, 'c_ana_drain_elsewhere', 'hang');
    await follow(draining, 'c_ana_drain_own', own.turnId, (envelope) => envelope.event.type === 'delta');
    await follow(alive, 'c_ana_drain_elsewhere', elsewhere.turnId, (envelope) => envelope.event.type === 'delta');
    const followingOwn = follow(draining, 'c_ana_drain_own', own.turnId);
    const elsewhereStream = await fetch(`${draining.base}/v1/conversations/c_ana_drain_elsewhere/turns/${elsewhere.turnId}/events`, {
      headers: { authorization: 'Bearer token-ana' },
    });
    const elsewhereText = elsewhereStream.text();
    const closed = draining.handler.close({ drainMs: 200 });
    const refused = await fetch(`${draining.base}/v1/conversations/c_ana_drain_new/turns`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer token-ana',
        'content-type': 'application/json',
        'idempotency-key': 'turn_0123456789abcdef0123456789abcdef',
      },
      body: JSON.stringify({ clientTurnId: 'turn_0123456789abcdef0123456789abcdef', text: 'hello' }),
    });
    expect([refused.status, refused.headers.get('retry-after'), ((await refused.json()) as { code: string }).code]).toEqual([
      503,
      '1',
      'draining',
    ]);
    expect(draining.handler.close()).toBe(closed);
    await closed;
    // Closing the server as soon as the drain resolved cuts nothing: every stream's last bytes were handed over by then.
    drainingServer?.closeAllConnections();
    expect((aborts.get(own.turnId) as DOMException | undefined)?.name).toBe('AbortError');
    const ownFollowed = await followingOwn;
    expect(ownFollowed.envelopes.at(-1)?.event).toEqual({ type: 'done', status: 'interrupted' });
    const elsewhereBody = await elsewhereText;
    expect(elsewhereBody.slice(-200)).toMatch(/\n\nretry: \d+\n\n$/);
    // The turn another process runs goes on there, untouched.
    expect((await frames('c_ana_drain_elsewhere', elsewhere.turnId)).map((frame) => frame.event.type)).toEqual(['user_input', 'delta']);
    await alive.handler.close({ drainMs: 0 });
  });

  it('lets a turn that ends within drainMs end as it would have; a drainMs that is not a non-negative safe integer is a TypeError', async () => {
    const host = await startHost(testStore, { toolDelayMs: 0 }, { runLeaseMs: 30_000 });
    const { turnId } = await startTurn(host, 'c_ana_drain_done', 'fail please');
    await host.handler.close({ drainMs: 10_000 });
    expect((await frames('c_ana_drain_done', turnId)).at(-1)?.event).toMatchObject({ type: 'error', retryable: true });
    const fresh = await startHost(testStore, {}, {});
    await expect(fresh.handler.close({ drainMs: -1 })).rejects.toThrow(TypeError);
    await expect(fresh.handler.close({ drainMs: 1.5 })).rejects.toThrow(TypeError);
    await fresh.handler.close({ drainMs: 0 });
  });
});
