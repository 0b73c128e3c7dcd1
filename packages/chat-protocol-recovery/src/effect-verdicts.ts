/**
 * The verdicts an effect's record gives a claim, a dispatch or a stored result:
 * `completed` (with `reused`) and `needs-reconciliation` (with the message for
 * its reason). Pure constructors over the outcome types of `outcomes.ts`; which
 * verdict an operation answers is `TurnRecovery`'s.
 */
import type { CompletedOutcome, NeedsReconciliationOutcome } from './outcomes.js';
import type { EffectRecord, NeedsReconciliationReason } from './turn-record.js';

/** The effect's result is stored; `reused` when it was stored before this call. */
export function completed<Result>(result: Result, reused: boolean): CompletedOutcome<Result> {
  return { ok: true, outcome: 'completed', reused, result };
}

const RECONCILIATION_MESSAGES: Record<NeedsReconciliationReason, string> = {
  'claim-unacknowledged': 'the claim write was not acknowledged; verify the effect, then claim again or reconcile',
  'admission-unacknowledged': 'the admission was not acknowledged and nothing was launched here; verify the effect and reconcile',
  'dispatch-failed': 'the execution failed or was aborted; its external outcome is unknown until the host verifies it',
  'admission-expired':
    'the effect was admitted and has no result past the admission lease: its worker is presumed gone; verify the effect and reconcile',
};

/** The effect's outcome is unknown for `reason`; the message tells the host what to do. */
export function needsReconciliation(reason: NeedsReconciliationReason): NeedsReconciliationOutcome {
  return { ok: true, outcome: 'needs-reconciliation', reason, message: RECONCILIATION_MESSAGES[reason] };
}

/** A settled effect's verdict for a claim or dispatch that finds it; null while it is open. */
export function settledOutcome<Result>(effect: EffectRecord<Result>): CompletedOutcome<Result> | NeedsReconciliationOutcome | null {
  if (effect.status === 'completed') return completed(effect.result, true);
  if (effect.status === 'needs-reconciliation') return needsReconciliation(effect.reason);
  return null;
}
