import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { TurnRecovery, type ReplayWindowRequest } from '@papercusp/chat-protocol-recovery';
import { describe, expect, it } from 'vitest';
import { FAKE_EVENT_LOG_TABLES, FakeDatabaseError, createFakeChatEventLog, createFakeDatabase } from './index.js';

const key = { conversationId: 'conv_1', turnId: 'turn_1' };
const envelope = (seq: number, type: 'delta' | 'done' = 'delta'): ChatEventEnvelope => ({
  schemaVersion: 1,
  ...key,
  eventId: `event_${seq}`,
  seq,
  occurredAt: '2026-12-01T10:00:00Z',
  event: type === 'done' ? { type: 'done', status: 'completed' } : { type: 'delta', text: `text ${seq}` },
});
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('the fake event log on the fake database (DESIGN §8, §9.3)', () => {
  it('a fault before the commit answers store-unavailable and stores nothing; the redelivery is appended', async () => {
    const database = createFakeDatabase();
    const log = createFakeChatEventLog(database);
    database.inject({ operation: 'append', kind: 'fail-before-commit', target: { turnId: 'turn_1' } });
    expect(await log.append(envelope(1))).toEqual({ ok: false, code: 'store-unavailable', message: 'append: append: fail-before-commit' });
    expect((await log.replayWindow({ ...key, after: 0 })).latestSeq).toBe(0);
    expect(await log.append(envelope(1))).toEqual({ ok: true, outcome: 'appended', seq: 1, latestSeq: 1 });
  });

  it('a lost acknowledgement answers store-unavailable, but the frame landed: the redelivery is duplicate', async () => {
    const database = createFakeDatabase();
    const log = createFakeChatEventLog(database);
    database.inject({ operation: 'append', kind: 'lose-acknowledgement' });
    expect(await log.append(envelope(1))).toMatchObject({ ok: false, code: 'store-unavailable' });
    expect(await createFakeChatEventLog(database).append(envelope(1))).toEqual({ ok: true, outcome: 'duplicate', seq: 1, latestSeq: 1 });
    expect(database.history.filter((entry) => entry.type === 'event-appended').map((entry) => entry.detail)).toEqual([
      { turnId: 'turn_1', seq: 1, eventId: 'event_1' },
    ]);
  });

  it('a window or subscription the database cannot answer rejects with the FakeDatabaseError', async () => {
    const database = createFakeDatabase();
    const log = createFakeChatEventLog(database);
    database.inject({ operation: 'replayWindow', kind: 'fail-before-commit' });
    database.inject({ operation: 'subscribe', kind: 'fail-before-commit' });
    await expect(log.replayWindow({ ...key, after: 0 })).rejects.toMatchObject({ name: 'FakeDatabaseError', fault: 'fail-before-commit' });
    await expect(log.subscribe({ ...key, after: 0 }, () => undefined)).rejects.toBeInstanceOf(FakeDatabaseError);
  });

  it('a restart ends the old connection and its subscriptions and keeps what committed', async () => {
    const database = createFakeDatabase();
    const old = createFakeChatEventLog(database);
    const seen: number[] = [];
    await old.subscribe({ ...key, after: 0 }, (frame) => seen.push(frame.seq));
    await old.append(envelope(1));
    await settle();
    database.restart();
    expect(await old.append(envelope(2))).toMatchObject({ ok: false, code: 'store-unavailable' });
    await expect(old.replayWindow({ ...key, after: 0 })).rejects.toMatchObject({ fault: 'restarted' });
    const fresh = createFakeChatEventLog(database);
    expect(await fresh.append(envelope(2))).toEqual({ ok: true, outcome: 'appended', seq: 2, latestSeq: 2 });
    await settle();
    expect(seen).toEqual([1]);
    expect((await fresh.replayWindow({ ...key, after: 0 })).frames.map((frame) => frame.seq)).toEqual([1, 2]);
  });

  it('a restart ends each live subscription lost with its last delivered seq, at once and once; resubscribing from it loses nothing (§9.3)', async () => {
    const database = createFakeDatabase();
    const old = createFakeChatEventLog(database);
    const writer = createFakeChatEventLog(database);
    const heard: string[] = [];
    const idle: string[] = [];
    await old.subscribe(
      { ...key, after: 0 },
      (frame) => heard.push(String(frame.seq)),
      (end) => heard.push(JSON.stringify(end)),
    );
    // A subscription that got nothing yet resumes from its own cursor.
    await old.subscribe(
      { ...key, after: 0, turnId: 'turn_2' },
      () => idle.push('frame'),
      (end) => idle.push(JSON.stringify(end)),
    );
    await writer.append(envelope(1));
    await writer.append(envelope(2));
    await settle();
    database.restart();
    expect(heard).toEqual(['1', '2', '{"reason":"lost","afterSeq":2}']);
    expect(idle).toEqual(['{"reason":"lost","afterSeq":0}']);
    database.restart();
    const fresh = createFakeChatEventLog(database);
    await fresh.append(envelope(3));
    await fresh.append(envelope(4, 'done'));
    await settle();
    expect(heard).toEqual(['1', '2', '{"reason":"lost","afterSeq":2}']);
    const resumed: string[] = [];
    await fresh.subscribe(
      { ...key, after: 2 },
      (frame) => resumed.push(String(frame.seq)),
      (end) => resumed.push(end.reason),
    );
    await settle();
    expect(resumed).toEqual(['3', '4', 'terminal']);
  });

  it('an unsubscribed or finished subscription hears no restart; a pruned finished turn ends terminal at once', async () => {
    const database = createFakeDatabase();
    const log = createFakeChatEventLog(database);
    const ends: string[] = [];
    const unsubscribe = await log.subscribe(
      { ...key, after: 0 },
      () => undefined,
      (end) => ends.push(`stopped ${end.reason}`),
    );
    unsubscribe();
    await log.subscribe(
      { ...key, after: 0 },
      () => undefined,
      (end) => ends.push(`finished ${end.reason}`),
    );
    await log.append(envelope(1, 'done'));
    await settle();
    await log.pruneTurns({ before: '2026-12-02T00:00:00Z' });
    await log.subscribe(
      { ...key, after: 0 },
      () => undefined,
      (end) => ends.push(`pruned ${end.reason}`),
    );
    await settle();
    database.restart();
    expect(ends).toEqual(['finished terminal', 'pruned terminal']);
  });

  it('a subscription stops listening for restarts once it is unsubscribed or ended, so none is kept alive by the database', async () => {
    const database = createFakeDatabase();
    let listening = 0;
    const counted = Object.assign(Object.create(database) as typeof database, {
      onRestart: (listener: () => void) => {
        listening += 1;
        const stop = database.onRestart(listener);
        let stopped = false;
        return () => {
          if (!stopped) listening -= 1;
          stopped = true;
          stop();
        };
      },
    });
    const log = createFakeChatEventLog(counted);
    const unsubscribe = await log.subscribe({ ...key, after: 0 }, () => undefined);
    await log.subscribe({ ...key, after: 0 }, () => undefined);
    expect(listening).toBe(2);
    unsubscribe();
    expect(listening).toBe(1);
    await log.append(envelope(1, 'done'));
    await settle();
    expect(listening).toBe(0);
  });

  it('counts its round trips and records pruning in the history', async () => {
    const database = createFakeDatabase();
    const log = createFakeChatEventLog(database);
    await log.append(envelope(1));
    await log.append(envelope(2, 'done'));
    await log.replayWindow({ ...key, after: 0 });
    expect(await log.pruneTurns({ before: '2026-12-02T00:00:00Z' })).toEqual({ ok: true, pruned: 1 });
    expect(database.counts()).toEqual({ append: 2, replayWindow: 1, pruneTurns: 1 });
    expect(database.history.at(-1)).toMatchObject({ type: 'turns-pruned', detail: { before: '2026-12-02T00:00:00Z', pruned: 1 } });
    expect([...database.table(FAKE_EVENT_LOG_TABLES.turns).keys()]).toEqual(['turn_1']);
  });

  it('never throws on requests it cannot read: invalid-envelope, an empty window, a subscription that delivers nothing, invalid-request', async () => {
    const log = createFakeChatEventLog(createFakeDatabase());
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
      },
    );
    expect(await log.append(hostile as ChatEventEnvelope)).toMatchObject({ ok: false, code: 'invalid-envelope' });
    expect(await log.replayWindow(hostile as ReplayWindowRequest)).toEqual({ lowerBound: 0, latestSeq: 0, frames: [] });
    expect(await log.replayWindow(null as unknown as ReplayWindowRequest)).toEqual({ lowerBound: 0, latestSeq: 0, frames: [] });
    const unsubscribe = await log.subscribe(hostile as ReplayWindowRequest, () => undefined);
    expect(unsubscribe()).toBeUndefined();
    expect(await log.pruneTurns(hostile as { before: string })).toMatchObject({ ok: false, code: 'invalid-request' });
  });

  it("its replayWindow is TurnRecovery's replay seam as it is: replayTurn validates the window (§6.9, §9.3)", async () => {
    const database = createFakeDatabase();
    const log = createFakeChatEventLog(database);
    await log.append(envelope(1));
    await log.append(envelope(2, 'done'));
    const recovery = new TurnRecovery({
      capabilities: {
        connectionReplay: true,
        persistedHistory: false,
        persistedDecisions: false,
        completedToolCheckpoints: false,
        interruptedTurnRecovery: false,
      },
      authorize: () => true,
      replayWindow: (request) => log.replayWindow(request),
    });
    const replayed = await recovery.replayTurn({ caller: 'user_1', ...key, after: 'turn_1:1' });
    expect(replayed.ok && replayed.value.frames.map((frame) => frame.seq)).toEqual([2]);
    await log.pruneTurns({ before: '2026-12-02T00:00:00Z' });
    expect(await recovery.replayTurn({ caller: 'user_1', ...key, after: 'turn_1:0' })).toMatchObject({ ok: false, code: 'stale-cursor' });
    database.inject({ operation: 'replayWindow', kind: 'fail-before-commit' });
    expect(await recovery.replayTurn({ caller: 'user_1', ...key, after: 'turn_1:2' })).toMatchObject({
      ok: false,
      code: 'replay-unavailable',
    });
  });

  it('throws TypeError only for a database it cannot use', () => {
    expect(() => createFakeChatEventLog({} as never)).toThrow(TypeError);
  });
});
