import { describe, expect, it } from 'vitest';
import {
  DELIVERY_STATES,
  deliveryStateFromResend,
  deliveryStateFromStatus,
  type DeliveryState,
  type ResendAnswer,
  type StatusAnswer,
} from './delivery.js';
import { TURN_STATUS_VALUES, parseTurnStatusResponse } from './turn-status.js';

const TURN_ID = `turn_${'0'.repeat(32)}`;

describe('delivery state from a send or resend (DESIGN §6, client side)', () => {
  const cases: readonly [ResendAnswer, DeliveryState][] = [
    [{ type: 'not-attempted' }, 'waiting'],
    [{ type: 'attempting' }, 'sending'],
    [{ type: 'response', status: 200 }, 'sent'],
    [{ type: 'response', status: 201 }, 'sent'],
    [{ type: 'response', status: 202 }, 'sent'],
    [{ type: 'response', status: 409 }, 'still-working'],
    [{ type: 'response', status: 400 }, 'not-sent'],
    [{ type: 'response', status: 403 }, 'not-sent'],
    [{ type: 'response', status: 408 }, 'not-sent'],
    [{ type: 'response', status: 422 }, 'not-sent'],
    [{ type: 'response', status: 429 }, 'not-sent'],
    [{ type: 'response', status: 503 }, 'not-sent'],
    [{ type: 'response', status: 500 }, 'check'],
    [{ type: 'response', status: 502 }, 'check'],
    [{ type: 'response', status: 504 }, 'check'],
    [{ type: 'response', status: 302 }, 'check'],
    [{ type: 'response', status: 700 }, 'check'],
    [{ type: 'response', status: Number.NaN }, 'check'],
    [{ type: 'no-response' }, 'check'],
    [{ type: 'surprise' } as unknown as ResendAnswer, 'check'],
  ];
  it.each(cases)('%j is %s', (answer, state) => {
    expect(deliveryStateFromResend(answer)).toBe(state);
  });
});

describe('delivery state from a status answer', () => {
  const response = (status: string, turnId = TURN_ID): StatusAnswer => ({ type: 'response', body: { turnId, status } });
  const cases: readonly [string, StatusAnswer, DeliveryState][] = [
    ['asking', { type: 'attempting' }, 'sending'],
    ['not found', response('not-found'), 'not-sent'],
    ['running', response('running'), 'still-working'],
    ['completed', response('completed'), 'sent'],
    ['cancelled', response('cancelled'), 'sent'],
    ['interrupted (§6 rule 12: the run died; send it again)', response('interrupted'), 'not-sent'],
    ['failed', response('failed'), 'sent'],
    ['needs reconciliation', response('needs-reconciliation'), 'check'],
    ['another turn', response('completed', 'turn_other'), 'check'],
    ['a malformed body', { type: 'response', body: { turnId: TURN_ID, status: 'done' } }, 'check'],
    ['no response', { type: 'no-response' }, 'check'],
  ];
  it.each(cases)('%s is %s', (_name, answer, state) => {
    expect(deliveryStateFromStatus(TURN_ID, answer)).toBe(state);
  });

  it('lists the six states', () => {
    expect(DELIVERY_STATES).toEqual(['waiting', 'sending', 'sent', 'still-working', 'not-sent', 'check']);
  });
});

describe('parseTurnStatusResponse', () => {
  it('reads a response from JSON text or a value', () => {
    expect(parseTurnStatusResponse(`{"turnId":"${TURN_ID}","status":"running","lastSeq":4}`)).toEqual({
      ok: true,
      value: { turnId: TURN_ID, status: 'running', lastSeq: 4 },
    });
    expect(TURN_STATUS_VALUES).toEqual(['running', 'completed', 'cancelled', 'interrupted', 'needs-reconciliation', 'failed', 'not-found']);
  });

  it.each([
    ['unknown keys', { turnId: TURN_ID, status: 'running', extra: 1 }],
    ['a __proto__ key', JSON.parse(`{"turnId":"${TURN_ID}","status":"running","__proto__":{"polluted":true}}`) as unknown],
    ['a bad id', { turnId: 'a b', status: 'running' }],
    ['a negative lastSeq', { turnId: TURN_ID, status: 'running', lastSeq: -1 }],
    ['an unknown status', { turnId: TURN_ID, status: 'done' }],
    ['a run with a bad id', { turnId: TURN_ID, status: 'running', run: { runId: 'a b', leaseExpiresAt: '2026-11-30T09:00:30Z' } }],
    [
      'a run deadline without an offset',
      { turnId: TURN_ID, status: 'running', run: { runId: 'run_1', leaseExpiresAt: '2026-11-30T09:00:30' } },
    ],
    [
      'a run with unknown keys',
      { turnId: TURN_ID, status: 'running', run: { runId: 'run_1', leaseExpiresAt: '2026-11-30T09:00:30Z', host: 'a' } },
    ],
    ['not an object', 'null'],
  ])('refuses %s with invalid-turn-status', (_name, input) => {
    expect(parseTurnStatusResponse(input)).toMatchObject({ ok: false, code: 'invalid-turn-status' });
  });

  it('reads the run that owns a running turn and its lease deadline (§6 rule 12)', () => {
    const run = { runId: 'run_1', leaseExpiresAt: '2026-11-30T09:00:30+01:00' };
    expect(parseTurnStatusResponse({ turnId: TURN_ID, status: 'running', lastSeq: 4, run })).toEqual({
      ok: true,
      value: { turnId: TURN_ID, status: 'running', lastSeq: 4, run },
    });
  });

  it('refuses text that is not JSON with invalid-json', () => {
    expect(parseTurnStatusResponse('{')).toMatchObject({ ok: false, code: 'invalid-json' });
  });
});
