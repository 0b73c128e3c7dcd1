/**
 * Issue 12 "Hostile input" and issue 24 (DESIGN §2.1, §2.7): every function
 * the package exports, and every method of the store it builds, on every
 * catalogue value in every argument position (getters, Proxies, inherited
 * names, NUL and lone surrogates among them), on PGlite. The never-rejecting
 * ones resolve; the reads resolve too, since no hostile request reaches the
 * database; the factories, `compareAndSwap` (a record that cannot be
 * written) and `listRunningTurns` (a request it cannot use) throw `TypeError` only.
 */
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import {
  anyArguments,
  describeHostileContract,
  type FunctionClassification,
  type HostileTarget,
} from '../../../test-support/never-throws.js';
import { grant as grantCard, grantsLookup, prepareInteractionSchema } from '../test/interaction-grants.js';
import { grant, isGranted, prepareSchema } from '../test/turn-store-harness.js';
import * as postgres from './index.js';

const pglite = await PGlite.create();
afterAll(async () => {
  await pglite.close();
});
const database = postgres.pgliteDatabase(pglite);
const schema = 'hostile_never_throws';
await prepareSchema(database, schema);
await prepareInteractionSchema(database, schema);

const CALLER = 'user_owner';
const AT = '2031-05-01T08:00:00Z';
const key = { conversationId: 'conv_hostile', turnId: 'turn_hostile' };
const authority = { principalId: 'user_1', tenantId: 'tenant_1', customerId: null, publicOwnerId: null };
const options: postgres.PostgresChatStoreOptions<unknown> = {
  schema,
  authorizeDispatch: (query, request) => isGranted(query, schema, request.conversationId, request.caller),
  interactionAuthority: grantsLookup(schema),
  authorizeConversation: (query, request) => isGranted(query, schema, request.conversationId, request.caller),
};
const store = postgres.createPostgresChatStore<string, unknown>(database, options);
await grant(database, schema, key.conversationId, CALLER);
await grantCard(database, schema, key.conversationId, CALLER, authority);
const record = { ...key, status: 'running' as const, revision: 1, effects: [{ effectId: 'call_pay', claim: 1, status: 'open' as const }] };
await store.turnStore.compareAndSwap({ turnId: key.turnId, expectedRevision: 0, next: record });
const envelope = { schemaVersion: 1, ...key, eventId: 'evt_1', seq: 1, occurredAt: AT, event: { type: 'delta', text: 'hello' } };
await store.eventLog.append(envelope as never);

const cardRequest = { caller: CALLER, conversationId: key.conversationId, correlationId: 'card_hostile' };
const method =
  <Args extends unknown[]>(call: (...args: Args) => unknown) =>
  (...args: unknown[]) =>
    call(...(args as Args));

const neverThrowing: Readonly<Record<string, HostileTarget>> = {
  migrateChatStore: {
    call: anyArguments(postgres.migrateChatStore),
    valid: [database, { schema }],
    returns: 'result',
    async: true,
    runs: 50,
  },
  readInteractionOutbox: {
    call: anyArguments(postgres.readInteractionOutbox),
    valid: [database, { schema, after: 0, limit: 10 }],
    returns: 'result',
    async: true,
    runs: 50,
  },
  classifyDatabaseError: { call: anyArguments(postgres.classifyDatabaseError), valid: [new Error('x')], returns: 'value' },
  isChatIdentifier: { call: anyArguments(postgres.isChatIdentifier), valid: [schema], returns: 'boolean' },
  'createPostgresChatStore().eventLog.append': {
    call: method(store.eventLog.append),
    valid: [envelope],
    returns: 'result',
    async: true,
    runs: 50,
  },
  'createPostgresChatStore().eventLog.replayWindow': {
    call: method(store.eventLog.replayWindow),
    valid: [{ ...key, after: 0 }],
    returns: 'value',
    async: true,
    runs: 50,
  },
  'createPostgresChatStore().eventLog.subscribe': {
    // Unsubscribed at once: a hostile callback that is a function would otherwise keep a tail open.
    call: async (...args: unknown[]) => {
      const unsubscribe = await store.eventLog.subscribe(...(args as Parameters<typeof store.eventLog.subscribe>));
      unsubscribe();
      return unsubscribe;
    },
    valid: [{ ...key, after: 0 }, () => undefined, () => undefined],
    returns: 'value',
    async: true,
    runs: 50,
  },
  'createPostgresChatStore().eventLog.pruneTurns': {
    call: method(store.eventLog.pruneTurns),
    valid: [{ before: '2001-01-01T00:00:00Z' }],
    returns: 'result',
    async: true,
    runs: 50,
  },
  'createPostgresChatStore().readConversationLog': {
    call: method(store.readConversationLog),
    valid: [{ conversationId: key.conversationId, maxTurns: 10, maxFrames: 10 }],
    returns: 'result',
    async: true,
    runs: 50,
  },
  'createPostgresChatStore().authorizeConversation': {
    call: method(store.authorizeConversation),
    valid: [{ caller: CALLER, conversationId: key.conversationId }],
    returns: 'boolean',
    async: true,
    runs: 50,
  },
  'createPostgresChatStore().turnStore.read': {
    call: method(store.turnStore.read),
    valid: [key.turnId],
    returns: 'value',
    async: true,
    runs: 50,
  },
  'createPostgresChatStore().turnStore.admitDispatch': {
    call: method(store.turnStore.admitDispatch),
    valid: [{ caller: CALLER, ...key, effectId: 'call_pay', claim: 1, admittedAt: AT }, () => undefined],
    returns: 'value',
    async: true,
    runs: 50,
  },
  'createPostgresChatStore().interactionStore.transact (the request)': {
    call: (request: unknown) => store.interactionStore.transact(request as never, () => ({ result: 'decided' })),
    valid: [cardRequest],
    returns: 'value',
    async: true,
    runs: 50,
  },
  'createPostgresChatStore().interactionStore.read': {
    call: method(store.interactionStore.read),
    valid: [cardRequest],
    returns: 'value',
    async: true,
    runs: 50,
  },
};

const throwing: FunctionClassification['throwing'] = {
  createPostgresChatStore: { call: anyArguments(postgres.createPostgresChatStore), valid: [database, options] },
  createPostgresTurnStore: { call: anyArguments(postgres.createPostgresTurnStore), valid: [database, options] },
  createPostgresInteractionStore: { call: anyArguments(postgres.createPostgresInteractionStore), valid: [database, options] },
  createPostgresEventLog: { call: anyArguments(postgres.createPostgresEventLog), valid: [database, options] },
  pgDatabase: { call: anyArguments(postgres.pgDatabase), valid: [{ totalCount: 0, on: () => undefined }] },
  pgliteDatabase: { call: anyArguments(postgres.pgliteDatabase), valid: [pglite] },
  'createPostgresChatStore().turnStore.compareAndSwap': {
    call: method(store.turnStore.compareAndSwap),
    valid: [{ turnId: 'turn_hostile_swap', expectedRevision: 0, next: { ...record, turnId: 'turn_hostile_swap' } }],
    async: true,
    runs: 50,
  },
  'createPostgresChatStore().turnStore.listRunningTurns': {
    call: method(store.turnStore.listRunningTurns),
    valid: [{ afterTurnId: 'turn_a', limit: 10 }],
    async: true,
    runs: 50,
  },
};

describeHostileContract('postgres', postgres, { neverThrowing, throwing });

// A counterexample the property found (seed 360241671): a getter inside an effect of the record threw the hostile
// error itself, where a record that cannot be read is a TypeError, and nothing is written.
describe('compareAndSwap of a record whose effect cannot be read', () => {
  it('rejects with a TypeError and writes nothing', async () => {
    const effect = Object.defineProperty({ claim: 1, status: 'open' }, 'effectId', {
      enumerable: true,
      get: () => {
        throw new Error('hostile');
      },
    });
    const next = { ...record, turnId: 'turn_hostile_effect', effects: [effect] };
    await expect(
      store.turnStore.compareAndSwap({ turnId: 'turn_hostile_effect', expectedRevision: 0, next: next as never }),
    ).rejects.toThrow(new TypeError('compareAndSwap of turn_hostile_effect: the record cannot be read (a getter or a Proxy trap threw)'));
    expect(await store.turnStore.read('turn_hostile_effect')).toBeNull();
  });
});
