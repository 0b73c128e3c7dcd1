import { LIGHTWEIGHT_CHAT_CAPABILITIES, type ChatCapabilities } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { FULL, TURN, stubStore } from '../test/stub-store.js';
import type { TurnRecoveryAdapter, TurnStore } from './adapter.js';
import type { EffectClaim } from './outcomes.js';
import type { StoredTurn } from './turn-record.js';
import type { TurnRecoveryOptions } from './turn-recovery-options.js';
import { TurnRecovery } from './turn-recovery.js';

// Small inline stubs: one sequential in-memory store, no fences (the testkit's
// fake store has those, and the race tests run there). Each test overrides the
// one method whose behaviour it is about.

function recoveryOver(
  store: TurnStore<string, string> | undefined,
  extra: Partial<TurnRecoveryAdapter<string, string>> = {},
  options: TurnRecoveryOptions = {},
) {
  const adapter: TurnRecoveryAdapter<string, string> = {
    capabilities: FULL,
    authorize: ({ caller }) => caller !== 'stranger',
    ...(store === undefined ? {} : { store }),
    ...extra,
  };
  return new TurnRecovery<string, string>(adapter, options);
}

async function startedTurn(effectIds: readonly string[] = ['pay', 'mail']) {
  const stub = stubStore();
  const recovery = recoveryOver(stub.store);
  const started = await recovery.startTurn({ caller: 'owner', ...TURN, effectIds });
  expect(started.ok).toBe(true);
  return { stub, recovery };
}

async function claimOf(recovery: TurnRecovery<string, string>, effectId = 'pay'): Promise<EffectClaim> {
  const claimed = await recovery.claimEffect({ caller: 'owner', ...TURN, effectId });
  if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error(`claim failed: ${JSON.stringify(claimed)}`);
  return claimed.claim;
}

describe('TurnRecovery: starting a turn (DESIGN §6.1)', () => {
  it('starts a turn with the host-authorized effects, each open and unclaimed', async () => {
    const stub = stubStore();
    const result = await recoveryOver(stub.store).startTurn({ caller: 'owner', ...TURN, effectIds: ['pay'] });
    expect(result).toEqual({
      ok: true,
      outcome: 'started',
      turn: { ...TURN, status: 'running', revision: 1, effects: [{ effectId: 'pay', claim: 0, status: 'open' }] },
    });
  });

  it('answers a repeated start of the same turn with existing, and another effect list with turn-conflict', async () => {
    const { stub, recovery } = await startedTurn(['pay']);
    expect(await recovery.startTurn({ caller: 'owner', ...TURN, effectIds: ['pay'] })).toMatchObject({ ok: true, outcome: 'existing' });
    expect(await recoveryOver(stub.store).startTurn({ caller: 'owner', ...TURN, effectIds: ['refund'] })).toMatchObject({
      ok: false,
      code: 'turn-conflict',
    });
  });

  it('reads a create whose acknowledgement was lost back before answering', async () => {
    const stub = stubStore();
    const recovery = recoveryOver({
      ...stub.store,
      compareAndSwap: async (request) => {
        await stub.store.compareAndSwap(request);
        throw new Error('connection reset');
      },
    });
    expect(await recovery.startTurn({ caller: 'owner', ...TURN, effectIds: ['pay'] })).toMatchObject({ ok: true, outcome: 'started' });
  });

  it('reports checkpoint-failed when a create failed and nothing is stored', async () => {
    const stub = stubStore();
    const recovery = recoveryOver({ ...stub.store, compareAndSwap: () => Promise.reject(new Error('down')) });
    expect(await recovery.startTurn({ caller: 'owner', ...TURN, effectIds: ['pay'] })).toMatchObject({
      ok: false,
      code: 'checkpoint-failed',
    });
  });

  it.each([
    ['a bad conversation id', { ...TURN, conversationId: 'has space', effectIds: [] }],
    ['a bad effect id', { ...TURN, effectIds: [''] }],
    ['duplicate effect ids', { ...TURN, effectIds: ['pay', 'pay'] }],
  ])('refuses %s with invalid-request', async (_name, request) => {
    expect(await recoveryOver(stubStore().store).startTurn({ caller: 'owner', ...request })).toMatchObject({
      ok: false,
      code: 'invalid-request',
    });
  });

  it('refuses a caller the host does not authorize, and fails closed when authorize throws', async () => {
    expect(await recoveryOver(stubStore().store).startTurn({ caller: 'stranger', ...TURN, effectIds: [] })).toMatchObject({
      ok: false,
      code: 'forbidden',
    });
    const throwing = recoveryOver(stubStore().store, {
      authorize: () => {
        throw new Error('auth service down');
      },
    });
    expect(await throwing.startTurn({ caller: 'owner', ...TURN, effectIds: [] })).toMatchObject({ ok: false, code: 'forbidden' });
  });

  it('reports checkpoint-failed when the create is unconfirmed and the read-back fails too', async () => {
    const stub = stubStore();
    const recovery = recoveryOver({
      ...stub.store,
      read: () => Promise.reject(new Error('down')),
      compareAndSwap: () => Promise.reject(new Error('down')),
    });
    expect(await recovery.startTurn({ caller: 'owner', ...TURN, effectIds: [] })).toMatchObject({ ok: false, code: 'checkpoint-failed' });
  });
});

describe('TurnRecovery: declaring effects as the run discovers them (DESIGN §6.1)', () => {
  it('declares an effect in a running turn: it joins the turn open and unclaimed, after the others, and can be claimed', async () => {
    const { stub, recovery } = await startedTurn(['pay']);
    expect(await recovery.declareEffect({ caller: 'owner', ...TURN, effectId: 'post' })).toEqual({ ok: true, outcome: 'declared' });
    expect(stub.turns.get('turn_1')?.record).toEqual({
      ...TURN,
      status: 'running',
      revision: 2,
      effects: [
        { effectId: 'pay', claim: 0, status: 'open' },
        { effectId: 'post', claim: 0, status: 'open' },
      ],
    });
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'post' })).toMatchObject({ ok: true, outcome: 'claimed' });
  });

  it('is idempotent: an id the turn holds (started with it, or declared by another worker) is already-declared and writes nothing', async () => {
    const { stub, recovery } = await startedTurn(['pay']);
    await recovery.declareEffect({ caller: 'owner', ...TURN, effectId: 'post' });
    const revision = stub.turns.get('turn_1')?.record.revision;
    expect(await recoveryOver(stub.store).declareEffect({ caller: 'owner', ...TURN, effectId: 'post' })).toEqual({
      ok: true,
      outcome: 'already-declared',
    });
    expect(await recovery.declareEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toEqual({ ok: true, outcome: 'already-declared' });
    expect(stub.turns.get('turn_1')?.record.revision).toBe(revision);
    expect(stub.turns.get('turn_1')?.record.effects.map((effect) => effect.effectId)).toEqual(['pay', 'post']);
  });

  it('refuses a cancelled turn with turn-not-running, even from a snapshot taken before the cancellation, and declares nothing', async () => {
    const { stub, recovery } = await startedTurn(['pay']);
    // This worker's snapshot says running; another worker commits the cancellation.
    await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' });
    await recoveryOver(stub.store).cancelTurn({ caller: 'owner', ...TURN });
    expect(await recovery.declareEffect({ caller: 'owner', ...TURN, effectId: 'post' })).toMatchObject({
      ok: false,
      code: 'turn-not-running',
    });
    expect(stub.turns.get('turn_1')?.record.effects.map((effect) => effect.effectId)).toEqual(['pay']);
    // An id the cancelled turn already holds is still already-declared: nothing is written either way.
    expect(await recovery.declareEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toEqual({ ok: true, outcome: 'already-declared' });
  });

  it('refuses past maxEffectsPerTurn with too-many-effects; the start is not bounded by it', async () => {
    const stub = stubStore();
    const recovery = recoveryOver(stub.store, {}, { maxEffectsPerTurn: 2 });
    await recovery.startTurn({ caller: 'owner', ...TURN, effectIds: ['pay', 'mail', 'ship'] });
    expect(await recovery.declareEffect({ caller: 'owner', ...TURN, effectId: 'post' })).toEqual({
      ok: false,
      code: 'too-many-effects',
      message: 'the turn holds 2 effects, the most it may',
    });
    expect(await recovery.declareEffect({ caller: 'owner', ...TURN, effectId: 'mail' })).toEqual({ ok: true, outcome: 'already-declared' });
    const room = stubStore();
    const bounded = recoveryOver(room.store, {}, { maxEffectsPerTurn: 2 });
    await bounded.startTurn({ caller: 'owner', ...TURN, effectIds: ['pay'] });
    expect(await bounded.declareEffect({ caller: 'owner', ...TURN, effectId: 'post' })).toEqual({ ok: true, outcome: 'declared' });
    expect(await bounded.declareEffect({ caller: 'owner', ...TURN, effectId: 'ship' })).toMatchObject({ code: 'too-many-effects' });
  });

  it("asks authorize for the declare action under the caller's current authority, and fails closed", async () => {
    const { stub } = await startedTurn(['pay']);
    const asked: string[] = [];
    const recovery = recoveryOver(stub.store, {
      authorize: ({ caller, action }) => {
        asked.push(action);
        return caller === 'owner';
      },
    });
    expect(await recovery.declareEffect({ caller: 'stranger', ...TURN, effectId: 'post' })).toEqual({
      ok: false,
      code: 'forbidden',
      message: 'the caller may not declare effects of this turn',
    });
    expect(asked).toEqual(['declare']);
    expect(stub.turns.get('turn_1')?.record.effects).toHaveLength(1);
  });

  it('refuses a non-v1 effect id, an unknown turn, another conversation and an unreadable store', async () => {
    const { stub, recovery } = await startedTurn(['pay']);
    expect(await recovery.declareEffect({ caller: 'owner', ...TURN, effectId: 'a b' })).toEqual({
      ok: false,
      code: 'invalid-request',
      message: 'expected v1 ids for the conversation, turn and effect',
    });
    expect(await recovery.declareEffect({ caller: 'owner', ...TURN, effectId: 'x'.repeat(257) })).toMatchObject({
      code: 'invalid-request',
    });
    expect(await recovery.declareEffect({ caller: 'owner', ...TURN, turnId: 'turn_2', effectId: 'post' })).toMatchObject({
      code: 'unknown-turn',
    });
    expect(await recovery.declareEffect({ caller: 'owner', ...TURN, conversationId: 'conv_2', effectId: 'post' })).toMatchObject({
      code: 'unknown-turn',
    });
    const unreadable = recoveryOver({ ...stub.store, read: () => Promise.reject(new Error('down')) });
    expect(await unreadable.declareEffect({ caller: 'owner', ...TURN, effectId: 'post' })).toMatchObject({ code: 'store-unavailable' });
  });

  it('reads a lost acknowledgement back: declared when the turn holds the effect, else checkpoint-failed', async () => {
    const { stub } = await startedTurn(['pay']);
    const lossy = recoveryOver({
      ...stub.store,
      compareAndSwap: async (request) => {
        await stub.store.compareAndSwap(request);
        throw new Error('connection reset');
      },
    });
    expect(await lossy.declareEffect({ caller: 'owner', ...TURN, effectId: 'post' })).toEqual({ ok: true, outcome: 'declared' });
    const failing = recoveryOver({ ...stub.store, compareAndSwap: () => Promise.reject(new Error('down')) });
    expect(await failing.declareEffect({ caller: 'owner', ...TURN, effectId: 'mail' })).toEqual({
      ok: false,
      code: 'checkpoint-failed',
      message: 'the declaration could not be confirmed',
    });
  });

  it('a turn with declared effects started again with its own effect list is existing, not turn-conflict', async () => {
    const { stub, recovery } = await startedTurn(['pay']);
    await recovery.declareEffect({ caller: 'owner', ...TURN, effectId: 'post' });
    expect(await recoveryOver(stub.store).startTurn({ caller: 'owner', ...TURN, effectIds: ['pay'] })).toMatchObject({
      ok: true,
      outcome: 'existing',
    });
    expect(await recoveryOver(stub.store).startTurn({ caller: 'owner', ...TURN, effectIds: ['post'] })).toMatchObject({
      ok: false,
      code: 'turn-conflict',
    });
  });
});

describe('TurnRecovery: capabilities (DESIGN §6.10)', () => {
  it('a lightweight host replays but refuses restart recovery, naming the missing flag', async () => {
    const recovery = new TurnRecovery<string, string>({
      capabilities: LIGHTWEIGHT_CHAT_CAPABILITIES,
      authorize: () => true,
      replayWindow: () => Promise.resolve({ lowerBound: 0, latestSeq: 0, frames: [] }),
    });
    expect(await recovery.replayTurn({ caller: 'owner', ...TURN, after: 'turn_1:0' })).toEqual({
      ok: true,
      value: { after: { turnId: 'turn_1', seq: 0 }, lowerBound: 0, latestSeq: 0, frames: [] },
    });
    const refused = { ok: false, code: 'unsupported-capability', missing: ['interruptedTurnRecovery'] };
    expect(await recovery.startTurn({ caller: 'owner', ...TURN, effectIds: [] })).toMatchObject(refused);
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject(refused);
    expect(
      await recovery.dispatchEffect({ caller: 'owner', claim: { ...TURN, effectId: 'pay', claim: 1 }, execute: () => 'x' }),
    ).toMatchObject(refused);
    expect(await recovery.cancelTurn({ caller: 'owner', ...TURN })).toMatchObject(refused);
    expect(await recovery.reconcileEffect({ caller: 'owner', ...TURN, effectId: 'pay', result: 'x' })).toMatchObject(refused);
  });

  it('an adapter without a store cannot recover whatever it declares; without a window it cannot replay', async () => {
    const recovery = recoveryOver(undefined);
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({
      ok: false,
      code: 'unsupported-capability',
      missing: ['interruptedTurnRecovery'],
    });
    expect(await recovery.replayTurn({ caller: 'owner', ...TURN, after: 'turn_1:0' })).toMatchObject({
      ok: false,
      code: 'unsupported-capability',
      missing: ['connectionReplay'],
    });
  });

  it('a malformed declaration is invalid-capabilities', async () => {
    const recovery = new TurnRecovery<string, string>({
      capabilities: { connectionReplay: true } as unknown as ChatCapabilities,
      authorize: () => true,
    });
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({
      ok: false,
      code: 'invalid-capabilities',
    });
  });
});

describe('TurnRecovery: claiming (DESIGN §6.1, §6.6)', () => {
  it('claims an open effect: the claim number goes up with every claim', async () => {
    const { recovery } = await startedTurn();
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toEqual({
      ok: true,
      outcome: 'claimed',
      claim: { ...TURN, effectId: 'pay', claim: 1 },
    });
    expect((await claimOf(recovery)).claim).toBe(2);
  });

  it('a completed effect returns its stored result and is never re-run', async () => {
    const { stub, recovery } = await startedTurn();
    await recovery.dispatchEffect({ caller: 'owner', claim: await claimOf(recovery), execute: () => 'paid' });
    const fresh = recoveryOver(stub.store);
    expect(await fresh.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: true,
      result: 'paid',
    });
    expect(stub.launches).toEqual(['pay']);
  });

  it('a model retry of an admitted call is already-admitted, never a second launch', async () => {
    const { stub, recovery } = await startedTurn();
    let release: (value: string) => void = () => undefined;
    const pending = recovery.dispatchEffect({
      caller: 'owner',
      claim: await claimOf(recovery),
      execute: () => new Promise<string>((resolve) => (release = resolve)),
    });
    const retry = recoveryOver(stub.store);
    expect(await retry.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({ ok: false, code: 'already-admitted' });
    release('paid');
    expect(await pending).toEqual({ ok: true, outcome: 'completed', reused: false, result: 'paid' });
    expect(stub.launches).toEqual(['pay']);
  });

  it('an uncertain claim acknowledgement is needs-reconciliation (claim-unacknowledged)', async () => {
    const { stub } = await startedTurn();
    const recovery = recoveryOver({ ...stub.store, compareAndSwap: () => Promise.reject(new Error('timeout')) });
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({
      ok: true,
      outcome: 'needs-reconciliation',
      reason: 'claim-unacknowledged',
    });
  });

  it('refuses unknown turns, unknown effects, cancelled turns, strangers, bad ids and an unreadable store', async () => {
    const { stub, recovery } = await startedTurn();
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, turnId: 'turn_2', effectId: 'pay' })).toMatchObject({
      code: 'unknown-turn',
    });
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, conversationId: 'conv_2', effectId: 'pay' })).toMatchObject({
      code: 'unknown-turn',
    });
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'refund' })).toMatchObject({ code: 'unknown-effect' });
    expect(await recovery.claimEffect({ caller: 'stranger', ...TURN, effectId: 'pay' })).toMatchObject({ code: 'forbidden' });
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'a b' })).toMatchObject({ code: 'invalid-request' });
    const unreadable = recoveryOver({ ...stub.store, read: () => Promise.reject(new Error('down')) });
    expect(await unreadable.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({ code: 'store-unavailable' });
    await recovery.cancelTurn({ caller: 'owner', ...TURN });
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({ code: 'turn-not-running' });
  });

  it('reports checkpoint-failed when every write attempt conflicts', async () => {
    const { stub } = await startedTurn();
    const recovery = new TurnRecovery<string, string>(
      {
        capabilities: FULL,
        authorize: () => true,
        store: { ...stub.store, compareAndSwap: async () => ({ swapped: false, current: await stub.store.read('turn_1') }) },
      },
      { maxWriteAttempts: 3 },
    );
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({
      ok: false,
      code: 'checkpoint-failed',
    });
  });
});

describe('TurnRecovery: dispatch through the admission seam (DESIGN §6.2–6.7)', () => {
  it('happy path: claim, admit, complete — three store round trips on the worker that started the turn', async () => {
    const { stub, recovery } = await startedTurn();
    stub.log.length = 0;
    const result = await recovery.dispatchEffect({ caller: 'owner', claim: await claimOf(recovery), execute: () => 'paid' });
    expect(result).toEqual({ ok: true, outcome: 'completed', reused: false, result: 'paid' });
    expect(stub.log).toEqual(['cas:running', 'admit', 'cas:running']);
  });

  it('an adapter without an admission seam refuses dispatch and launches nothing', async () => {
    const { stub } = await startedTurn();
    const { admitDispatch: _seam, ...withoutSeam } = stub.store;
    const recovery = recoveryOver(withoutSeam);
    const claim = await claimOf(recovery);
    let ran = false;
    expect(
      await recovery.dispatchEffect({
        caller: 'owner',
        claim,
        execute: () => {
          ran = true;
          return 'x';
        },
      }),
    ).toMatchObject({ ok: false, code: 'no-admission-seam' });
    expect(ran).toBe(false);
  });

  it('a stale claim launches nothing: the newest claim wins', async () => {
    const { stub, recovery } = await startedTurn();
    const old = await claimOf(recovery);
    await claimOf(recoveryOver(stub.store));
    expect(await recovery.dispatchEffect({ caller: 'owner', claim: old, execute: () => 'x' })).toMatchObject({
      ok: false,
      code: 'stale-claim',
    });
    expect(stub.launches).toEqual([]);
  });

  it.each([
    ['forbidden', 'revoked'],
    ['turn-not-running', 'owner'],
  ] as const)('maps the store refusal %s and launches nothing', async (code, caller) => {
    const { stub, recovery } = await startedTurn();
    const claim = await claimOf(recovery);
    if (code === 'turn-not-running') await recovery.cancelTurn({ caller: 'owner', ...TURN });
    expect(await recovery.dispatchEffect({ caller, claim, execute: () => 'x' })).toMatchObject({ ok: false, code });
    expect(stub.launches).toEqual([]);
  });

  it.each(['unknown-turn', 'unknown-effect', 'already-admitted'] as const)('passes the store refusal %s through', async (code) => {
    const { stub, recovery } = await startedTurn();
    const claim = await claimOf(recovery);
    const refusing = recoveryOver({ ...stub.store, admitDispatch: () => Promise.resolve({ admitted: false, code }) });
    expect(await refusing.dispatchEffect({ caller: 'owner', claim, execute: () => 'x' })).toMatchObject({ ok: false, code });
  });

  it('an effect settled since the claim answers with what is stored (completed, reused)', async () => {
    const { stub, recovery } = await startedTurn();
    const claim = await claimOf(recovery);
    await recovery.reconcileEffect({ caller: 'owner', ...TURN, effectId: 'pay', result: 'verified' });
    expect(await recovery.dispatchEffect({ caller: 'owner', claim, execute: () => 'x' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: true,
      result: 'verified',
    });
    expect(stub.launches).toEqual([]);
  });

  it('an effect settled since the claim whose record cannot be read back is store-unavailable', async () => {
    const { stub, recovery } = await startedTurn();
    const claim = await claimOf(recovery);
    const blind = recoveryOver({
      ...stub.store,
      read: () => Promise.reject(new Error('down')),
      admitDispatch: () => Promise.resolve({ admitted: false, code: 'effect-settled' }),
    });
    expect(await blind.dispatchEffect({ caller: 'owner', claim, execute: () => 'x' })).toMatchObject({
      ok: false,
      code: 'store-unavailable',
    });
  });

  it('an uncertain admission acknowledgement without a launch is needs-reconciliation (admission-unacknowledged)', async () => {
    const { stub, recovery } = await startedTurn();
    const claim = await claimOf(recovery);
    const lossy = recoveryOver({
      ...stub.store,
      admitDispatch: async (request) => {
        await stub.store.admitDispatch(request, () => undefined);
        throw new Error('acknowledgement lost');
      },
    });
    expect(await lossy.dispatchEffect({ caller: 'owner', claim, execute: () => 'x' })).toMatchObject({
      ok: true,
      outcome: 'needs-reconciliation',
      reason: 'admission-unacknowledged',
    });
  });

  it('once the store launched, the result is stored even if the admission answer is lost', async () => {
    const { stub, recovery } = await startedTurn();
    const claim = await claimOf(recovery);
    const lossy = recoveryOver({
      ...stub.store,
      admitDispatch: async (request, launch) => {
        await stub.store.admitDispatch(request, launch);
        throw new Error('acknowledgement lost after launch');
      },
    });
    expect(await lossy.dispatchEffect({ caller: 'owner', claim, execute: () => 'paid' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: false,
      result: 'paid',
    });
    expect(stub.turns.get('turn_1')?.record.effects[0]).toMatchObject({ status: 'completed', result: 'paid' });
  });

  it('a store that calls launch twice still runs the execution once', async () => {
    const { stub, recovery } = await startedTurn();
    const claim = await claimOf(recovery);
    let runs = 0;
    const twice = recoveryOver({
      ...stub.store,
      admitDispatch: (request, launch) => stub.store.admitDispatch(request, () => (launch(), launch())),
    });
    await twice.dispatchEffect({ caller: 'owner', claim, execute: () => `run ${++runs}` });
    expect(runs).toBe(1);
  });

  it('a dispatch error is needs-reconciliation (dispatch-failed), and a later claim says so', async () => {
    const { stub, recovery } = await startedTurn();
    const result = await recovery.dispatchEffect({
      caller: 'owner',
      claim: await claimOf(recovery),
      execute: () => Promise.reject(new Error('gateway timeout')),
    });
    expect(result).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'dispatch-failed' });
    expect(await recoveryOver(stub.store).claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({
      outcome: 'needs-reconciliation',
      reason: 'dispatch-failed',
    });
  });

  it('a synchronous throw from the execution is a dispatch error too', async () => {
    const { recovery } = await startedTurn();
    const result = await recovery.dispatchEffect({
      caller: 'owner',
      claim: await claimOf(recovery),
      execute: () => {
        throw new Error('bad input');
      },
    });
    expect(result).toMatchObject({ outcome: 'needs-reconciliation', reason: 'dispatch-failed' });
  });

  it('a completion whose acknowledgement was lost is read back before returning', async () => {
    const { stub, recovery } = await startedTurn();
    const claim = await claimOf(recovery);
    let writes = 0;
    const lossy = recoveryOver({
      ...stub.store,
      compareAndSwap: async (request) => {
        const answer = await stub.store.compareAndSwap(request);
        if (++writes === 1) throw new Error('acknowledgement lost');
        return answer;
      },
    });
    stub.log.length = 0;
    expect(await lossy.dispatchEffect({ caller: 'owner', claim, execute: () => 'paid' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: false,
      result: 'paid',
    });
    expect(stub.log).toEqual(['admit', 'read', 'cas:running', 'read']);
  });

  it('a checkpoint-write failure is explicit and carries the result', async () => {
    const { stub, recovery } = await startedTurn();
    const claim = await claimOf(recovery);
    const failing = recoveryOver({ ...stub.store, compareAndSwap: () => Promise.reject(new Error('disk full')) });
    expect(await failing.dispatchEffect({ caller: 'owner', claim, execute: () => 'paid' })).toMatchObject({
      ok: false,
      code: 'checkpoint-failed',
      result: 'paid',
    });
  });

  it('retries the result write on conflicts caused by other effects, never re-launching', async () => {
    const { stub, recovery } = await startedTurn();
    const claim = await claimOf(recovery);
    const other = recoveryOver(stub.store);
    let runs = 0;
    const result = await recovery.dispatchEffect({
      caller: 'owner',
      claim,
      execute: async () => {
        runs += 1;
        // Another effect advances the turn revision while this one runs.
        await other.dispatchEffect({ caller: 'owner', claim: await claimOf(other, 'mail'), execute: () => 'mailed' });
        return 'paid';
      },
    });
    expect(result).toEqual({ ok: true, outcome: 'completed', reused: false, result: 'paid' });
    expect(runs).toBe(1);
    expect(stub.turns.get('turn_1')?.record.effects.map((effect) => effect.status)).toEqual(['completed', 'completed']);
  });

  it('refuses a malformed claim with invalid-request', async () => {
    const { recovery } = await startedTurn();
    expect(
      await recovery.dispatchEffect({ caller: 'owner', claim: { ...TURN, effectId: 'pay', claim: 0 }, execute: () => 'x' }),
    ).toMatchObject({
      code: 'invalid-request',
    });
  });
});

describe('TurnRecovery: writes of one worker to one turn go out together (group commit)', () => {
  it('concurrent claims of different effects share compare-and-swaps instead of retrying one by one', async () => {
    const { stub, recovery } = await startedTurn(['a', 'b', 'c', 'd']);
    stub.log.length = 0;
    const claims = await Promise.all(['a', 'b', 'c', 'd'].map((effectId) => recovery.claimEffect({ caller: 'owner', ...TURN, effectId })));
    expect(claims.map((claimed) => claimed.ok && claimed.outcome === 'claimed' && claimed.claim.claim)).toEqual([1, 1, 1, 1]);
    expect(stub.log).toEqual(['cas:running', 'cas:running']);
    expect(stub.turns.get('turn_1')?.record).toMatchObject({
      revision: 3,
      effects: [{ claim: 1 }, { claim: 1 }, { claim: 1 }, { claim: 1 }],
    });
  });

  it('two concurrent claims of one effect get successive numbers: only the newer can be admitted', async () => {
    const { stub, recovery } = await startedTurn();
    const [older, newer] = await Promise.all([claimOf(recovery), claimOf(recovery)]);
    expect([older.claim, newer.claim]).toEqual([1, 2]);
    expect(await recovery.dispatchEffect({ caller: 'owner', claim: older, execute: () => 'x' })).toMatchObject({
      ok: false,
      code: 'stale-claim',
    });
    expect(await recovery.dispatchEffect({ caller: 'owner', claim: newer, execute: () => 'paid' })).toMatchObject({
      ok: true,
      outcome: 'completed',
    });
    expect(stub.launches).toEqual(['pay']);
  });

  it('a lost acknowledgement reaches every write of the batch', async () => {
    const { stub } = await startedTurn();
    let writes = 0;
    const recovery = recoveryOver({
      ...stub.store,
      compareAndSwap: async (request) => {
        writes += 1;
        const answer = await stub.store.compareAndSwap(request);
        if (writes === 2) throw new Error('acknowledgement lost');
        return answer;
      },
    });
    const claims = await Promise.all(
      ['pay', 'mail', 'pay'].map((effectId) => recovery.claimEffect({ caller: 'owner', ...TURN, effectId })),
    );
    expect(claims.map((claimed) => claimed.ok && claimed.outcome)).toEqual(['claimed', 'needs-reconciliation', 'needs-reconciliation']);
  });
});

describe('TurnRecovery: a store answering outside its contract', () => {
  it('a malformed compare-and-swap answer makes the write unknown, and later writes still go out', async () => {
    const { stub } = await startedTurn();
    let calls = 0;
    const recovery = recoveryOver({
      ...stub.store,
      compareAndSwap: (request) => (++calls === 1 ? Promise.resolve(undefined as never) : stub.store.compareAndSwap(request)),
    });
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({
      ok: true,
      outcome: 'needs-reconciliation',
      reason: 'claim-unacknowledged',
    });
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({ ok: true, outcome: 'claimed' });
  });
});

describe('TurnRecovery: a claim from an old snapshot', () => {
  it('answers already-admitted when the store shows an admission that did not move the revision', async () => {
    const { stub, recovery } = await startedTurn();
    const held = await claimOf(recovery);
    const stale = recoveryOver(stub.store);
    await stale.claimEffect({ caller: 'owner', ...TURN, effectId: 'mail' });
    void recovery.dispatchEffect({ caller: 'owner', claim: held, execute: () => new Promise<string>(() => undefined) });
    await Promise.resolve();
    stub.log.length = 0;
    // `stale` holds the newest revision but not the admission: its claim is written, and refused.
    expect(await stale.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toMatchObject({ ok: false, code: 'already-admitted' });
    expect(stub.log).toEqual(['cas:running']);
    expect(stub.launches).toEqual(['pay']);
  });

  it('reads again before answering from a snapshot anything but a stored result', async () => {
    const { stub, recovery } = await startedTurn();
    await claimOf(recovery);
    await recoveryOver(stub.store).reconcileEffect({ caller: 'owner', ...TURN, effectId: 'pay', result: 'verified' });
    await recoveryOver(stub.store).cancelTurn({ caller: 'owner', ...TURN });
    // `recovery`'s snapshot says running and open; the store says completed.
    expect(await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: true,
      result: 'verified',
    });
  });
});

describe('TurnRecovery: cancellation (DESIGN §6.5, §6.8)', () => {
  it('commits first, then calls the abort hook for the in-flight effects; the late result is stored without reopening', async () => {
    const stub = stubStore();
    const order: string[] = [];
    let release: (value: string) => void = () => undefined;
    const recovery = recoveryOver(
      {
        ...stub.store,
        compareAndSwap: (request) => {
          if (request.next.status === 'cancelled') order.push('cancel committed');
          return stub.store.compareAndSwap(request);
        },
      },
      {
        abort: ({ effectIds }) => {
          order.push(`abort ${effectIds.join(',')}`);
        },
      },
    );
    await recovery.startTurn({ caller: 'owner', ...TURN, effectIds: ['pay', 'mail'] });
    const pending = recovery.dispatchEffect({
      caller: 'owner',
      claim: await claimOf(recovery),
      execute: () => new Promise<string>((resolve) => (release = resolve)),
    });
    expect(await recovery.cancelTurn({ caller: 'owner', ...TURN })).toEqual({
      ok: true,
      outcome: 'cancelled',
      committed: true,
      inFlight: ['pay'],
      abort: 'requested',
    });
    expect(order).toEqual(['cancel committed', 'abort pay']);
    release('paid anyway');
    expect(await pending).toEqual({ ok: true, outcome: 'completed', reused: false, result: 'paid anyway' });
    expect(stub.turns.get('turn_1')?.record).toMatchObject({
      status: 'cancelled',
      effects: [{ status: 'completed', result: 'paid anyway' }, { status: 'open' }],
    });
  });

  it('reports a throwing abort hook and keeps the cancellation', async () => {
    const { stub, recovery } = await startedTurn();
    void recovery.dispatchEffect({ caller: 'owner', claim: await claimOf(recovery), execute: () => new Promise<string>(() => undefined) });
    const throwing = recoveryOver(stub.store, {
      abort: () => {
        throw new Error('hook failed');
      },
    });
    expect(await throwing.cancelTurn({ caller: 'owner', ...TURN })).toMatchObject({ ok: true, committed: true, abort: 'failed' });
    expect(stub.turns.get('turn_1')?.record.status).toBe('cancelled');
  });

  it('says when no abort was needed, when there is no hook, and when the turn was already cancelled', async () => {
    const { stub, recovery } = await startedTurn();
    expect(await recovery.cancelTurn({ caller: 'owner', ...TURN })).toEqual({
      ok: true,
      outcome: 'cancelled',
      committed: true,
      inFlight: [],
      abort: 'not-needed',
    });
    expect(await recovery.cancelTurn({ caller: 'owner', ...TURN })).toMatchObject({ committed: false });
    const second = await startedTurn();
    void second.recovery.dispatchEffect({
      caller: 'owner',
      claim: await claimOf(second.recovery),
      execute: () => new Promise<string>(() => undefined),
    });
    expect(await second.recovery.cancelTurn({ caller: 'owner', ...TURN })).toMatchObject({ inFlight: ['pay'], abort: 'no-hook' });
    expect(stub.launches).toEqual([]);
  });

  it('reads a cancellation whose acknowledgement was lost back; an unconfirmed one is checkpoint-failed', async () => {
    const { stub } = await startedTurn();
    const lossy = recoveryOver({
      ...stub.store,
      compareAndSwap: async (request) => {
        await stub.store.compareAndSwap(request);
        throw new Error('acknowledgement lost');
      },
    });
    expect(await lossy.cancelTurn({ caller: 'owner', ...TURN })).toMatchObject({ ok: true, committed: true });
    const second = await startedTurn();
    const failing = recoveryOver({ ...second.stub.store, compareAndSwap: () => Promise.reject(new Error('down')) });
    expect(await failing.cancelTurn({ caller: 'owner', ...TURN })).toMatchObject({ ok: false, code: 'checkpoint-failed' });
  });

  it('refuses strangers, unknown turns, bad ids and an unreadable store', async () => {
    const { stub, recovery } = await startedTurn();
    expect(await recovery.cancelTurn({ caller: 'stranger', ...TURN })).toMatchObject({ code: 'forbidden' });
    expect(await recovery.cancelTurn({ caller: 'owner', ...TURN, turnId: 'turn_9' })).toMatchObject({ code: 'unknown-turn' });
    expect(await recovery.cancelTurn({ caller: 'owner', ...TURN, turnId: '' })).toMatchObject({ code: 'invalid-request' });
    const unreadable = recoveryOver({ ...stub.store, read: () => Promise.reject(new Error('down')) });
    expect(await unreadable.cancelTurn({ caller: 'owner', ...TURN })).toMatchObject({ code: 'store-unavailable' });
  });

  it('the abort hook cannot authorize a launch: a dispatch from inside it is turn-not-running', async () => {
    const stub = stubStore();
    let fromHook: unknown;
    const recovery: TurnRecovery<string, string> = recoveryOver(stub.store, {
      abort: async () => {
        const claimed = await recovery.claimEffect({ caller: 'owner', ...TURN, effectId: 'mail' });
        fromHook = claimed.ok
          ? claimed
          : await recovery.dispatchEffect({ caller: 'owner', claim: { ...TURN, effectId: 'mail', claim: 1 }, execute: () => 'x' });
      },
    });
    await recovery.startTurn({ caller: 'owner', ...TURN, effectIds: ['pay', 'mail'] });
    await claimOf(recovery, 'mail');
    void recovery.dispatchEffect({ caller: 'owner', claim: await claimOf(recovery), execute: () => new Promise<string>(() => undefined) });
    await recovery.cancelTurn({ caller: 'owner', ...TURN });
    expect(fromHook).toMatchObject({ ok: false, code: 'turn-not-running' });
    expect(stub.launches).toEqual(['pay']);
  });
});

describe('TurnRecovery: reconciliation (DESIGN §6.6)', () => {
  it('stores a host-verified result once; a second one gets the stored result back', async () => {
    const { stub, recovery } = await startedTurn();
    expect(await recovery.reconcileEffect({ caller: 'owner', ...TURN, effectId: 'pay', result: 'verified' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: false,
      result: 'verified',
    });
    expect(await recoveryOver(stub.store).reconcileEffect({ caller: 'owner', ...TURN, effectId: 'pay', result: 'other' })).toEqual({
      ok: true,
      outcome: 'completed',
      reused: true,
      result: 'verified',
    });
  });

  it('keeps a cancelled turn cancelled', async () => {
    const { stub, recovery } = await startedTurn();
    await recovery.cancelTurn({ caller: 'owner', ...TURN });
    await recovery.reconcileEffect({ caller: 'owner', ...TURN, effectId: 'pay', result: 'verified' });
    expect(stub.turns.get('turn_1')?.record.status).toBe('cancelled');
  });

  it('refuses strangers, unknown turns and effects, bad ids, an unreadable store, and reports a failed write with the result', async () => {
    const { stub, recovery } = await startedTurn();
    const request = { caller: 'owner', ...TURN, effectId: 'pay', result: 'verified' };
    expect(await recovery.reconcileEffect({ ...request, caller: 'stranger' })).toMatchObject({ code: 'forbidden' });
    expect(await recovery.reconcileEffect({ ...request, turnId: 'turn_9' })).toMatchObject({ code: 'unknown-turn' });
    expect(await recovery.reconcileEffect({ ...request, effectId: 'refund' })).toMatchObject({ code: 'unknown-effect' });
    expect(await recovery.reconcileEffect({ ...request, effectId: 'a b' })).toMatchObject({ code: 'invalid-request' });
    const unreadable = recoveryOver({ ...stub.store, read: () => Promise.reject(new Error('down')) });
    expect(await unreadable.reconcileEffect(request)).toMatchObject({ code: 'store-unavailable' });
    const failing = recoveryOver({ ...stub.store, compareAndSwap: () => Promise.reject(new Error('down')) });
    expect(await failing.reconcileEffect(request)).toMatchObject({ code: 'checkpoint-failed', result: 'verified' });
  });
});

describe('TurnRecovery: replay (DESIGN §6.9)', () => {
  const frame = (seq: number) => ({
    schemaVersion: 1 as const,
    ...TURN,
    eventId: `evt_${seq}`,
    seq,
    occurredAt: '2026-11-30T10:00:00Z',
    event: { type: 'delta' as const, text: `part ${seq}` },
  });

  it('asks the window after the cursor and returns the validated suffix', async () => {
    const asked: unknown[] = [];
    const recovery = recoveryOver(undefined, {
      replayWindow: (request) => {
        asked.push(request);
        return Promise.resolve({ lowerBound: 0, latestSeq: 3, frames: [frame(2), frame(3)] });
      },
    });
    const result = await recovery.replayTurn({ caller: 'owner', ...TURN, after: 'turn_1:1' });
    expect(asked).toEqual([{ ...TURN, after: 1 }]);
    expect(result).toMatchObject({ ok: true, value: { latestSeq: 3, frames: [{ seq: 2 }, { seq: 3 }] } });
  });

  it('refuses a window with a gap, an unreadable window, strangers, bad cursors and bad ids', async () => {
    const recovery = recoveryOver(undefined, { replayWindow: () => Promise.resolve({ lowerBound: 0, latestSeq: 3, frames: [frame(3)] }) });
    expect(await recovery.replayTurn({ caller: 'owner', ...TURN, after: 'turn_1:1' })).toMatchObject({ code: 'frame-gap' });
    expect(await recovery.replayTurn({ caller: 'stranger', ...TURN, after: 'turn_1:1' })).toMatchObject({ code: 'forbidden' });
    expect(await recovery.replayTurn({ caller: 'owner', ...TURN, after: 'nonsense' })).toMatchObject({ code: 'invalid-cursor' });
    expect(await recovery.replayTurn({ caller: 'owner', ...TURN, after: 'turn_2:1' })).toMatchObject({ code: 'foreign-turn' });
    expect(await recovery.replayTurn({ caller: 'owner', ...TURN, conversationId: ' ', after: 'turn_1:1' })).toMatchObject({
      code: 'invalid-request',
    });
    const failing = recoveryOver(undefined, { replayWindow: () => Promise.reject(new Error('log down')) });
    expect(await failing.replayTurn({ caller: 'owner', ...TURN, after: 'turn_1:1' })).toMatchObject({ code: 'replay-unavailable' });
  });
});
