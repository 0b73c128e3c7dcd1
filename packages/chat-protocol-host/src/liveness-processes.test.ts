/**
 * DESIGN §6 rule 12 and §11.2 (issue 27's proofs) with real host processes
 * on a real Postgres server: no turn outlives its run. An owning host is
 * SIGKILLed mid-delta, mid-tool and at a card, SIGSTOPped past its lease and
 * woken, and SIGTERMed with turns running, while another host process on the
 * same server follows, answers and resumes. The same rules in process, with
 * a frozen clock instead of signals, are `run-liveness.test.ts`'s.
 */
import type { ChatCursor, ChatEventEnvelope, ChatEventV1 } from '@papercusp/chat-protocol-core';
import { createPostgresChatStore, migrateChatStore, pgDatabase } from '@papercusp/chat-protocol-postgres';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { readChatStream, type ChatStreamEndedItem, type ChatStreamFetch } from '@papercusp/chat-protocol-sse';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, type PostgresCluster } from '../../../test-support/postgres-cluster.mjs';
import { hostProcesses, waitFor, type HostProcess } from './host-processes.testing.js';
import { auth, call, cardOf, follow, startTurn } from './loopback-host.testing.js';
import { SCRIPTED_REFUND_CALL_ID } from './scripted/scripted-agent.js';

const SCHEMA = 'host_liveness';
const LEASE_MS = 1_200;
const POLL_MS = 100;
// Every process shares the lease (as the option says they should) and polls its turn records often.
const TUNING = { runLeaseMs: LEASE_MS, cancelPollMs: POLL_MS, cardPollMs: POLL_MS };
// How long after its run's death a follower's stream may take to end beyond the lease: the follower's look at the
// lease's deadline (100 ms after it), the interruption and the tail's writes, on a loaded machine.
const END_MARGIN_MS = 2_000;
const DRAIN_MS = 1_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const events = (envelopes: readonly ChatEventEnvelope[]): ChatEventV1[] => envelopes.map((envelope) => envelope.event);

let cluster: PostgresCluster | undefined;
let pool: pg.Pool | undefined;
const processes = hostProcesses();
// The host process that outlives every owner: it follows, answers and interrupts.
let other: HostProcess;
const spawnHost = (options: Record<string, number>): Promise<HostProcess> => processes.spawn(cluster?.url ?? '', SCHEMA, options);
const store = () => createPostgresChatStore(pgDatabase(pool as pg.Pool), { schema: SCHEMA });

beforeAll(async () => {
  cluster = await startPostgresCluster();
  pool = new pg.Pool({ connectionString: cluster.url, max: 4 });
  const migrated = await migrateChatStore(pgDatabase(pool), { schema: SCHEMA });
  if (!migrated.ok) throw new Error(migrated.message);
  other = await spawnHost(TUNING);
}, 120_000);
afterAll(async () => {
  await processes.killAll();
  await pool?.end();
  await cluster?.destroy();
}, 60_000);

const frames = async (conversationId: string, turnId: string): Promise<readonly ChatEventEnvelope[]> =>
  (await store().eventLog.replayWindow({ conversationId, turnId, after: 0 })).frames;
const statusOn = (host: HostProcess, conversationId: string, clientTurnId: string) =>
  call(host, 'GET', `/v1/conversations/${conversationId}/turns/by-client-id/${clientTurnId}`, 'token-ana');
const resend = (host: HostProcess, conversationId: string, clientTurnId: string) =>
  call(
    host,
    'POST',
    `/v1/conversations/${conversationId}/turns`,
    'token-ana',
    { clientTurnId, text: 'refund please' },
    { 'Idempotency-Key': clientTurnId },
  );
const interruptedResend = (turnId: string) => ({
  status: 410,
  body: {
    code: 'turn-interrupted',
    message: 'this client turn was interrupted: its run was lost; send the message again as a new turn',
    turnId,
  },
});
const answerCard = (host: HostProcess, conversationId: string, correlationId: string) =>
  call(host, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, 'token-ana', {
    action: 'submit',
    correlationId,
    value: { confirmed: true },
  });

// The default turn's frames up to its tool call: the person's text, provenance, reasoning, four deltas, the call.
const BEFORE_TOOL: readonly ChatEventV1[] = [
  { type: 'user_input', text: 'refund please', source: 'text_typed' },
  { type: 'provenance', engine: 'scripted', model: 'scripted-refund-1' },
  { type: 'reasoning', text: 'The order qualifies for a refund.' },
  { type: 'delta', text: 'Looking ' },
  { type: 'delta', text: 'into ord' },
  { type: 'delta', text: 'er 1042.' },
  { type: 'delta', text: ' ' },
];
const REFUND_CALL: ChatEventV1 = { type: 'tool_call', callId: SCRIPTED_REFUND_CALL_ID, name: 'issue_refund', input: { orderId: '1042' } };

/**
 * Starts the default turn on a fresh owner process with `options`, follows it from `other` (opened before the
 * kill), SIGKILLs the owner once the follower saw a frame `at` accepts (and, with `afterEffect`, once the owner
 * launched the refund), and waits for the follower's stream to end.
 */
async function killOwner(
  conversationId: string,
  options: Record<string, number>,
  at: (envelope: ChatEventEnvelope) => boolean,
  afterEffect = false,
) {
  const owner = await spawnHost({ ...TUNING, ...options });
  const { turnId, clientTurnId } = await startTurn(owner, conversationId, 'refund please');
  let reached: () => void = () => undefined;
  const seen = new Promise<void>((resolve) => (reached = resolve));
  const following = follow(other, conversationId, turnId, (envelope) => {
    if (at(envelope)) reached();
    return false;
  });
  await seen;
  if (afterEffect) await waitFor(async () => owner.effects.includes(turnId));
  owner.child.kill('SIGKILL');
  const exit = await owner.exited;
  const killedAt = Date.now();
  const followed = await following;
  return { owner, turnId, clientTurnId, exit, followed, endedAfterMs: Date.now() - killedAt };
}

describe('an owning host process SIGKILLed (DESIGN §6 rule 12, §11.2)', () => {
  it('mid-delta: the follower on another process gets done { interrupted } and its stream ends within the lease; the status route says interrupted, a resend is 410 turn-interrupted', async () => {
    const conversationId = 'c_ana_lp_kill_delta';
    const killed = await killOwner(conversationId, { deltaDelayMs: 600_000 }, (envelope) => envelope.event.type === 'delta');
    const { owner, turnId, clientTurnId, followed } = killed;
    expect(killed.exit).toEqual({ code: null, signal: 'SIGKILL', drained: false });
    expect(followed.ended).toBe('terminal');
    expect(killed.endedAfterMs).toBeLessThan(LEASE_MS + END_MARGIN_MS);
    expect(events(followed.envelopes)).toEqual([...BEFORE_TOOL.slice(0, 4), { type: 'done', status: 'interrupted' }]);
    expect(followed.envelopes).toEqual(await frames(conversationId, turnId));
    expect(followed.state?.turns[0]?.status).toBe('interrupted');
    expect(await statusOn(other, conversationId, clientTurnId)).toEqual({
      status: 200,
      body: { turnId, status: 'interrupted', lastSeq: 5 },
    });
    expect(await resend(other, conversationId, clientTurnId)).toEqual(interruptedResend(turnId));
    expect([owner.effects, other.effects.includes(turnId)]).toEqual([[], false]);
  }, 30_000);

  it('mid-tool, its effect admitted and launched: the tail is tool_result needs-reconciliation then done { interrupted }; the effect ran exactly once and nobody relaunched it', async () => {
    const conversationId = 'c_ana_lp_kill_tool';
    const killed = await killOwner(conversationId, { toolDelayMs: 600_000 }, (envelope) => envelope.event.type === 'tool_call', true);
    const { owner, turnId, clientTurnId, followed } = killed;
    expect(followed.ended).toBe('terminal');
    expect(killed.endedAfterMs).toBeLessThan(LEASE_MS + END_MARGIN_MS);
    expect(events(followed.envelopes)).toEqual([
      ...BEFORE_TOOL,
      REFUND_CALL,
      { type: 'tool_result', callId: SCRIPTED_REFUND_CALL_ID, name: 'issue_refund', status: 'needs-reconciliation' },
      { type: 'done', status: 'interrupted' },
    ]);
    expect(followed.envelopes).toEqual(await frames(conversationId, turnId));
    expect(await statusOn(other, conversationId, clientTurnId)).toEqual({
      status: 200,
      body: { turnId, status: 'interrupted', lastSeq: 10 },
    });
    expect(await resend(other, conversationId, clientTurnId)).toEqual(interruptedResend(turnId));
    // The launch ledger: one launch, on the killed owner; the record keeps the admitted effect open, its outcome unknown.
    expect([owner.effects, other.effects.includes(turnId)]).toEqual([[turnId], false]);
    const stored = await store().turnStore.read(turnId);
    expect(stored?.record).toMatchObject({ status: 'interrupted', effects: [{ effectId: `effect_${turnId}_1`, status: 'open' }] });
    expect(stored?.admissions.map((admission) => admission.effectId)).toEqual([`effect_${turnId}_1`]);
  }, 30_000);

  it('at a card: the tail closes the card interrupted then done { interrupted }; answering it on the other process finds it closed', async () => {
    const conversationId = 'c_ana_lp_kill_card';
    const killed = await killOwner(conversationId, {}, (envelope) => envelope.event.type === 'card');
    const { owner, turnId, clientTurnId, followed } = killed;
    const correlationId = cardOf(followed.envelopes);
    expect(followed.ended).toBe('terminal');
    expect(killed.endedAfterMs).toBeLessThan(LEASE_MS + END_MARGIN_MS);
    expect(events(followed.envelopes).slice(-3)).toEqual([
      expect.objectContaining({ type: 'card', card: expect.objectContaining({ correlationId, prompt: 'Close the ticket?' }) }),
      { type: 'card_closed', correlationId, resolution: 'interrupted' },
      { type: 'done', status: 'interrupted' },
    ]);
    expect(followed.envelopes).toEqual(await frames(conversationId, turnId));
    const lastSeq = followed.envelopes.at(-1)?.seq;
    expect(await statusOn(other, conversationId, clientTurnId)).toEqual({ status: 200, body: { turnId, status: 'interrupted', lastSeq } });
    expect(await resend(other, conversationId, clientTurnId)).toEqual(interruptedResend(turnId));
    expect(await answerCard(other, conversationId, correlationId)).toEqual({
      status: 409,
      body: { code: 'already-closed', message: 'the card was already cancelled', correlationId, status: 'cancelled' },
    });
    expect([owner.effects, other.effects.includes(turnId)]).toEqual([[turnId], false]);
  }, 30_000);
});

describe('an owning host process SIGSTOPped past its lease, then woken (DESIGN §6 rule 12)', () => {
  it('another process interrupts the turn; woken by SIGCONT, the old run writes nothing more and launches nothing', async () => {
    const conversationId = 'c_ana_lp_stop';
    // Between two deltas for a lease each: stopped right after the last delta before its tool call, the run's next
    // step once woken would be that call, and its effect's launch.
    const owner = await spawnHost({ ...TUNING, deltaDelayMs: LEASE_MS });
    const { turnId, clientTurnId } = await startTurn(owner, conversationId, 'refund please');
    await follow(other, conversationId, turnId, (envelope) => envelope.seq === BEFORE_TOOL.length);
    owner.child.kill('SIGSTOP');
    expect(await statusOn(other, conversationId, clientTurnId)).toMatchObject({ status: 200, body: { turnId, status: 'running' } });
    await waitFor(async () => ((await statusOn(other, conversationId, clientTurnId)).body as { status: string }).status === 'interrupted');
    const interrupted = await frames(conversationId, turnId);
    expect(events(interrupted)).toEqual([...BEFORE_TOOL, { type: 'done', status: 'interrupted' }]);
    owner.child.kill('SIGCONT');
    // Its renewal, its poll (every POLL_MS) and the agent's next step are all overdue once it wakes.
    await sleep(3 * POLL_MS + LEASE_MS / 3);
    expect(await frames(conversationId, turnId)).toEqual(interrupted);
    expect(owner.effects).toEqual([]);
    expect(owner.child.exitCode).toBeNull();
    // The woken process itself agrees the turn is over.
    expect(await statusOn(owner, conversationId, clientTurnId)).toEqual({
      status: 200,
      body: { turnId, status: 'interrupted', lastSeq: 8 },
    });
    expect(await resend(owner, conversationId, clientTurnId)).toEqual(interruptedResend(turnId));
    expect(await call(owner, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana')).toMatchObject({
      status: 200,
      body: { running: [] },
    });
  }, 30_000);
});

/** One connection to a turn's stream, never reconnecting: its envelopes, how it ended, and its raw text. */
function readOnce(host: HostProcess, conversationId: string, turnId: string, cursor?: ChatCursor) {
  let text = '';
  const decoder = new TextDecoder();
  // The body as the client reads it, also kept as text (to see the server's `retry:` field).
  const keepText: ChatStreamFetch = async (input, init) => {
    const response = await fetch(input, init);
    const kept = new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        text += decoder.decode(chunk, { stream: true });
        controller.enqueue(chunk);
      },
    });
    return new Response(response.body?.pipeThrough(kept) ?? null, { status: response.status, headers: response.headers });
  };
  let connected: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (connected = resolve));
  const read = async () => {
    const envelopes: ChatEventEnvelope[] = [];
    let ended: ChatStreamEndedItem | undefined;
    const url = `${host.base}/v1/conversations/${conversationId}/turns/${turnId}/events`;
    for await (const item of readChatStream({
      url,
      fetch: keepText,
      headers: auth('token-ana'),
      retry: { attempts: 0 },
      ...(cursor ? { cursor } : {}),
    })) {
      if (item.type === 'connected') connected();
      if (item.type === 'envelope') envelopes.push(item.envelope);
      if (item.type === 'ended') ended = item;
    }
    return { envelopes, ended, text };
  };
  return { opened, read: read() };
}

describe('a host process SIGTERMed with turns running (DESIGN §11.2: drain)', () => {
  it('exits 0 after drained; a turn that ends within drainMs completes, one stuck on a card ends interrupted, and a follower resumes on another process with no frame lost or doubled', async () => {
    const draining = await spawnHost({ ...TUNING, drainMs: DRAIN_MS });
    const stuck = { conversationId: 'c_ana_lp_drain_stuck', ...(await startTurn(draining, 'c_ana_lp_drain_stuck', 'refund please')) };
    const finishing = { conversationId: 'c_ana_lp_drain_done', ...(await startTurn(draining, 'c_ana_lp_drain_done', 'refund please')) };
    const elsewhere = { conversationId: 'c_ana_lp_drain_away', ...(await startTurn(other, 'c_ana_lp_drain_away', 'refund please')) };
    const cards = await Promise.all(
      [stuck, finishing, elsewhere].map(async ({ conversationId, turnId }) =>
        cardOf((await follow(other, conversationId, turnId, (envelope) => envelope.event.type === 'card')).envelopes),
      ),
    );
    // Two followers on the draining process: of its own stuck turn, and of the turn another process runs.
    const ownStream = readOnce(draining, stuck.conversationId, stuck.turnId);
    const awayStream = readOnce(draining, elsewhere.conversationId, elsewhere.turnId);
    await Promise.all([ownStream.opened, awayStream.opened]);

    draining.child.kill('SIGTERM');
    // A turn in a conversation Ana does not own is not-found (nothing written) until the drain refuses every turn first.
    await waitFor(async () => {
      const foreign = await startRaw(draining, 'c_bob_lp_drain');
      await foreign.body?.cancel();
      return foreign.status === 503;
    });
    const refused = await startRaw(draining, 'c_ana_lp_drain_new');
    expect([refused.status, refused.headers.get('retry-after'), await refused.json()]).toEqual([
      503,
      '1',
      { code: 'draining', message: 'this host process is shutting down: send the turn again (another process takes it)' },
    ]);
    // Answered on the other process while the drain waits: the run on the draining one ends the turn as it would have.
    expect(await answerCard(other, finishing.conversationId, cards[1] ?? '')).toEqual({
      status: 200,
      body: { correlationId: cards[1], status: 'submitted' },
    });

    expect(await draining.exited).toEqual({ code: 0, signal: null, drained: true });
    const finished = await frames(finishing.conversationId, finishing.turnId);
    expect(finished.at(-1)?.event).toEqual({
      type: 'done',
      status: 'completed',
      stopReason: 'end_turn',
      usage: { inputTokens: 120, outputTokens: 48, totalTokens: 168 },
    });
    expect((await follow(other, finishing.conversationId, finishing.turnId)).state?.turns[0]?.text.endsWith('Ticket closed.')).toBe(true);

    // The stuck turn's follower got its tail, written by the draining process itself, to the end.
    const own = await ownStream.read;
    expect(own.ended?.reason).toBe('terminal');
    expect(events(own.envelopes).slice(-2)).toEqual([
      { type: 'card_closed', correlationId: cards[0], resolution: 'interrupted' },
      { type: 'done', status: 'interrupted' },
    ]);
    expect(own.envelopes).toEqual(await frames(stuck.conversationId, stuck.turnId));
    expect(await statusOn(other, stuck.conversationId, stuck.clientTurnId)).toMatchObject({ body: { status: 'interrupted' } });

    // The other turn's stream ended with the hint to resume elsewhere; the client resumes on the other process.
    const away = await awayStream.read;
    expect(away.ended).toMatchObject({ reason: 'gave-up', failure: { code: 'stream-ended' } });
    expect(away.text).toMatch(/\n\nretry: \d+\n\n$/);
    const cursor = away.ended?.cursor ?? undefined;
    expect(cursor).toEqual({ turnId: elsewhere.turnId, seq: away.envelopes.at(-1)?.seq });
    const resumed = readOnce(other, elsewhere.conversationId, elsewhere.turnId, cursor);
    await resumed.opened;
    expect(await answerCard(other, elsewhere.conversationId, cards[2] ?? '')).toMatchObject({ status: 200 });
    const rest = await resumed.read;
    expect(rest.ended?.reason).toBe('terminal');
    const union = [...away.envelopes, ...rest.envelopes];
    const whole = await frames(elsewhere.conversationId, elsewhere.turnId);
    expect(union.map((envelope) => envelope.seq)).toEqual(whole.map((_, index) => index + 1));
    expect(union).toEqual(whole);
    expect(whole.at(-1)?.event).toMatchObject({ type: 'done', status: 'completed' });

    expect([stuck, finishing].map(({ turnId }) => draining.effects.filter((id) => id === turnId).length)).toEqual([1, 1]);
  }, 60_000);
});

// Starts a turn with a fresh client turn id, as the client does, and gives the response as it came.
function startRaw(host: HostProcess, conversationId: string): Promise<Response> {
  const clientTurnId = createTurnId();
  return fetch(`${host.base}/v1/conversations/${conversationId}/turns`, {
    method: 'POST',
    headers: { ...auth('token-ana'), 'content-type': 'application/json', 'idempotency-key': clientTurnId },
    body: JSON.stringify({ clientTurnId, text: 'hello' }),
  });
}
