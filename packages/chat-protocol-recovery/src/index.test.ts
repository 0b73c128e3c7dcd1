import { describe, expect, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as recovery from './index.js';

// Every runtime export is a semver promise: changing this list is deliberate.
describe('the public surface of @papercusp/chat-protocol-recovery', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(recovery), [
      'DEFAULT_ADMISSION_LEASE_MS',
      'DEFAULT_CONVERSATION_LOG_MAX_FRAMES',
      'DEFAULT_CONVERSATION_LOG_MAX_TURNS',
      'DEFAULT_MAX_EFFECTS_PER_TURN',
      'DEFAULT_RUN_LEASE_MS',
      'DELIVERY_STATES',
      'EFFECT_STATES',
      'IDEMPOTENCY_KEY_HEADER',
      'NEEDS_RECONCILIATION_REASONS',
      'TURN_ID_FIELD',
      'TURN_STATUS_VALUES',
      'TurnRecovery',
      'TurnStatusResponseSchema',
      'admissionRefusal',
      'createTurnId',
      'deliveryStateFromResend',
      'deliveryStateFromStatus',
      'isRunLeaseExpired',
      'isTurnId',
      'parseTurnStatusResponse',
      'readAdmitDispatchRequest',
      'readListRunningTurnsRequest',
      'readTurnStatus',
      'validateReplayWindow',
    ]);
  });

  it('keeps the fixed name TurnRecovery as a class (DESIGN §6, fixed)', () => {
    expect(typeof recovery.TurnRecovery).toBe('function');
    expect(recovery.NEEDS_RECONCILIATION_REASONS).toEqual([
      'claim-unacknowledged',
      'admission-unacknowledged',
      'dispatch-failed',
      'admission-expired',
    ]);
    expect(recovery.EFFECT_STATES).toEqual(['open', 'in-flight', 'uncertain', 'needs-reconciliation', 'completed']);
    expect(recovery.DEFAULT_ADMISSION_LEASE_MS).toBe(600_000);
    expect(recovery.DEFAULT_MAX_EFFECTS_PER_TURN).toBe(256);
    expect(recovery.DEFAULT_RUN_LEASE_MS).toBe(30_000);
  });
});
