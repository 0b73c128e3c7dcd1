/**
 * Issue 12 "Hostile input" (DESIGN §2.1, §2.2, §2.7): every exported function
 * of recovery is either never-throwing (a typed refusal, a state or `false` for
 * any argument) or documented as throwing `TypeError` only (`createTurnId`
 * without a random source).
 */
import { LIGHTWEIGHT_CHAT_CAPABILITIES } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { everyTrapThrows, throwHostile } from '../../../test-support/hostile-values.js';
import { anyArguments, describeHostileContract, type FunctionClassification, type HostileTarget } from '../../../test-support/never-throws.js';
import * as recovery from './index.js';

const expected = { conversationId: 'conv_1', turnId: 'turn_1', after: 'turn_1:0' };
const frame = (seq: number) => ({
  schemaVersion: 1,
  conversationId: 'conv_1',
  turnId: 'turn_1',
  eventId: `evt_${seq}`,
  seq,
  occurredAt: '2026-11-30T09:00:00Z',
  event: { type: 'delta', text: `part ${seq}` },
});
const window = { lowerBound: 0, latestSeq: 2, frames: [frame(1), frame(2)] } as unknown as recovery.ReplayWindow;

const neverThrowing: Readonly<Record<string, HostileTarget>> = {
  'TurnRecovery.is': { call: (value) => recovery.TurnRecovery.is(value), valid: [new recovery.TurnRecovery({} as never)], returns: 'boolean' },
  validateReplayWindow: { call: anyArguments(recovery.validateReplayWindow), valid: [window, expected], returns: 'result' },
  isTurnId: { call: anyArguments(recovery.isTurnId), valid: ['turn_0123456789abcdef0123456789abcdef'], returns: 'boolean' },
  parseTurnStatusResponse: { call: anyArguments(recovery.parseTurnStatusResponse), valid: [{ turnId: 'turn_1', status: 'running', lastSeq: 3 }], returns: 'result' },
  deliveryStateFromResend: { call: anyArguments(recovery.deliveryStateFromResend), valid: [{ type: 'response', status: 200 }], returns: 'value' },
  deliveryStateFromStatus: {
    call: anyArguments(recovery.deliveryStateFromStatus),
    valid: ['turn_1', { type: 'response', status: 200, body: { turnId: 'turn_1', status: 'running' } }],
    returns: 'value',
  },
};

const throwing: FunctionClassification['throwing'] = {
  createTurnId: { call: anyArguments(recovery.createTurnId), valid: [{ getRandomValues: (bytes: Uint8Array) => bytes.fill(7) }] },
};

describeHostileContract('recovery', recovery, {
  neverThrowing,
  throwing,
  others: {
    TurnRecovery: 'a class over the host adapter: its operations resolve to typed results for adapter failures and wrong ids (turn-recovery.test.ts)',
  },
});

describe('recovery: exact outcomes of the hostile inputs issue 12 found', () => {
  it('validateReplayWindow(window, null) is invalid-request, not a TypeError reading after (§6.9)', () => {
    const unreadable = {
      ok: false,
      code: 'invalid-request',
      message: 'the expectation { conversationId, turnId, after } cannot be read',
      issues: [{ path: ['expected'], message: 'the expectation { conversationId, turnId, after } cannot be read' }],
    };
    expect(recovery.validateReplayWindow(window, null as never)).toEqual(unreadable);
    expect(recovery.validateReplayWindow(window, undefined as never)).toEqual(unreadable);
    expect(recovery.validateReplayWindow(window, everyTrapThrows as never)).toEqual(unreadable);
    expect(recovery.validateReplayWindow(window, { ...expected, turnId: 10n } as never)).toMatchObject({
      ok: false,
      code: 'invalid-request',
      message: 'the expectation must name the conversation and turn with v1 ids',
    });
  });

  it('validateReplayWindow refuses a window whose frames cannot be read as invalid-window (§6.9)', () => {
    const frames = new Proxy([frame(1), frame(2)], { get: throwHostile });
    expect(recovery.validateReplayWindow({ lowerBound: 0, latestSeq: 2, frames } as never, expected)).toEqual({
      ok: false,
      code: 'invalid-window',
      message: 'the window cannot be read',
      issues: [{ path: [], message: 'the window cannot be read' }],
    });
    expect(recovery.validateReplayWindow(null as never, expected)).toMatchObject({ ok: false, code: 'invalid-window' });
  });

  it('a bound or cursor seq of -0 is refused, since it would come back as 0 (issue 12)', () => {
    expect(recovery.validateReplayWindow({ lowerBound: -0, latestSeq: 2, frames: window.frames }, expected)).toMatchObject({
      ok: false,
      code: 'invalid-window',
    });
    expect(recovery.validateReplayWindow(window, { ...expected, after: { turnId: 'turn_1', seq: -0 } })).toMatchObject({
      ok: false,
      code: 'invalid-cursor',
    });
    expect(recovery.validateReplayWindow(window, { ...expected, after: { turnId: 'turn_1', seq: 0 } })).toMatchObject({ ok: true });
    expect(recovery.parseTurnStatusResponse({ turnId: 'turn_1', status: 'running', lastSeq: -0 })).toMatchObject({
      ok: false,
      code: 'invalid-turn-status',
      issues: [{ path: ['lastSeq'] }],
    });
  });

  it('the delivery state of an answer that cannot be read is check (§6, client side)', () => {
    expect(recovery.deliveryStateFromResend(null as never)).toBe('check');
    expect(recovery.deliveryStateFromResend(everyTrapThrows as never)).toBe('check');
    expect(recovery.deliveryStateFromStatus('turn_1', everyTrapThrows as never)).toBe('check');
    expect(recovery.deliveryStateFromStatus('turn_1', undefined as never)).toBe('check');
  });

  it('createTurnId throws TypeError, and only TypeError, when its random source cannot be used (§2.1)', () => {
    expect(() => recovery.createTurnId(everyTrapThrows as never)).toThrow(new TypeError('createTurnId: the options cannot be read'));
    expect(() => recovery.createTurnId({ getRandomValues: 'random' as never })).toThrow(new TypeError('createTurnId: getRandomValues must be a function'));
    expect(() => recovery.createTurnId({ getRandomValues: throwHostile })).toThrow(new TypeError('createTurnId: the random source failed'));
    expect(recovery.createTurnId({ getRandomValues: (bytes) => bytes.fill(255) })).toBe(`turn_${'f'.repeat(32)}`);
  });
});
