/**
 * Issue 12 "Hostile input" (DESIGN §2.1, §2.2, §2.7): the testkit's capture
 * verifier and golden replays never throw, whatever the text, options or name;
 * the fake stores' operations never reject on a hostile request; the report
 * formatter, the fake factories and the fakes' test-setup methods throw
 * `TypeError` only.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { everyTrapThrows, throwHostile } from '../../../test-support/hostile-values.js';
import {
  anyArguments,
  describeHostileContract,
  type FunctionClassification,
  type HostileTarget,
} from '../../../test-support/never-throws.js';
import * as testkit from './index.js';

const capture = readFileSync(new URL('../captures/violations.sse', import.meta.url), 'utf8');
const report = testkit.verifyChatCapture(capture);
const chunked = (options: unknown, chunk: unknown) => {
  const verifier = testkit.createChatCaptureVerifier(options as never);
  verifier.push(chunk as string);
  verifier.push(capture.slice(0, 40));
  return verifier.end();
};
const isReport = (value: unknown) => typeof value === 'object' && value !== null && 'violations' in value;

const TURN_RECORD = {
  conversationId: 'conv_1',
  turnId: 'turn_1',
  status: 'running',
  revision: 1,
  effects: [{ effectId: 'pay', claim: 1, status: 'open' }],
} as const;

// A fresh database whose turn store holds turn_1 (effect pay claimed once) with owner granted, and
// whose interaction store gives owner an authority: each hostile call starts from it.
async function stores() {
  const database = testkit.createFakeDatabase();
  const turns = testkit.createFakeTurnStore<string>(database);
  const interactions = testkit.createFakeInteractionStore(database);
  const log = testkit.createFakeChatEventLog(database);
  const conversations = testkit.createFakeConversationStore(database);
  turns.grant('conv_1', 'owner');
  await turns.compareAndSwap({ turnId: 'turn_1', expectedRevision: 0, next: TURN_RECORD });
  interactions.setAuthority('conv_1', 'owner', { principalId: 'p_1', tenantId: 't_1', customerId: null, publicOwnerId: null });
  return { database, turns, interactions, log, conversations };
}

type Stores = Awaited<ReturnType<typeof stores>>;

// `use(stores, ...args)` on fresh stores, as a target's `call`.
function onStores(use: (fixture: Stores, ...args: unknown[]) => unknown): (...args: unknown[]) => Promise<unknown> {
  return async (...args) => use(await stores(), ...args);
}

const admitRequest = {
  caller: 'owner',
  conversationId: 'conv_1',
  turnId: 'turn_1',
  effectId: 'pay',
  claim: 1,
  admittedAt: '2026-11-30T09:00:00Z',
};
const cardRequest = { caller: 'owner', conversationId: 'conv_1', correlationId: 'card_1' };
const launchNothing = () => undefined;
const decideNothing = () => ({ result: 'decided' });

const storeOperations: Readonly<Record<string, HostileTarget>> = {
  'FakeTurnStore.read': {
    call: onStores(({ turns }, turnId) => turns.read(turnId as string)),
    valid: ['turn_1'],
    returns: 'value',
    async: true,
  },
  'FakeTurnStore.admitDispatch': {
    call: onStores(({ turns }, request) => turns.admitDispatch(request as never, launchNothing)),
    valid: [admitRequest],
    returns: 'value',
    async: true,
  },
  'FakeTurnStore.replayWindow': {
    call: onStores(({ turns }, request) => turns.replayWindow(request as never)),
    valid: [{ conversationId: 'conv_1', turnId: 'turn_1', after: 0 }],
    returns: 'value',
    async: true,
  },
  'FakeTurnStore.authorize': {
    call: onStores(({ turns }, request) => turns.authorize(request as never)),
    valid: [{ caller: 'owner', action: 'claim', conversationId: 'conv_1', turnId: 'turn_1' }],
    returns: 'value',
    async: true,
  },
  'ChatEventLog.append (fake)': {
    call: onStores(({ log }, envelope) => log.append(envelope as never)),
    valid: [
      {
        schemaVersion: 1,
        conversationId: 'conv_1',
        turnId: 'turn_1',
        eventId: 'event_1',
        seq: 1,
        occurredAt: '2026-11-30T09:00:00Z',
        event: { type: 'delta', text: 'Hi' },
      },
    ],
    returns: 'value',
    async: true,
  },
  'ChatEventLog.replayWindow (fake)': {
    call: onStores(({ log }, request) => log.replayWindow(request as never)),
    valid: [{ conversationId: 'conv_1', turnId: 'turn_1', after: 0 }],
    returns: 'value',
    async: true,
  },
  'ChatEventLog.subscribe (fake)': {
    call: onStores(({ log }, request) => log.subscribe(request as never, () => undefined)),
    valid: [{ conversationId: 'conv_1', turnId: 'turn_1', after: 0 }],
    returns: 'value',
    async: true,
  },
  'ChatConversationStore.readConversationLog (fake)': {
    call: onStores(({ conversations }, request) => conversations.readConversationLog(request as never)),
    valid: [{ conversationId: 'conv_1', maxTurns: 10, maxFrames: 100 }],
    returns: 'result',
    async: true,
  },
  'ChatConversationStore.authorizeConversation (fake)': {
    call: onStores(({ conversations }, request) => conversations.authorizeConversation(request as never)),
    valid: [{ caller: 'owner', conversationId: 'conv_1' }],
    returns: 'boolean',
    async: true,
  },
  'ChatEventLog.pruneTurns (fake)': {
    call: onStores(({ log }, request) => log.pruneTurns(request as never)),
    valid: [{ before: '2026-11-30T09:00:00Z' }],
    returns: 'value',
    async: true,
  },
  'FakeInteractionStore.read': {
    call: onStores(({ interactions }, request) => interactions.read(request as never)),
    valid: [cardRequest],
    returns: 'value',
    async: true,
  },
  'FakeInteractionStore.transact': {
    call: onStores(({ interactions }, request) => interactions.transact(request as never, decideNothing)),
    valid: [cardRequest],
    returns: 'value',
    async: true,
  },
};

const neverThrowing: Readonly<Record<string, HostileTarget>> = {
  ...storeOperations,
  verifyChatCapture: { call: anyArguments(testkit.verifyChatCapture), valid: [capture, { conversationId: 'conv_1' }], returns: 'value' },
  'verifyChatCapture (legacy)': {
    call: anyArguments(testkit.verifyChatCapture),
    valid: ['event: delta\ndata: {"text":"Hi"}\n\n', { legacy: 'papercup', turnId: 'turn_1' }],
    returns: 'value',
  },
  createChatCaptureVerifier: { call: chunked, valid: [{ legacy: 'scout' }, capture.slice(0, 200)], returns: 'value' },
  replayGoldenSession: {
    call: anyArguments(testkit.replayGoldenSession),
    valid: [testkit.listGoldenSessions()[0]?.name],
    returns: 'result',
  },
  listGoldenSessions: { call: anyArguments(testkit.listGoldenSessions), valid: [undefined], returns: 'value' },
};

const validDatabase = testkit.createFakeDatabase();

const throwing: FunctionClassification['throwing'] = {
  formatChatCaptureReport: { call: anyArguments(testkit.formatChatCaptureReport), valid: [report, 'capture.sse'] },
  createFakeDatabase: { call: anyArguments(testkit.createFakeDatabase), valid: [{ seed: 3, pause: () => undefined }] },
  createFakeTurnStore: { call: anyArguments(testkit.createFakeTurnStore), valid: [validDatabase] },
  createFakeInteractionStore: { call: anyArguments(testkit.createFakeInteractionStore), valid: [validDatabase] },
  createFakeChatEventLog: { call: anyArguments(testkit.createFakeChatEventLog), valid: [validDatabase] },
  createFakeConversationStore: { call: anyArguments(testkit.createFakeConversationStore), valid: [validDatabase] },
  'FakeDatabase.inject': {
    call: (rule) => testkit.createFakeDatabase().inject(rule as never),
    valid: [{ operation: 'read', kind: 'delay', times: 2, turns: 1, occurrence: 1, target: { turnId: 'turn_1' }, when: () => true }],
  },
  'FakeDatabase.injectRandomFaults': {
    call: (plan) => testkit.createFakeDatabase().injectRandomFaults(plan as never),
    valid: [{ rate: 0.5, operations: ['read', 'compareAndSwap'], kinds: ['delay'] }],
  },
  'FakeTurnStore.compareAndSwap (a write it cannot make rejects)': {
    call: onStores(({ turns }, request) => turns.compareAndSwap(request as never)),
    valid: [{ turnId: 'turn_1', expectedRevision: 1, next: { ...TURN_RECORD, revision: 2, status: 'cancelled' } }],
    async: true,
  },
  'FakeTurnStore.grant': {
    call: onStores(({ turns }, conversationId, caller) => turns.grant(conversationId as string, caller as string)),
    valid: ['conv_1', 'owner'],
    async: true,
  },
  'FakeTurnStore.revoke': {
    call: onStores(({ turns }, conversationId, caller) => turns.revoke(conversationId as string, caller as string)),
    valid: ['conv_1', 'owner'],
    async: true,
  },
  'FakeTurnStore.appendFrames': {
    call: onStores(({ turns }, frames) => turns.appendFrames(frames as never)),
    valid: [
      [
        {
          schemaVersion: 1,
          conversationId: 'conv_1',
          turnId: 'turn_1',
          eventId: 'evt_1',
          seq: 1,
          occurredAt: '2026-11-30T09:00:00Z',
          event: { type: 'delta', text: 'Hi' },
        },
      ],
    ],
    async: true,
  },
  'FakeTurnStore.retainAfter': {
    call: onStores(({ turns }, turnId, bound) => turns.retainAfter(turnId as string, bound as number)),
    valid: ['turn_1', 1],
    async: true,
  },
  'FakeTurnStore.peek': { call: onStores(({ turns }, turnId) => turns.peek(turnId as string)), valid: ['turn_1'], async: true },
  'FakeTurnStore.adapter': {
    call: onStores(({ turns }, options) => turns.adapter(options as never)),
    valid: [{ onAbort: () => undefined, withoutAdmissionSeam: false }],
    async: true,
  },
  'FakeInteractionStore.setAuthority': {
    call: onStores(({ interactions }, conversationId, caller, authority) =>
      interactions.setAuthority(conversationId as string, caller as string, authority as never),
    ),
    valid: ['conv_1', 'owner', { principalId: 'p_1', tenantId: 't_1', customerId: null, publicOwnerId: null }],
    async: true,
  },
  'FakeInteractionStore.changeMetadata': {
    call: onStores(({ interactions }, change) => interactions.changeMetadata(change as never)),
    valid: [{ conversationId: 'conv_1', correlationId: 'card_1', expiresAt: '2026-12-01T00:00:00Z' }],
    async: true,
  },
  'FakeInteractionStore.peek': {
    call: onStores(({ interactions }, conversationId, correlationId) =>
      interactions.peek(conversationId as string, correlationId as string),
    ),
    valid: ['conv_1', 'card_1'],
    async: true,
  },
};

describeHostileContract('testkit', testkit, {
  neverThrowing,
  throwing,
  others: {
    FakeDatabaseError: 'the error class the fakes fault with, by design',
  },
});

describe('testkit: the valid arguments', () => {
  it('the valid capture above is a report with violations, so mutations start from a real one', () => {
    expect(isReport(report) && report.violations.length > 0).toBe(true);
  });
});

const refused = (message: string) => ({ ok: false, frames: 0, turns: 0, violations: [{ rule: 'invalid-options', message }] });

describe('testkit: exact outcomes of the hostile inputs issue 12 found', () => {
  it('verifyChatCapture reports options it cannot read or use as one invalid-options violation (DESIGN §8)', () => {
    expect(testkit.verifyChatCapture(capture, null as never)).toEqual(
      refused('the options cannot be read; expected { conversationId?, legacy?, turnId? }'),
    );
    expect(testkit.verifyChatCapture(capture, everyTrapThrows as never)).toEqual(
      refused('the options cannot be read; expected { conversationId?, legacy?, turnId? }'),
    );
    expect(testkit.verifyChatCapture(capture, { conversationId: 'has space' })).toEqual(refused('conversationId: expected a v1 id'));
    expect(testkit.verifyChatCapture(capture, { legacy: 'scout', turnId: 10n } as never)).toEqual(refused('turnId: expected a v1 id'));
  });

  it('a chunk that is not text is an invalid-capture violation at the frame it would have started (DESIGN §8)', () => {
    const verifier = testkit.createChatCaptureVerifier();
    verifier.push(Symbol('chunk') as never);
    expect(verifier.end().violations).toEqual([
      { rule: 'invalid-capture', message: 'a chunk of the capture is a symbol, not text; it was not read', frame: 1 },
    ]);
  });

  it('formatChatCaptureReport throws TypeError for a report it cannot read (§2.1)', () => {
    expect(() => testkit.formatChatCaptureReport(everyTrapThrows as never, 'capture.sse')).toThrow(
      new TypeError('formatChatCaptureReport: the report cannot be read'),
    );
    expect(() => testkit.formatChatCaptureReport(report, { [Symbol.toPrimitive]: throwHostile } as never)).toThrow(
      new TypeError('formatChatCaptureReport: source must be a string'),
    );
    expect(testkit.formatChatCaptureReport(testkit.verifyChatCapture(capture, null as never), 'capture.sse')).toBe(
      'capture.sse: 1 violation in 0 frames, 0 turns\n  end of capture: invalid-options: the options cannot be read; expected { conversationId?, legacy?, turnId? }\n',
    );
  });
});

describe('testkit: the fakes refuse unusable options with TypeError only (issue 12, §2.1)', () => {
  it('createFakeDatabase throws TypeError for options it cannot read or use, reading them once', () => {
    const unreadable = new TypeError('createFakeDatabase: the options cannot be read; expected { seed?, pause? }');
    expect(() => testkit.createFakeDatabase(everyTrapThrows as never)).toThrow(unreadable);
    expect(() => testkit.createFakeDatabase(null as never)).toThrow(unreadable);
    expect(() => testkit.createFakeDatabase(Object.defineProperty({}, 'seed', { enumerable: true, get: throwHostile }))).toThrow(
      unreadable,
    );
    expect(() => testkit.createFakeDatabase({ seed: { [Symbol.toPrimitive]: throwHostile } as never })).toThrow(
      new TypeError('createFakeDatabase: seed must be a number'),
    );
    expect(() => testkit.createFakeDatabase({ pause: 'later' as never })).toThrow(
      new TypeError('createFakeDatabase: pause must be a function'),
    );
    let reads = 0;
    const seeded = testkit.createFakeDatabase(
      Object.defineProperty({}, 'seed', { enumerable: true, get: () => (++reads === 1 ? 7 : Symbol('seed')) }),
    );
    expect(seeded.seed).toBe(7);
    expect(reads).toBe(1);
  });

  it('createFakeTurnStore and createFakeInteractionStore throw TypeError for a database they cannot use', () => {
    for (const database of [null, everyTrapThrows, {}, { ...validDatabase, table: throwHostile }]) {
      expect(() => testkit.createFakeTurnStore(database as never)).toThrow(
        new TypeError('createFakeTurnStore: expected a FakeDatabase from createFakeDatabase'),
      );
      expect(() => testkit.createFakeInteractionStore(database as never)).toThrow(
        new TypeError('createFakeInteractionStore: expected a FakeDatabase from createFakeDatabase'),
      );
    }
  });

  it("inject throws TypeError for a rule it cannot read, so a later call cannot throw the rule's error", async () => {
    const { database, turns } = await stores();
    expect(() => database.inject(everyTrapThrows as never)).toThrow(TypeError);
    expect(() => database.inject({ operation: 'read', kind: 'delay', target: everyTrapThrows } as never)).toThrow(TypeError);
    expect(() => database.injectRandomFaults({ rate: 1, operations: new Proxy(['read'], { get: throwHostile }) } as never)).toThrow(
      TypeError,
    );
    expect(await turns.read('turn_1')).toMatchObject({ record: { turnId: 'turn_1', revision: 1 } });
  });
});

describe('testkit: the fake stores answer a request they cannot read as naming nothing (issue 12 "Hostile input")', () => {
  it('the turn store: read is null, authorize false, admitDispatch forbidden (nothing launched), replayWindow empty', async () => {
    const { database, turns } = await stores();
    const launches: string[] = [];
    for (const request of [null, everyTrapThrows, withGetter(admitRequest, 'turnId')]) {
      expect(await turns.read(request as never)).toBeNull();
      expect(await turns.authorize(request as never)).toBe(false);
      expect(await turns.admitDispatch(request as never, () => launches.push('launched'))).toEqual({ admitted: false, code: 'forbidden' });
      expect(await turns.replayWindow(request as never)).toEqual({ lowerBound: 0, latestSeq: 0, frames: [] });
      expect(await turns.compareAndSwap(request as never)).toEqual({ swapped: false, current: null });
    }
    expect(await turns.admitDispatch(admitRequest, 'launch' as never)).toEqual({ admitted: false, code: 'forbidden' });
    expect(launches).toEqual([]);
    expect(database.history.filter((entry) => entry.type === 'admitted')).toEqual([]);
  });

  it('the turn store reads a request once: an admission whose turn id answers turn_1 first and another later admits turn_1', async () => {
    const { turns } = await stores();
    let reads = 0;
    const request = Object.defineProperty({ ...admitRequest }, 'turnId', {
      enumerable: true,
      get: () => (++reads === 1 ? 'turn_1' : 'turn_2'),
    });
    expect(await turns.admitDispatch(request as never, () => undefined)).toEqual({ admitted: true });
    expect(reads).toBe(1);
    expect(turns.peek('turn_1')?.admissions).toEqual([{ effectId: 'pay', claim: 1, admittedAt: '2026-11-30T09:00:00Z' }]);
  });

  it('compareAndSwap rejects with TypeError, recorded as a violation, only for a write it cannot make', async () => {
    const { database, turns } = await stores();
    const stale = { turnId: 'turn_1', expectedRevision: 5, next: everyTrapThrows };
    expect(await turns.compareAndSwap(stale as never)).toMatchObject({ swapped: false, current: { record: { revision: 1 } } });
    await expect(turns.compareAndSwap({ turnId: 'turn_1', expectedRevision: 1, next: everyTrapThrows } as never)).rejects.toThrow(
      new TypeError('fake turn store: the record cannot be read as a turn record'),
    );
    expect(database.history.filter((entry) => entry.type === 'violation').map((entry) => entry.detail['violation'])).toEqual([
      'the record cannot be read as a turn record',
    ]);
    expect(turns.peek('turn_1')?.record.revision).toBe(1);
  });

  it('the interaction store: read sees no record and no authority; transact decides on that without a round trip', async () => {
    const { database, interactions } = await stores();
    database.resetCounts();
    const seen: unknown[] = [];
    for (const request of [null, everyTrapThrows, withGetter(cardRequest, 'caller'), { ...cardRequest, conversationId: 10n }]) {
      expect(await interactions.read(request as never)).toEqual({ record: null, authority: null });
      expect(await interactions.transact(request as never, (snapshot) => (seen.push(snapshot), { result: 'refused' }))).toBe('refused');
    }
    expect(seen).toEqual(Array.from({ length: 4 }, () => ({ record: null, authority: null })));
    expect(database.counts()).toEqual({});
  });
});

function withGetter(request: object, key: string): object {
  return Object.defineProperty({ ...request }, key, { enumerable: true, get: throwHostile });
}
