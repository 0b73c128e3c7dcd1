import { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import { describe, expect, it } from 'vitest';
import { createFakeInteractionStore, type FakeDatabase } from './index.js';
import {
  ANA,
  AT_EXPIRY,
  BEFORE_EXPIRY,
  CARD,
  CONVERSATION_ID,
  CORRELATION_ID,
  OPENED_AT,
  SCOPE,
  key,
  openedDatabase,
  validate,
  worker,
} from '../test/interactions.js';

const BO = 'session-bo';
const SCHEMA = { id: 'refund-choice', revision: 3 };
const answer = (optionId: string, caller = ANA) => ({ ...key, caller, value: { optionId }, at: BEFORE_EXPIRY });

interface Case {
  readonly name: string;
  /** Prepares the database (each step on its own fresh worker), then runs the call under test on another fresh one. */
  readonly run: (database: FakeDatabase) => Promise<unknown>;
  readonly expected: Readonly<Record<string, unknown>>;
}

// Every refusal of DESIGN §7 and issue 6 on the fake store, each call on a fresh worker, with its exact outcome.
const CASES: readonly Case[] = [
  {
    name: 'not-found: another principal',
    run: async (database) => {
      createFakeInteractionStore(database).setAuthority(CONVERSATION_ID, BO, {
        principalId: 'user_bo',
        tenantId: 'tenant_1',
        customerId: null,
        publicOwnerId: null,
      });
      return worker(database).submit(answer('refund', BO));
    },
    expected: { ok: false, code: 'not-found', message: 'no such interaction for this caller' },
  },
  {
    name: 'not-found: the same principal in another tenant',
    run: async (database) => {
      createFakeInteractionStore(database).setAuthority(CONVERSATION_ID, BO, {
        principalId: 'user_ana',
        tenantId: 'tenant_2',
        customerId: null,
        publicOwnerId: null,
      });
      return worker(database).submit(answer('refund', BO));
    },
    expected: { ok: false, code: 'not-found', message: 'no such interaction for this caller' },
  },
  {
    name: 'not-found: another conversation',
    run: (database) => worker(database).submit({ ...answer('refund'), conversationId: 'conv_2' }),
    expected: { ok: false, code: 'not-found', message: 'no such interaction for this caller' },
  },
  {
    name: 'not-found: a card that does not exist',
    run: (database) => worker(database).submit({ ...answer('refund'), correlationId: 'card_missing' }),
    expected: { ok: false, code: 'not-found', message: 'no such interaction for this caller' },
  },
  {
    name: 'already-closed: a different answer after one was stored',
    run: async (database) => {
      await worker(database).submit(answer('refund'));
      return worker(database).submit(answer('replace'));
    },
    expected: { ok: false, code: 'already-closed', message: 'the card was already submitted', status: 'submitted' },
  },
  {
    name: 'already-closed: an answer after cancellation',
    run: async (database) => {
      await worker(database).cancel({ ...key, at: BEFORE_EXPIRY });
      return worker(database).submit(answer('refund'));
    },
    expected: { ok: false, code: 'already-closed', message: 'the card was already cancelled', status: 'cancelled' },
  },
  {
    name: 'expired: an answer at the expiry',
    run: (database) => worker(database).submit({ ...answer('refund'), at: AT_EXPIRY }),
    expected: { ok: false, code: 'expired', message: `the card expired at ${AT_EXPIRY}` },
  },
  {
    name: 'not-expired: expiring early',
    run: (database) => worker(database).expire({ ...key, at: BEFORE_EXPIRY }),
    expected: { ok: false, code: 'not-expired', message: `the card expires at ${AT_EXPIRY}` },
  },
  {
    name: 'unknown-option: a value the card does not offer',
    run: (database) => worker(database).submit(answer('exchange')),
    expected: { ok: false, code: 'unknown-option' },
  },
  {
    name: 'invalid-value: a value the schema refuses, with its issues',
    run: async (database) => {
      await createFakeInteractionStore(database).changeMetadata({
        conversationId: CONVERSATION_ID,
        correlationId: CORRELATION_ID,
        schema: { id: 'refund-choice', revision: 4 },
      });
      return worker(database).submit(answer('replace'));
    },
    expected: { ok: false, code: 'invalid-value', issues: [{ path: ['value', 'optionId'], message: expect.any(String) }] },
  },
  {
    name: 'unknown-schema: the host knows no such schema',
    run: async (database) => {
      await createFakeInteractionStore(database).changeMetadata({
        conversationId: CONVERSATION_ID,
        correlationId: CORRELATION_ID,
        schema: { id: 'refund-choice', revision: 9 },
      });
      return worker(database).submit(answer('refund'));
    },
    expected: { ok: false, code: 'unknown-schema', message: 'no schema refund-choice revision 9' },
  },
  {
    name: 'validation-failed: the validator throws',
    run: (database) =>
      new InteractionResolver<string>({
        store: createFakeInteractionStore(database),
        validate: () => {
          throw new Error('registry down');
        },
      }).submit(answer('refund')),
    expected: { ok: false, code: 'validation-failed', message: 'the host validator threw; nothing was stored' },
  },
  {
    name: 'stale-revision: the expiry moved between validation and commit',
    run: (database) =>
      new InteractionResolver<string>({
        store: createFakeInteractionStore(database),
        validate: async (request) => {
          await createFakeInteractionStore(database).changeMetadata({
            conversationId: CONVERSATION_ID,
            correlationId: CORRELATION_ID,
            expiresAt: '2026-11-30T10:00:00Z',
          });
          return validate(request);
        },
      }).submit(answer('refund')),
    expected: { ok: false, code: 'stale-revision', message: 'the card changed (revision 2, validated against 1); read it again' },
  },
  {
    name: 'decline-not-allowed',
    run: async (database) => {
      const store = createFakeInteractionStore(database);
      await new InteractionResolver<string>({ store, validate }).open({
        caller: ANA,
        card: { ...CARD, correlationId: 'card_strict', allowDecline: false },
        schema: SCHEMA,
        expiresAt: AT_EXPIRY,
        scope: SCOPE,
        at: OPENED_AT,
      });
      return worker(database).decline({ ...key, correlationId: 'card_strict', at: BEFORE_EXPIRY });
    },
    expected: { ok: false, code: 'decline-not-allowed' },
  },
  {
    name: 'store-unavailable: the first read fails',
    run: (database) => {
      database.inject({ operation: 'interaction.read', kind: 'fail-before-commit' });
      return worker(database).submit(answer('refund'));
    },
    expected: { ok: false, code: 'store-unavailable', message: 'the store could not be read; nothing was written' },
  },
  {
    name: 'invalid-record: a stored record that is not version 1',
    run: (database) => {
      const records = database.table<Record<string, unknown>>('interaction-records');
      const stored = [...records.entries()][0];
      if (stored !== undefined) records.set(stored[0], { ...stored[1], recordVersion: 2 });
      return worker(database).submit(answer('refund'));
    },
    expected: { ok: false, code: 'invalid-record', message: 'recordVersion: expected 1' },
  },
  {
    name: 'invalid-request: no time and no clock',
    run: (database) => worker(database).submit({ ...key, value: { optionId: 'refund' } }),
    expected: { ok: false, code: 'invalid-request', message: 'at: expected an RFC 3339 timestamp with an offset, or a clock' },
  },
  {
    name: 'already-exists: another card under the same correlation id',
    run: (database) =>
      worker(database).open({
        caller: ANA,
        card: { ...CARD, prompt: 'Another question?' },
        schema: SCHEMA,
        expiresAt: AT_EXPIRY,
        scope: SCOPE,
        at: OPENED_AT,
      }),
    expected: { ok: false, code: 'already-exists', message: 'another card is open under this correlation id' },
  },
  {
    name: 'forbidden: opening a card for a scope the caller does not hold',
    run: (database) =>
      worker(database).open({
        caller: ANA,
        card: { ...CARD, correlationId: 'card_2' },
        schema: SCHEMA,
        expiresAt: AT_EXPIRY,
        scope: { ...SCOPE, principalId: 'user_bo' },
        at: OPENED_AT,
      }),
    expected: { ok: false, code: 'forbidden', message: 'the caller may not open a card for this scope' },
  },
  {
    name: 'invalid-card: not a v1 card',
    run: (database) =>
      worker(database).open({
        caller: ANA,
        card: { ...CARD, correlationId: 'card_2', presentation: { kind: 'map' } },
        schema: SCHEMA,
        expiresAt: AT_EXPIRY,
        scope: SCOPE,
        at: OPENED_AT,
      }),
    expected: { ok: false, code: 'invalid-card' },
  },
];

describe('every interaction refusal on the fake store, fresh workers (issue 6)', () => {
  it.each(CASES)('$name', async ({ run, expected }) => {
    const { database } = await openedDatabase();
    expect(await run(database)).toMatchObject(expected);
    // No case makes the resolver break the store's contract.
    expect(database.history.filter((entry) => entry.type === 'violation')).toEqual([]);
  });
});
