import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type { ChatEventLogSubscriptionEnd, TurnRecord } from '@papercusp/chat-protocol-recovery';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshSchema, useTestDatabases } from '../test/databases.js';
import { grant as grantCard, grantsLookup, prepareInteractionSchema } from '../test/interaction-grants.js';
import { grant, isGranted, prepareSchema } from '../test/turn-store-harness.js';
import { createPostgresChatStore, type ChatDatabase } from './index.js';

// Issue 24: an id core's parsers refuse can never have been stored, so no store method lets it reach the
// database (which cannot bind a NUL or a lone surrogate, nor index a key of any length): a read answers
// as for an unknown id, a write answers its typed refusal, and neither rejects.
const databases = useTestDatabases();

/** Ids `isChatId` refuses, each a different reason Postgres (or the index) would fail on, or a string core refuses. */
const UNSTORABLE_IDS: readonly (readonly [string, string])[] = [
  ['a NUL', 'turn\u0000x'],
  ['a lone high surrogate', 'turn\ud800x'],
  ['a lone low surrogate', '\udc00turn'],
  ['257 characters', 't'.repeat(257)],
  ['100,000 characters (past a btree key)', 'k'.repeat(100_000)],
  ['control characters', 'turn\u0007\u001b'],
  ['a space', 'turn x'],
  ['the empty string', ''],
  ['a non-ASCII letter', 'tür'],
];

/** Names an object inherits, valid as ids: the store keeps them like any other. */
const INHERITED_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'] as const;

const EMPTY_WINDOW = { lowerBound: 0, latestSeq: 0, frames: [] };
const AT = '2031-05-01T08:00:00Z';
const CALLER = 'user_owner';
const AUTHORITY = { principalId: 'user_1', tenantId: 'tenant_1', customerId: null, publicOwnerId: null };

let keys = 0;
function freshKey(): { readonly conversationId: string; readonly turnId: string } {
  keys += 1;
  return { conversationId: `conv_hostile_${process.pid}_${keys}`, turnId: `turn_hostile_${process.pid}_${keys}` };
}

const envelopeOf = (key: { readonly conversationId: string; readonly turnId: string }, seq: number, eventId = `evt_${seq}`) => ({
  schemaVersion: 1 as const,
  ...key,
  eventId: `${key.turnId}_${eventId}`,
  seq,
  occurredAt: AT,
  event: { type: 'delta' as const, text: `text ${seq}` },
});

const recordOf = (conversationId: string, turnId: string): TurnRecord<string> => ({
  conversationId,
  turnId,
  status: 'running',
  revision: 1,
  effects: [{ effectId: 'call_pay', claim: 1, status: 'open' }],
});

/** A migrated schema with both hosts' grants tables (the turn store's, the interaction store's), and the store over it. */
async function migratedStore(database: ChatDatabase) {
  const schema = freshSchema('hostile_ids');
  // The second migration run applies nothing.
  await prepareSchema(database, schema);
  await prepareInteractionSchema(database, schema);
  const store = createPostgresChatStore<string, string>(database, {
    schema,
    authorizeDispatch: (query, request) => isGranted(query, schema, request.conversationId, request.caller),
    interactionAuthority: grantsLookup(schema),
    authorizeConversation: (query, request) => isGranted(query, schema, request.conversationId, request.caller),
  });
  return { schema, store };
}

/** A granted caller, a running turn with a claimed effect and one frame, in `shared` or in a fresh schema. */
async function setUp(database: ChatDatabase, shared?: Awaited<ReturnType<typeof migratedStore>>) {
  const { schema, store } = shared ?? (await migratedStore(database));
  const key = freshKey();
  await grant(database, schema, key.conversationId, CALLER);
  await grantCard(database, schema, key.conversationId, CALLER, AUTHORITY);
  expect(
    await store.turnStore.compareAndSwap({ turnId: key.turnId, expectedRevision: 0, next: recordOf(key.conversationId, key.turnId) }),
  ).toMatchObject({ swapped: true });
  expect(await store.eventLog.append(envelopeOf(key, 1))).toEqual({ ok: true, outcome: 'appended', seq: 1, latestSeq: 1 });
  const admit = { caller: CALLER, ...key, effectId: 'call_pay', claim: 1, admittedAt: AT };
  return { schema, store, key, admit };
}

/** What a subscription heard within a round trip and a short wait: a subscription that ends `lost` at once shows here. */
async function heardBy(
  subscribe: (onEnvelope: (envelope: ChatEventEnvelope) => void, onEnd: (end: ChatEventLogSubscriptionEnd) => void) => Promise<() => void>,
) {
  const heard: unknown[] = [];
  const unsubscribe = await subscribe(
    (envelope) => heard.push(envelope.seq),
    (end) => heard.push(end),
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  unsubscribe();
  return heard;
}

describe.each([
  ['PGlite', () => databases.pglite()],
  ['Postgres', () => databases.postgres()],
])('ids core refuses never reach the database, in every store method, on %s (issue 24)', (_name, database) => {
  // One schema for the refused ids: each test has turns of its own, and none of them may add a row.
  let shared: Awaited<ReturnType<typeof migratedStore>> | undefined;
  beforeAll(async () => {
    shared = await migratedStore(database());
  }, 120_000);
  const setUpShared = () => setUp(database(), shared);
  describe.each(UNSTORABLE_IDS)('an id with %s', (_what, id) => {
    it('eventLog: append is invalid-envelope; replayWindow reads the empty window; subscribe resolves, delivers nothing and never ends', async () => {
      const { store, key } = await setUpShared();
      const { eventLog } = store;
      for (const field of ['conversationId', 'turnId', 'eventId'] as const) {
        expect(await eventLog.append({ ...envelopeOf(key, 2), [field]: id })).toMatchObject({ ok: false, code: 'invalid-envelope' });
      }
      for (const request of [
        { conversationId: id, turnId: key.turnId, after: 0 },
        { conversationId: key.conversationId, turnId: id, after: 0 },
      ]) {
        expect(await eventLog.replayWindow(request)).toEqual(EMPTY_WINDOW);
        expect(await heardBy((onEnvelope, onEnd) => eventLog.subscribe(request, onEnvelope, onEnd))).toEqual([]);
      }
      // Nothing was written, and the turn is as it was.
      expect(await eventLog.replayWindow({ ...key, after: 0 })).toMatchObject({ lowerBound: 0, latestSeq: 1 });
    });

    it('readConversationLog is invalid-request; pruneTurns with the id as its instant is invalid-request', async () => {
      const { store } = await setUpShared();
      expect(await store.readConversationLog({ conversationId: id })).toEqual({
        ok: false,
        code: 'invalid-request',
        message:
          "readConversationLog: expected a v1 conversation id, positive integer bounds, a v1 throughTurnId and overflow 'refuse' or 'keep-newest'",
      });
      expect(await store.eventLog.pruneTurns({ before: id })).toMatchObject({ ok: false, code: 'invalid-request' });
    });

    it('turnStore: read is null; compareAndSwap on the id is { swapped: false, current: null }; a record carrying it is a TypeError; nothing stored', async () => {
      const { schema, store, key } = await setUpShared();
      const { turnStore } = store;
      expect(await turnStore.read(id)).toBeNull();
      expect(await turnStore.compareAndSwap({ turnId: id, expectedRevision: 0, next: recordOf(key.conversationId, id) })).toEqual({
        swapped: false,
        current: null,
      });
      const other = freshKey();
      const carrying = [
        recordOf(id, other.turnId),
        { ...recordOf(other.conversationId, other.turnId), effects: [{ effectId: id, claim: 1, status: 'open' as const }] },
      ];
      for (const next of carrying) {
        await expect(turnStore.compareAndSwap({ turnId: other.turnId, expectedRevision: 0, next })).rejects.toThrow(TypeError);
      }
      expect(await turnStore.read(other.turnId)).toBeNull();
      // No row holds an id core refuses (counted without binding one).
      const { rows } = await database().query(
        `SELECT count(*)::int AS turns FROM "${schema}".turns WHERE turn_id !~ '^[!-~]+$' OR length(turn_id) > 256 OR conversation_id !~ '^[!-~]+$' OR length(conversation_id) > 256`,
      );
      expect(rows).toEqual([{ turns: 0 }]);
    });

    it('turnStore: admitDispatch with the id as conversation, turn or effect (or as admittedAt) is forbidden and launches nothing', async () => {
      const { store, admit } = await setUpShared();
      let launches = 0;
      const launch = () => {
        launches += 1;
      };
      for (const field of ['conversationId', 'turnId', 'effectId', 'admittedAt'] as const) {
        expect(await store.turnStore.admitDispatch({ ...admit, [field]: id }, launch)).toEqual({ admitted: false, code: 'forbidden' });
      }
      expect(launches).toBe(0);
      // The same request with its own ids is admitted: only the id refused it.
      expect(await store.turnStore.admitDispatch(admit, launch)).toEqual({ admitted: true });
      expect(launches).toBe(1);
    });

    it('interactionStore: transact decides on no record and no authority; read sees nothing; authorizeConversation is false', async () => {
      const { store, key } = await setUpShared();
      for (const request of [
        { caller: CALLER, conversationId: id, correlationId: 'card_1' },
        { caller: CALLER, conversationId: key.conversationId, correlationId: id },
      ]) {
        const seen: unknown[] = [];
        expect(
          await store.interactionStore.transact(request, (snapshot) => {
            seen.push(snapshot);
            return { result: 'decided' };
          }),
        ).toBe('decided');
        expect(seen).toEqual([{ record: null, authority: null }]);
        expect(await store.interactionStore.read(request)).toEqual({ record: null, authority: null });
      }
      expect(await store.authorizeConversation({ caller: CALLER, conversationId: id })).toBe(false);
      // A caller the host cannot bind is its lookup's to answer (no grant), never the store's rejection.
      expect(await store.authorizeConversation({ caller: id, conversationId: key.conversationId })).toBe(false);
    });
  });

  it.each(INHERITED_NAMES)('the inherited name %j is an id like any other: stored, read back, listed', async (name) => {
    const { schema, store } = await setUp(database());
    const key = { conversationId: name, turnId: `${name}_${freshKey().turnId}` };
    const turn = { conversationId: `conv_${name}_${keys}`, turnId: name };
    expect(await store.eventLog.replayWindow({ ...key, after: 0 })).toEqual(EMPTY_WINDOW);
    const envelope = envelopeOf(key, 1, name);
    expect(await store.eventLog.append(envelope)).toEqual({ ok: true, outcome: 'appended', seq: 1, latestSeq: 1 });
    expect(await store.eventLog.replayWindow({ ...key, after: 0 })).toEqual({ lowerBound: 0, latestSeq: 1, frames: [envelope] });
    expect(await store.readConversationLog({ conversationId: name })).toMatchObject({
      ok: true,
      value: { conversationId: name, turns: [{ turnId: key.turnId, latestSeq: 1, frames: [envelope] }] },
    });
    // Each name gets a fresh schema, so no other test stored it first.
    expect(await store.turnStore.read(name)).toBeNull();
    const record = { ...recordOf(turn.conversationId, name), effects: [{ effectId: name, claim: 1, status: 'open' as const }] };
    expect(await store.turnStore.compareAndSwap({ turnId: name, expectedRevision: 0, next: record })).toEqual({
      swapped: true,
      turn: { record, admissions: [] },
    });
    await grant(database(), schema, turn.conversationId, name);
    const admit = { caller: name, ...turn, effectId: name, claim: 1, admittedAt: AT };
    expect(await store.turnStore.admitDispatch(admit, () => undefined)).toEqual({ admitted: true });
    expect(await store.turnStore.read(name)).toEqual({ record, admissions: [{ effectId: name, claim: 1, admittedAt: AT }] });
    await grantCard(database(), schema, name, name, AUTHORITY);
    expect(await store.interactionStore.read({ caller: name, conversationId: name, correlationId: name })).toEqual({
      record: null,
      authority: AUTHORITY,
    });
  });
});
