import { describe, expect, it } from 'vitest';
import { everyHostileArgument } from '../../../test-support/hostile-values.js';
import { admissionRefusal, readAdmitDispatchRequest, type AdmitDispatchRequest, type TurnRecord } from './index.js';

const record: TurnRecord<string> = {
  conversationId: 'conv_1',
  turnId: 'turn_1',
  status: 'running',
  revision: 3,
  effects: [
    { effectId: 'call_open', claim: 2, status: 'open' },
    { effectId: 'call_done', claim: 1, status: 'completed', result: 'r', source: 'dispatch' },
  ],
};
const request = { conversationId: 'conv_1', effectId: 'call_open', claim: 2 };
const facts = { granted: true, admitted: false };

describe('admissionRefusal: the admission checks in the contract order (DESIGN §6.2)', () => {
  it.each([
    ['forbidden', record, request, { granted: false, admitted: true }],
    ['unknown-turn', null, request, facts],
    ['unknown-turn', undefined, request, facts],
    ['unknown-turn', record, { ...request, conversationId: 'conv_other' }, facts],
    ['turn-not-running', { ...record, status: 'cancelled' as const }, { ...request, effectId: 'call_missing' }, facts],
    ['unknown-effect', record, { ...request, effectId: 'call_missing' }, facts],
    ['effect-settled', record, { ...request, effectId: 'call_done', claim: 7 }, { granted: true, admitted: true }],
    ['already-admitted', record, { ...request, claim: 7 }, { granted: true, admitted: true }],
    ['stale-claim', record, { ...request, claim: 1 }, facts],
  ] as const)('answers %s first when it is the earliest check that fails', (code, turn, given, known) => {
    expect(admissionRefusal(turn, given, known)).toBe(code);
  });

  it('lets an admission go ahead when every check passes', () => {
    expect(admissionRefusal(record, request, facts)).toBeNull();
  });
});

describe('readAdmitDispatchRequest (DESIGN §6.2, issue 12)', () => {
  const valid: AdmitDispatchRequest<string> = { caller: 'u', ...request, turnId: 'turn_1', admittedAt: '2031-05-01T08:00:00.250Z' };

  it('reads each field once into a plain request', () => {
    expect(readAdmitDispatchRequest(valid)).toEqual(valid);
  });

  it.each(['conversationId', 'turnId', 'effectId', 'claim', 'admittedAt'] as const)(
    'reads a request whose %s has the wrong type as none',
    (field) => {
      expect(readAdmitDispatchRequest({ ...valid, [field]: field === 'claim' ? '2' : 2 } as never)).toBeUndefined();
    },
  );

  it('never throws on a hostile request, and reads none of them as a request', () => {
    for (const { args } of everyHostileArgument([valid])) {
      const read = readAdmitDispatchRequest(args[0] as never);
      if (read !== undefined) expect(read).toEqual(valid);
    }
  });
});
