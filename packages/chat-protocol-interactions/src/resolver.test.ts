import { createCardCodec, defineCardKind } from '@papercusp/chat-protocol-core';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/v4/mini';
import {
  AT_EXPIRY,
  BEFORE_EXPIRY,
  CARD,
  OPENED_AT,
  PENDING_RECORD,
  SCHEMA,
  SCOPE,
  key,
  openedResolver,
  validate,
} from '../test/fixtures.js';
import { createStubStore } from '../test/stub-store.js';
import { InteractionResolver, type InteractionValidator } from './index.js';

const submit = (resolver: InteractionResolver<string>, optionId: string, caller = 'ana', at = BEFORE_EXPIRY) =>
  resolver.submit({ ...key(caller), value: { optionId }, at });

describe('InteractionResolver.open (DESIGN §7)', () => {
  it('stores a version-1 pending record bound to its schema, expiry and scope, with an opened transition', async () => {
    const stub = createStubStore();
    const resolver = new InteractionResolver<string>({ store: stub.store, validate });
    const opened = await resolver.open({ caller: 'ana', card: CARD, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: OPENED_AT });
    const record = PENDING_RECORD;
    expect(opened).toEqual({ ok: true, outcome: 'opened', record, replayed: false });
    expect(stub.rows.get('conv_1/card_refund_1')).toEqual(record);
    expect(stub.transitions).toEqual([
      {
        type: 'interaction-opened',
        conversationId: 'conv_1',
        correlationId: 'card_refund_1',
        status: 'pending',
        revision: 1,
        at: OPENED_AT,
      },
    ]);
  });

  it('is replayed for the same card and binding, already-exists for another under the same correlation id', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    const request = { caller: 'ana', card: CARD, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: BEFORE_EXPIRY };
    expect(await resolver.open(request)).toMatchObject({ ok: true, outcome: 'opened', replayed: true, record: { revision: 1 } });
    expect(await resolver.open({ ...request, card: { ...CARD, prompt: 'Something else?' } })).toEqual({
      ok: false,
      code: 'already-exists',
      message: 'another card is open under this correlation id',
    });
    expect(stub.transitions).toHaveLength(1);
  });

  it('refuses a scope the caller’s current authority does not hold: forbidden', async () => {
    const stub = createStubStore();
    const resolver = new InteractionResolver<string>({ store: stub.store, validate });
    for (const caller of ['bo', 'ana-other-tenant', 'nobody']) {
      expect(await resolver.open({ caller, card: CARD, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: OPENED_AT })).toEqual({
        ok: false,
        code: 'forbidden',
        message: 'the caller may not open a card for this scope',
      });
    }
    expect(stub.rows.size).toBe(0);
  });

  it.each([
    ['a card that is not a v1 card', { card: { ...CARD, presentation: { kind: 'map' } } }, 'invalid-card'],
    ['a schema reference without a revision', { schema: { id: 'refund-choice' } }, 'invalid-request'],
    ['a scope without a tenant', { scope: { ...SCOPE, tenantId: undefined } }, 'invalid-request'],
    ['an expiry that is not after opening', { expiresAt: OPENED_AT }, 'invalid-request'],
    ['an expiry without an offset', { expiresAt: '2026-11-30T09:30:00' }, 'invalid-request'],
    [
      'a card naming another schema than the backend binds',
      { card: { ...CARD, schema: { id: 'refund-choice', revision: 2 } } },
      'invalid-request',
    ],
    ['no time and no clock', { at: undefined }, 'invalid-request'],
  ])('refuses %s', async (_, override, code) => {
    const stub = createStubStore();
    const resolver = new InteractionResolver<string>({ store: stub.store, validate });
    const request = { caller: 'ana', card: CARD, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: OPENED_AT, ...override };
    expect(await resolver.open(request as Parameters<typeof resolver.open>[0])).toMatchObject({ ok: false, code });
    expect(stub.calls.transact).toBe(0);
  });
});

describe('InteractionResolver.submit (DESIGN §7)', () => {
  it('stores the one terminal record: the schema’s output, who answered, the next revision, a closed transition', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    const result = await submit(resolver, 'refund');
    expect(result).toEqual({
      ok: true,
      outcome: 'submitted',
      replayed: false,
      record: expect.objectContaining({
        status: 'submitted',
        value: { optionId: 'refund' },
        closedBy: 'user_ana',
        closedAt: BEFORE_EXPIRY,
        revision: 2,
      }),
    });
    expect(stub.rows.get('conv_1/card_refund_1')).toEqual(result.ok && 'record' in result ? result.record : null);
    expect(stub.transitions.at(-1)).toEqual({
      type: 'interaction-closed',
      conversationId: 'conv_1',
      correlationId: 'card_refund_1',
      status: 'submitted',
      revision: 2,
      at: BEFORE_EXPIRY,
    });
  });

  it('returns the stored outcome when the same submission is retried, and refuses a different one as already-closed', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    const first = await submit(resolver, 'refund');
    expect(await submit(resolver, 'refund')).toEqual({ ...first, replayed: true });
    expect(await submit(resolver, 'replace')).toEqual({
      ok: false,
      code: 'already-closed',
      message: 'the card was already submitted',
      status: 'submitted',
    });
    expect(await submit(resolver, 'refund', 'ana-shared')).toMatchObject({ code: 'not-found' });
    expect(stub.transitions).toHaveLength(2);
  });

  it('settles a late answer on a closed card before judging its value or the card’s rules', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    await submit(resolver, 'refund', 'ana');
    expect(await submit(resolver, 'exchange')).toMatchObject({ ok: false, code: 'already-closed', status: 'submitted' });
    const strict = createStubStore();
    const strictResolver = new InteractionResolver<string>({ store: strict.store, validate });
    await strictResolver.open({
      caller: 'ana',
      card: { ...CARD, allowDecline: false },
      schema: SCHEMA,
      expiresAt: AT_EXPIRY,
      scope: SCOPE,
      at: OPENED_AT,
    });
    await strictResolver.cancel({ ...key(), at: BEFORE_EXPIRY });
    expect(await strictResolver.decline({ ...key(), at: BEFORE_EXPIRY })).toMatchObject({
      ok: false,
      code: 'already-closed',
      status: 'cancelled',
    });
  });

  it('refuses a foreign principal, tenant, customer, public owner, conversation or a missing card alike: not-found', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    const refusals = await Promise.all([
      submit(resolver, 'refund', 'bo'),
      submit(resolver, 'refund', 'ana-other-tenant'),
      submit(resolver, 'refund', 'ana-other-customer'),
      submit(resolver, 'refund', 'ana-shared'),
      submit(resolver, 'refund', 'nobody'),
      resolver.submit({ ...key(), conversationId: 'conv_2', value: { optionId: 'refund' }, at: BEFORE_EXPIRY }),
      resolver.submit({ ...key(), correlationId: 'card_missing', value: { optionId: 'refund' }, at: BEFORE_EXPIRY }),
    ]);
    for (const refusal of refusals)
      expect(refusal).toEqual({ ok: false, code: 'not-found', message: 'no such interaction for this caller' });
    expect(stub.rows.get('conv_1/card_refund_1')).toMatchObject({ status: 'pending', revision: 1 });
  });

  it('refuses a late answer: at or after the expiry, whatever the offset; after an expired record', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    expect(await submit(resolver, 'refund', 'ana', '2026-11-30T10:30:00+01:00')).toEqual({
      ok: false,
      code: 'expired',
      message: `the card expired at ${AT_EXPIRY}`,
    });
    expect(await resolver.expire({ ...key(), at: AT_EXPIRY })).toMatchObject({ ok: true, outcome: 'expired' });
    expect(await submit(resolver, 'refund')).toMatchObject({ ok: false, code: 'expired' });
  });

  it('refuses a value that does not fit the card with core’s codes, before any validation or write', async () => {
    const stub = createStubStore();
    const validator = vi.fn(validate);
    const resolver = await openedResolver(stub, { validate: validator });
    expect(await submit(resolver, 'exchange')).toMatchObject({ ok: false, code: 'unknown-option' });
    expect(await resolver.submit({ ...key(), value: { text: 'refund' }, at: BEFORE_EXPIRY })).toMatchObject({
      ok: false,
      code: 'invalid-value',
    });
    expect(validator).not.toHaveBeenCalled();
    expect(stub.transitions).toHaveLength(1);
  });

  it('refuses a value the record’s schema refuses: invalid-value with the schema’s issues', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    const result = await submit(resolver, 'store-credit');
    expect(result).toMatchObject({ ok: false, code: 'invalid-value', issues: [{ path: ['value', 'optionId'] }] });
  });

  it('refuses when the host knows no such schema, or its validator throws', async () => {
    const unknown = createStubStore();
    const noSchema = await openedResolver(unknown, { validate: () => undefined });
    expect(await submit(noSchema, 'refund')).toEqual({ ok: false, code: 'unknown-schema', message: 'no schema refund-choice revision 3' });
    const throwing = createStubStore();
    const broken = await openedResolver(throwing, {
      validate: () => {
        throw new Error('schema registry down');
      },
    });
    expect(await submit(broken, 'refund')).toEqual({
      ok: false,
      code: 'validation-failed',
      message: 'the host validator threw; nothing was stored',
    });
  });

  it('takes an async validator; validation runs outside the transaction', async () => {
    const stub = createStubStore();
    let transactionsDuringValidation = -1;
    const asyncValidate: InteractionValidator<typeof CARD> = async (request) => {
      transactionsDuringValidation = stub.calls.decide;
      await new Promise((resolve) => setTimeout(resolve, 1));
      return validate(request);
    };
    const resolver = await openedResolver(stub, { validate: asyncValidate as never });
    expect(await submit(resolver, 'refund')).toMatchObject({ ok: true, outcome: 'submitted' });
    expect(transactionsDuringValidation).toBe(1);
  });

  it('rechecks the schema in the final transaction: schema-changed when it moved on during validation', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub, {
      validate: (request) => {
        const row = stub.rows.get('conv_1/card_refund_1') as Record<string, unknown>;
        stub.rows.set('conv_1/card_refund_1', { ...row, schema: { id: 'refund-choice', revision: 4 }, revision: 2 });
        return validate(request);
      },
    });
    expect(await submit(resolver, 'replace')).toEqual({
      ok: false,
      code: 'schema-changed',
      message: 'the card now uses schema refund-choice revision 4; validate again',
    });
    expect(stub.rows.get('conv_1/card_refund_1')).toMatchObject({ status: 'pending', revision: 2 });
  });

  it('rechecks the revision in the final transaction: stale-revision when metadata changed during validation', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub, {
      validate: (request) => {
        const row = stub.rows.get('conv_1/card_refund_1') as Record<string, unknown>;
        stub.rows.set('conv_1/card_refund_1', { ...row, expiresAt: '2026-11-30T10:00:00Z', revision: 2 });
        return validate(request);
      },
    });
    expect(await submit(resolver, 'refund')).toEqual({
      ok: false,
      code: 'stale-revision',
      message: 'the card changed (revision 2, validated against 1); read it again',
    });
  });

  it('refuses when the store cannot be read first, and a record that is not a version-1 record', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    stub.faults.read.push('fail');
    expect(await submit(resolver, 'refund')).toEqual({
      ok: false,
      code: 'store-unavailable',
      message: 'the store could not be read; nothing was written',
    });
    const row = stub.rows.get('conv_1/card_refund_1') as Record<string, unknown>;
    stub.rows.set('conv_1/card_refund_1', { ...row, recordVersion: 2 });
    expect(await submit(resolver, 'refund')).toMatchObject({ ok: false, code: 'invalid-record', issues: [{ path: ['recordVersion'] }] });
  });
});

describe('an uncertain acknowledgement triggers exactly one read, and never a second write (DESIGN §7.6)', () => {
  it('ours: the read finds our submission, returned as replayed', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    stub.faults.transact.push('lose-ack');
    const reads = stub.calls.read;
    expect(await submit(resolver, 'refund')).toMatchObject({
      ok: true,
      outcome: 'submitted',
      replayed: true,
      record: { value: { optionId: 'refund' } },
    });
    expect(stub.calls.read - reads).toBe(2); // the read before validation, and the one after the lost acknowledgement
    expect(stub.calls.transact).toBe(2); // open, then the one submit: never retried
  });

  it('still pending: the write may yet land, needs-reconciliation', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    stub.faults.transact.push('fail');
    expect(await submit(resolver, 'refund')).toEqual({
      ok: true,
      outcome: 'needs-reconciliation',
      reason: 'write-not-visible',
      message: 'the write’s acknowledgement was lost and the read after it does not show it; it may still land',
    });
  });

  it('the read fails too: needs-reconciliation, read-failed', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    stub.faults.transact.push('fail');
    stub.store.read = ((read) => {
      let calls = 0;
      return async (request) => {
        calls += 1;
        if (calls === 2) throw new Error('read failed');
        return read(request);
      };
    })(stub.store.read.bind(stub.store));
    expect(await submit(resolver, 'refund')).toMatchObject({ ok: true, outcome: 'needs-reconciliation', reason: 'read-failed' });
  });
});

describe('decline, cancel, expire, respond and read', () => {
  it('declines a card that allows it, and refuses one that does not', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    expect(await resolver.decline({ ...key(), at: BEFORE_EXPIRY })).toMatchObject({
      ok: true,
      outcome: 'declined',
      record: { closedBy: 'user_ana' },
    });
    const strict = createStubStore();
    const strictResolver = new InteractionResolver<string>({ store: strict.store, validate });
    await strictResolver.open({
      caller: 'ana',
      card: { ...CARD, allowDecline: false },
      schema: SCHEMA,
      expiresAt: AT_EXPIRY,
      scope: SCOPE,
      at: OPENED_AT,
    });
    expect(await strictResolver.decline({ ...key(), at: BEFORE_EXPIRY })).toMatchObject({ ok: false, code: 'decline-not-allowed' });
  });

  it('cancels a pending card; an answer after it is already-closed, the same cancel again replayed', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    expect(await resolver.cancel({ ...key(), at: BEFORE_EXPIRY })).toMatchObject({ ok: true, outcome: 'cancelled', replayed: false });
    expect(await resolver.cancel({ ...key(), at: BEFORE_EXPIRY })).toMatchObject({ ok: true, outcome: 'cancelled', replayed: true });
    expect(await submit(resolver, 'refund')).toMatchObject({ ok: false, code: 'already-closed', status: 'cancelled' });
  });

  it('expires only once the expiry has passed, by the request’s time or the injected clock', async () => {
    const stub = createStubStore();
    const clock = vi.fn(() => BEFORE_EXPIRY);
    const resolver = new InteractionResolver<string>({ store: stub.store, validate, clock });
    await resolver.open({ caller: 'ana', card: CARD, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE });
    expect(await resolver.expire(key())).toEqual({ ok: false, code: 'not-expired', message: `the card expires at ${AT_EXPIRY}` });
    clock.mockReturnValue(AT_EXPIRY);
    expect(await resolver.expire(key())).toMatchObject({ ok: true, outcome: 'expired', record: { closedBy: null, closedAt: AT_EXPIRY } });
    expect(await resolver.expire(key())).toMatchObject({ ok: true, outcome: 'expired', replayed: true });
    expect(clock).toHaveBeenCalledTimes(4);
  });

  it('takes a client CardResponse as it arrived', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    expect(
      await resolver.respond({
        caller: 'ana',
        conversationId: 'conv_1',
        response: { action: 'maybe', correlationId: 'card_refund_1' },
        at: BEFORE_EXPIRY,
      }),
    ).toEqual({
      ok: false,
      code: 'invalid-request',
      message: 'response.action: expected submit, decline or cancel',
    });
    expect(
      await resolver.respond({
        caller: 'ana',
        conversationId: 'conv_1',
        response: { action: 'submit', correlationId: 'card_refund_1', value: { optionId: 'replace' } },
        at: BEFORE_EXPIRY,
      }),
    ).toMatchObject({ ok: true, outcome: 'submitted', record: { value: { optionId: 'replace' } } });
  });

  it('reads pending or terminal state without any write, rechecking current authority', async () => {
    const stub = createStubStore();
    const resolver = await openedResolver(stub);
    expect(await resolver.read({ ...key(), at: BEFORE_EXPIRY })).toMatchObject({
      ok: true,
      outcome: 'read',
      expired: false,
      record: { status: 'pending' },
    });
    expect(await resolver.read({ ...key(), at: AT_EXPIRY })).toMatchObject({ ok: true, expired: true, record: { status: 'pending' } });
    expect(await resolver.read({ ...key('bo'), at: BEFORE_EXPIRY })).toEqual({
      ok: false,
      code: 'not-found',
      message: 'no such interaction for this caller',
    });
    await submit(resolver, 'refund');
    expect(await resolver.read({ ...key(), at: BEFORE_EXPIRY })).toMatchObject({
      ok: true,
      expired: false,
      record: { status: 'submitted' },
    });
    expect(stub.calls.transact).toBe(2);
  });
});

describe('product card kinds through core’s card codec', () => {
  it('opens a product card and checks its answers with the codec', async () => {
    const cards = createCardCodec({
      kinds: {
        rating: defineCardKind({
          presentation: z.strictObject({ maxStars: z.int().check(z.positive()) }),
          value: z.strictObject({ stars: z.int().check(z.positive()) }),
        }),
      },
    });
    const stub = createStubStore();
    const resolver = new InteractionResolver({
      store: stub.store as never,
      validate: () => ({ value: { stars: 4 } }),
      cards,
    });
    const card = {
      correlationId: 'card_refund_1',
      createdAt: OPENED_AT,
      prompt: 'How did we do?',
      presentation: { kind: 'rating', maxStars: 5 },
    };
    expect(await resolver.open({ caller: 'ana', card, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: OPENED_AT })).toMatchObject({
      ok: true,
      outcome: 'opened',
    });
    expect(await resolver.submit({ ...key(), value: { stars: 'four' }, at: BEFORE_EXPIRY })).toMatchObject({
      ok: false,
      code: 'invalid-value',
    });
    expect(await resolver.submit({ ...key(), value: { stars: 4 }, at: BEFORE_EXPIRY })).toMatchObject({
      ok: true,
      outcome: 'submitted',
      record: { value: { stars: 4 }, card },
    });
    // The base vocabulary refuses the same card.
    const base = new InteractionResolver<string>({ store: createStubStore().store, validate });
    expect(await base.open({ caller: 'ana', card, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: OPENED_AT })).toMatchObject({
      ok: false,
      code: 'invalid-card',
    });
  });
});
