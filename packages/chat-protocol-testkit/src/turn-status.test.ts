import type { ChatEventEnvelope, ChatEventV1 } from '@papercusp/chat-protocol-core';
import { TurnRecovery, readTurnStatus } from '@papercusp/chat-protocol-recovery';
import { describe, expect, it } from 'vitest';
import { createFakeChatEventLog, createFakeDatabase, createFakeTurnStore } from './index.js';

// Issue 25: recovery's readTurnStatus over the fake turn store and the fake event log, as a host wires them:
// the turn's record from TurnRecovery's writes, its frames from the log, and nothing written by the read.
const TURN = { conversationId: 'conv_status', turnId: 'turn_status' } as const;
const frame = (seq: number, event: ChatEventV1 = { type: 'delta', text: `part ${seq}` }): ChatEventEnvelope => ({
  schemaVersion: 1,
  ...TURN,
  eventId: `evt_${seq}`,
  seq,
  occurredAt: '2026-11-30T09:00:00Z',
  event,
});

async function started() {
  const database = createFakeDatabase();
  const turnStore = createFakeTurnStore(database);
  const eventLog = createFakeChatEventLog(database);
  turnStore.grant(TURN.conversationId, 'owner');
  const recovery = new TurnRecovery(turnStore.adapter(), { clock: () => '2026-11-30T09:00:00Z' });
  expect(await recovery.startTurn({ caller: 'owner', ...TURN, effectIds: [] })).toMatchObject({ ok: true, outcome: 'started' });
  // Another worker's connections, as the host's status route reads them.
  const source = { store: createFakeTurnStore(database), replayWindow: createFakeChatEventLog(database).replayWindow };
  return { database, recovery, eventLog, source };
}

describe('readTurnStatus on the fake stores (issue 25)', () => {
  it('follows the turn: running with its newest seq, cancelled once the cancellation committed, then how its done ended it', async () => {
    const { recovery, eventLog, source } = await started();
    expect(await readTurnStatus(source, TURN)).toEqual({ ok: true, value: { turnId: TURN.turnId, status: 'running', lastSeq: 0 } });
    await eventLog.append(frame(1, { type: 'user_input', text: 'Refund order 7' }));
    await eventLog.append(frame(2));
    expect(await readTurnStatus(source, TURN)).toEqual({ ok: true, value: { turnId: TURN.turnId, status: 'running', lastSeq: 2 } });
    expect(await recovery.cancelTurn({ caller: 'owner', ...TURN })).toMatchObject({ ok: true, committed: true });
    expect(await readTurnStatus(source, TURN)).toEqual({ ok: true, value: { turnId: TURN.turnId, status: 'cancelled', lastSeq: 2 } });
    await eventLog.append(frame(3, { type: 'done', status: 'cancelled' }));
    expect(await readTurnStatus(source, TURN)).toEqual({ ok: true, value: { turnId: TURN.turnId, status: 'cancelled', lastSeq: 3 } });
  });

  it('an error frame is failed; a turn of another conversation or none is not-found', async () => {
    const { eventLog, source } = await started();
    await eventLog.append(frame(1, { type: 'error', code: 'agent-failed', message: 'the agent failed', retryable: false }));
    expect(await readTurnStatus(source, TURN)).toEqual({ ok: true, value: { turnId: TURN.turnId, status: 'failed', lastSeq: 1 } });
    expect(await readTurnStatus(source, { conversationId: 'conv_other', turnId: TURN.turnId })).toEqual({
      ok: true,
      value: { turnId: TURN.turnId, status: 'not-found' },
    });
    expect(await readTurnStatus(source, { ...TURN, turnId: 'turn_none' })).toEqual({
      ok: true,
      value: { turnId: 'turn_none', status: 'not-found' },
    });
  });

  it('writes nothing: the database history is unchanged, and a read fault is store-unavailable', async () => {
    const { database, eventLog, source } = await started();
    await eventLog.append(frame(1));
    const before = database.history.length;
    database.resetCounts();
    await readTurnStatus(source, TURN);
    expect(database.history.length).toBe(before);
    expect(database.counts()).toEqual({ read: 1, replayWindow: 2 });
    database.inject({ operation: 'read', kind: 'fail-before-commit' });
    expect(await readTurnStatus(source, TURN)).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: 'the turn or its log could not be read',
    });
  });
});
