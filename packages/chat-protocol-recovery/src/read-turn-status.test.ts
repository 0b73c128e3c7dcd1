import type { ChatEventEnvelope, ChatEventV1 } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { everyTrapThrows, throwHostile } from '../../../test-support/hostile-values.js';
import { TURN, stubStore } from '../test/stub-store.js';
import type { ReplayWindow, ReplayWindowRequest } from './adapter.js';
import { readTurnStatus, type TurnStatusSource } from './read-turn-status.js';
import type { RecoverableTurnStatus, RunLease } from './turn-record.js';
import { parseTurnStatusResponse } from './turn-status.js';

const frame = (seq: number, event: ChatEventV1 = { type: 'delta', text: `part ${seq}` }): ChatEventEnvelope => ({
  schemaVersion: 1,
  ...TURN,
  eventId: `evt_${seq}`,
  seq,
  occurredAt: '2026-11-30T09:00:00Z',
  event,
});

/** A stub store holding `turn_1` of `conv_1` with `status`, a log of `frames`, and the calls each made. */
function sourceOf(status: RecoverableTurnStatus | null, frames: readonly ChatEventEnvelope[] = [], run?: RunLease) {
  const stub = stubStore();
  if (status !== null) {
    stub.turns.set(TURN.turnId, {
      record: { ...TURN, status, revision: 1, ...(run === undefined ? {} : { run }), effects: [] },
      admissions: [],
    });
  }
  const windows: ReplayWindowRequest[] = [];
  const source: TurnStatusSource = {
    store: stub.store,
    replayWindow: (request): Promise<ReplayWindow> => {
      windows.push(request);
      return Promise.resolve({
        lowerBound: 0,
        latestSeq: frames.length,
        frames: frames.filter((candidate) => candidate.seq > request.after),
      });
    },
  };
  return { source, stub, windows };
}

describe('readTurnStatus: a turn-status response from the record and the newest frame, without side effects (DESIGN §6, issue 25)', () => {
  it.each([
    ['completed', { type: 'done', status: 'completed' }, 'completed'],
    ['cancelled', { type: 'done', status: 'cancelled' }, 'cancelled'],
    ['interrupted', { type: 'done', status: 'interrupted' }, 'interrupted'],
    ['needs-reconciliation', { type: 'done', status: 'needs-reconciliation' }, 'needs-reconciliation'],
    ['error', { type: 'error', code: 'agent-failed', message: 'the agent failed', retryable: false }, 'failed'],
  ] as const)('a turn whose newest frame is %s answers %s with its seq', async (_name, event, status) => {
    const { source } = sourceOf('running', [frame(1), frame(2, event)]);
    expect(await readTurnStatus(source, TURN)).toEqual({ ok: true, value: { turnId: 'turn_1', status, lastSeq: 2 } });
  });

  it('the terminal frame wins over the record: a cancelled record whose run wrote done completed is completed', async () => {
    const { source } = sourceOf('cancelled', [frame(1), frame(2, { type: 'done', status: 'completed' })]);
    expect(await readTurnStatus(source, TURN)).toEqual({ ok: true, value: { turnId: 'turn_1', status: 'completed', lastSeq: 2 } });
  });

  it('without a terminal frame the record decides: running, or cancelled once the cancellation committed', async () => {
    expect(await readTurnStatus(sourceOf('running', [frame(1)]).source, TURN)).toEqual({
      ok: true,
      value: { turnId: 'turn_1', status: 'running', lastSeq: 1 },
    });
    expect(await readTurnStatus(sourceOf('cancelled', [frame(1)]).source, TURN)).toEqual({
      ok: true,
      value: { turnId: 'turn_1', status: 'cancelled', lastSeq: 1 },
    });
    expect(await readTurnStatus(sourceOf('running').source, TURN)).toEqual({
      ok: true,
      value: { turnId: 'turn_1', status: 'running', lastSeq: 0 },
    });
  });

  it.each(['completed', 'failed', 'needs-reconciliation'] as const)(
    'a turn its run finished %s says so from the record when its log holds no terminal frame (pruned), without the run',
    async (status) => {
      const run = { runId: 'run_1', leaseExpiresAt: '2026-11-30T09:00:30.000Z' };
      expect(await readTurnStatus(sourceOf(status, [], run).source, TURN)).toEqual({
        ok: true,
        value: { turnId: 'turn_1', status, lastSeq: 0 },
      });
    },
  );

  it('a record with a status outside the vocabulary (a broken store) reads as running, never as that string', async () => {
    const { source } = sourceOf('paused' as RecoverableTurnStatus, [frame(1)]);
    expect(await readTurnStatus(source, TURN)).toEqual({ ok: true, value: { turnId: 'turn_1', status: 'running', lastSeq: 1 } });
  });

  it('§6 rule 12: a running turn reports the run that owns it and its lease deadline; an interrupted one says interrupted, without the run', async () => {
    const run = { runId: 'run_1', leaseExpiresAt: '2026-11-30T09:00:30.000Z' };
    const running = await readTurnStatus(sourceOf('running', [frame(1)], run).source, TURN);
    expect(running).toEqual({ ok: true, value: { turnId: 'turn_1', status: 'running', lastSeq: 1, run } });
    // The reading is a valid turn-status response, run included.
    expect(parseTurnStatusResponse(running.ok ? running.value : null)).toEqual({ ok: true, value: running.ok ? running.value : null });
    expect(await readTurnStatus(sourceOf('interrupted', [frame(1)], run).source, TURN)).toEqual({
      ok: true,
      value: { turnId: 'turn_1', status: 'interrupted', lastSeq: 1 },
    });
    // The tail's done frame, once written, is the answer, as for every terminal frame.
    const tail = sourceOf('interrupted', [frame(1), frame(2, { type: 'done', status: 'interrupted' })], run);
    expect(await readTurnStatus(tail.source, TURN)).toEqual({ ok: true, value: { turnId: 'turn_1', status: 'interrupted', lastSeq: 2 } });
  });

  it('a turn the store does not hold, or one of another conversation, is not-found and its log is never read', async () => {
    const missing = sourceOf(null, [frame(1)]);
    expect(await readTurnStatus(missing.source, TURN)).toEqual({ ok: true, value: { turnId: 'turn_1', status: 'not-found' } });
    const foreign = sourceOf('running', [frame(1, { type: 'done', status: 'completed' })]);
    expect(await readTurnStatus(foreign.source, { conversationId: 'conv_other', turnId: 'turn_1' })).toEqual({
      ok: true,
      value: { turnId: 'turn_1', status: 'not-found' },
    });
    expect([...missing.windows, ...foreign.windows]).toEqual([]);
  });

  it('reads the record once and only the newest frame, and writes nothing', async () => {
    const { source, stub, windows } = sourceOf('running', [frame(1), frame(2), frame(3)]);
    await readTurnStatus(source, TURN);
    expect(stub.log).toEqual(['read']);
    expect(windows).toEqual([
      { ...TURN, after: Number.MAX_SAFE_INTEGER },
      { ...TURN, after: 2 },
    ]);
  });

  it('a store or a log that throws is store-unavailable, never a rejection', async () => {
    const throwingStore = sourceOf('running', [frame(1)]);
    const unavailable = { ok: false, code: 'store-unavailable', message: 'the turn or its log could not be read' };
    expect(await readTurnStatus({ ...throwingStore.source, store: { read: () => Promise.reject(new Error('down')) } }, TURN)).toEqual(
      unavailable,
    );
    expect(await readTurnStatus({ store: throwingStore.stub.store, replayWindow: throwHostile }, TURN)).toEqual(unavailable);
    expect(await readTurnStatus(everyTrapThrows as never, TURN)).toEqual(unavailable);
  });

  it.each([
    ['no request', undefined],
    ['a request whose getters throw', everyTrapThrows],
    ['a conversation id core refuses', { conversationId: 'conv 1', turnId: 'turn_1' }],
    ['a turn id with a NUL', { conversationId: 'conv_1', turnId: 'turn\u0000' }],
    ['a number for a turn id', { conversationId: 'conv_1', turnId: 1 }],
  ])('%s is invalid-request, and nothing is read', async (_name, request) => {
    const { source, stub, windows } = sourceOf('running', [frame(1)]);
    expect(await readTurnStatus(source, request as never)).toEqual({
      ok: false,
      code: 'invalid-request',
      message: 'expected v1 ids for the conversation and turn',
    });
    expect([stub.log, windows]).toEqual([[], []]);
  });
});
