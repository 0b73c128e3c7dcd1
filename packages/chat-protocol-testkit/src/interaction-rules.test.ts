import { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import { describe, expect, it } from 'vitest';
import { createFakeInteractionStore } from './index.js';
import {
  ANA,
  AT_EXPIRY,
  BEFORE_EXPIRY,
  CONVERSATION_ID,
  CORRELATION_ID,
  key,
  openedDatabase,
  validate,
  worker,
} from '../test/interactions.js';

const submit = (resolver: InteractionResolver<string>, optionId: string) =>
  resolver.submit({ ...key, value: { optionId }, at: BEFORE_EXPIRY });

describe('InteractionResolver over the fake store, fresh workers (issue 6)', () => {
  it('a card opened by one worker is answered by another and replayed to a third', async () => {
    const { database } = await openedDatabase();
    const answered = await submit(worker(database), 'refund');
    expect(answered).toMatchObject({
      ok: true,
      outcome: 'submitted',
      replayed: false,
      record: { value: { optionId: 'refund' }, revision: 2 },
    });
    expect(await submit(worker(database), 'refund')).toEqual({ ...answered, replayed: true });
    expect(await submit(worker(database), 'replace')).toMatchObject({ ok: false, code: 'already-closed', status: 'submitted' });
    expect(
      createFakeInteractionStore(database)
        .transitions()
        .map((transition) => transition.type),
    ).toEqual(['interaction-opened', 'interaction-closed']);
  });

  it('a revoked authority is not-found on the next call, even mid-conversation', async () => {
    const { database } = await openedDatabase();
    createFakeInteractionStore(database).setAuthority(CONVERSATION_ID, ANA, null);
    expect(await submit(worker(database), 'refund')).toEqual({
      ok: false,
      code: 'not-found',
      message: 'no such interaction for this caller',
    });
  });

  it('a schema revision the host commits between validation and commit is schema-changed', async () => {
    const { database } = await openedDatabase();
    const host = createFakeInteractionStore(database);
    const resolver = new InteractionResolver<string>({
      store: createFakeInteractionStore(database),
      validate: async (request) => {
        await host.changeMetadata({
          conversationId: CONVERSATION_ID,
          correlationId: CORRELATION_ID,
          schema: { id: 'refund-choice', revision: 4 },
        });
        return validate(request);
      },
    });
    expect(await submit(resolver, 'replace')).toMatchObject({ ok: false, code: 'schema-changed' });
    expect(host.peek(CONVERSATION_ID, CORRELATION_ID)).toMatchObject({ status: 'pending', revision: 2 });
  });

  it('a restart mid-answer: the worker cannot tell, a fresh worker sees the card pending and answers it once', async () => {
    const { database } = await openedDatabase();
    const doomed = new InteractionResolver<string>({
      store: createFakeInteractionStore(database),
      validate: (request) => {
        database.restart();
        return validate(request);
      },
    });
    expect(await submit(doomed, 'refund')).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'read-failed' });
    expect(await worker(database).read({ ...key, at: BEFORE_EXPIRY })).toMatchObject({ ok: true, record: { status: 'pending' } });
    expect(await submit(worker(database), 'refund')).toMatchObject({ ok: true, outcome: 'submitted', replayed: false });
  });
});

describe('a lost acknowledgement at transact: exactly one read, and each of its outcomes (issue 6)', () => {
  it('ours: the write committed, the one read finds it, replayed', async () => {
    const { database } = await openedDatabase();
    database.inject({ operation: 'interaction.transact', kind: 'lose-acknowledgement' });
    database.resetCounts();
    expect(await submit(worker(database), 'refund')).toMatchObject({ ok: true, outcome: 'submitted', replayed: true });
    // One read before validation, one transact, exactly one read after it.
    expect(database.counts()).toEqual({ 'interaction.read': 2, 'interaction.transact': 1 });
  });

  it('another’s: our write failed and another worker’s answer is stored, a typed refusal, and we never advance', async () => {
    const { database } = await openedDatabase();
    const store = createFakeInteractionStore(database);
    const other = worker(database);
    const resolver = new InteractionResolver<string>({
      store: {
        transact: async (request, decide) => {
          try {
            return await store.transact(request, decide);
          } catch (error) {
            // Between our failed transaction and our read, another worker answers.
            await submit(other, 'replace');
            throw error;
          }
        },
        read: (request) => store.read(request),
      },
      validate,
    });
    database.inject({ operation: 'interaction.transact', kind: 'fail-before-commit' });
    database.resetCounts();
    expect(await submit(resolver, 'refund')).toEqual({
      ok: false,
      code: 'already-closed',
      message: 'the card was already submitted',
      status: 'submitted',
    });
    expect(store.peek(CONVERSATION_ID, CORRELATION_ID)).toMatchObject({ value: { optionId: 'replace' }, closedBy: 'user_ana' });
  });

  it('still pending: needs-reconciliation, the write never retried', async () => {
    const { database } = await openedDatabase();
    database.inject({ operation: 'interaction.transact', kind: 'fail-before-commit' });
    database.resetCounts();
    expect(await submit(worker(database), 'refund')).toMatchObject({
      ok: true,
      outcome: 'needs-reconciliation',
      reason: 'write-not-visible',
    });
    expect(database.counts()).toEqual({ 'interaction.read': 2, 'interaction.transact': 1 });
  });

  it('the read failing: needs-reconciliation, read-failed', async () => {
    const { database } = await openedDatabase();
    database.inject({ operation: 'interaction.transact', kind: 'lose-acknowledgement' });
    database.inject({ operation: 'interaction.read', kind: 'fail-before-commit', when: (call) => call.index === 2 });
    database.resetCounts();
    expect(await submit(worker(database), 'refund')).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'read-failed' });
    expect(database.counts()).toEqual({ 'interaction.read': 2, 'interaction.transact': 1 });
  });

  it('the same scenario aimed by the card and the occurrence, not the global call index (issue 12)', async () => {
    const { database } = await openedDatabase();
    const card = { conversationId: CONVERSATION_ID, correlationId: CORRELATION_ID };
    // Faults aimed at another card never fire; this card's second read from now on is the one after the lost acknowledgement.
    database.inject({ operation: 'interaction.transact', kind: 'fail-before-commit', target: { ...card, correlationId: 'card_other' } });
    database.inject({ operation: 'interaction.transact', kind: 'lose-acknowledgement', target: card });
    database.inject({ operation: 'interaction.read', kind: 'fail-before-commit', target: card, occurrence: 2 });
    expect(await submit(worker(database), 'refund')).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'read-failed' });
    expect(createFakeInteractionStore(database).peek(CONVERSATION_ID, CORRELATION_ID)).toMatchObject({ status: 'submitted' });
  });

  it('expiry judged by the request’s time: an answer at the expiry is late', async () => {
    const { database } = await openedDatabase();
    expect(await worker(database).submit({ ...key, value: { optionId: 'refund' }, at: AT_EXPIRY })).toMatchObject({
      ok: false,
      code: 'expired',
    });
  });
});
