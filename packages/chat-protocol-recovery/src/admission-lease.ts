/**
 * The admission lease of DESIGN §6.11: how long an admitted effect without a
 * result counts as in flight before its worker is presumed gone, and the state
 * of an effect as a host sees it (`open`, `in-flight`, `uncertain`,
 * `needs-reconciliation`, `completed`). Pure: the instant to judge at is given,
 * never read here.
 */
import { isZonedTimestamp } from '@papercusp/chat-protocol-core';
import type { EffectAdmission, EffectRecord, NeedsReconciliationReason, StoredTurn } from './turn-record.js';
import { findAdmission } from './turn-record.js';

/**
 * The default `admissionLeaseMs`: 10 minutes. Longer than the tool calls a chat
 * turn waits for (request timeouts of a minute or two), short enough that a
 * sweeper finds an orphan while the person is still there. A lease that is too
 * short for a host's longest execution costs a needless reconciliation, never a
 * second launch: the late result is still stored.
 */
export const DEFAULT_ADMISSION_LEASE_MS = 600_000;

/**
 * The states of an effect, in the order an effect moves through them:
 * `open` (not admitted), `in-flight` (admitted, no result, younger than the
 * lease), `uncertain` (admitted, no result, past the lease, not yet durably
 * marked), `needs-reconciliation` (durably marked, with a reason),
 * `completed` (a result is stored).
 */
export type EffectState = 'open' | 'in-flight' | 'uncertain' | 'needs-reconciliation' | 'completed';

/** The states, in a stable order. */
export const EFFECT_STATES: readonly EffectState[] = /* @__PURE__ */ Object.freeze([
  'open',
  'in-flight',
  'uncertain',
  'needs-reconciliation',
  'completed',
]);

/** One effect of an inspected turn, with what its state rests on. */
export type EffectInspection<Result> =
  | { readonly effectId: string; readonly claim: number; readonly state: 'open' }
  | {
      readonly effectId: string;
      readonly claim: number;
      readonly state: 'in-flight';
      /** When it was admitted, as the store holds it. */
      readonly admittedAt: string;
    }
  | {
      readonly effectId: string;
      readonly claim: number;
      readonly state: 'uncertain';
      /** When it was admitted, as the store holds it; `null` when the store returned none it could read (then past the lease by rule). */
      readonly admittedAt: string | null;
    }
  | {
      readonly effectId: string;
      readonly claim: number;
      readonly state: 'needs-reconciliation';
      readonly reason: NeedsReconciliationReason;
    }
  | {
      readonly effectId: string;
      readonly claim: number;
      readonly state: 'completed';
      readonly result: Result;
      readonly source: 'dispatch' | 'reconcile';
    };

/**
 * Whether `admission` is past its lease at `now` (an RFC 3339 timestamp): at
 * least `leaseMs` milliseconds old. An `admittedAt` that is missing or not an
 * RFC 3339 timestamp is past the lease: its age cannot be known, and presuming
 * the worker alive would hide the orphan forever. An admission dated after
 * `now` (another worker's clock ahead) is young.
 */
export function isAdmissionExpired(admission: EffectAdmission, now: string, leaseMs: number): boolean {
  const { admittedAt } = admission;
  if (!isZonedTimestamp(admittedAt)) return true;
  return Date.parse(now) - Date.parse(admittedAt) >= leaseMs;
}

/** The state of `effect` in `turn` at `now`, with what it rests on. */
export function inspectEffect<Result>(
  turn: StoredTurn<Result>,
  effect: EffectRecord<Result>,
  now: string,
  leaseMs: number,
): EffectInspection<Result> {
  const { effectId, claim } = effect;
  if (effect.status === 'completed') return { effectId, claim, state: 'completed', result: effect.result, source: effect.source };
  if (effect.status === 'needs-reconciliation') return { effectId, claim, state: 'needs-reconciliation', reason: effect.reason };
  const admission = findAdmission(turn, effectId);
  if (admission === undefined) return { effectId, claim, state: 'open' };
  const admittedAt = isZonedTimestamp(admission.admittedAt) ? admission.admittedAt : null;
  if (admittedAt !== null && !isAdmissionExpired(admission, now, leaseMs)) return { effectId, claim, state: 'in-flight', admittedAt };
  return { effectId, claim, state: 'uncertain', admittedAt };
}
