/**
 * The typed results of every `TurnRecovery` operation: `completed` (with
 * `reused`), `needs-reconciliation` (with the reason), an operation's own
 * success (`started`, `claimed`, `cancelled`), or a refusal whose code comes
 * from the operation's closed union. Types only; nothing here runs.
 */
import type { ChatRefusal, UnsupportedCapabilityRefusal } from '@papercusp/chat-protocol-core';
import type { EffectInspection } from './admission-lease.js';
import type { NeedsReconciliationReason, RecoverableTurnStatus, TurnRecord } from './turn-record.js';
import type { ValidatedReplayWindow, ValidateReplayWindowRefusalCode } from './replay-window.js';

/** The refusals every operation shares when the host's declaration does not cover it. */
export type CapabilityRefusal = UnsupportedCapabilityRefusal | ChatRefusal<'invalid-capabilities'>;

/** The effect's result is stored. `reused`: it was stored before this call (never re-run). */
export interface CompletedOutcome<Result> {
  readonly ok: true;
  readonly outcome: 'completed';
  readonly reused: boolean;
  readonly result: Result;
}

/** The effect's outcome is unknown: the host verifies it through its own lookup and calls `reconcileEffect`. */
export interface NeedsReconciliationOutcome {
  readonly ok: true;
  readonly outcome: 'needs-reconciliation';
  readonly reason: NeedsReconciliationReason;
  readonly message: string;
}

/** A claim a dispatcher holds: the newest claim of the effect when it was written. */
export interface EffectClaim {
  readonly conversationId: string;
  readonly turnId: string;
  readonly effectId: string;
  /** The claim number admission checks (positive). */
  readonly claim: number;
}

/** A result the store did not confirm: the host holds it and may persist it with `reconcileEffect`. */
export interface CheckpointFailedRefusal<Result> extends ChatRefusal<'checkpoint-failed'> {
  readonly result: Result;
}

/** Refusal codes of `startTurn`. */
export type StartTurnRefusalCode =
  'unsupported-capability' | 'invalid-capabilities' | 'invalid-request' | 'forbidden' | 'turn-conflict' | 'checkpoint-failed';

/** The result of `startTurn`: `started` wrote the record, `existing` found the same turn already started. */
export type StartTurnResult<Result> =
  | { readonly ok: true; readonly outcome: 'started' | 'existing'; readonly turn: TurnRecord<Result> }
  | CapabilityRefusal
  | ChatRefusal<Exclude<StartTurnRefusalCode, CapabilityRefusal['code']>>;

/** Refusal codes of `claimEffect`. */
export type ClaimEffectRefusalCode =
  | 'unsupported-capability'
  | 'invalid-capabilities'
  | 'invalid-request'
  | 'forbidden'
  | 'unknown-turn'
  | 'turn-not-running'
  | 'unknown-effect'
  | 'already-admitted'
  | 'clock-unavailable'
  | 'store-unavailable'
  | 'checkpoint-failed';

/** The result of `claimEffect`. */
export type ClaimEffectResult<Result> =
  | { readonly ok: true; readonly outcome: 'claimed'; readonly claim: EffectClaim }
  | CompletedOutcome<Result>
  | NeedsReconciliationOutcome
  | CapabilityRefusal
  | ChatRefusal<Exclude<ClaimEffectRefusalCode, CapabilityRefusal['code']>>;

/** Refusal codes of `dispatchEffect`. */
export type DispatchEffectRefusalCode =
  | 'unsupported-capability'
  | 'invalid-capabilities'
  | 'no-admission-seam'
  | 'invalid-request'
  | 'forbidden'
  | 'unknown-turn'
  | 'turn-not-running'
  | 'unknown-effect'
  | 'already-admitted'
  | 'stale-claim'
  | 'clock-unavailable'
  | 'store-unavailable'
  | 'checkpoint-failed';

/** The result of `dispatchEffect`. */
export type DispatchEffectResult<Result> =
  | CompletedOutcome<Result>
  | NeedsReconciliationOutcome
  | CapabilityRefusal
  | CheckpointFailedRefusal<Result>
  | ChatRefusal<Exclude<DispatchEffectRefusalCode, CapabilityRefusal['code'] | 'checkpoint-failed'>>;

/** How the abort hook went: no effect was in flight, the adapter has none, it returned, or it threw. */
export type AbortDelivery = 'not-needed' | 'no-hook' | 'requested' | 'failed';

/** Refusal codes of `cancelTurn`. */
export type CancelTurnRefusalCode =
  | 'unsupported-capability'
  | 'invalid-capabilities'
  | 'invalid-request'
  | 'forbidden'
  | 'unknown-turn'
  | 'store-unavailable'
  | 'checkpoint-failed';

/** The result of `cancelTurn`. `committed: false`: the turn was already cancelled (the abort hook still runs for what is in flight). */
export type CancelTurnResult =
  | {
      readonly ok: true;
      readonly outcome: 'cancelled';
      readonly committed: boolean;
      /** Effects admitted and still open when the cancellation committed, in the turn's order. */
      readonly inFlight: readonly string[];
      readonly abort: AbortDelivery;
    }
  | CapabilityRefusal
  | ChatRefusal<Exclude<CancelTurnRefusalCode, CapabilityRefusal['code']>>;

/** Refusal codes of `reconcileEffect`. */
export type ReconcileEffectRefusalCode =
  | 'unsupported-capability'
  | 'invalid-capabilities'
  | 'invalid-request'
  | 'forbidden'
  | 'unknown-turn'
  | 'unknown-effect'
  | 'store-unavailable'
  | 'checkpoint-failed';

/** The result of `reconcileEffect`: the stored result (`reused: true` when another was stored first). */
export type ReconcileEffectResult<Result> =
  | CompletedOutcome<Result>
  | CapabilityRefusal
  | CheckpointFailedRefusal<Result>
  | ChatRefusal<Exclude<ReconcileEffectRefusalCode, CapabilityRefusal['code'] | 'checkpoint-failed'>>;

/** Refusal codes of `replayTurn`. */
export type ReplayTurnRefusalCode =
  | 'unsupported-capability'
  | 'invalid-capabilities'
  | 'invalid-request'
  | 'forbidden'
  | 'replay-unavailable'
  | ValidateReplayWindowRefusalCode;

/** The result of `replayTurn`: the validated window, or a refusal. */
export type ReplayTurnResult =
  | { readonly ok: true; readonly value: ValidatedReplayWindow }
  | CapabilityRefusal
  | ChatRefusal<Exclude<ReplayTurnRefusalCode, CapabilityRefusal['code']>>;

/** Refusal codes of `inspectTurn`. */
export type InspectTurnRefusalCode =
  | 'unsupported-capability'
  | 'invalid-capabilities'
  | 'invalid-request'
  | 'forbidden'
  | 'unknown-turn'
  | 'clock-unavailable'
  | 'store-unavailable';

/** A turn as `inspectTurn` found it: every effect with its state at `inspectedAt`. */
export interface TurnInspection<Result> {
  readonly conversationId: string;
  readonly turnId: string;
  readonly status: RecoverableTurnStatus;
  readonly revision: number;
  /** The clock's instant the states were judged at. */
  readonly inspectedAt: string;
  /** The lease they were judged with. */
  readonly admissionLeaseMs: number;
  /** The turn's effects, in the turn's order. */
  readonly effects: readonly EffectInspection<Result>[];
}

/** The result of `inspectTurn`: the turn's effects and their states, or a refusal. */
export type InspectTurnResult<Result> =
  | { readonly ok: true; readonly value: TurnInspection<Result> }
  | CapabilityRefusal
  | ChatRefusal<Exclude<InspectTurnRefusalCode, CapabilityRefusal['code']>>;
