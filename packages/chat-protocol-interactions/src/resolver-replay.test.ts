/**
 * Issue 24, DESIGN §7.5 and §7.6: an answer sent again to a closed card. The
 * same answer (same card, action and value, as a network retry sends it) is a
 * replay of the stored resolution, judged as JSON data whatever its key order
 * and with every comparison bounded; any other answer is `already-closed` with
 * the stored status, also when it is only learned after a lost acknowledgement.
 */
import { createCardCodec, defineCardKind } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { AT_EXPIRY, BEFORE_EXPIRY, OPENED_AT, SCHEMA, SCOPE, key, openedResolver, validate } from '../test/fixtures.js';
import { createStubStore, type StubStore } from '../test/stub-store.js';
import { InteractionResolver } from './index.js';

const ROW = 'conv_1/card_refund_1';
const SUBMITTED = { ok: false, code: 'already-closed', message: 'the card was already submitted', status: 'submitted' } as const;

// Product kinds whose answer is a nested object, so key order and depth can differ between two answers: `feedback`
// has a strict shape, `note` takes any value, so only the resolver's own bounds stand between it and the comparison.
const productCards = createCardCodec({
  kinds: {
    feedback: defineCardKind({
      presentation: z.strictObject({}),
      value: z.strictObject({ stars: z.int(), comment: z.strictObject({ text: z.string(), tags: z.array(z.string()) }) }),
    }),
    note: defineCardKind({ presentation: z.strictObject({}), value: z.unknown() }),
  },
});
const FIRST_ANSWER = { stars: 4, comment: { text: 'quick', tags: ['a', 'b'] } };

/** A product card opened over `stub`; the host's validator passes the value through `output`. */
async function openedProductCard(stub: StubStore, kind: 'feedback' | 'note', output: (value: unknown) => unknown = (value) => value) {
  const resolver = new InteractionResolver({
    store: stub.store as never,
    validate: ({ value }) => ({ value: output(value) }),
    cards: productCards,
  });
  const card = { correlationId: 'card_refund_1', createdAt: OPENED_AT, prompt: 'How did we do?', presentation: { kind } };
  const opened = await resolver.open({ caller: 'ana', card, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: OPENED_AT });
  if (!opened.ok || opened.outcome !== 'opened') throw new Error(JSON.stringify(opened));
  const submit = (value: unknown, at = BEFORE_EXPIRY) => resolver.submit({ ...key(), value, at });
  expect(await submit(FIRST_ANSWER)).toMatchObject({ ok: true, outcome: 'submitted', replayed: false });
  return submit;
}

/** A value nested `depth` levels deep. */
function nested(depth: number): unknown {
  let value: unknown = 'quick';
  for (let level = 0; level < depth; level += 1) value = { text: value };
  return value;
}

describe('an answer sent again to a closed card (issue 24, DESIGN §7.5)', () => {
  it('§7.5 the same value in another key order, stored back in a third (as Postgres jsonb does), is replayed; nothing is written', async () => {
    const stub = createStubStore();
    const submit = await openedProductCard(stub, 'feedback');
    // The store hands the value back with its keys reordered; as JSON data it is the same.
    const stored = stub.rows.get(ROW) as Record<string, unknown>;
    stub.rows.set(ROW, { ...stored, value: { comment: { tags: ['a', 'b'], text: 'quick' }, stars: 4 } });
    expect(await submit({ comment: { text: 'quick', tags: ['a', 'b'] }, stars: 4 })).toEqual({
      ok: true,
      outcome: 'submitted',
      replayed: true,
      record: stub.rows.get(ROW),
    });
    expect(stub.transitions).toHaveLength(2);
    expect(stub.rows.get(ROW)).toMatchObject({ revision: 2 });
  });

  it.each([
    ['a value differing deep inside', { stars: 4, comment: { text: 'quick!', tags: ['a', 'b'] } }],
    ['the same items in another order (arrays keep their order)', { stars: 4, comment: { text: 'quick', tags: ['b', 'a'] } }],
    ['another number', { stars: 5, comment: { text: 'quick', tags: ['a', 'b'] } }],
  ])('§7.5 %s is another answer: already-closed with the stored status, the stored answer unchanged', async (_, value) => {
    const stub = createStubStore();
    const submit = await openedProductCard(stub, 'feedback');
    expect(await submit(value)).toEqual(SUBMITTED);
    expect(stub.rows.get(ROW)).toMatchObject({ value: FIRST_ANSWER, revision: 2 });
  });

  it('§7.5 the comparison is bounded: a value nested past the JSON depth bound, or a cycle, is already-closed, never a throw', async () => {
    const stub = createStubStore();
    const submit = await openedProductCard(stub, 'note');
    const cycle: Record<string, unknown> = { stars: 4 };
    cycle['comment'] = cycle;
    for (const value of [nested(40), nested(100_000), cycle]) expect(await submit(value)).toEqual(SUBMITTED);
    expect(await submit(FIRST_ANSWER)).toMatchObject({ ok: true, replayed: true });
  });

  it('§7.5 the validated value is what is compared, bounded too: an output past the JSON bounds (a cycle, deep nesting) is already-closed', async () => {
    const stub = createStubStore();
    let output: unknown = FIRST_ANSWER;
    const submit = await openedProductCard(stub, 'note', () => output);
    const cycle: Record<string, unknown> = { ...FIRST_ANSWER };
    cycle['comment'] = cycle;
    for (const value of [cycle, nested(100_000)]) {
      output = value;
      expect(await submit(FIRST_ANSWER)).toEqual(SUBMITTED);
    }
  });

  it('§7.5 after the card’s deadline the stored answer still stands: the same one is replayed, another already-closed (not expired)', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    const first = await resolver.submit({ ...key(), value: { optionId: 'refund' }, at: BEFORE_EXPIRY });
    expect(await resolver.submit({ ...key(), value: { optionId: 'refund' }, at: AT_EXPIRY })).toEqual({ ...first, replayed: true });
    expect(await resolver.submit({ ...key(), value: { optionId: 'replace' }, at: AT_EXPIRY })).toEqual(SUBMITTED);
    expect(await resolver.decline({ ...key(), at: AT_EXPIRY })).toEqual(SUBMITTED);
  });

  it('§7.5 a replay is never another caller’s: a caller outside the scope gets not-found for the same answer and for another', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    await resolver.submit({ ...key(), value: { optionId: 'refund' }, at: BEFORE_EXPIRY });
    const notFound = { ok: false, code: 'not-found', message: 'no such interaction for this caller' };
    for (const caller of ['bo', 'ana-other-tenant', 'nobody']) {
      expect(await resolver.submit({ ...key(caller), value: { optionId: 'refund' }, at: BEFORE_EXPIRY })).toEqual(notFound);
      expect(await resolver.submit({ ...key(caller), value: { optionId: 'replace' }, at: BEFORE_EXPIRY })).toEqual(notFound);
    }
  });
});

describe('a lost acknowledgement that finds another answer stored (issue 24, DESIGN §7.6)', () => {
  it('§7.6 theirs: the one read finds a different stored answer, so ours lost: already-closed with the stored status, no second write', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    const { transact, read } = stub.store;
    const other = new InteractionResolver<string>({ store: { transact, read }, validate });
    // Another worker's answer commits while ours is in flight; our transaction then fails and we cannot tell how.
    stub.store.transact = async (request, decide) => {
      await other.submit({ ...key(), value: { optionId: 'replace' }, at: BEFORE_EXPIRY });
      stub.faults.transact.push('fail');
      return transact(request, decide);
    };
    const reads = stub.calls.read;
    expect(await resolver.submit({ ...key(), value: { optionId: 'refund' }, at: BEFORE_EXPIRY })).toEqual(SUBMITTED);
    // Ours: the read before validation and the one after the failure; the other worker's: one read.
    expect(stub.calls.read - reads).toBe(3);
    expect(stub.calls.transact).toBe(3); // open, the other's answer, ours once: never retried
    expect(stub.rows.get(ROW)).toMatchObject({ status: 'submitted', value: { optionId: 'replace' }, revision: 2 });
  });
});
