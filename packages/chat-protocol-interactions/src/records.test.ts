import { parseOpenCardSnapshot } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { BEFORE_EXPIRY, CARD, PENDING_RECORD, SCOPE } from '../test/fixtures.js';
import { isInteractionSchemaRef, isInteractionScope, parseInteractionRecord } from './index.js';

const PENDING = PENDING_RECORD;
const SUBMITTED = {
  ...PENDING,
  status: 'submitted',
  revision: 2,
  closedAt: BEFORE_EXPIRY,
  closedBy: 'user_ana',
  value: { optionId: 'refund' },
};
const parse = (input: unknown) => parseInteractionRecord(input, parseOpenCardSnapshot);

describe('parseInteractionRecord reads stored version-1 records strictly', () => {
  it('reads pending and terminal records', () => {
    expect(parse(PENDING)).toEqual({ ok: true, value: PENDING });
    expect(parse(SUBMITTED)).toEqual({ ok: true, value: SUBMITTED });
    const { value: _value, ...declined } = { ...SUBMITTED, status: 'declined' };
    expect(parse(declined)).toEqual({ ok: true, value: declined });
    expect(parse({ ...declined, status: 'expired', closedBy: null })).toMatchObject({ ok: true });
  });

  it.each([
    ['not an object', null, 'record'],
    ['an unknown status', { ...PENDING, status: 'open' }, 'status'],
    ['another version', { ...PENDING, recordVersion: 2 }, 'recordVersion'],
    ['an unknown key', { ...PENDING, note: 'x' }, 'note'],
    ['terminal fields on a pending record', { ...PENDING, closedAt: BEFORE_EXPIRY }, 'closedAt'],
    ['a bad correlation id', { ...PENDING, correlationId: 'a b' }, 'correlationId'],
    ['a schema without revision', { ...PENDING, schema: { id: 'x' } }, 'schema'],
    ['an expiry without offset', { ...PENDING, expiresAt: '2026-11-30T09:30:00' }, 'expiresAt'],
    ['a zero revision', { ...PENDING, revision: 0 }, 'revision'],
    ['a scope with an extra key', { ...PENDING, scope: { ...SCOPE, role: 'admin' } }, 'scope'],
    ['a card that is not v1', { ...PENDING, card: { ...CARD, presentation: { kind: 'map' } } }, 'card'],
    ['a card of another correlation id', { ...PENDING, card: { ...CARD, correlationId: 'card_2' } }, 'card'],
    ['a submitted record without its value', { ...SUBMITTED, value: undefined }, 'value'],
    ['a declined record with a value', { ...SUBMITTED, status: 'declined' }, 'value'],
    ['a value with a __proto__ key', { ...SUBMITTED, value: JSON.parse('{"__proto__":{"admin":true}}') }, 'value'],
    ['a closedBy that is not an id', { ...SUBMITTED, closedBy: 7 }, 'closedBy'],
  ])('refuses %s: invalid-record naming the field', (_, input, field) => {
    expect(parse(input)).toMatchObject({ ok: false, code: 'invalid-record', issues: [{ path: [field] }] });
  });

  it('checks scopes and schema references on their own', () => {
    expect(isInteractionScope(SCOPE)).toBe(true);
    expect(isInteractionScope({ ...SCOPE, customerId: undefined })).toBe(false);
    expect(isInteractionSchemaRef({ id: 'x', revision: 0 })).toBe(true);
    expect(isInteractionSchemaRef({ id: 'x', revision: -1 })).toBe(false);
  });
});
