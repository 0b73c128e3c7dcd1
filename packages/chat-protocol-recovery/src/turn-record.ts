/**
 * The durable shape of a recoverable turn: one versioned turn record (status,
 * revision, the run that owns it and its lease, the host-authorized effects
 * with their claims and results) and the
 * per-effect admission records kept beside it. It owns the data and the pure
 * edits `TurnRecovery` writes through the store's compare-and-swap; it owns no
 * storage and no clock.
 */

/**
 * How the run that owns a turn ended it (`finishTurn`): the status of the
 * terminal frame it wrote, `done` or `error` (`failed`).
 */
export type FinishedTurnStatus = 'completed' | 'failed' | 'needs-reconciliation';

/** Whether `status` is a {@link FinishedTurnStatus}: for a request's field, or a status a store answered with. */
export function isFinishedTurnStatus(status: unknown): status is FinishedTurnStatus {
  return status === 'completed' || status === 'failed' || status === 'needs-reconciliation';
}

/**
 * Status of a recoverable turn. `interrupted`: its run's lease expired and a
 * process ended it (§6 rule 12); `completed`, `failed`, `needs-reconciliation`:
 * its run finished it (`finishTurn`). Only a running turn changes status: an
 * ended turn is never reopened and never becomes another end.
 */
export type RecoverableTurnStatus = 'running' | 'cancelled' | 'interrupted' | FinishedTurnStatus;

/**
 * The run that owns a turn and until when (§6 rule 12): `leaseExpiresAt` is an
 * RFC 3339 timestamp on `TurnRecovery`'s clock. The owner renews it; past it any
 * process may interrupt the turn. The owning run never changes.
 */
export interface RunLease {
  readonly runId: string;
  readonly leaseExpiresAt: string;
}

/** Why an effect's outcome is not known: the host must verify it and call `reconcileEffect`. */
export type NeedsReconciliationReason =
  /** The claim write was sent but its acknowledgement never came back. */
  | 'claim-unacknowledged'
  /** The admission was sent but its acknowledgement never came back: it may be admitted, and nothing was launched here. */
  | 'admission-unacknowledged'
  /** The host execution threw or was aborted: the external effect may or may not have happened. */
  | 'dispatch-failed'
  /** The effect was admitted and has no result past the admission lease: its worker is presumed gone, the outcome unknown (§6.11). */
  | 'admission-expired';

/** The reasons, in a stable order. */
export const NEEDS_RECONCILIATION_REASONS: readonly NeedsReconciliationReason[] = /* @__PURE__ */ Object.freeze([
  'claim-unacknowledged',
  'admission-unacknowledged',
  'dispatch-failed',
  'admission-expired',
]);

/**
 * One host-authorized effect (a tool call with an external effect) in the turn
 * record. `claim` counts claims (0: never claimed); admission checks it, so the
 * newest claim is the only one that can launch.
 */
export type EffectRecord<Result> =
  | { readonly effectId: string; readonly claim: number; readonly status: 'open' }
  | {
      readonly effectId: string;
      readonly claim: number;
      readonly status: 'completed';
      readonly result: Result;
      /** `dispatch`: the admitted execution's own result; `reconcile`: a host-verified result. */
      readonly source: 'dispatch' | 'reconcile';
    }
  | {
      readonly effectId: string;
      readonly claim: number;
      readonly status: 'needs-reconciliation';
      readonly reason: NeedsReconciliationReason;
    };

/**
 * The versioned turn record the store compares and swaps. Every write sets
 * `revision` to the previous revision plus one; revision 1 is the created turn.
 */
export interface TurnRecord<Result> {
  readonly conversationId: string;
  readonly turnId: string;
  readonly status: RecoverableTurnStatus;
  readonly revision: number;
  /**
   * The run that owns the turn and its lease deadline, written by `startTurn`
   * when given a run id. A record without one (written before run leases, or
   * started without a run id) is past its lease: any process may interrupt it
   * while it runs, as an admission without a readable `admittedAt` counts as
   * expired (§6.11), since presuming an unknown run alive would leave the turn
   * running forever.
   */
  readonly run?: RunLease;
  /** The effects the host authorized when the turn started, then those declared while it ran, in that order; ids are unique. */
  readonly effects: readonly EffectRecord<Result>[];
}

/** A durable admission: the effect was admitted under its claim, and its launch callback ran (or the acknowledgement was lost). */
export interface EffectAdmission {
  readonly effectId: string;
  readonly claim: number;
  /**
   * When it was admitted: the RFC 3339 timestamp `TurnRecovery`'s clock gave the
   * admission request (`AdmitDispatchRequest.admittedAt`), kept as that instant.
   * The admission lease is judged from it; an admission whose `admittedAt` is
   * missing or unreadable counts as past its lease (§6.11).
   */
  readonly admittedAt: string;
}

/** What the store returns for a turn: the record and the admissions committed beside it. */
export interface StoredTurn<Result> {
  readonly record: TurnRecord<Result>;
  readonly admissions: readonly EffectAdmission[];
}

/** The effect with this id, or `undefined`. */
export function findEffect<Result>(record: TurnRecord<Result>, effectId: string): EffectRecord<Result> | undefined {
  return record.effects.find((effect) => effect.effectId === effectId);
}

/** Whether an admission for this effect is committed. */
export function isAdmitted(turn: StoredTurn<unknown>, effectId: string): boolean {
  return turn.admissions.some((admission) => admission.effectId === effectId);
}

/** The committed admission of this effect, or `undefined`. */
export function findAdmission(turn: StoredTurn<unknown>, effectId: string): EffectAdmission | undefined {
  return turn.admissions.find((admission) => admission.effectId === effectId);
}

/** The next revision of `record` with one effect replaced; the input is not touched. */
export function withEffect<Result>(record: TurnRecord<Result>, next: EffectRecord<Result>): TurnRecord<Result> {
  return {
    ...record,
    revision: record.revision + 1,
    effects: record.effects.map((effect) => (effect.effectId === next.effectId ? next : effect)),
  };
}
