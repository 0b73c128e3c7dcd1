/**
 * Several host processes on one real Postgres server (issue 17: "several host
 * processes on one Postgres serve the same conversations"): each host runs in
 * a child process of its own (`test/host-process.mjs`, the package's build,
 * its own pool), and the test talks to them only over loopback HTTP. A turn
 * runs in the process that accepted it; streaming, card answers, cancellation
 * and `/state` work through any of them, and a killed owner's turn still ends.
 */
import { createPostgresChatStore, migrateChatStore, pgDatabase } from '@papercusp/chat-protocol-postgres';
import { followChatTurn } from '@papercusp/chat-protocol-sse';
import type { ChatEventEnvelope, ChatStateV1 } from '@papercusp/chat-protocol-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test-support/postgres-cluster.mjs';
import { hostProcesses, waitFor, type HostProcess } from './host-processes.testing.js';
import { auth, call, cardOf, follow, startTurn } from './loopback-host.testing.js';
import { SCRIPTED_REFUND_CALL_ID } from './scripted/scripted-agent.js';

const SCHEMA = 'host_cross';

let cluster: PostgresCluster;
let pool: pg.Pool;
const processes = hostProcesses();
const spawnHost = (options: Record<string, number>): Promise<HostProcess> => processes.spawn(cluster.url, SCHEMA, options);

const events = (envelopes: readonly ChatEventEnvelope[]) => envelopes.map((envelope) => envelope.event);

// A: where turns start. B: another process on the same server, whose abandoned-turn grace is longer than any test,
// so a turn started on A and cancelled on B can only have been closed by A's own run.
let hostA: HostProcess;
let hostB: HostProcess;
beforeAll(async () => {
  cluster = await startPostgresCluster();
  pool = new pg.Pool({ connectionString: cluster.url, max: 4 });
  const migrated = await migrateChatStore(pgDatabase(pool), { schema: SCHEMA });
  if (!migrated.ok) throw new Error(migrated.message);
  const tuning = { cancelPollMs: 100, cardPollMs: 100, toolDelayMs: 800 };
  [hostA, hostB] = await Promise.all([spawnHost(tuning), spawnHost({ ...tuning, abandonedTurnGraceMs: 600_000 })]);
}, 120_000);
afterAll(async () => {
  await processes.killAll();
  await pool?.end();
  await cluster?.destroy();
}, 60_000);

describe('two host processes on one real Postgres server (issue 17, DESIGN §9.3, §11)', () => {
  it('a turn started on A streams from B through a reconnect into exactly the clean-connection state; a card answered on B reaches the run on A; /state is equal on both', async () => {
    const conversationId = 'c_ana_cross';
    const { turnId } = await startTurn(hostA, conversationId, 'refund please');
    // First connection to B, closed at the card; the answer goes to B too.
    const first = await follow(hostB, conversationId, turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    expect(
      await call(hostB, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, 'token-ana', {
        action: 'submit',
        correlationId,
        value: { confirmed: true },
      }),
    ).toEqual({ status: 200, body: { correlationId, status: 'submitted' } });
    // The client resumes on B from its state and cursor.
    let resumed: ChatStateV1 | undefined = first.state;
    let ended: string | undefined;
    const url = `${hostB.base}/v1/conversations/${conversationId}/turns/${turnId}/events`;
    const cursor = { turnId, seq: first.envelopes.at(-1)?.seq ?? 0 };
    for await (const item of followChatTurn({
      url,
      conversationId,
      headers: auth('token-ana'),
      cursor,
      ...(resumed ? { state: resumed } : {}),
    })) {
      if (item.type === 'state') resumed = item.state;
      if (item.type === 'ended') ended = item.reason;
    }
    expect(ended).toBe('terminal');
    const clean = await follow(hostA, conversationId, turnId);
    expect(clean.ended).toBe('terminal');
    expect(resumed).toEqual(clean.state);
    expect(clean.state?.turns[0]?.status).toBe('completed');
    expect(clean.state?.turns[0]?.text.endsWith('Ticket closed.')).toBe(true);
    // The run, and so the effect, stayed on A.
    expect(hostA.effects.filter((id) => id === turnId)).toHaveLength(1);
    expect(hostB.effects).not.toContain(turnId);
    const fromA = await call(hostA, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana');
    const fromB = await call(hostB, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana');
    expect(fromA).toEqual({ status: 200, body: { state: clean.state, running: [], pruned: [] } });
    expect(fromB).toEqual(fromA);
  }, 30_000);

  it('§6.8 a cancellation committed on B stops the run on A: the tool’s wait ends cancelled, done { status: cancelled }, and the late result is retained', async () => {
    const conversationId = 'c_ana_cross_cancel';
    const { turnId } = await startTurn(hostA, conversationId, 'refund please');
    await follow(hostB, conversationId, turnId, (envelope) => envelope.event.type === 'tool_call');
    // Cancel once the effect is admitted and launched on A (its ledger line), so it is in flight.
    await waitFor(async () => hostA.effects.includes(turnId));
    const running = await call(hostB, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana');
    expect((running.body as { running: { turnId: string }[] }).running.map((turn) => turn.turnId)).toEqual([turnId]);
    expect(await call(hostB, 'POST', `/v1/conversations/${conversationId}/turns/${turnId}/cancel`, 'token-ana')).toEqual({
      status: 200,
      body: { turnId, committed: true, inFlight: [`effect_${turnId}_1`] },
    });
    const all = await follow(hostB, conversationId, turnId);
    expect(all.ended).toBe('terminal');
    expect(events(all.envelopes).slice(-2)).toEqual([
      { type: 'tool_result', callId: SCRIPTED_REFUND_CALL_ID, name: 'issue_refund', status: 'cancelled' },
      { type: 'done', status: 'cancelled' },
    ]);
    // The external effect had started on A; its result lands after the cancellation, and the turn stays cancelled.
    const store = createPostgresChatStore(pgDatabase(pool), { schema: SCHEMA });
    await waitFor(async () => (await store.turnStore.read(turnId))?.record.effects[0]?.status === 'completed');
    expect((await store.turnStore.read(turnId))?.record).toMatchObject({
      status: 'cancelled',
      effects: [{ effectId: `effect_${turnId}_1`, status: 'completed', result: { summary: 'refund 1042 issued' }, source: 'dispatch' }],
    });
    expect(hostA.effects.filter((id) => id === turnId)).toHaveLength(1);
    const fromA = await call(hostA, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana');
    expect(fromA).toEqual(await call(hostB, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana'));
    expect((fromA.body as { state: ChatStateV1; running: unknown[] }).state.turns[0]?.status).toBe('cancelled');
    expect((fromA.body as { running: unknown[] }).running).toEqual([]);
  }, 30_000);

  it('an orphaned run (its process killed with SIGKILL) leaves its turn running until a cancellation on another host, which then closes the log: the follower ends cancelled, the card is closed', async () => {
    const [owner, other] = await Promise.all([
      spawnHost({ cancelPollMs: 100, cardPollMs: 100 }),
      spawnHost({ cancelPollMs: 100, cardPollMs: 100, abandonedTurnGraceMs: 500 }),
    ]);
    const conversationId = 'c_ana_cross_orphan';
    const { clientTurnId, turnId } = await startTurn(owner, conversationId, 'refund please');
    const first = await follow(other, conversationId, turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    const exited = new Promise((resolve) => owner.child.once('exit', resolve));
    owner.child.kill('SIGKILL');
    await exited;
    const statusPath = `/v1/conversations/${conversationId}/turns/by-client-id/${clientTurnId}`;
    const lastSeq = first.envelopes.at(-1)?.seq;
    expect(await call(other, 'GET', statusPath, 'token-ana')).toEqual({ status: 200, body: { turnId, status: 'running', lastSeq } });
    // A client following the orphan waits (heartbeats) until the cancellation closes it.
    const following = follow(other, conversationId, turnId);
    expect(await call(other, 'POST', `/v1/conversations/${conversationId}/turns/${turnId}/cancel`, 'token-ana')).toEqual({
      status: 200,
      body: { turnId, committed: true, inFlight: [] },
    });
    const all = await following;
    expect(all.ended).toBe('terminal');
    expect(events(all.envelopes).slice(-2)).toEqual([
      { type: 'card_closed', correlationId, resolution: 'cancelled' },
      { type: 'done', status: 'cancelled' },
    ]);
    expect(await call(other, 'GET', statusPath, 'token-ana')).toEqual({
      status: 200,
      body: { turnId, status: 'cancelled', lastSeq: all.envelopes.at(-1)?.seq },
    });
    const late = await call(other, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: true },
    });
    expect(late).toEqual({
      status: 409,
      body: { code: 'already-closed', message: 'the card was already cancelled', correlationId, status: 'cancelled' },
    });
    const state = await call(other, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana');
    expect(state).toEqual({ status: 200, body: { state: all.state, running: [], pruned: [] } });
  }, 30_000);

  it('§6.11 an orphaned run with an admitted effect: the turn-status route says running within the admission lease and needs-reconciliation past it; a cancel still closes the log', async () => {
    const [owner, other] = await Promise.all([
      spawnHost({ cancelPollMs: 100, toolDelayMs: 600_000 }),
      spawnHost({ cancelPollMs: 100, abandonedTurnGraceMs: 500, admissionLeaseMs: 1_000 }),
    ]);
    const conversationId = 'c_ana_cross_lease';
    const { clientTurnId, turnId } = await startTurn(owner, conversationId, 'refund please');
    await waitFor(async () => owner.effects.includes(turnId));
    const exited = new Promise((resolve) => owner.child.once('exit', resolve));
    owner.child.kill('SIGKILL');
    await exited;
    const statusPath = `/v1/conversations/${conversationId}/turns/by-client-id/${clientTurnId}`;
    const status = async () => ((await call(other, 'GET', statusPath, 'token-ana')).body as { status: string }).status;
    expect(await status()).toBe('running');
    await waitFor(async () => (await status()) === 'needs-reconciliation');
    expect(await call(other, 'POST', `/v1/conversations/${conversationId}/turns/${turnId}/cancel`, 'token-ana')).toEqual({
      status: 200,
      body: { turnId, committed: true, inFlight: [`effect_${turnId}_1`] },
    });
    const all = await follow(other, conversationId, turnId);
    expect(events(all.envelopes).slice(-2)).toEqual([
      { type: 'tool_result', callId: SCRIPTED_REFUND_CALL_ID, name: 'issue_refund', status: 'cancelled' },
      { type: 'done', status: 'cancelled' },
    ]);
    expect(await status()).toBe('cancelled');
    // Nothing relaunched the effect: the ledger holds the one launch on the killed owner.
    expect(other.effects).not.toContain(turnId);
  }, 30_000);
});
