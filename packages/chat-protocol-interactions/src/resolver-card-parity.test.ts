/**
 * Issue 13 (DESIGN §3.7, §7): the resolver judges a card's `timeoutMs` through
 * core's `cardDeadline`, and stores the reason a decline carries.
 */
import { describe, expect, it } from 'vitest';
import { AT_EXPIRY, BEFORE_EXPIRY, CARD, OPENED_AT, SCHEMA, SCOPE, key, validate } from '../test/fixtures.js';
import { createStubStore } from '../test/stub-store.js';
import { InteractionResolver, parseInteractionRecord } from './index.js';
import { baseCardCodec, CARD_LIMITS } from '@papercusp/chat-protocol-core';

// Opened at 09:00Z with a ten-minute timeout: the card's own deadline is 09:10Z,
// before the record's 09:30Z expiry; BEFORE_EXPIRY is exactly 09:10Z.
const TIMED_CARD = { ...CARD, timeoutMs: 600_000 };
const CARD_DEADLINE = '2026-11-30T09:10:00.000Z';
const JUST_BEFORE = '2026-11-30T09:09:59.999Z';

async function opened(card: object = TIMED_CARD) {
  const stub = createStubStore();
  const resolver = new InteractionResolver<string>({ store: stub.store, validate });
  const result = await resolver.open({ caller: 'ana', card, schema: SCHEMA, expiresAt: AT_EXPIRY, scope: SCOPE, at: OPENED_AT });
  if (!result.ok || result.outcome !== 'opened') throw new Error(JSON.stringify(result));
  return { stub, resolver };
}

describe('issue 13: the resolver judges timeoutMs expiry (DESIGN §3.7)', () => {
  it('§3.7 a submit before createdAt + timeoutMs is taken', async () => {
    const { resolver } = await opened();
    expect(await resolver.submit({ ...key(), value: { optionId: 'refund' }, at: JUST_BEFORE })).toMatchObject({
      ok: true,
      outcome: 'submitted',
      record: { status: 'submitted', value: { optionId: 'refund' } },
    });
  });

  it.each(['submit', 'decline', 'cancel'] as const)(
    '§3.7 a %s at createdAt + timeoutMs is expired, before the record’s own expiry',
    async (action) => {
      const { resolver, stub } = await opened();
      const request = { ...key(), at: BEFORE_EXPIRY };
      const result =
        action === 'submit' ? await resolver.submit({ ...request, value: { optionId: 'refund' } }) : await resolver[action](request);
      expect(result).toEqual({ ok: false, code: 'expired', message: `the card expired at ${CARD_DEADLINE}` });
      expect(stub.transitions).toHaveLength(1);
    },
  );

  it('§3.7 expire is allowed from the card’s deadline on, not-expired before it; read reports it', async () => {
    const { resolver } = await opened();
    expect(await resolver.read({ ...key(), at: JUST_BEFORE })).toMatchObject({ ok: true, expired: false });
    expect(await resolver.read({ ...key(), at: CARD_DEADLINE })).toMatchObject({ ok: true, expired: true });
    expect(await resolver.expire({ ...key(), at: JUST_BEFORE })).toEqual({
      ok: false,
      code: 'not-expired',
      message: `the card expires at ${CARD_DEADLINE}`,
    });
    expect(await resolver.expire({ ...key(), at: CARD_DEADLINE })).toMatchObject({
      ok: true,
      outcome: 'expired',
      record: { status: 'expired', closedAt: CARD_DEADLINE, closedBy: null },
    });
  });

  it('§7 the record’s expiresAt still binds when it is the earlier deadline', async () => {
    const { resolver } = await opened({ ...CARD, timeoutMs: 7_200_000 });
    expect(await resolver.submit({ ...key(), value: { optionId: 'refund' }, at: AT_EXPIRY })).toEqual({
      ok: false,
      code: 'expired',
      message: `the card expired at ${AT_EXPIRY}`,
    });
  });
});

describe('issue 13: decline reasons are stored (DESIGN §3.7)', () => {
  it('§3.7 decline stores the reason in the terminal record, which parses strictly', async () => {
    const { resolver, stub } = await opened(CARD);
    const result = await resolver.decline({ ...key(), at: BEFORE_EXPIRY, reason: 'I will call instead' });
    expect(result).toMatchObject({
      ok: true,
      outcome: 'declined',
      replayed: false,
      record: { status: 'declined', reason: 'I will call instead' },
    });
    const stored = stub.rows.get('conv_1/card_refund_1');
    expect(stored).toMatchObject({ status: 'declined', closedBy: 'user_ana', reason: 'I will call instead' });
    expect(parseInteractionRecord(stored, (card) => baseCardCodec.parseCard(card))).toMatchObject({
      ok: true,
      value: { reason: 'I will call instead' },
    });
  });

  it('§3.7 respond carries a CardResponse’s reason; the same decline again is replayed, another reason already-closed', async () => {
    const { resolver } = await opened(CARD);
    const response = { action: 'decline', correlationId: 'card_refund_1', reason: 'Not now' };
    expect(await resolver.respond({ caller: 'ana', conversationId: 'conv_1', response, at: BEFORE_EXPIRY })).toMatchObject({
      ok: true,
      outcome: 'declined',
      replayed: false,
      record: { reason: 'Not now' },
    });
    expect(await resolver.respond({ caller: 'ana', conversationId: 'conv_1', response, at: BEFORE_EXPIRY })).toMatchObject({
      ok: true,
      outcome: 'declined',
      replayed: true,
    });
    expect(await resolver.decline({ ...key(), at: BEFORE_EXPIRY, reason: 'Changed my mind' })).toMatchObject({
      ok: false,
      code: 'already-closed',
      status: 'declined',
    });
  });

  it('§3.7 a decline without a reason stores none', async () => {
    const { resolver } = await opened(CARD);
    const result = await resolver.decline({ ...key(), at: BEFORE_EXPIRY });
    expect(result.ok && 'record' in result ? Object.keys(result.record) : []).not.toContain('reason');
  });

  it('§3.7 a reason past core’s bound is invalid-response, and nothing is written', async () => {
    const { resolver, stub } = await opened(CARD);
    const result = await resolver.decline({ ...key(), at: BEFORE_EXPIRY, reason: 'x'.repeat(CARD_LIMITS.maxDeclineReasonLength + 1) });
    expect(result).toMatchObject({ ok: false, code: 'invalid-response' });
    expect(stub.transitions).toHaveLength(1);
  });

  it.each([
    ['a reason on a cancelled record', { status: 'cancelled', reason: 'x' }, 'reason: present only when declined'],
    [
      'a reason that is not text',
      { status: 'declined', reason: 3 },
      `reason: expected clean text of at most ${CARD_LIMITS.maxDeclineReasonLength} characters`,
    ],
  ])('§7 parseInteractionRecord refuses %s', (_label, fields, message) => {
    const record = {
      recordVersion: 1,
      correlationId: 'card_refund_1',
      card: CARD,
      schema: SCHEMA,
      expiresAt: AT_EXPIRY,
      scope: SCOPE,
      revision: 2,
      openedAt: OPENED_AT,
      closedAt: BEFORE_EXPIRY,
      closedBy: 'user_ana',
      ...fields,
    };
    expect(parseInteractionRecord(record, (card) => baseCardCodec.parseCard(card))).toMatchObject({
      ok: false,
      code: 'invalid-record',
      message,
    });
  });
});

describe('issue 13: a decline reason that is not a string', () => {
  it('§7 is invalid-request, before any read', async () => {
    const { resolver, stub } = await opened(CARD);
    const reads = stub.calls.read;
    expect(await resolver.decline({ ...key(), at: BEFORE_EXPIRY, reason: 3 as never })).toEqual({
      ok: false,
      code: 'invalid-request',
      message: 'reason: expected a string',
    });
    expect(stub.calls.read).toBe(reads);
  });
});
