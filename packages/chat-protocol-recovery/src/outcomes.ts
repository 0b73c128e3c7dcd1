/**
 * The typed results of every `TurnRecovery` operation: `completed` (with
 * `reused`), `needs-reconciliation` (with the reason), an operation's own
 * success (`started`, `declared`, `claimed`, `cancelled`), or a refusal whose code comes
 * from the operation's closed union. The codes every operation shares are
 * named once and each operation's union is built from them, so the exported
 * unions stay exact (the type tests pin them). Types only; nothing here runs.
 */
import type { ChatRefusal, UnsupportedCapabilityRefusal } from '@papercusp/chat-protocol-core';
import type { EffectInspection } from './admission-lease.js';
import type { FinishedTurnStatus, NeedsReconciliationReason, RecoverableTurnStatus, RunLease, TurnRecord } from './turn-record.js';
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

// The refusals every operation begins with, in the order it checks them: the host's declaration (core's capability
// refusals), a request that cannot be read, and a caller without the authority. Each operation's code union below is
// these and its own codes, so a code shared by every operation is spelled once.
type PreambleRefusalCode = CapabilityRefusal['code'] | 'invalid-request' | 'forbidden';

/** What `TurnRecovery`'s shared preamble refuses (internal: every operation's result holds it). */
export type PreambleRefusal = OperationRefusal<PreambleRefusalCode>;

// What an operation on a stored turn adds when it reads the turn: none in this conversation, or a store that did not answer.
type TurnReadRefusalCode = 'unknown-turn' | 'store-unavailable';

// An operation's refusals from its code union: the capability refusals as core types them (`missing` included), and
// every other code a plain refusal, except those `Carried` names (a refusal type of their own, such as
// `checkpoint-failed` carrying the result).
type OperationRefusal<Code extends string, Carried extends string = never> =
  CapabilityRefusal | ChatRefusal<Exclude<Code, CapabilityRefusal['code'] | Carried>>;

/** Refusal codes of `startTurn`: `clock-unavailable` only when it was given a run id (the lease needs the clock). */
export type StartTurnRefusalCode = PreambleRefusalCode | 'turn-conflict' | 'clock-unavailable' | 'checkpoint-failed';

/** The result of `startTurn`: `started` wrote the record, `existing` found the same turn already started. */
export type StartTurnResult<Result> =
  | { readonly ok: true; readonly outcome: 'started' | 'existing'; readonly turn: TurnRecord<Result> }
  | OperationRefusal<StartTurnRefusalCode>;

/**
 * Refusal codes of `declareEffect`: the preamble's, the turn read's, `turn-not-running` (the turn has ended: the
 * effect was not declared), `too-many-effects` (the turn holds `maxEffectsPerTurn` effects) and `checkpoint-failed`
 * (the declaration kept conflicting, or could not be confirmed).
 */
export type DeclareEffectRefusalCode =
  PreambleRefusalCode | TurnReadRefusalCode | 'turn-not-running' | 'too-many-effects' | 'checkpoint-failed';

/**
 * The result of `declareEffect`: `declared` (this call added the effect, open and unclaimed, or a lost acknowledgement
 * was read back with the effect in the turn) or `already-declared` (the turn held it before: nothing was written).
 * Either way the effect is in the turn; its state is the claim's to tell.
 */
export type DeclareEffectResult =
  { readonly ok: true; readonly outcome: 'declared' | 'already-declared' } | OperationRefusal<DeclareEffectRefusalCode>;

/** Refusal codes of `claimEffect`. */
export type ClaimEffectRefusalCode =
  | PreambleRefusalCode
  | TurnReadRefusalCode
  | 'turn-not-running'
  | 'unknown-effect'
  | 'already-admitted'
  | 'clock-unavailable'
  | 'checkpoint-failed';

/** The result of `claimEffect`. */
export type ClaimEffectResult<Result> =
  | { readonly ok: true; readonly outcome: 'claimed'; readonly claim: EffectClaim }
  | CompletedOutcome<Result>
  | NeedsReconciliationOutcome
  | OperationRefusal<ClaimEffectRefusalCode>;

/** Refusal codes of `dispatchEffect`. */
export type DispatchEffectRefusalCode =
  | PreambleRefusalCode
  | TurnReadRefusalCode
  | 'no-admission-seam'
  | 'turn-not-running'
  | 'unknown-effect'
  | 'already-admitted'
  | 'stale-claim'
  | 'clock-unavailable'
  | 'checkpoint-failed';

/** The result of `dispatchEffect`. */
export type DispatchEffectResult<Result> =
  | CompletedOutcome<Result>
  | NeedsReconciliationOutcome
  | CheckpointFailedRefusal<Result>
  | OperationRefusal<DispatchEffectRefusalCode, 'checkpoint-failed'>;

/** How the abort hook went: no effect was in flight, the adapter has none, it returned, or it threw. */
export type AbortDelivery = 'not-needed' | 'no-hook' | 'requested' | 'failed';

/** Refusal codes of `cancelTurn`. */
export type CancelTurnRefusalCode = PreambleRefusalCode | TurnReadRefusalCode | 'checkpoint-failed';

/**
 * The result of `cancelTurn`. `committed: false`: the turn had already ended (cancelled, interrupted or finished) and stays
 * as it was (the abort hook still runs for what is in flight).
 */
export type CancelTurnResult =
  | {
      readonly ok: true;
      readonly outcome: 'cancelled';
      readonly committed: boolean;
      /** Effects admitted and still open when the cancellation committed, in the turn's order. */
      readonly inFlight: readonly string[];
      readonly abort: AbortDelivery;
    }
  | OperationRefusal<CancelTurnRefusalCode>;

/** Refusal codes of `reconcileEffect`. */
export type ReconcileEffectRefusalCode = PreambleRefusalCode | TurnReadRefusalCode | 'unknown-effect' | 'checkpoint-failed';

/** The result of `reconcileEffect`: the stored result (`reused: true` when another was stored first). */
export type ReconcileEffectResult<Result> =
  CompletedOutcome<Result> | CheckpointFailedRefusal<Result> | OperationRefusal<ReconcileEffectRefusalCode, 'checkpoint-failed'>;

/** Refusal codes of `replayTurn`. */
export type ReplayTurnRefusalCode = PreambleRefusalCode | 'replay-unavailable' | ValidateReplayWindowRefusalCode;

/** The result of `replayTurn`: the validated window, or a refusal. */
export type ReplayTurnResult = { readonly ok: true; readonly value: ValidatedReplayWindow } | OperationRefusal<ReplayTurnRefusalCode>;

/** Refusal codes of `inspectTurn`. */
export type InspectTurnRefusalCode = PreambleRefusalCode | TurnReadRefusalCode | 'clock-unavailable';

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
  /** The run that owns the turn and its lease deadline, when the record names one (§6 rule 12). */
  readonly run?: RunLease;
  /** The turn's effects, in the turn's order. */
  readonly effects: readonly EffectInspection<Result>[];
}

/** The result of `inspectTurn`: the turn's effects and their states, or a refusal. */
export type InspectTurnResult<Result> =
  { readonly ok: true; readonly value: TurnInspection<Result> } | OperationRefusal<InspectTurnRefusalCode>;

/**
 * Refusal codes of `renewRunLease`: the preamble's, the turn read's, `turn-not-running` (the turn has ended: cancelled,
 * interrupted or finished: the run must stop), `run-lease-lost` (another run owns the turn, or none does: the run must stop),
 * `clock-unavailable` and `checkpoint-failed` (the renewal kept conflicting or could not be confirmed).
 */
export type RenewRunLeaseRefusalCode =
  PreambleRefusalCode | TurnReadRefusalCode | 'turn-not-running' | 'run-lease-lost' | 'clock-unavailable' | 'checkpoint-failed';

/** The result of `renewRunLease`: the lease's new deadline, or a refusal. */
export type RenewRunLeaseResult =
  { readonly ok: true; readonly outcome: 'renewed'; readonly run: RunLease } | OperationRefusal<RenewRunLeaseRefusalCode>;

/**
 * Refusal codes of `finishTurn`: the preamble's, the turn read's, `turn-not-running` (the turn was cancelled or
 * interrupted first: its log's tail is not the run's to claim), `run-lease-lost` (another run owns the turn, or none
 * does), and `checkpoint-failed` (the write kept conflicting or could not be confirmed).
 */
export type FinishTurnRefusalCode = PreambleRefusalCode | TurnReadRefusalCode | 'turn-not-running' | 'run-lease-lost' | 'checkpoint-failed';

/**
 * The result of `finishTurn`. `finished`: this call ended the turn with `status`; `already-finished`: an earlier
 * call did (`status` is the stored one, which a later call never changes).
 */
export type FinishTurnResult =
  | { readonly ok: true; readonly outcome: 'finished' | 'already-finished'; readonly status: FinishedTurnStatus }
  | OperationRefusal<FinishTurnRefusalCode>;

/** `interruptTurn` before the run lease expired: the owner may still be alive until `leaseExpiresAt`. */
export interface RunLeaseHeldRefusal extends ChatRefusal<'run-lease-held'> {
  readonly run: RunLease;
}

/**
 * Refusal codes of `interruptTurn`: the preamble's, the turn read's, `turn-not-running` (the turn ended otherwise: cancelled or finished),
 * `run-lease-held` (the lease has not expired: carries the run and its deadline), `clock-unavailable` and
 * `checkpoint-failed` (the interruption kept conflicting or could not be confirmed).
 */
export type InterruptTurnRefusalCode =
  PreambleRefusalCode | TurnReadRefusalCode | 'turn-not-running' | 'run-lease-held' | 'clock-unavailable' | 'checkpoint-failed';

/**
 * The result of `interruptTurn`. `interrupted`: this call's write ended the turn (or, after a lost acknowledgement,
 * the read-back found it interrupted); `already-interrupted`: another call did. `turn` lists every effect with its
 * state at the interruption's instant, for the tail the host writes (§11.2): an `open` effect was never admitted
 * and never will be (`cancelled`); an `in-flight`, `uncertain` or `needs-reconciliation` one was admitted with an
 * unknown outcome (`needs-reconciliation`); a `completed` one has its result. `inFlight` and `abort` are
 * `cancelTurn`'s: the abort hook runs for effects admitted and still open.
 */
export type InterruptTurnResult<Result> =
  | {
      readonly ok: true;
      readonly outcome: 'interrupted' | 'already-interrupted';
      readonly turn: TurnInspection<Result>;
      readonly inFlight: readonly string[];
      readonly abort: AbortDelivery;
    }
  | RunLeaseHeldRefusal
  | OperationRefusal<InterruptTurnRefusalCode, 'run-lease-held'>;
