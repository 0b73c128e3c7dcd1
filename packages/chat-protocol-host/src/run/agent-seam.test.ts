/**
 * Issue 26, the agent seam v2 (DESIGN §6 rule 1, §11.1), through real hosts
 * over loopback on PGlite: the context `run` gets (caller, input, bounded
 * history, signal), declared tools (effect ids the host mints and declares,
 * tools without an external effect, the host's authorization, unknown tools,
 * remote tools), failures as results, a throwing agent, cancellation from this
 * host and from another one on the same store, and `onEvent`.
 */
import type { ChatEventV1 } from '@papercusp/chat-protocol-core';
import {
  createTurnId,
  type AdmitDispatchResult,
  type ClaimEffectResult,
  type EffectState,
  type TurnStore,
} from '@papercusp/chat-protocol-recovery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAgent, ChatAgentContext, ChatAgentFeedback, ChatAgentToolExecution } from '../chat-agent.js';
import type { ChatHostCaller } from '../chat-host-caller.js';
import type { ChatHostEvent } from '../chat-host-event.js';
import type { ChatHostOptions } from '../create-chat-host.js';
import { call, follow, openTestStore, startHost, startTurn, type LoopbackHost, type TestStore } from '../loopback-host.testing.js';
import { createHostRuntime } from '../use-cases/host-runtime.js';
import { turnRunContext } from '../use-cases/start-turn.js';
import { runChatTurn } from './run-chat-turn.js';

const ANA: ChatHostCaller = { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null };
const FIXED_CLOCK = () => '2031-05-01T08:00:00.000Z';

interface Deferred<Value> {
  readonly promise: Promise<Value>;
  readonly resolve: (value: Value) => void;
}
function deferred<Value = void>(): Deferred<Value> {
  let resolve: (value: Value) => void = () => undefined;
  const promise = new Promise<Value>((settle) => (resolve = settle));
  return { promise, resolve };
}

/** What the agent saw of one turn. */
interface Seen {
  readonly context: Deferred<ChatAgentContext>;
  readonly feedbacks: ChatAgentFeedback[];
  readonly executions: ChatAgentToolExecution[];
  readonly launched: Deferred<ChatAgentToolExecution>;
  readonly finallyRan: Deferred<void>;
}
const seen = new Map<string, Seen>();
const seenOf = (turnId: string): Seen => {
  let entry = seen.get(turnId);
  if (entry === undefined) {
    entry = { context: deferred(), feedbacks: [], executions: [], launched: deferred(), finallyRan: deferred() };
    seen.set(turnId, entry);
  }
  return entry;
};

const AGENT_ERROR = new Error('boom');
const waitForAbort = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve(), { once: true })));

// One agent for every test: the turn's text picks its script; what it sees is kept by turn id.
const agent: ChatAgent = {
  tools: [
    {
      name: 'charge',
      execute: async (input, execution) => {
        const entry = seenOf(execution.turn.turnId);
        entry.executions.push(execution);
        entry.launched.resolve(execution);
        const mode = (input as { mode: string }).mode;
        if (mode === 'throw') throw new Error('card declined by bank');
        if (mode === 'failed') return { status: 'failed', summary: 'insufficient funds' };
        if (mode === 'hang') {
          await waitForAbort(execution.signal);
          throw new Error('aborted');
        }
        return { summary: 'charged' };
      },
    },
    {
      name: 'lookup',
      externalEffect: false,
      execute: async (_input, execution) => {
        seenOf(execution.turn.turnId).executions.push(execution);
        return { summary: 'found' };
      },
    },
    {
      name: 'guarded',
      authorize: ({ caller }) => caller.callerId === 'nobody',
      execute: async (_input, execution) => {
        seenOf(execution.turn.turnId).executions.push(execution);
        return { summary: 'ran' };
      },
    },
  ],
  async *run(turn, context) {
    const entry = seenOf(turn.turnId);
    entry.context.resolve(context);
    try {
      const tool = (name: string, input: unknown) => ({ type: 'tool', name, input }) as const;
      switch (turn.text) {
        case 'charge ok':
        case 'charge throw':
        case 'charge failed':
        case 'charge hang':
          entry.feedbacks.push(yield tool('charge', { mode: turn.text.slice('charge '.length) }));
          yield { type: 'delta', text: 'recovered' };
          return;
        case 'charge twice':
          entry.feedbacks.push(yield tool('charge', { mode: 'ok' }));
          entry.feedbacks.push(yield tool('charge', { mode: 'ok' }));
          return;
        case 'lookup':
        case 'guarded':
        case 'no_such_tool':
          entry.feedbacks.push(yield tool(turn.text, { q: 'order 1042' }));
          yield { type: 'delta', text: 'recovered' };
          return;
        case 'remote':
          entry.feedbacks.push(
            yield { type: 'remote-tool', name: 'search', input: { q: 'x' }, callId: 'remote_1', outcome: { summary: '3 hits' } },
          );
          return;
        case 'await cancel':
          yield { type: 'delta', text: 'waiting' };
          // A model call that ends only when the turn's signal reaches it.
          await waitForAbort(context.signal);
          yield { type: 'delta', text: 'late' };
          return;
        case 'throw':
          yield { type: 'delta', text: 'starting' };
          throw AGENT_ERROR;
        default:
          yield { type: 'delta', text: `answer to ${turn.text}` };
      }
    } finally {
      entry.finallyRan.resolve();
    }
  },
};

let testStore: TestStore;
let host: LoopbackHost;
const events: ChatHostEvent[] = [];
beforeAll(async () => {
  testStore = await openTestStore();
  host = await startHost(testStore, {}, { agent, cancelPollMs: 100, clock: FIXED_CLOCK, onEvent: (event) => void events.push(event) });
}, 60_000);
afterAll(() => testStore.close());

const eventsOf = (turnId: string, source: readonly ChatHostEvent[] = events) => source.filter((event) => event.turnId === turnId);
async function runTurn(conversationId: string, text: string, on: LoopbackHost = host) {
  const { turnId } = await startTurn(on, conversationId, text);
  const { envelopes } = await follow(on, conversationId, turnId);
  return { turnId, frames: envelopes.map((envelope) => envelope.event) };
}
const effectsOf = async (turnId: string) => (await testStore.store.turnStore.read(turnId))?.record.effects;
// Another worker's runtime on the test store, whose runs the test drives itself.
const workerRuntime = (options: Partial<Pick<ChatHostOptions, 'store' | 'clock' | 'onEvent'>> = {}) =>
  createHostRuntime({ store: testStore.store, agent, authenticate: () => null, clock: FIXED_CLOCK, ...options });

describe('the agent context (issue 26, DESIGN §11.1)', () => {
  it('run gets the caller, the person input and the earlier turns as history: a second turn sees the first, never itself', async () => {
    const { turnId: first } = await runTurn('c_ana_seam_history', 'hello one');
    const { turnId: second } = await runTurn('c_ana_seam_history', 'hello two');
    const context = await seenOf(second).context.promise;
    expect(context.caller).toEqual(ANA);
    expect(context.userInput).toEqual({ text: 'hello two' });
    expect(context.history).toEqual([
      { id: first, role: 'user', text: 'hello one', source: 'text_typed' },
      { id: first, role: 'assistant', text: 'answer to hello one', status: 'completed' },
    ]);
    expect(context.historyOmitted).toBe(0);
    expect(context.signal.aborted).toBe(false);
    expect((await seenOf(first).context.promise).history).toEqual([]);
  });

  it('maxHistoryTurns bounds the history to the newest turns, never starting with an answer whose question was cut; historyOmitted counts the rest', async () => {
    const bounded = await startHost(testStore, {}, { agent, maxHistoryTurns: 3 });
    await runTurn('c_ana_seam_bounded', 'hello one', bounded);
    const { turnId: second } = await runTurn('c_ana_seam_bounded', 'hello two', bounded);
    const { turnId: third } = await runTurn('c_ana_seam_bounded', 'hello three', bounded);
    const context = await seenOf(third).context.promise;
    // Four earlier history turns; the newest three start with turn one's answer, which goes with its question.
    expect(context.history).toEqual([
      { id: second, role: 'user', text: 'hello two', source: 'text_typed' },
      { id: second, role: 'assistant', text: 'answer to hello two', status: 'completed' },
    ]);
    expect(context.historyOmitted).toBe(2);
  });

  it('a conversation past the GET /state bounds still gets its turns: the history is the newest turns that fit, historyOmitted counts the rest', async () => {
    // Each turn is three frames (user_input, delta, done); the run reads its own turn's user_input too.
    const bounded = await startHost(testStore, {}, { agent, maxStateFrames: 7 });
    const conversationId = 'c_ana_seam_long';
    await runTurn(conversationId, 'hello one', bounded);
    await runTurn(conversationId, 'hello two', bounded);
    const { turnId: third } = await runTurn(conversationId, 'hello three', bounded);
    const { turnId: fourth, frames } = await runTurn(conversationId, 'hello four', bounded);
    expect(frames.at(-1)).toEqual({ type: 'done', status: 'completed' });
    expect((await call(bounded, 'GET', `/v1/conversations/${conversationId}/state`, 'token-ana')).body).toMatchObject({
      code: 'state-too-large',
    });
    const context = await seenOf(fourth).context.promise;
    // 1 + 3 + 3 frames: the fourth turn, the third and the second fit; the first is left out, two history turns.
    expect(context.history.map((turn) => [turn.role, turn.text])).toEqual([
      ['user', 'hello two'],
      ['assistant', 'answer to hello two'],
      ['user', 'hello three'],
      ['assistant', 'answer to hello three'],
    ]);
    expect(context.history[2]?.id).toBe(third);
    expect(context.historyOmitted).toBe(2);
  });
});

describe('cancellation reaches the agent (issue 26, DESIGN §11.1)', () => {
  it('a cancellation aborts context.signal and the tool execution signal, and the generator finally runs', async () => {
    const conversationId = 'c_ana_seam_cancel';
    const { turnId } = await startTurn(host, conversationId, 'charge hang');
    const execution = await seenOf(turnId).launched.promise;
    expect(await call(host, 'POST', `/v1/conversations/${conversationId}/turns/${turnId}/cancel`, 'token-ana')).toEqual({
      status: 200,
      body: { turnId, committed: true, inFlight: [`effect_${turnId}_1`] },
    });
    const { envelopes } = await follow(host, conversationId, turnId);
    expect(envelopes.map((envelope) => envelope.event).slice(-2)).toEqual([
      { type: 'tool_result', callId: 'call_1', name: 'charge', status: 'cancelled' },
      { type: 'done', status: 'cancelled' },
    ]);
    await seenOf(turnId).finallyRan.promise;
    expect((await seenOf(turnId).context.promise).signal.aborted).toBe(true);
    expect(execution.signal.aborted).toBe(true);
  });

  it('a cancellation taken by another host on the same store aborts the execution signal of a tool in flight in this one', async () => {
    const other = await startHost(testStore, {}, { agent });
    const conversationId = 'c_ana_seam_cancel_other_tool';
    const { turnId } = await startTurn(host, conversationId, 'charge hang');
    const execution = await seenOf(turnId).launched.promise;
    // The other host's abort hook holds no execution of this turn: only the turn record tells this host.
    expect(await call(other, 'POST', `/v1/conversations/${conversationId}/turns/${turnId}/cancel`, 'token-ana')).toEqual({
      status: 200,
      body: { turnId, committed: true, inFlight: [`effect_${turnId}_1`] },
    });
    await waitForAbort(execution.signal);
    const { envelopes } = await follow(host, conversationId, turnId);
    expect(envelopes.at(-1)?.event).toEqual({ type: 'done', status: 'cancelled' });
    await seenOf(turnId).finallyRan.promise;
  });

  it('a cancellation taken by another host on the same store aborts the signal of a run awaiting its model, without waiting for it', async () => {
    const other = await startHost(testStore, {}, { agent });
    const conversationId = 'c_ana_seam_cancel_other';
    const { turnId } = await startTurn(host, conversationId, 'await cancel');
    await follow(host, conversationId, turnId, (envelope) => envelope.event.type === 'delta');
    expect(await call(other, 'POST', `/v1/conversations/${conversationId}/turns/${turnId}/cancel`, 'token-ana')).toMatchObject({
      status: 200,
      body: { turnId, committed: true, inFlight: [] },
    });
    const { envelopes } = await follow(host, conversationId, turnId);
    expect(envelopes.map((envelope) => envelope.event.type)).toEqual(['user_input', 'delta', 'done']);
    expect(envelopes.at(-1)?.event).toEqual({ type: 'done', status: 'cancelled' });
    await seenOf(turnId).finallyRan.promise;
    expect((await seenOf(turnId).context.promise).signal.aborted).toBe(true);
  });
});

describe('declared tools (issue 26, DESIGN §6 rule 1)', () => {
  it.each([
    ['charge throw', 'card declined by bank'],
    ['charge failed', 'insufficient funds'],
  ])(
    'a tool that fails (%s) is a result: stored, written as failed, fed back, and the agent goes on to done completed',
    async (text, summary) => {
      const { turnId, frames } = await runTurn(`c_ana_seam_${text.replace(' ', '_')}`, text);
      expect(frames).toEqual([
        { type: 'user_input', text, source: 'text_typed' },
        { type: 'tool_call', callId: 'call_1', name: 'charge', input: { mode: text.slice('charge '.length) } },
        { type: 'tool_result', callId: 'call_1', name: 'charge', status: 'failed', summary },
        { type: 'delta', text: 'recovered' },
        { type: 'done', status: 'completed' },
      ]);
      expect(seenOf(turnId).feedbacks).toEqual([{ type: 'tool-result', callId: 'call_1', status: 'failed', summary }]);
      expect(await effectsOf(turnId)).toEqual([
        { effectId: `effect_${turnId}_1`, claim: 1, status: 'completed', result: { status: 'failed', summary }, source: 'dispatch' },
      ]);
      expect(seenOf(turnId).executions).toHaveLength(1);
    },
  );

  it('a tool without an external effect runs with no store round trip of recovery, and is still logged', async () => {
    const counts = { read: 0, compareAndSwap: 0, admitDispatch: 0 };
    const { turnStore, eventLog } = testStore.store;
    const counted: Required<TurnStore<unknown, ChatHostCaller>> = {
      read: (turnId) => (counts.read++, turnStore.read(turnId)),
      listRunningTurns: (request) => turnStore.listRunningTurns(request),
      compareAndSwap: (request) => (counts.compareAndSwap++, turnStore.compareAndSwap(request)),
      admitDispatch: (request, launch) => (counts.admitDispatch++, turnStore.admitDispatch?.(request, launch) ?? Promise.reject()),
    };
    const hostEvents: ChatHostEvent[] = [];
    let ended = deferred<string>();
    const counting = await startHost(
      { ...testStore, store: { ...testStore.store, turnStore: counted } },
      {},
      {
        agent,
        cancelPollMs: 600_000,
        onEvent: (event) => {
          hostEvents.push(event);
          if (event.type === 'turn-ended') ended.resolve(event.turnId);
        },
      },
    );
    // Not followed over the events route, which reads the turn record itself: the run's own calls are counted.
    const runQuietly = async (text: string) => {
      ended = deferred<string>();
      await startTurn(counting, 'c_ana_seam_lookup', text);
      const turnId = await ended.promise;
      const window = await eventLog.replayWindow({ conversationId: 'c_ana_seam_lookup', turnId, after: 0 });
      return { turnId, frames: window.frames.map((envelope) => envelope.event) };
    };
    const { turnId, frames } = await runQuietly('lookup');
    // The turn's start and its finish are the two writes: nothing declared, claimed or admitted for the lookup.
    expect(counts).toEqual({ read: 0, compareAndSwap: 2, admitDispatch: 0 });
    expect(frames.slice(1, 3)).toEqual([
      { type: 'tool_call', callId: 'call_1', name: 'lookup', input: { q: 'order 1042' } },
      { type: 'tool_result', callId: 'call_1', name: 'lookup', status: 'succeeded', summary: 'found' },
    ]);
    expect(frames.at(-1)).toEqual({ type: 'done', status: 'completed' });
    expect(eventsOf(turnId, hostEvents).filter((event) => event.type.startsWith('tool-'))).toEqual([
      { type: 'tool-launched', conversationId: 'c_ana_seam_lookup', turnId, callId: 'call_1', name: 'lookup', effectId: null },
      { type: 'tool-ended', conversationId: 'c_ana_seam_lookup', turnId, callId: 'call_1', name: 'lookup', status: 'succeeded' },
    ]);
    // A tool with one: declared, claimed, admitted, completed (and the turn started and finished).
    counts.compareAndSwap = 0;
    await runQuietly('charge ok');
    expect(counts).toEqual({ read: 0, compareAndSwap: 5, admitDispatch: 1 });
  });

  it('the host mints effect ids from the turn and the call ordinal, declares them, and a retried run of the turn declares the same ones and relaunches nothing', async () => {
    const conversationId = 'c_ana_seam_retry';
    const { turnId, frames } = await runTurn(conversationId, 'charge twice');
    const ids = [`effect_${turnId}_1`, `effect_${turnId}_2`];
    expect((await effectsOf(turnId))?.map((effect) => [effect.effectId, effect.status])).toEqual(ids.map((id) => [id, 'completed']));
    expect(seenOf(turnId).executions.map((execution) => [execution.callId, execution.effectId])).toEqual([
      ['call_1', ids[0]],
      ['call_2', ids[1]],
    ]);
    expect(eventsOf(turnId).flatMap((event) => (event.type === 'tool-launched' ? [event.effectId] : []))).toEqual(ids);
    // The same turn run again by another runtime on the same store (a restarted worker), with the same clock.
    const revision = (await testStore.store.turnStore.read(turnId))?.record.revision;
    const retryEvents: ChatHostEvent[] = [];
    const runtime = workerRuntime({ onEvent: (event) => void retryEvents.push(event) });
    await runChatTurn(turnRunContext(runtime, { conversationId, turnId, text: 'charge twice' }, ANA, new AbortController().signal));
    expect(seenOf(turnId).executions).toHaveLength(2);
    expect((await testStore.store.turnStore.read(turnId))?.record.revision).toBe(revision);
    expect(retryEvents.map((event) => [event.type, 'status' in event ? event.status : null])).toEqual([
      ['turn-started', null],
      ['tool-ended', 'succeeded'],
      ['tool-ended', 'succeeded'],
      ['turn-ended', 'completed'],
    ]);
    expect((await follow(host, conversationId, turnId)).envelopes.map((envelope) => envelope.event)).toEqual(frames);
  });

  it.each([
    ['guarded', 'not authorized'],
    ['no_such_tool', 'unknown tool'],
  ])('a %s call is a failed result fed back, never run or declared', async (text, summary) => {
    const { turnId, frames } = await runTurn(`c_ana_seam_${text}`, text);
    expect(frames.slice(1)).toEqual([
      { type: 'tool_call', callId: 'call_1', name: text, input: { q: 'order 1042' } },
      { type: 'tool_result', callId: 'call_1', name: text, status: 'failed', summary },
      { type: 'delta', text: 'recovered' },
      { type: 'done', status: 'completed' },
    ]);
    expect(seenOf(turnId).feedbacks).toEqual([{ type: 'tool-result', callId: 'call_1', status: 'failed', summary }]);
    expect(seenOf(turnId).executions).toEqual([]);
    expect(await effectsOf(turnId)).toEqual([]);
  });

  it('a remote-tool step is logged and fed back, never admitted here', async () => {
    const { turnId, frames } = await runTurn('c_ana_seam_remote', 'remote');
    expect(frames.slice(1)).toEqual<ChatEventV1[]>([
      { type: 'tool_call', callId: 'remote_1', name: 'search', input: { q: 'x' } },
      { type: 'tool_result', callId: 'remote_1', name: 'search', status: 'succeeded', summary: '3 hits' },
      { type: 'done', status: 'completed' },
    ]);
    expect(seenOf(turnId).feedbacks).toEqual([{ type: 'tool-result', callId: 'remote_1', status: 'succeeded', summary: '3 hits' }]);
    expect(await effectsOf(turnId)).toEqual([]);
    expect(eventsOf(turnId).filter((event) => event.type.startsWith('tool-'))).toEqual([]);
  });
});

describe('unknown outcomes (issue 26, DESIGN §6 rules 6 and 11, §11.1)', () => {
  // A turn of its own on `runtime`, started here rather than through a route, so the test holds each run's signal.
  const startOn = async (runtime: ReturnType<typeof createHostRuntime>, conversationId: string, text: string) => {
    const turnId = createTurnId();
    expect(await runtime.recovery.startTurn({ caller: ANA, conversationId, turnId, effectIds: [] })).toMatchObject({
      ok: true,
      outcome: 'started',
    });
    return { conversationId, turnId, text };
  };
  const framesOf = async ({ conversationId, turnId }: { conversationId: string; turnId: string }) =>
    (await testStore.store.eventLog.replayWindow({ conversationId, turnId, after: 0 })).frames.map((envelope) => envelope.event);
  const unknownTail: ChatEventV1[] = [
    { type: 'tool_result', callId: 'call_1', name: 'charge', status: 'needs-reconciliation' },
    { type: 'done', status: 'needs-reconciliation' },
  ];

  it.each<[string, () => string, EffectState]>([
    ['in flight in another run of the turn (admitted, within the admission lease)', FIXED_CLOCK, 'in-flight'],
    ['admitted by a run that is gone (past the admission lease)', () => '2031-05-01T09:00:00.000Z', 'needs-reconciliation'],
  ])(
    'a retried run that finds its effect %s ends the turn needs-reconciliation: nothing relaunched, nothing fed back as a result, the generator finally runs',
    async (_case, retryClock, state) => {
      const first = workerRuntime();
      const turn = await startOn(first, `c_ana_seam_unknown_${state}`, 'charge hang');
      const { conversationId, turnId } = turn;
      const stopFirst = new AbortController();
      const firstRun = runChatTurn(turnRunContext(first, turn, ANA, stopFirst.signal));
      try {
        await seenOf(turnId).launched.promise;
        const retryEvents: ChatHostEvent[] = [];
        const retry = workerRuntime({ clock: retryClock, onEvent: (event) => void retryEvents.push(event) });
        // Recovery judges the admission on the retry's clock; its frames are dated as the first run's, so the frames both write are the same.
        await runChatTurn({ ...turnRunContext(retry, turn, ANA, new AbortController().signal), clock: FIXED_CLOCK });
        expect(await framesOf(turn)).toEqual([
          { type: 'user_input', text: 'charge hang', source: 'text_typed' },
          { type: 'tool_call', callId: 'call_1', name: 'charge', input: { mode: 'hang' } },
          ...unknownTail,
        ]);
        await seenOf(turnId).finallyRan.promise;
        expect(seenOf(turnId).feedbacks).toEqual([]);
        expect(seenOf(turnId).executions).toHaveLength(1);
        expect(retryEvents.map((event) => [event.type, 'status' in event ? event.status : null])).toEqual([
          ['turn-started', null],
          ['tool-ended', 'needs-reconciliation'],
          ['turn-ended', 'needs-reconciliation'],
        ]);
        const inspected = await retry.recovery.inspectTurn({ caller: ANA, conversationId, turnId });
        expect(inspected.ok && inspected.value.effects.map((effect) => effect.state)).toEqual([state]);
      } finally {
        stopFirst.abort();
        await firstRun;
      }
    },
  );

  it('a run whose claim another run of the turn took over before its admission (stale-claim) ends the turn needs-reconciliation and launches nothing', async () => {
    const { turnStore } = testStore.store;
    const other = workerRuntime();
    const answers: { overtaking?: ClaimEffectResult<unknown>; admission?: AdmitDispatchResult } = {};
    // Between this run's claim and its admission, another run claims the same call.
    const overtaken: Required<TurnStore<unknown, ChatHostCaller>> = {
      read: (turnId) => turnStore.read(turnId),
      listRunningTurns: (request) => turnStore.listRunningTurns(request),
      compareAndSwap: (request) => turnStore.compareAndSwap(request),
      admitDispatch: async (request, launch) => {
        const { caller, conversationId, turnId, effectId } = request;
        answers.overtaking = await other.recovery.claimEffect({ caller, conversationId, turnId, effectId });
        answers.admission = await (turnStore.admitDispatch?.(request, launch) ?? Promise.reject());
        return answers.admission;
      },
    };
    const runtime = workerRuntime({ store: { ...testStore.store, turnStore: overtaken } });
    const turn = await startOn(runtime, 'c_ana_seam_unknown_stale', 'charge ok');
    await runChatTurn(turnRunContext(runtime, turn, ANA, new AbortController().signal));
    expect(answers).toMatchObject({ overtaking: { ok: true, outcome: 'claimed' }, admission: { admitted: false, code: 'stale-claim' } });
    expect(await framesOf(turn)).toEqual([
      { type: 'user_input', text: 'charge ok', source: 'text_typed' },
      { type: 'tool_call', callId: 'call_1', name: 'charge', input: { mode: 'ok' } },
      ...unknownTail,
    ]);
    await seenOf(turn.turnId).finallyRan.promise;
    expect(seenOf(turn.turnId).feedbacks).toEqual([]);
    expect(seenOf(turn.turnId).executions).toEqual([]);
  });
});

describe('agent errors and onEvent (issue 26, DESIGN §11.1)', () => {
  it('an agent that throws ends the turn with a non-retryable agent-failed error, and onEvent gets the error itself', async () => {
    const { turnId, frames } = await runTurn('c_ana_seam_throw', 'throw');
    expect(frames.slice(1)).toEqual([
      { type: 'delta', text: 'starting' },
      { type: 'error', code: 'agent-failed', message: 'the agent failed: boom', retryable: false },
    ]);
    const errors = eventsOf(turnId).filter((event) => event.type === 'agent-error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.type === 'agent-error' && errors[0].error).toBe(AGENT_ERROR);
    expect(eventsOf(turnId).at(-1)).toMatchObject({ type: 'turn-ended', status: 'failed' });
  });

  it('onEvent tells a turn and its tool in order, with no text of the person or the model', async () => {
    const { turnId } = await runTurn('c_ana_seam_events', 'charge ok');
    const ids = { conversationId: 'c_ana_seam_events', turnId };
    const told = eventsOf(turnId);
    expect(told.map((event) => (event.type === 'turn-ended' ? { ...event, durationMs: typeof event.durationMs } : event))).toEqual([
      { type: 'turn-started', ...ids },
      { type: 'tool-launched', ...ids, callId: 'call_1', name: 'charge', effectId: `effect_${turnId}_1` },
      { type: 'tool-ended', ...ids, callId: 'call_1', name: 'charge', status: 'succeeded' },
      { type: 'turn-ended', ...ids, status: 'completed', durationMs: 'number' },
    ]);
    expect(JSON.stringify(told)).not.toMatch(/charge ok|recovered|charged/);
  });

  it('an onEvent that throws or rejects never breaks a turn', async () => {
    for (const onEvent of [
      () => {
        throw new Error('hook down');
      },
      () => Promise.reject(new Error('hook down')),
    ]) {
      const throwing = await startHost(testStore, {}, { agent, onEvent });
      const { frames } = await runTurn('c_ana_seam_hook', 'charge ok', throwing);
      expect(frames.at(-1)).toEqual({ type: 'done', status: 'completed' });
    }
  });
});
