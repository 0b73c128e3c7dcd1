import type { ChatEventEnvelope, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { closeTurnLog } from './close-turn-log.js';
import { openTestStore, type TestStore } from '../loopback-host.testing.js';
import { turnFrame } from './turn-frame.js';

let testStore: TestStore;
beforeAll(async () => {
  testStore = await openTestStore();
}, 60_000);
afterAll(() => testStore.close());

const ana: ChatHostCaller = { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null };
const clock = () => '2031-05-01T08:00:00.000Z';

async function runningTurn(conversationId: string, turnId: string): Promise<void> {
  const turn = { conversationId, turnId };
  const events: ChatEventEnvelope['event'][] = [
    { type: 'user_input', text: 'refund please', source: 'text_typed' },
    { type: 'tool_call', callId: 'call_refund', name: 'issue_refund' },
  ];
  for (const [index, event] of events.entries()) await testStore.store.eventLog.append(turnFrame(turn, index + 1, event, clock));
}

const CANCELLED = { status: 'cancelled' } as const;

const context = (conversationId: string, turnId: string, eventLog: ChatEventLog = testStore.store.eventLog) => ({
  conversationId,
  turnId,
  caller: ana,
  eventLog,
  resolver: new InteractionResolver<ChatHostCaller, OpenCardSnapshotV1>({
    store: testStore.store.interactionStore,
    validate: ({ value }) => ({ value }),
    clock,
  }),
  clock,
});

describe('closeTurnLog, cancelled (issue 17: an orphaned run’s cancelled turn still ends)', () => {
  it('writes a cancelled result for the call without one, then done cancelled; a second close finds it ended and writes nothing', async () => {
    await runningTurn('c_ana_abandoned', 'turn_abandoned');
    expect(await closeTurnLog(context('c_ana_abandoned', 'turn_abandoned'), CANCELLED)).toBe('closed');
    const window = await testStore.store.eventLog.replayWindow({ conversationId: 'c_ana_abandoned', turnId: 'turn_abandoned', after: 2 });
    expect(window.frames.map((frame) => [frame.seq, frame.eventId, frame.event])).toEqual([
      [3, 'evt_turn_abandoned_3', { type: 'tool_result', callId: 'call_refund', name: 'issue_refund', status: 'cancelled' }],
      [4, 'evt_turn_abandoned_4', { type: 'done', status: 'cancelled' }],
    ]);
    expect(await closeTurnLog(context('c_ana_abandoned', 'turn_abandoned'), CANCELLED)).toBe('already-ended');
    expect(
      (await testStore.store.eventLog.replayWindow({ conversationId: 'c_ana_abandoned', turnId: 'turn_abandoned', after: 0 })).latestSeq,
    ).toBe(4);
  });

  it('stops at the first frame another writer took (the run was only slow): raced, nothing more written', async () => {
    await runningTurn('c_ana_raced', 'turn_raced');
    const log = testStore.store.eventLog;
    // The slow run commits its own seq 3 between the close's read and its write.
    const racing: ChatEventLog = {
      ...log,
      replayWindow: (request) => log.replayWindow(request),
      append: async (envelope) => {
        await log.append(
          turnFrame({ conversationId: 'c_ana_raced', turnId: 'turn_raced' }, 3, { type: 'delta', text: 'still here' }, clock),
        );
        return log.append(envelope);
      },
    };
    expect(await closeTurnLog(context('c_ana_raced', 'turn_raced', racing), CANCELLED)).toBe('raced');
    const window = await log.replayWindow({ conversationId: 'c_ana_raced', turnId: 'turn_raced', after: 2 });
    expect(window.frames.map((frame) => frame.event)).toEqual([{ type: 'delta', text: 'still here' }]);
  });

  it('a log that cannot be read is unavailable, never a throw', async () => {
    const broken = { ...testStore.store.eventLog, replayWindow: () => Promise.reject(new Error('down')) } as ChatEventLog;
    expect(await closeTurnLog(context('c_ana_broken', 'turn_broken', broken), CANCELLED)).toBe('unavailable');
  });
});

describe('closeTurnLog, interrupted (DESIGN §11.2: the interrupter writes the tail)', () => {
  // Four calls, their effects as recovery's interruption lists them: completed, admitted (in flight), never admitted, none.
  async function interruptedTurn(conversationId: string, turnId: string): Promise<void> {
    const turn = { conversationId, turnId };
    const events: ChatEventEnvelope['event'][] = [
      { type: 'user_input', text: 'refund please', source: 'text_typed' },
      { type: 'tool_call', callId: 'call_1', name: 'lookup' },
      { type: 'tool_call', callId: 'call_2', name: 'issue_refund' },
      { type: 'tool_call', callId: 'call_3', name: 'notify' },
      { type: 'tool_call', callId: 'call_4', name: 'remote' },
    ];
    for (const [index, event] of events.entries()) await testStore.store.eventLog.append(turnFrame(turn, index + 1, event, clock));
  }
  const interrupted = (turnId: string) =>
    ({
      status: 'interrupted',
      effects: [
        {
          effectId: `effect_${turnId}_1`,
          claim: 1,
          state: 'completed',
          result: { status: 'succeeded', summary: 'found it' },
          source: 'dispatch',
        },
        { effectId: `effect_${turnId}_2`, claim: 1, state: 'in-flight', admittedAt: clock() },
        { effectId: `effect_${turnId}_3`, claim: 0, state: 'open' },
      ],
    }) as const;

  it('a stored result is reported as it was, an admitted effect needs reconciliation, the rest are cancelled; then done interrupted', async () => {
    await interruptedTurn('c_ana_interrupted', 'turn_interrupted');
    expect(await closeTurnLog(context('c_ana_interrupted', 'turn_interrupted'), interrupted('turn_interrupted'))).toBe('closed');
    const window = await testStore.store.eventLog.replayWindow({
      conversationId: 'c_ana_interrupted',
      turnId: 'turn_interrupted',
      after: 5,
    });
    expect(window.frames.map((frame) => frame.event)).toEqual([
      { type: 'tool_result', callId: 'call_1', name: 'lookup', status: 'succeeded', summary: 'found it' },
      { type: 'tool_result', callId: 'call_2', name: 'issue_refund', status: 'needs-reconciliation' },
      { type: 'tool_result', callId: 'call_3', name: 'notify', status: 'cancelled' },
      { type: 'tool_result', callId: 'call_4', name: 'remote', status: 'cancelled' },
      { type: 'done', status: 'interrupted' },
    ]);
  });

  it('reads the log again when its old run took a seq first, and still writes the whole tail after it', async () => {
    await interruptedTurn('c_ana_woken', 'turn_woken');
    const log = testStore.store.eventLog;
    let woke = false;
    // The old run, woken, commits one last delta between the close's first read and its first write.
    const racing: ChatEventLog = {
      ...log,
      replayWindow: (request) => log.replayWindow(request),
      append: async (envelope) => {
        if (!woke) {
          woke = true;
          await log.append(turnFrame({ conversationId: 'c_ana_woken', turnId: 'turn_woken' }, 6, { type: 'delta', text: 'awake' }, clock));
        }
        return log.append(envelope);
      },
    };
    expect(await closeTurnLog(context('c_ana_woken', 'turn_woken', racing), interrupted('turn_woken'))).toBe('closed');
    const window = await log.replayWindow({ conversationId: 'c_ana_woken', turnId: 'turn_woken', after: 5 });
    expect(window.frames.map((frame) => [frame.seq, frame.event.type])).toEqual([
      [6, 'delta'],
      [7, 'tool_result'],
      [8, 'tool_result'],
      [9, 'tool_result'],
      [10, 'tool_result'],
      [11, 'done'],
    ]);
  });
});
