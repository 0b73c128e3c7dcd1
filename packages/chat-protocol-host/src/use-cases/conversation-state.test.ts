/**
 * `GET /v1/conversations/:conversationId/state` (DESIGN §11) over loopback on
 * PGlite: the conversation's `ChatStateV1` folded from the log, equal to what a
 * client folding the same turns holds, with each running turn's cursor.
 */
import { applyChatEvent, createChatState, parseChatCursor, type ChatStateV1 } from '@papercusp/chat-protocol-core';
import { readChatStream } from '@papercusp/chat-protocol-sse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConversationState } from './conversation-state.js';
import { auth, call, cardOf, follow, openTestStore, startHost, startTurn, type Host, type TestStore } from '../loopback-host.testing.js';

let testStore: TestStore;
let host: Host;
beforeAll(async () => {
  testStore = await openTestStore();
  host = await startHost(testStore);
}, 60_000);
afterAll(() => testStore.close());

// A client's fold of whole turns, each read from a clean connection from seq 0.
async function cleanFold(conversationId: string, turnIds: readonly string[], stopAtCard = true): Promise<ChatStateV1> {
  let state = createChatState(conversationId);
  for (const turnId of turnIds) {
    const { envelopes } = await follow(
      host,
      conversationId,
      turnId,
      (envelope) => stopAtCard && envelope.event.type === 'card' && turnId === turnIds.at(-1),
    );
    for (const envelope of envelopes) {
      const applied = applyChatEvent(state, envelope);
      if (!applied.ok) throw new Error(applied.code);
      state = applied.state;
    }
  }
  return state;
}

describe('GET /state (DESIGN §11)', () => {
  it('§11 answers the conversation’s ChatStateV1 with its idempotency memory, equal to a client’s fold, and the cursor of each running turn', async () => {
    const conversationId = 'c_ana_state';
    const { turnId: first } = await startTurn(host, conversationId, 'fail now');
    await follow(host, conversationId, first);
    const { turnId: second } = await startTurn(host, conversationId, 'refund please');
    const waiting = await follow(host, conversationId, second, (envelope) => envelope.event.type === 'card');
    const answer = await call(host, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana');
    const lastSeq = waiting.envelopes.at(-1)?.seq ?? 0;
    expect(answer).toEqual({
      status: 200,
      body: {
        state: await cleanFold(conversationId, [first, second]),
        running: [{ turnId: second, cursor: `${second}:${lastSeq}` }],
        pruned: [],
      },
    });
    const state = (answer.body as { state: ChatStateV1 }).state;
    expect(state.turns.map((turn) => [turn.turnId, turn.status])).toEqual([
      [first, 'failed'],
      [second, 'running'],
    ]);
    expect(state.turns[1]?.eventLog.split('\n')).toHaveLength(lastSeq);
    // The cursor is the SSE id a client resumes from: the stream continues after it, nothing repeated.
    const correlationId = cardOf(waiting.envelopes);
    await call(host, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, 'token-ana', {
      action: 'decline',
      correlationId,
    });
    const url = `${host.base}/v1/conversations/${conversationId}/turns/${second}/events`;
    const seqs: number[] = [];
    const cursor = parseChatCursor((answer.body as { running: { cursor: string }[] }).running[0]?.cursor);
    expect(cursor).toEqual({ turnId: second, seq: lastSeq });
    for await (const item of readChatStream({ url, headers: auth('token-ana'), ...(cursor === null ? {} : { cursor }) })) {
      if (item.type === 'envelope') seqs.push(item.envelope.seq);
    }
    expect(seqs[0]).toBe(lastSeq + 1);
    const after = await call(host, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana');
    expect((after.body as { running: unknown[] }).running).toEqual([]);
    expect((after.body as { state: ChatStateV1 }).state).toEqual(await cleanFold(conversationId, [first, second], false));
  });

  it('§11 a conversation with no turns yet is an empty state; another tenant’s and a missing one answer the same 404', async () => {
    expect(await call(host, 'GET', '/v1/conversations/c_ana_empty/state', 'token-ana')).toEqual({
      status: 200,
      body: { state: createChatState('c_ana_empty'), running: [], pruned: [] },
    });
    await startTurn(host, 'c_ana_private', 'fail now');
    const foreign = await call(host, 'GET', '/v1/conversations/c_ana_private/state', 'token-bob');
    const missing = await call(host, 'GET', '/v1/conversations/c_bob_missing_x/state', 'token-ana');
    expect(foreign).toEqual({ status: 404, body: { code: 'not-found', message: 'no such conversation, turn or card' } });
    expect(missing).toEqual(foreign);
    expect((await call(host, 'GET', '/v1/conversations/c_ana_private/state', null)).status).toBe(401);
    expect((await call(host, 'GET', '/v1/conversations/c%2Fana/state', 'token-ana')).status).toBe(400);
  });

  it('§9.3/§11 a pruned turn is absent from state.turns (its frames and memory are gone) and listed in pruned with its last seq', async () => {
    const conversationId = 'c_ana_pruned';
    const { turnId: old } = await startTurn(host, conversationId, 'fail now');
    const oldFrames = await follow(host, conversationId, old);
    const { turnId: current } = await startTurn(host, conversationId, 'refund please');
    await follow(host, conversationId, current, (envelope) => envelope.event.type === 'card');
    const pruned = await testStore.store.eventLog.pruneTurns({ before: '2999-01-01T00:00:00Z' });
    expect(pruned.ok && pruned.pruned).toBeGreaterThanOrEqual(1);
    const answer = await call(host, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana');
    const body = answer.body as { state: ChatStateV1; pruned: unknown[]; running: { turnId: string }[] };
    expect(body.pruned).toEqual([{ turnId: old, lastSeq: oldFrames.envelopes.length }]);
    expect(body.state.turns.map((turn) => turn.turnId)).toEqual([current]);
    expect(body.running.map((turn) => turn.turnId)).toEqual([current]);
  });

  it('§11 a conversation past the fold bound is a typed 422 state-too-large with the limit', async () => {
    const small = await startHost(testStore, {}, { maxStateFrames: 3 });
    const { turnId } = await startTurn(small, 'c_ana_large', 'fail now');
    await follow(small, 'c_ana_large', turnId);
    expect(await call(small, 'GET', '/v1/conversations/c_ana_large/state', 'token-ana')).toEqual({
      status: 422,
      body: { code: 'state-too-large', message: 'the conversation is too large to fold: too-many-frames', limit: 3 },
    });
  });

  it('readConversationState: a store that fails or answers frames the reducer refuses is a typed refusal, never a throw', async () => {
    expect(await readConversationState(() => Promise.reject(new Error('down')), 'c_x', {})).toMatchObject({
      ok: false,
      code: 'store-unavailable',
    });
    const frame = {
      schemaVersion: 1,
      conversationId: 'c_x',
      turnId: 'turn_x',
      eventId: 'e_2',
      seq: 2,
      occurredAt: '2031-01-01T00:00:00Z',
      event: { type: 'delta', text: 'x' },
    } as const;
    const gap = async () => ({
      ok: true as const,
      value: {
        conversationId: 'c_x',
        turns: [{ turnId: 'turn_x', lowerBound: 0, latestSeq: 2, ended: false, pruned: false, frames: [frame] }],
      },
    });
    expect(await readConversationState(gap, 'c_x', {})).toEqual({
      ok: false,
      code: 'state-unfoldable',
      message: 'frame 2 of turn turn_x: seq-gap',
    });
  });
});
