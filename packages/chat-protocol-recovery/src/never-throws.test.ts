/**
 * Issue 12 "Hostile input" (DESIGN §2.1, §2.2, §2.7): every exported function
 * of recovery is either never-throwing (a typed refusal, a state or `false` for
 * any argument) or documented as throwing `TypeError` only (`createTurnId`
 * without a random source, `new TurnRecovery` with unusable options), and every
 * `TurnRecovery` operation resolves, never rejects, whatever the request.
 */
import { LIGHTWEIGHT_CHAT_CAPABILITIES } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { everyTrapThrows, throwHostile } from '../../../test-support/hostile-values.js';
import {
  anyArguments,
  describeHostileContract,
  type FunctionClassification,
  type HostileTarget,
} from '../../../test-support/never-throws.js';
import { FULL, TURN, stubStore, type Stub } from '../test/stub-store.js';
import * as recovery from './index.js';

const expected = { conversationId: 'conv_1', turnId: 'turn_1', after: 'turn_1:0' };
const frame = (seq: number) => ({
  schemaVersion: 1,
  conversationId: 'conv_1',
  turnId: 'turn_1',
  eventId: `evt_${seq}`,
  seq,
  occurredAt: '2026-11-30T09:00:00Z',
  event: { type: 'delta', text: `part ${seq}` },
});
const window = { lowerBound: 0, latestSeq: 2, frames: [frame(1), frame(2)] } as unknown as recovery.ReplayWindow;

const CLOCK = () => '2026-11-30T09:00:00Z';

// A recovery over a working stub store, with a running turn whose effect `pay`
// holds claim 1 and `mail` is open: each hostile call gets a fresh one, so a
// near-valid request reaches every check behind the first.
async function prepared(): Promise<{
  readonly stub: Stub;
  readonly turns: recovery.TurnRecovery<string, string>;
  readonly claim: recovery.EffectClaim;
}> {
  const stub = stubStore();
  const turns = new recovery.TurnRecovery<string, string>(
    {
      capabilities: FULL,
      authorize: ({ caller }) => caller === 'owner',
      store: stub.store,
      replayWindow: () => Promise.resolve(window),
      abort: () => undefined,
    },
    { clock: CLOCK },
  );
  await turns.startTurn({ caller: 'owner', ...TURN, effectIds: ['pay', 'mail'] });
  const claimed = await turns.claimEffect({ caller: 'owner', ...TURN, effectId: 'pay' });
  if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error('the prepared claim failed');
  return { stub, turns, claim: claimed.claim };
}

type Operation =
  | 'startTurn'
  | 'declareEffect'
  | 'claimEffect'
  | 'dispatchEffect'
  | 'cancelTurn'
  | 'reconcileEffect'
  | 'replayTurn'
  | 'inspectTurn'
  | 'renewRunLease'
  | 'interruptTurn'
  | 'finishTurn';

// `method(request)` on a fresh prepared recovery: the hostile checks call it with values outside its request type.
function operation(method: Operation): (request: unknown) => Promise<unknown> {
  return async (request) => {
    const { turns } = await prepared();
    return (turns[method] as (request: unknown) => Promise<unknown>).call(turns, request);
  };
}

const claimOne = { conversationId: 'conv_1', turnId: 'turn_1', effectId: 'pay', claim: 1 };
const validRequests: Readonly<Record<Operation, unknown>> = {
  startTurn: { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_2', effectIds: ['pay', 'mail'] },
  declareEffect: { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1', effectId: 'post' },
  claimEffect: { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1', effectId: 'mail' },
  dispatchEffect: { caller: 'owner', claim: claimOne, execute: () => 'paid' },
  cancelTurn: { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1' },
  reconcileEffect: { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1', effectId: 'pay', result: 'paid' },
  replayTurn: { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1', after: 'turn_1:0' },
  inspectTurn: { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1' },
  renewRunLease: { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1', runId: 'run_1' },
  interruptTurn: { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1' },
  finishTurn: { caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1', runId: 'run_1', status: 'completed' },
};

const operations: Readonly<Record<string, HostileTarget>> = Object.fromEntries(
  Object.entries(validRequests).map(([method, request]) => [
    `TurnRecovery.${method}`,
    { call: operation(method as Operation), valid: [request], returns: 'result', async: true, runs: 100 },
  ]),
);

const neverThrowing: Readonly<Record<string, HostileTarget>> = {
  ...operations,
  'TurnRecovery.is': {
    call: (value) => recovery.TurnRecovery.is(value),
    valid: [new recovery.TurnRecovery({} as never)],
    returns: 'boolean',
  },
  validateReplayWindow: { call: anyArguments(recovery.validateReplayWindow), valid: [window, expected], returns: 'result' },
  isTurnId: { call: anyArguments(recovery.isTurnId), valid: ['turn_0123456789abcdef0123456789abcdef'], returns: 'boolean' },
  parseTurnStatusResponse: {
    call: anyArguments(recovery.parseTurnStatusResponse),
    valid: [{ turnId: 'turn_1', status: 'running', lastSeq: 3 }],
    returns: 'result',
  },
  readTurnStatus: {
    call: anyArguments(recovery.readTurnStatus),
    valid: [
      { store: stubStore().store, replayWindow: () => Promise.resolve(window) },
      { conversationId: 'conv_1', turnId: 'turn_1' },
    ],
    returns: 'result',
    async: true,
  },
  readAdmitDispatchRequest: {
    call: anyArguments(recovery.readAdmitDispatchRequest),
    valid: [{ caller: 'owner', conversationId: 'conv_1', turnId: 'turn_1', effectId: 'pay', claim: 1, admittedAt: '2031-05-01T08:00:00Z' }],
    returns: 'value',
  },
  readListRunningTurnsRequest: {
    call: anyArguments(recovery.readListRunningTurnsRequest),
    valid: [{ afterTurnId: 'turn_1', limit: 10 }],
    returns: 'value',
  },
  isRunLeaseExpired: {
    call: anyArguments(recovery.isRunLeaseExpired),
    valid: [
      { ...TURN, status: 'running', revision: 1, run: { runId: 'run_1', leaseExpiresAt: '2031-05-01T08:00:30Z' }, effects: [] },
      '2031-05-01T08:00:00Z',
    ],
    returns: 'boolean',
  },
  deliveryStateFromResend: {
    call: anyArguments(recovery.deliveryStateFromResend),
    valid: [{ type: 'response', status: 200 }],
    returns: 'value',
  },
  deliveryStateFromStatus: {
    call: anyArguments(recovery.deliveryStateFromStatus),
    valid: ['turn_1', { type: 'response', status: 200, body: { turnId: 'turn_1', status: 'running' } }],
    returns: 'value',
  },
};

const construct = (adapter: unknown, options: unknown) => new recovery.TurnRecovery(adapter as never, options as never);

const throwing: FunctionClassification['throwing'] = {
  createTurnId: { call: anyArguments(recovery.createTurnId), valid: [{ getRandomValues: (bytes: Uint8Array) => bytes.fill(7) }] },
  TurnRecovery: {
    call: construct,
    valid: [
      { capabilities: FULL, authorize: () => true },
      { admissionLeaseMs: 60_000, clock: CLOCK, maxWriteAttempts: 10, cacheSize: 4 },
    ],
  },
};

describeHostileContract('recovery', recovery, {
  neverThrowing,
  throwing,
  others: {
    admissionRefusal:
      'checks what a store already read inside its fence (the request through readAdmitDispatchRequest, its own row); admission-checks.test.ts pins every code',
  },
});

describe('recovery: exact outcomes of the hostile inputs issue 12 found', () => {
  it('validateReplayWindow(window, null) is invalid-request, not a TypeError reading after (§6.9)', () => {
    const unreadable = {
      ok: false,
      code: 'invalid-request',
      message: 'the expectation { conversationId, turnId, after } cannot be read',
      issues: [{ path: ['expected'], message: 'the expectation { conversationId, turnId, after } cannot be read' }],
    };
    expect(recovery.validateReplayWindow(window, null as never)).toEqual(unreadable);
    expect(recovery.validateReplayWindow(window, undefined as never)).toEqual(unreadable);
    expect(recovery.validateReplayWindow(window, everyTrapThrows as never)).toEqual(unreadable);
    expect(recovery.validateReplayWindow(window, { ...expected, turnId: 10n } as never)).toMatchObject({
      ok: false,
      code: 'invalid-request',
      message: 'the expectation must name the conversation and turn with v1 ids',
    });
  });

  it('validateReplayWindow refuses a window whose frames cannot be read as invalid-window (§6.9)', () => {
    const frames = new Proxy([frame(1), frame(2)], { get: throwHostile });
    expect(recovery.validateReplayWindow({ lowerBound: 0, latestSeq: 2, frames } as never, expected)).toEqual({
      ok: false,
      code: 'invalid-window',
      message: 'the window cannot be read',
      issues: [{ path: [], message: 'the window cannot be read' }],
    });
    expect(recovery.validateReplayWindow(null as never, expected)).toMatchObject({ ok: false, code: 'invalid-window' });
  });

  it('a bound or cursor seq of -0 is refused, since it would come back as 0 (issue 12)', () => {
    expect(recovery.validateReplayWindow({ lowerBound: -0, latestSeq: 2, frames: window.frames }, expected)).toMatchObject({
      ok: false,
      code: 'invalid-window',
    });
    expect(recovery.validateReplayWindow(window, { ...expected, after: { turnId: 'turn_1', seq: -0 } })).toMatchObject({
      ok: false,
      code: 'invalid-cursor',
    });
    expect(recovery.validateReplayWindow(window, { ...expected, after: { turnId: 'turn_1', seq: 0 } })).toMatchObject({ ok: true });
    expect(recovery.parseTurnStatusResponse({ turnId: 'turn_1', status: 'running', lastSeq: -0 })).toMatchObject({
      ok: false,
      code: 'invalid-turn-status',
      issues: [{ path: ['lastSeq'] }],
    });
  });

  it('the delivery state of an answer that cannot be read is check (§6, client side)', () => {
    expect(recovery.deliveryStateFromResend(null as never)).toBe('check');
    expect(recovery.deliveryStateFromResend(everyTrapThrows as never)).toBe('check');
    expect(recovery.deliveryStateFromStatus('turn_1', everyTrapThrows as never)).toBe('check');
    expect(recovery.deliveryStateFromStatus('turn_1', undefined as never)).toBe('check');
  });

  it('createTurnId throws TypeError, and only TypeError, when its random source cannot be used (§2.1)', () => {
    expect(() => recovery.createTurnId(everyTrapThrows as never)).toThrow(new TypeError('createTurnId: the options cannot be read'));
    expect(() => recovery.createTurnId({ getRandomValues: 'random' as never })).toThrow(
      new TypeError('createTurnId: getRandomValues must be a function'),
    );
    expect(() => recovery.createTurnId({ getRandomValues: throwHostile })).toThrow(new TypeError('createTurnId: the random source failed'));
    expect(recovery.createTurnId({ getRandomValues: (bytes) => bytes.fill(255) })).toBe(`turn_${'f'.repeat(32)}`);
  });
});

// A request whose field `key` answers `first` on the first read and `then` on every later one.
function answeringTwice(
  request: Record<string, unknown>,
  key: string,
  first: unknown,
  then: unknown,
): { readonly request: object; readonly reads: () => number } {
  let reads = 0;
  const copy = { ...request };
  Object.defineProperty(copy, key, { enumerable: true, get: () => (++reads === 1 ? first : then) });
  return { request: copy, reads: () => reads };
}

const withThrowingGetter = (request: unknown, key: string): object =>
  Object.defineProperty({ ...(request as object) }, key, { enumerable: true, get: throwHostile });

describe('TurnRecovery: a request that cannot be read is invalid-request, read once (issue 12 "Hostile input")', () => {
  const messages: Readonly<Record<Operation, string>> = {
    startTurn: 'expected v1 ids for the conversation and turn, a list of unique v1 effect ids, and a v1 run id when one is given',
    declareEffect: 'expected v1 ids for the conversation, turn and effect',
    claimEffect: 'expected v1 ids for the conversation, turn and effect',
    dispatchEffect: 'expected a claim from claimEffect and an execute function',
    cancelTurn: 'expected v1 ids for the conversation and turn',
    reconcileEffect: 'expected v1 ids for the conversation, turn and effect',
    replayTurn: 'expected v1 ids for the conversation and turn',
    inspectTurn: 'expected a request with v1 ids for the conversation and turn',
    renewRunLease: 'expected v1 ids for the conversation, turn and run',
    interruptTurn: 'expected v1 ids for the conversation and turn',
    finishTurn: 'expected v1 ids for the conversation, turn and run, and a status of completed, failed or needs-reconciliation',
  };
  const unreadable = (method: Operation) => ({ ok: false, code: 'invalid-request', message: messages[method] });
  const methods = Object.keys(validRequests) as Operation[];

  it.each(methods)('%s resolves to invalid-request for null, undefined and a string, and writes nothing', async (method) => {
    for (const request of [null, undefined, 'turn_1']) {
      const { stub, turns } = await prepared();
      const before = structuredClone([...stub.turns]);
      expect(await (turns[method] as (request: unknown) => Promise<unknown>).call(turns, request)).toEqual(unreadable(method));
      expect([...stub.turns]).toEqual(before);
    }
  });

  it.each(methods)('%s resolves to invalid-request for a throwing getter and a Proxy whose traps throw', async (method) => {
    const { turns } = await prepared();
    const call = (request: unknown) => (turns[method] as (request: unknown) => Promise<unknown>).call(turns, request);
    expect(await call(everyTrapThrows)).toEqual(unreadable(method));
    expect(await call(withThrowingGetter(validRequests[method], 'caller'))).toEqual(unreadable(method));
  });

  it('dispatchEffect reads its claim and execute the same way: unreadable is invalid-request, nothing launched', async () => {
    const { stub, turns } = await prepared();
    const dispatch = validRequests.dispatchEffect as Record<string, unknown>;
    expect(await turns.dispatchEffect({ ...dispatch, claim: everyTrapThrows } as never)).toEqual(unreadable('dispatchEffect'));
    expect(await turns.dispatchEffect({ ...dispatch, claim: withThrowingGetter(claimOne, 'effectId') } as never)).toEqual(
      unreadable('dispatchEffect'),
    );
    expect(await turns.dispatchEffect(withThrowingGetter(dispatch, 'execute') as never)).toEqual(unreadable('dispatchEffect'));
    expect(await turns.dispatchEffect({ ...dispatch, claim: null } as never)).toEqual(unreadable('dispatchEffect'));
    expect(stub.launches).toEqual([]);
  });

  it('startTurn reads its effect list once: an unreadable list is invalid-request, a changing one is used as first read', async () => {
    const { stub, turns } = await prepared();
    const start = validRequests.startTurn as Record<string, unknown>;
    expect(await turns.startTurn({ ...start, effectIds: new Proxy(['pay'], { get: throwHostile }) } as never)).toEqual(
      unreadable('startTurn'),
    );
    expect(await turns.startTurn({ ...start, effectIds: Object.defineProperty(['pay'], 0, { get: throwHostile }) } as never)).toEqual(
      unreadable('startTurn'),
    );
    expect(stub.turns.has('turn_2')).toBe(false);
    let reads = 0;
    const changing = Object.defineProperty(['pay'], 0, { enumerable: true, get: () => (++reads === 1 ? 'pay' : 'has space') });
    expect(await turns.startTurn({ ...start, effectIds: changing } as never)).toMatchObject({
      ok: true,
      outcome: 'started',
      turn: { turnId: 'turn_2', effects: [{ effectId: 'pay', claim: 0, status: 'open' }] },
    });
    expect(reads).toBe(1);
  });

  it.each(methods)(
    '%s checks the value it uses: a turn id that answers a bad id first and a good one later is invalid-request',
    async (method) => {
      const { stub, turns } = await prepared();
      const request = method === 'dispatchEffect' ? claimOne : (validRequests[method] as Record<string, unknown>);
      const flipping = answeringTwice(request, 'turnId', 'not an id', 'turn_1');
      const call =
        method === 'dispatchEffect' ? { ...(validRequests.dispatchEffect as object), claim: flipping.request } : flipping.request;
      const before = structuredClone([...stub.turns]);
      expect(await (turns[method] as (request: unknown) => Promise<unknown>).call(turns, call)).toEqual(unreadable(method));
      expect(flipping.reads()).toBe(1);
      expect([...stub.turns]).toEqual(before);
    },
  );

  it('dispatchEffect launches the claim it checked: a claim number that answers 0 first and 1 later is invalid-request, nothing launched', async () => {
    const { stub, turns } = await prepared();
    const flipping = answeringTwice(claimOne, 'claim', 0, 1);
    expect(await turns.dispatchEffect({ ...(validRequests.dispatchEffect as object), claim: flipping.request } as never)).toEqual(
      unreadable('dispatchEffect'),
    );
    expect(flipping.reads()).toBe(1);
    expect(stub.launches).toEqual([]);
  });

  it('a valid request still works after the hostile ones: dispatch launches once and stores the result (§6)', async () => {
    const { stub, turns } = await prepared();
    expect(await turns.dispatchEffect(validRequests.dispatchEffect as never)).toEqual({
      ok: true,
      outcome: 'completed',
      reused: false,
      result: 'paid',
    });
    expect(stub.launches).toEqual(['pay']);
  });
});

describe('new TurnRecovery: options are read once, and only a TypeError escapes (issue 12, §2.1)', () => {
  const adapter = { capabilities: FULL, authorize: () => true };
  it('throws TypeError for options it cannot read', () => {
    const message =
      'TurnRecovery: the options cannot be read; expected { maxWriteAttempts?, cacheSize?, admissionLeaseMs?, runLeaseMs?, maxEffectsPerTurn?, clock? }';
    expect(() => new recovery.TurnRecovery(adapter, everyTrapThrows as never)).toThrow(new TypeError(message));
    expect(() => new recovery.TurnRecovery(adapter, null as never)).toThrow(new TypeError(message));
    expect(() => new recovery.TurnRecovery(adapter, Object.defineProperty({}, 'clock', { enumerable: true, get: throwHostile }))).toThrow(
      new TypeError(message),
    );
  });

  it('throws TypeError for an option of the wrong kind, naming it', () => {
    expect(() => new recovery.TurnRecovery(adapter, { admissionLeaseMs: Symbol('lease') as never })).toThrow(
      new TypeError('TurnRecovery: admissionLeaseMs must be a positive safe integer of milliseconds, got symbol'),
    );
    expect(() => new recovery.TurnRecovery(adapter, { maxWriteAttempts: Number.NaN })).toThrow(
      new TypeError('TurnRecovery: maxWriteAttempts must be a number'),
    );
    expect(() => new recovery.TurnRecovery(adapter, { cacheSize: { [Symbol.toPrimitive]: throwHostile } as never })).toThrow(
      new TypeError('TurnRecovery: cacheSize must be a number'),
    );
    expect(() => new recovery.TurnRecovery(adapter, { maxEffectsPerTurn: 0 })).toThrow(
      new TypeError('TurnRecovery: maxEffectsPerTurn must be a positive safe integer, got 0'),
    );
  });

  it('uses the clock it read, once: a getter answering another clock later changes nothing', async () => {
    let reads = 0;
    const options = Object.defineProperty({}, 'clock', { enumerable: true, get: () => (++reads === 1 ? CLOCK : 'not a clock') });
    const stub = stubStore();
    const turns = new recovery.TurnRecovery<string, string>({ capabilities: FULL, authorize: () => true, store: stub.store }, options);
    await turns.startTurn({ caller: 'owner', ...TURN, effectIds: ['pay'] });
    expect(await turns.inspectTurn({ caller: 'owner', ...TURN })).toMatchObject({
      ok: true,
      value: { inspectedAt: '2026-11-30T09:00:00Z' },
    });
    expect(reads).toBe(1);
  });
});
