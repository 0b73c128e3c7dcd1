/**
 * `TurnRecovery` (fixed name): the protocol that keeps a tool with an external
 * effect from being launched twice, launched after a cancellation committed, or
 * silently lost, on top of a host adapter. It owns the order of the writes and
 * the verdicts; the host owns storage, authority and the executions. Its only
 * in-memory state is its snapshot cache (`snapshot-cache.ts`: compare-and-swap
 * expectations, never an authorization) and its per-turn write queue
 * (`write-queue.ts`). Time comes from its injected clock, only to date
 * admissions and run leases and judge both.
 */
import {
  isChatId,
  isZonedTimestamp,
  requireChatCapabilities,
  type ChatCapabilityName,
  type ChatRefusal,
} from '@papercusp/chat-protocol-core';
import { hasBrand, readFields, refuse } from '@papercusp/chat-protocol-core/internal';
import { inspectEffect, isAdmissionExpired } from './admission-lease.js';
import type { TurnAction, TurnRecoveryAdapter, TurnStore } from './adapter.js';
import { completed, needsReconciliation, settledOutcome } from './effect-verdicts.js';
import type {
  AbortDelivery,
  CancelTurnResult,
  CapabilityRefusal,
  CheckpointFailedRefusal,
  ClaimEffectResult,
  CompletedOutcome,
  DeclareEffectResult,
  DispatchEffectResult,
  FinishTurnResult,
  InspectTurnResult,
  InterruptTurnResult,
  PreambleRefusal,
  ReconcileEffectResult,
  RenewRunLeaseResult,
  ReplayTurnResult,
  StartTurnResult,
  TurnInspection,
} from './outcomes.js';
import { readReplayCursor, validateReplayWindow } from './replay-window.js';
import { isRunLeaseExpired, runLeaseDeadline } from './run-lease.js';
import { readTurnRecoveryOptions, type TurnRecoveryOptions } from './turn-recovery-options.js';
import { createSnapshotCache, type SnapshotCache } from './snapshot-cache.js';
import {
  readTurnRequest,
  readUniqueIds,
  type DispatchEffectRequest,
  type EffectExecution,
  type EffectRequest,
  type FinishTurnRequest,
  type ReconcileEffectRequest,
  type RenewRunLeaseRequest,
  type InterruptTurnRequest,
  type ReplayTurnRequest,
  type StartTurnRequest,
  type TurnRequest,
} from './turn-requests.js';
import {
  findAdmission,
  findEffect,
  isAdmitted,
  isFinishedTurnStatus,
  withEffect,
  type EffectRecord,
  type RunLease,
  type StoredTurn,
  type TurnRecord,
} from './turn-record.js';
import { createWriteQueue, type Step, type Written, type WriteQueue } from './write-queue.js';

// How the host's execution ended: its result, or a throw or rejection.
type Settled<Result> = { readonly ok: true; readonly result: Result } | { readonly ok: false };

// Runs the host's execution: a synchronous throw becomes a failed settlement, never an exception here.
function startExecution<Result>(
  execute: (execution: EffectExecution) => Result | Promise<Result>,
  execution: EffectExecution,
): Promise<Settled<Result>> {
  try {
    return Promise.resolve(execute(execution)).then(
      (result): Settled<Result> => ({ ok: true, result }),
      (): Settled<Result> => ({ ok: false }),
    );
  } catch {
    return Promise.resolve({ ok: false });
  }
}

// A check's refusal, told from its reading: a list, a string or a cursor, none of which has an `ok` field.
function isRefusal<Value>(value: Value): value is Extract<Value, ChatRefusal<string>> {
  return typeof value === 'object' && value !== null && 'ok' in value;
}

// The effect a request names, when it is a v1 id.
function effectIdOf(fields: { readonly effectId: string }): string | null {
  return isChatId(fields.effectId) ? fields.effectId : null;
}

// What each operation's preamble says when it refuses: the request it expected, and what the caller may not do.
const PREAMBLE_WORDS: Readonly<Record<TurnAction, { readonly invalid: string; readonly forbidden: string }>> = {
  start: {
    invalid: 'expected v1 ids for the conversation and turn, a list of unique v1 effect ids, and a v1 run id when one is given',
    forbidden: 'the caller may not start this turn',
  },
  declare: {
    invalid: 'expected v1 ids for the conversation, turn and effect',
    forbidden: 'the caller may not declare effects of this turn',
  },
  claim: { invalid: 'expected v1 ids for the conversation, turn and effect', forbidden: 'the caller may not claim effects of this turn' },
  cancel: { invalid: 'expected v1 ids for the conversation and turn', forbidden: 'the caller may not cancel this turn' },
  reconcile: {
    invalid: 'expected v1 ids for the conversation, turn and effect',
    forbidden: 'the caller may not reconcile effects of this turn',
  },
  replay: { invalid: 'expected v1 ids for the conversation and turn', forbidden: 'the caller may not replay this turn' },
  inspect: { invalid: 'expected a request with v1 ids for the conversation and turn', forbidden: 'the caller may not inspect this turn' },
  renew: {
    invalid: 'expected v1 ids for the conversation, turn and run',
    forbidden: 'the caller may not renew the run lease of this turn',
  },
  interrupt: { invalid: 'expected v1 ids for the conversation and turn', forbidden: 'the caller may not interrupt this turn' },
  finish: {
    invalid: 'expected v1 ids for the conversation, turn and run, and a status of completed, failed or needs-reconciliation',
    forbidden: 'the caller may not finish this turn',
  },
};

// Why a turn that is not running refuses a write of its run: it ended (cancelled, interrupted or finished), never reopened.
const ENDED = 'the turn has ended';

// A registry symbol: every copy of the package (both builds, any version) reads the same key.
const TURN_RECOVERY_BRAND: unique symbol = Symbol.for('@papercusp/chat-protocol-recovery.TurnRecovery');

// The brand getter lives on a base class made inside a pure IIFE: a computed key in a class body makes bundlers keep
// the class, and everything it reaches (zod included), in a client bundle that imports only `createTurnId`.
const BrandedTurnRecovery = /* @__PURE__ */ (() =>
  class {
    /** The brand {@link TurnRecovery.is} reads: `true` on every instance. */
    get [TURN_RECOVERY_BRAND](): true {
      return true;
    }
  })();

/**
 * Recovers agent turns whose tools have external effects, over a host adapter.
 * One instance per worker; any number of instances may share one store.
 *
 * Guarantees (given a store that keeps its contract): an effect's launch
 * callback runs at most once, never after its turn's cancellation committed,
 * and only for the newest claim; a stored result is never re-run or
 * overwritten; every result an execution produces is stored, or returned as
 * `checkpoint-failed` carrying it; nothing is reported `completed` that the
 * store does not hold. An admitted effect without a result is never
 * launched again: past the admission lease a claim marks it
 * `needs-reconciliation` (`admission-expired`). Every operation answers with a
 * typed result and never rejects, whatever the request (one that is not an
 * object or cannot be read is `invalid-request`; each is read once), and when an
 * adapter method or the clock throws or rejects; a store answer outside its contract makes the writes it carried
 * unknown (`needs-reconciliation` or a read-back), never a hang.
 */
export class TurnRecovery<Result = unknown, Caller = unknown> extends BrandedTurnRecovery {
  /**
   * Whether `value` is a `TurnRecovery` of any copy of this package: the ESM
   * build, the CommonJS build (an app that mixes the two, as Jest and Next.js
   * do, holds two classes, and `instanceof` answers for one only) or another
   * installed version. Never throws; `false` for anything unreadable.
   */
  static is(value: unknown): value is TurnRecovery<unknown, unknown> {
    return hasBrand(value, TURN_RECOVERY_BRAND);
  }

  private readonly adapter: TurnRecoveryAdapter<Result, Caller>;
  private readonly admissionLeaseMs: number;
  private readonly runLeaseMs: number;
  private readonly maxEffectsPerTurn: number;
  private readonly clock: () => string;
  private readonly snapshots: SnapshotCache<Result>;
  private readonly queue: WriteQueue<Result, Caller>;

  /**
   * Holds the adapter; reads nothing of it until an operation runs, and reads
   * the options once, here. Throws a `TypeError` (its only throw, at
   * construction) when the options cannot be read (a throwing getter, a
   * Proxy), `admissionLeaseMs` or `runLeaseMs` is not a positive safe integer, `clock` is not
   * a function, `maxEffectsPerTurn` is not a positive safe integer, or
   * `maxWriteAttempts` or `cacheSize` is given but is not a number: a host
   * misconfigured at boot, not an input to refuse.
   */
  constructor(adapter: TurnRecoveryAdapter<Result, Caller>, options: TurnRecoveryOptions = {}) {
    super();
    const { maxWriteAttempts, cacheSize, admissionLeaseMs, runLeaseMs, maxEffectsPerTurn, clock } = readTurnRecoveryOptions(options);
    this.adapter = adapter;
    this.snapshots = createSnapshotCache(cacheSize);
    this.queue = createWriteQueue(this.snapshots, maxWriteAttempts);
    this.admissionLeaseMs = admissionLeaseMs;
    this.runLeaseMs = runLeaseMs;
    this.maxEffectsPerTurn = maxEffectsPerTurn;
    this.clock = clock;
  }

  /**
   * Starts a turn with the effect identities the host authorized (its tool
   * calls with external effects; `[]` when its run declares them as it
   * discovers them, `declareEffect`). Idempotent: the same turn started again
   * is `existing` (the stored effects are the start's, in order, then any
   * declared since); the same turn id with another conversation or effect
   * list is `turn-conflict`. A lost acknowledgement is read back. With a
   * `runId` the turn is stored owned by that run, its lease running
   * `runLeaseMs` past the clock's instant (`clock-unavailable` without a
   * reading); an `existing` turn keeps the run it was started with, which the
   * answer's `turn.run` names (another run's turn is not this run's to drive).
   */
  async startTurn(request: StartTurnRequest<Caller>): Promise<StartTurnResult<Result>> {
    const opened = await this.open(this.requireStore(), request, 'start', ['effectIds', 'runId'], (fields) =>
      fields.runId === undefined || isChatId(fields.runId) ? readUniqueIds(fields.effectIds) : null,
    );
    if ('ok' in opened) return opened;
    const { gate, fields, checked: effectIds } = opened;
    const { conversationId, turnId, runId } = fields;
    const startedAt = runId === undefined ? undefined : this.now();
    if (startedAt === null)
      return refuse('clock-unavailable', 'the clock gave no RFC 3339 timestamp to date the run lease: nothing was written');
    const record: TurnRecord<Result> = {
      conversationId,
      turnId,
      status: 'running',
      revision: 1,
      ...(runId === undefined || startedAt === undefined
        ? {}
        : { run: { runId, leaseExpiresAt: runLeaseDeadline(startedAt, this.runLeaseMs) } }),
      effects: effectIds.map((effectId): EffectRecord<Result> => ({ effectId, claim: 0, status: 'open' })),
    };
    // The start's effects come first in the stored list; those declared since follow them.
    const sameTurn = (found: TurnRecord<Result>): boolean =>
      found.conversationId === conversationId &&
      found.effects.length >= effectIds.length &&
      effectIds.every((effectId, index) => found.effects[index]?.effectId === effectId);
    let current: StoredTurn<Result> | null;
    try {
      const answer = await gate.compareAndSwap({ turnId, expectedRevision: 0, next: record });
      if (answer.swapped) {
        this.snapshots.remember(answer.turn);
        return { ok: true, outcome: 'started', turn: answer.turn.record };
      }
      current = answer.current;
    } catch {
      // The create may have committed: read it back before answering.
      const readBack = await this.snapshots.read(gate, turnId);
      if (readBack === 'unavailable' || readBack === null) return refuse('checkpoint-failed', 'the turn could not be created or confirmed');
      this.snapshots.remember(readBack);
      return sameTurn(readBack.record)
        ? { ok: true, outcome: 'started', turn: readBack.record }
        : refuse('turn-conflict', 'another turn with this id exists');
    }
    if (current === null) return refuse('checkpoint-failed', 'the store refused the create but holds no such turn');
    this.snapshots.remember(current);
    return sameTurn(current.record)
      ? { ok: true, outcome: 'existing', turn: current.record }
      : refuse('turn-conflict', 'another turn with this id exists');
  }

  /**
   * Declares an effect identity the running turn's run discovered (a tool call
   * its model chose, §6 rule 1), under the caller's current authority
   * (`declare`), through the same compare-and-swap as every write: the
   * effect joins the turn open and unclaimed, after the others. A
   * declaration and a cancellation are ordered by the store's fence: one
   * that would land after the cancellation committed is `turn-not-running`
   * and writes nothing. Idempotent: an id the turn already holds (started
   * with it, or declared before by any worker) is `already-declared`, whatever
   * the turn's status, and writes nothing; its state is the claim's to tell.
   * Past `maxEffectsPerTurn` effects it is `too-many-effects`. A lost
   * acknowledgement is read back (`declared` when the turn holds the effect).
   */
  async declareEffect(request: EffectRequest<Caller>): Promise<DeclareEffectResult> {
    const opened = await this.openStoredTurn(request, 'declare', 'snapshot', ['effectId'], effectIdOf);
    if ('ok' in opened) return opened;
    const { gate, fields, checked: effectId, turn } = opened;
    const { conversationId, turnId } = fields;
    // Every stop below is final even on a stale snapshot: effects are never removed, a cancelled turn never reopens.
    const written = await this.queue.write<DeclareEffectResult>(gate, turnId, turn, (current) => {
      const { record } = current;
      if (record.conversationId !== conversationId) return { stop: refuse('unknown-turn', 'no such turn in this conversation') };
      if (findEffect(record, effectId) !== undefined) return { stop: { ok: true, outcome: 'already-declared' } };
      if (record.status !== 'running') return { stop: refuse('turn-not-running', `${ENDED}: the effect was not declared`) };
      if (record.effects.length >= this.maxEffectsPerTurn)
        return { stop: refuse('too-many-effects', `the turn holds ${this.maxEffectsPerTurn} effects, the most it may`) };
      const effect: EffectRecord<Result> = { effectId, claim: 0, status: 'open' };
      return { write: { ...record, revision: record.revision + 1, effects: [...record.effects, effect] } };
    });
    switch (written.type) {
      case 'stopped':
        return written.value;
      case 'written':
        return { ok: true, outcome: 'declared' };
      case 'unacknowledged': {
        const readBack = await this.snapshots.read(gate, turnId);
        if (readBack !== 'unavailable' && readBack !== null && findEffect(readBack.record, effectId) !== undefined)
          return { ok: true, outcome: 'declared' };
        return refuse('checkpoint-failed', 'the declaration could not be confirmed');
      }
      case 'missing':
        return refuse('unknown-turn', 'the turn is gone');
      case 'exhausted':
        return refuse('checkpoint-failed', 'the declaration kept conflicting with other writes');
    }
  }

  /**
   * Claims an effect before dispatch. A completed effect returns its stored
   * result (`completed`, `reused: true`) and is never re-run; an effect marked
   * for reconciliation says so. Otherwise the claim number goes up by one: the
   * newest claim is the only one admission accepts, so a worker that died after
   * claiming is taken over by the next claim. An admitted effect without a
   * result is `already-admitted` while its admission is younger than the lease
   * (a model retry of the same call never redispatches); past the lease the
   * claim durably marks it `needs-reconciliation` (`admission-expired`) through
   * compare-and-swap and answers that, also in a cancelled turn: it is never
   * relaunched (§6.11). A lost acknowledgement is `needs-reconciliation`
   * (`claim-unacknowledged`; `admission-expired` when the write was the mark).
   */
  async claimEffect(request: EffectRequest<Caller>): Promise<ClaimEffectResult<Result>> {
    const opened = await this.open(this.requireStore(), request, 'claim', ['effectId'], effectIdOf);
    if ('ok' in opened) return opened;
    const { gate, fields, checked: effectId } = opened;
    const { conversationId, turnId } = fields;
    type Verdict = ClaimEffectResult<Result>;
    // The claim number this call writes, and whether the write is the expiry
    // mark instead: set by the last decision, which is the one written.
    let claimNumber = 0;
    let marking = false;
    // The clock is read once, and only when an admission must be judged.
    let now: string | null | undefined;
    const decide = (turn: StoredTurn<Result>): Step<Result, Verdict> => {
      if (turn.record.conversationId !== conversationId) return { stop: refuse('unknown-turn', 'no such turn in this conversation') };
      const effect = findEffect(turn.record, effectId);
      if (effect === undefined) return { stop: refuse('unknown-effect', 'the turn did not authorize this effect') };
      const settled = settledOutcome(effect);
      if (settled !== null) return { stop: settled };
      const admission = findAdmission(turn, effectId);
      if (admission !== undefined) {
        now ??= this.now();
        if (now === null)
          return { stop: refuse('clock-unavailable', 'the clock gave no RFC 3339 timestamp: the admission lease cannot be judged') };
        if (isAdmissionExpired(admission, now, this.admissionLeaseMs)) {
          marking = true;
          return {
            write: withEffect(turn.record, { effectId, claim: effect.claim, status: 'needs-reconciliation', reason: 'admission-expired' }),
          };
        }
      }
      marking = false;
      if (turn.record.status !== 'running') return { stop: refuse('turn-not-running', ENDED) };
      if (admission !== undefined)
        return { stop: refuse('already-admitted', 'the effect was admitted and is in flight within the admission lease') };
      claimNumber = effect.claim + 1;
      return { write: withEffect(turn.record, { effectId, claim: claimNumber, status: 'open' }) };
    };
    const cached = this.snapshots.get(turnId);
    let written: Written<Result, Verdict> | undefined;
    if (cached !== undefined) {
      written = await this.queue.write(gate, turnId, cached, decide);
      // Only a stored result is final: an admission or a mark may have been
      // settled since the snapshot, so any other verdict from it is read again.
      const final = written.type !== 'stopped' || (written.value.ok && written.value.outcome === 'completed');
      if (!final) written = undefined;
    }
    if (written === undefined) {
      const read = await this.readTurn(gate, fields, 'fresh');
      if ('ok' in read) return read;
      written = await this.queue.write(gate, turnId, read.turn, decide);
    }
    // Admissions do not move the revision, so a claim written from an older
    // snapshot can land after one; the store's answer shows it, and the claim
    // it wrote can never be admitted. The admission is judged once more on
    // that answer: in flight, or past its lease and marked now.
    if (written.type === 'written' && !marking && isAdmitted(written.turn, effectId))
      written = await this.queue.write(gate, turnId, written.turn, decide);
    switch (written.type) {
      case 'stopped':
        return written.value;
      case 'written': {
        if (marking) return needsReconciliation('admission-expired');
        if (isAdmitted(written.turn, effectId))
          return refuse('already-admitted', 'the effect was admitted and is in flight within the admission lease');
        return { ok: true, outcome: 'claimed', claim: { conversationId, turnId, effectId, claim: claimNumber } };
      }
      case 'unacknowledged':
        return needsReconciliation(marking ? 'admission-expired' : 'claim-unacknowledged');
      case 'missing':
        return refuse('unknown-turn', 'the turn is gone');
      case 'exhausted':
        return refuse('checkpoint-failed', 'the claim kept conflicting with other writes');
    }
  }

  /**
   * Dispatches a claimed effect through the store's admission seam. The store
   * revalidates the caller's authority, the running turn and the claim under
   * the same fence as cancellation, records the admission, and calls the launch
   * callback once before releasing the fence; the result is awaited outside it
   * and stored through compare-and-swap (retrying on conflicts, never
   * re-launching). A lost completion acknowledgement is read back; a result the
   * store never confirmed is `checkpoint-failed` carrying it. A failed or
   * aborted execution, or a lost admission acknowledgement, is
   * `needs-reconciliation`. A store without `admitDispatch` is `no-admission-seam`.
   * The admission is dated by the clock (`admittedAt`); without a reading the
   * dispatch refuses `clock-unavailable` and launches nothing.
   */
  async dispatchEffect(request: DispatchEffectRequest<Result, Caller>): Promise<DispatchEffectResult<Result>> {
    const gate = this.requireStore();
    if ('ok' in gate) return gate;
    const admitDispatch = gate.admitDispatch;
    if (typeof admitDispatch !== 'function')
      return refuse('no-admission-seam', 'the store has no admitDispatch: dispatch cannot be fenced against cancellation');
    const fields = readFields(request, ['caller', 'claim', 'execute']);
    const claim = fields === undefined ? null : readTurnRequest(fields.claim, ['effectId', 'claim']);
    if (
      fields === undefined ||
      claim === null ||
      !isChatId(claim.effectId) ||
      !(Number.isSafeInteger(claim.claim) && claim.claim > 0) ||
      typeof fields.execute !== 'function'
    ) {
      return refuse('invalid-request', 'expected a claim from claimEffect and an execute function');
    }
    const { caller, execute } = fields;
    const execution: EffectExecution = {
      conversationId: claim.conversationId,
      turnId: claim.turnId,
      effectId: claim.effectId,
      claim: claim.claim,
    };
    const admittedAt = this.now();
    if (admittedAt === null)
      return refuse('clock-unavailable', 'the clock gave no RFC 3339 timestamp to date the admission: nothing was launched');
    let settled: Promise<Settled<Result>> | undefined;
    const launch = (): void => {
      if (settled === undefined) settled = startExecution(execute, execution);
    };
    let admission: Awaited<ReturnType<typeof admitDispatch>> | undefined;
    try {
      admission = await admitDispatch.call(gate, { caller, ...execution, admittedAt }, launch);
    } catch {
      admission = undefined;
    }
    // A launch is the store's word that the admission is durable: from here on
    // the execution's result must be stored, whatever the store answered.
    if (settled !== undefined) return this.finish(gate, execution, await settled);
    if (admission === undefined || admission.admitted) return needsReconciliation('admission-unacknowledged');
    switch (admission.code) {
      case 'effect-settled': {
        const turn = await this.snapshots.read(gate, execution.turnId);
        const effect = turn === 'unavailable' || turn === null ? undefined : findEffect(turn.record, execution.effectId);
        const outcome = effect === undefined ? null : settledOutcome(effect);
        return outcome ?? refuse('store-unavailable', 'the effect is settled but its record could not be read');
      }
      case 'forbidden':
        return refuse('forbidden', 'the caller may no longer dispatch in this turn');
      case 'unknown-turn':
        return refuse('unknown-turn', 'no such turn');
      case 'turn-not-running':
        return refuse('turn-not-running', `${ENDED}: nothing was launched`);
      case 'unknown-effect':
        return refuse('unknown-effect', 'the turn did not authorize this effect');
      case 'already-admitted':
        return refuse('already-admitted', 'the effect was already admitted: it is not launched again');
      case 'stale-claim':
        return refuse('stale-claim', 'a newer claim exists for this effect: nothing was launched');
      default:
        return refuse('store-unavailable', 'the store answered the admission with an unknown code');
    }
  }

  /**
   * Cancels a turn: the cancellation commits first (under the fence admission
   * takes, so nothing is launched after it), then the abort hook runs for the
   * effects admitted and still open. An in-flight effect's later result is
   * still stored; the turn is never reopened. Cancelling an ended turn
   * (cancelled, interrupted or finished) is `committed: false`, leaves it as it was, and runs the
   * abort hook again. A throwing abort hook is
   * reported (`abort: 'failed'`) and changes nothing that committed.
   */
  async cancelTurn(request: TurnRequest<Caller>): Promise<CancelTurnResult> {
    // A fresh read: the in-flight list must come from what is stored, not from a snapshot.
    const opened = await this.openStoredTurn(request, 'cancel', 'fresh', []);
    if ('ok' in opened) return opened;
    const { gate, fields, turn: start } = opened;
    const { conversationId, turnId } = fields;
    const written = await this.queue.write<StoredTurn<Result> | null>(gate, turnId, start, (turn) => {
      if (turn.record.conversationId !== conversationId) return { stop: null };
      if (turn.record.status !== 'running') return { stop: turn };
      return { write: { ...turn.record, status: 'cancelled', revision: turn.record.revision + 1 } };
    });
    let committed: boolean;
    let cancelledTurn: StoredTurn<Result>;
    switch (written.type) {
      case 'stopped':
        if (written.value === null) return refuse('unknown-turn', 'no such turn in this conversation');
        committed = false;
        cancelledTurn = written.value;
        break;
      case 'written':
        committed = true;
        cancelledTurn = written.turn;
        break;
      case 'unacknowledged': {
        const readBack = await this.snapshots.read(gate, turnId);
        if (readBack === 'unavailable' || readBack === null || readBack.record.status !== 'cancelled') {
          return refuse('checkpoint-failed', 'the cancellation could not be confirmed; nothing was aborted');
        }
        committed = true;
        cancelledTurn = readBack;
        break;
      }
      case 'missing':
        return refuse('unknown-turn', 'the turn is gone');
      case 'exhausted':
        return refuse('checkpoint-failed', 'the cancellation kept conflicting with other writes');
    }
    return { ok: true, outcome: 'cancelled', committed, ...(await this.abortInFlight(cancelledTurn)) };
  }

  /**
   * Persists a result the host verified through its own effect or idempotency
   * lookup, through the same compare-and-swap. A result already stored wins and
   * is returned (`reused: true`); the turn's status is never changed, so a
   * cancelled turn stays cancelled. A lost acknowledgement is read back.
   */
  async reconcileEffect(request: ReconcileEffectRequest<Result, Caller>): Promise<ReconcileEffectResult<Result>> {
    const opened = await this.openStoredTurn(request, 'reconcile', 'snapshot', ['effectId', 'result'], effectIdOf);
    if ('ok' in opened) return opened;
    const { gate, fields, checked: effectId, turn } = opened;
    const outcome = await this.storeResult(gate, fields.turnId, turn, effectId, fields.result, 'reconcile');
    if (outcome === 'unknown-effect') return refuse('unknown-effect', 'the turn did not authorize this effect');
    return outcome;
  }

  /**
   * Lists a turn's effects with their state at the clock's current instant
   * (§6.11): `open`, `in-flight` (admitted, no result, younger than the
   * lease), `uncertain` (admitted, no result, past the lease, not yet durably
   * marked: a claim marks it), `needs-reconciliation` (with its reason) or
   * `completed` (with the result). For a host's sweeper and a reconnecting
   * client. Reads the store fresh and writes nothing. The caller's authority
   * (`inspect`) is checked before the store is read, and a turn of another
   * conversation is `unknown-turn` like a missing one, so nothing leaks about a
   * turn the caller may not see. Never throws, whatever the request.
   */
  async inspectTurn(request: TurnRequest<Caller>): Promise<InspectTurnResult<Result>> {
    const opened = await this.openStoredTurn(request, 'inspect', 'fresh', []);
    if ('ok' in opened) return opened;
    const { turn } = opened;
    const { conversationId, turnId } = opened.fields;
    const inspectedAt = this.now();
    if (inspectedAt === null)
      return refuse('clock-unavailable', 'the clock gave no RFC 3339 timestamp: the admission lease cannot be judged');
    const value = this.inspection(turn, inspectedAt);
    // A stored turn outside the record's shape: nothing can be said about its effects.
    return value === null ? refuse('store-unavailable', 'the store answered with a turn outside the record shape') : { ok: true, value };
  }

  /**
   * Renews the run lease of a running turn for the run that owns it (§6 rule
   * 12): the deadline becomes `runLeaseMs` past the clock's instant (never
   * earlier than it was), through the same compare-and-swap as every write.
   * A renewal past the deadline that nobody interrupted yet is allowed: the
   * run is alive and nobody took over. A renewal that finds the turn cancelled
   * or interrupted is `turn-not-running`, one owned by another run (or by none)
   * `run-lease-lost`: either way the run must stop at once and write nothing
   * more. Ordered against `interruptTurn` by the store's fence: exactly one of
   * them wins. A lost acknowledgement is read back.
   */
  async renewRunLease(request: RenewRunLeaseRequest<Caller>): Promise<RenewRunLeaseResult> {
    const opened = await this.openStoredTurn(request, 'renew', 'snapshot', ['runId'], (fields) => isChatId(fields.runId) || null);
    if ('ok' in opened) return opened;
    const { gate, fields, turn } = opened;
    const { conversationId, turnId, runId } = fields;
    const now = this.now();
    if (now === null) return refuse('clock-unavailable', 'the clock gave no RFC 3339 timestamp to date the run lease: nothing was renewed');
    type Stop = Exclude<RenewRunLeaseResult, { readonly ok: true }>;
    // Every stop is final even on a stale snapshot: an ended turn never reopens, and a turn's run never changes.
    const refusal = (record: TurnRecord<Result>): Stop | null => {
      if (record.conversationId !== conversationId) return refuse('unknown-turn', 'no such turn in this conversation');
      if (record.status !== 'running') return refuse('turn-not-running', `${ENDED}: the run must stop`);
      if (record.run?.runId !== runId) return refuse('run-lease-lost', 'another run owns this turn: the run must stop');
      return null;
    };
    // The lease this call writes: set by the last decision, which is the one written.
    let renewed: RunLease = { runId, leaseExpiresAt: runLeaseDeadline(now, this.runLeaseMs, turn.record.run) };
    const written = await this.queue.write<Stop>(gate, turnId, turn, ({ record }) => {
      const stop = refusal(record);
      if (stop !== null) return { stop };
      renewed = { runId, leaseExpiresAt: runLeaseDeadline(now, this.runLeaseMs, record.run) };
      return { write: { ...record, revision: record.revision + 1, run: renewed } };
    });
    switch (written.type) {
      case 'stopped':
        return written.value;
      case 'written':
        return { ok: true, outcome: 'renewed', run: renewed };
      case 'unacknowledged': {
        const readBack = await this.snapshots.read(gate, turnId);
        if (readBack === 'unavailable' || readBack === null) return refuse('checkpoint-failed', 'the renewal could not be confirmed');
        const stop = refusal(readBack.record);
        if (stop !== null) return stop;
        const run = readBack.record.run;
        return run !== undefined && run.leaseExpiresAt === renewed.leaseExpiresAt
          ? { ok: true, outcome: 'renewed', run }
          : refuse('checkpoint-failed', 'the renewal could not be confirmed');
      }
      case 'missing':
        return refuse('unknown-turn', 'the turn is gone');
      case 'exhausted':
        return refuse('checkpoint-failed', 'the renewal kept conflicting with other writes');
    }
  }

  /**
   * Interrupts a running turn whose run lease expired at the clock's instant
   * (§6 rule 12): one compare-and-swap, under the fence admission takes, sets
   * its status `interrupted`; from then on the old owner's renewals,
   * declarations, claims and admissions are refused (`turn-not-running`) even
   * if it wakes up. Before the deadline it is `run-lease-held`, carrying the
   * run and its deadline, unless `runId` names the run that owns the turn: an
   * owner may give its turn up at any time (a host draining its runs). A turn
   * without a run is past its lease. The answer
   * lists the effects for the tail the host writes; the first interrupter gets
   * `interrupted`, every later one `already-interrupted` with the same list,
   * so one caller writes the tail (after a lost acknowledgement the read-back
   * answers `interrupted` too: the tail's write must still be idempotent). A
   * turn that ended otherwise (cancelled, finished) is `turn-not-running`. Like `cancelTurn`, it then runs the
   * abort hook for the effects admitted and still open. Reads the turn fresh.
   */
  async interruptTurn(request: InterruptTurnRequest<Caller>): Promise<InterruptTurnResult<Result>> {
    const opened = await this.openStoredTurn(request, 'interrupt', 'fresh', ['runId'], (fields) =>
      fields.runId === undefined || isChatId(fields.runId) ? true : null,
    );
    if ('ok' in opened) return opened;
    const { gate, fields, turn: start } = opened;
    const { conversationId, turnId, runId } = fields;
    const now = this.now();
    if (now === null) return refuse('clock-unavailable', 'the clock gave no RFC 3339 timestamp: the run lease cannot be judged');
    type Stop = Exclude<InterruptTurnResult<Result>, { readonly ok: true }> | { readonly already: StoredTurn<Result> };
    const written = await this.queue.write<Stop>(gate, turnId, start, (turn) => {
      const { record } = turn;
      if (record.conversationId !== conversationId) return { stop: refuse('unknown-turn', 'no such turn in this conversation') };
      if (record.status === 'interrupted') return { stop: { already: turn } };
      if (record.status !== 'running') return { stop: refuse('turn-not-running', `${ENDED}: it is ${record.status}`) };
      const ownRun = runId !== undefined && record.run?.runId === runId;
      if (record.run !== undefined && !ownRun && !isRunLeaseExpired(record, now)) {
        const { run } = record;
        return { stop: { ok: false, code: 'run-lease-held', message: `the run lease holds until ${run.leaseExpiresAt}`, run } };
      }
      return { write: { ...record, status: 'interrupted', revision: record.revision + 1 } };
    });
    let outcome: 'interrupted' | 'already-interrupted';
    let ended: StoredTurn<Result>;
    switch (written.type) {
      case 'stopped':
        if (!('already' in written.value)) return written.value;
        outcome = 'already-interrupted';
        ended = written.value.already;
        break;
      case 'written':
        outcome = 'interrupted';
        ended = written.turn;
        break;
      case 'unacknowledged': {
        const readBack = await this.snapshots.read(gate, turnId);
        if (readBack === 'unavailable' || readBack === null || readBack.record.status !== 'interrupted')
          return refuse('checkpoint-failed', 'the interruption could not be confirmed; nothing was aborted');
        outcome = 'interrupted';
        ended = readBack;
        break;
      }
      case 'missing':
        return refuse('unknown-turn', 'the turn is gone');
      case 'exhausted':
        return refuse('checkpoint-failed', 'the interruption kept conflicting with other writes');
    }
    const inspected = this.inspection(ended, now);
    if (inspected === null) return refuse('store-unavailable', 'the store answered with a turn outside the record shape');
    return { ok: true, outcome, turn: inspected, ...(await this.abortInFlight(ended)) };
  }

  /**
   * Ends a running turn for the run that owns it, once the terminal frame it
   * wrote is durable (§6 rule 12): one compare-and-swap sets the status that
   * frame says (`completed`, `failed` or `needs-reconciliation`), so the turn
   * is no longer running past its lease and nobody interrupts it. From then on
   * renewals, declarations, claims and admissions are `turn-not-running`, a
   * cancellation is `committed: false`, and an interruption is
   * `turn-not-running`. Ordered against `interruptTurn` and `cancelTurn` by
   * the store's fence: whichever commits first ends the turn, and a finish
   * after them is `turn-not-running` (the interrupter's or canceller's tail
   * ends the log). Another run (or none) is `run-lease-lost`. A finish past
   * the deadline that nobody interrupted yet is allowed, like a renewal.
   * Idempotent: a turn already finished is `already-finished` with its stored
   * status. A lost acknowledgement is read back. Needs no clock.
   */
  async finishTurn(request: FinishTurnRequest<Caller>): Promise<FinishTurnResult> {
    const opened = await this.openStoredTurn(request, 'finish', 'snapshot', ['runId', 'status'], (fields) =>
      isChatId(fields.runId) && isFinishedTurnStatus(fields.status) ? true : null,
    );
    if ('ok' in opened) return opened;
    const { gate, fields, turn } = opened;
    const { conversationId, turnId, runId, status } = fields;
    type Stop = Exclude<FinishTurnResult, { readonly ok: true; readonly outcome: 'finished' }>;
    // Every stop is final even on a stale snapshot: an ended turn never reopens, and a turn's run never changes.
    const refusal = (record: TurnRecord<Result>): Stop | null => {
      if (record.conversationId !== conversationId) return refuse('unknown-turn', 'no such turn in this conversation');
      if (record.run?.runId !== runId) return refuse('run-lease-lost', 'another run owns this turn: it is not this run’s to finish');
      if (isFinishedTurnStatus(record.status)) return { ok: true, outcome: 'already-finished', status: record.status };
      if (record.status !== 'running') return refuse('turn-not-running', `${ENDED}: it is ${record.status}`);
      return null;
    };
    const written = await this.queue.write<Stop>(gate, turnId, turn, ({ record }) => {
      const stop = refusal(record);
      return stop === null ? { write: { ...record, status, revision: record.revision + 1 } } : { stop };
    });
    switch (written.type) {
      case 'stopped':
        return written.value;
      case 'written':
        return { ok: true, outcome: 'finished', status };
      case 'unacknowledged': {
        const readBack = await this.snapshots.read(gate, turnId);
        if (readBack === 'unavailable' || readBack === null) return refuse('checkpoint-failed', 'the finish could not be confirmed');
        const stop = refusal(readBack.record);
        if (stop !== null && stop.ok && stop.status === status) return { ok: true, outcome: 'finished', status };
        return stop ?? refuse('checkpoint-failed', 'the finish could not be confirmed');
      }
      case 'missing':
        return refuse('unknown-turn', 'the turn is gone');
      case 'exhausted':
        return refuse('checkpoint-failed', 'the finish kept conflicting with other writes');
    }
  }

  /**
   * Replays a turn after the client's cursor: asks the host's replay window and
   * validates it with `validateReplayWindow` (stale and future cursors, gaps,
   * reordered, duplicated and foreign frames are refused; the value is the
   * complete suffix). Needs `connectionReplay` only: a lightweight host that
   * refuses restart recovery still replays.
   */
  async replayTurn(request: ReplayTurnRequest<Caller>): Promise<ReplayTurnResult> {
    const opened = await this.open(this.requireReplayWindow(), request, 'replay', ['after'], (fields) =>
      readReplayCursor(fields.after, fields.turnId),
    );
    if ('ok' in opened) return opened;
    const { replayWindow } = opened.gate;
    const { conversationId, turnId } = opened.fields;
    const cursor = opened.checked;
    let window: Awaited<ReturnType<typeof replayWindow>>;
    try {
      window = await replayWindow.call(this.adapter, { conversationId, turnId, after: cursor.seq });
    } catch {
      return refuse('replay-unavailable', 'the replay window could not be read');
    }
    return validateReplayWindow(window, { conversationId, turnId, after: cursor });
  }

  // --- internals -------------------------------------------------------------

  // A stored turn with its effects' states at `at`; null for a stored turn outside the record's shape.
  private inspection(turn: StoredTurn<Result>, at: string): TurnInspection<Result> | null {
    try {
      const effects = turn.record.effects.map((effect) => inspectEffect(turn, effect, at, this.admissionLeaseMs));
      const { conversationId, turnId, status, revision, run } = turn.record;
      return {
        conversationId,
        turnId,
        status,
        revision,
        inspectedAt: at,
        admissionLeaseMs: this.admissionLeaseMs,
        ...(run === undefined ? {} : { run: { runId: run.runId, leaseExpiresAt: run.leaseExpiresAt } }),
        effects,
      };
    } catch {
      return null;
    }
  }

  // After a turn ended: the effects admitted and still open, and the abort hook called for them.
  private async abortInFlight(turn: StoredTurn<Result>): Promise<{ readonly inFlight: readonly string[]; readonly abort: AbortDelivery }> {
    const { conversationId, turnId } = turn.record;
    const inFlight = turn.record.effects
      .filter((effect) => effect.status === 'open' && isAdmitted(turn, effect.effectId))
      .map((effect) => effect.effectId);
    if (inFlight.length === 0) return { inFlight, abort: 'not-needed' };
    if (typeof this.adapter.abort !== 'function') return { inFlight, abort: 'no-hook' };
    try {
      await this.adapter.abort({ conversationId, turnId, effectIds: inFlight });
      return { inFlight, abort: 'requested' };
    } catch {
      return { inFlight, abort: 'failed' };
    }
  }

  // The clock's reading, or null when it threw or gave no RFC 3339 timestamp.
  private now(): string | null {
    try {
      const now = this.clock();
      return isZonedTimestamp(now) ? now : null;
    } catch {
      return null;
    }
  }

  private requireCapability(name: ChatCapabilityName): CapabilityRefusal | null {
    const check = requireChatCapabilities(this.adapter.capabilities, [name]);
    return check.ok ? null : check;
  }

  private missingPart(name: ChatCapabilityName, message: string): CapabilityRefusal {
    return { ok: false, code: 'unsupported-capability', message: `${message}: missing capabilities: ${name}`, missing: [name] };
  }

  // Restart recovery needs the declaration and a store behind it.
  private requireStore(): TurnStore<Result, Caller> | CapabilityRefusal {
    const capability = this.requireCapability('interruptedTurnRecovery');
    if (capability !== null) return capability;
    const store = this.adapter.store;
    return store === undefined ? this.missingPart('interruptedTurnRecovery', 'the adapter has no store') : store;
  }

  // Connection replay needs the declaration and a replay window behind it.
  private requireReplayWindow():
    { readonly replayWindow: NonNullable<TurnRecoveryAdapter<Result, Caller>['replayWindow']> } | CapabilityRefusal {
    const capability = this.requireCapability('connectionReplay');
    if (capability !== null) return capability;
    const replayWindow = this.adapter.replayWindow;
    return typeof replayWindow === 'function' ? { replayWindow } : this.missingPart('connectionReplay', 'the adapter has no replay window');
  }

  /**
   * The preamble every operation naming a turn runs, in this order: the gate (what the operation needs of the
   * adapter: checked before the request is touched), the request read once with its turn's ids and `keys`, the
   * operation's own fields (`check`: their reading, `null` for `invalid-request` or the refusal it returns), and the
   * caller's authority for `action`. Each refusal carries the operation's own words (`PREAMBLE_WORDS`).
   * (`dispatchEffect` reads a claim, not a turn request, and its store judges the caller under the admission fence,
   * so it shares only the gate, `requireStore`.)
   */
  private async open<Gate, Request extends TurnRequest<Caller>, Key extends keyof Request & string, Checked = true>(
    gate: Gate | CapabilityRefusal,
    request: Request,
    action: TurnAction,
    keys: readonly Key[],
    check?: (fields: Pick<Request, Key | keyof TurnRequest<Caller>>) => Checked | null,
  ): Promise<
    | {
        readonly gate: Gate;
        readonly fields: Pick<Request, Key | keyof TurnRequest<Caller>>;
        readonly checked: Exclude<Checked, ChatRefusal<string>>;
      }
    | PreambleRefusal
    | Extract<Checked, ChatRefusal<string>>
  > {
    if ('ok' in (gate as object)) return gate as CapabilityRefusal;
    const words = PREAMBLE_WORDS[action];
    const fields = readTurnRequest<Request, Key | 'caller'>(request, ['caller', ...keys]);
    // Without a check, `Checked` is its default: the request needs nothing beyond its turn.
    const checked = fields === null ? null : check === undefined ? (true as Checked) : check(fields);
    if (fields === null || checked === null) return refuse('invalid-request', words.invalid);
    if (isRefusal(checked)) return checked;
    const { caller, conversationId, turnId } = fields;
    if (!(await this.authorized(caller, action, conversationId, turnId))) return refuse('forbidden', words.forbidden);
    return { gate: gate as Gate, fields, checked: checked as Exclude<Checked, ChatRefusal<string>> };
  }

  // The preamble of an operation on a stored turn: `open` over the store, then its turn, read fresh or from the
  // snapshot cache (`readTurn`).
  private async openStoredTurn<Request extends TurnRequest<Caller>, Key extends keyof Request & string, Checked = true>(
    request: Request,
    action: TurnAction,
    source: 'fresh' | 'snapshot',
    keys: readonly Key[],
    check?: (fields: Pick<Request, Key | keyof TurnRequest<Caller>>) => Checked | null,
  ): Promise<
    | {
        readonly gate: TurnStore<Result, Caller>;
        readonly fields: Pick<Request, Key | keyof TurnRequest<Caller>>;
        readonly checked: Exclude<Checked, ChatRefusal<string>>;
        readonly turn: StoredTurn<Result>;
      }
    | PreambleRefusal
    | Extract<Checked, ChatRefusal<string>>
    | ChatRefusal<'store-unavailable' | 'unknown-turn'>
  > {
    const opened = await this.open(this.requireStore(), request, action, keys, check);
    if ('ok' in opened) return opened;
    const read = await this.readTurn(opened.gate, opened.fields, source);
    return 'ok' in read ? read : { ...opened, turn: read.turn };
  }

  // The turn an operation works on, read fresh from the store or as the snapshot cache holds it (wrapped: a stored turn
  // is the store's own object); a turn of another conversation is `unknown-turn` like a missing one.
  private async readTurn(
    store: TurnStore<Result, Caller>,
    { conversationId, turnId }: { readonly conversationId: string; readonly turnId: string },
    source: 'fresh' | 'snapshot',
  ): Promise<{ readonly turn: StoredTurn<Result> } | ChatRefusal<'store-unavailable' | 'unknown-turn'>> {
    const turn = source === 'fresh' ? await this.snapshots.read(store, turnId) : await this.snapshots.snapshot(store, turnId);
    if (turn === 'unavailable') return refuse('store-unavailable', 'the turn could not be read');
    if (turn === null || turn.record.conversationId !== conversationId) return refuse('unknown-turn', 'no such turn in this conversation');
    return { turn };
  }

  private async authorized(caller: Caller, action: TurnAction, conversationId: string, turnId: string): Promise<boolean> {
    try {
      return (await this.adapter.authorize({ caller, action, conversationId, turnId })) === true;
    } catch {
      return false;
    }
  }

  // Stores an effect's result unless one is stored; after a lost acknowledgement,
  // reads back before answering.
  private async storeResult(
    store: TurnStore<Result, Caller>,
    turnId: string,
    start: StoredTurn<Result>,
    effectId: string,
    result: Result,
    source: 'dispatch' | 'reconcile',
  ): Promise<CompletedOutcome<Result> | CheckpointFailedRefusal<Result> | 'unknown-effect'> {
    const checkpointFailed = (message: string): CheckpointFailedRefusal<Result> => ({
      ok: false,
      code: 'checkpoint-failed',
      message,
      result,
    });
    const written = await this.queue.write<CompletedOutcome<Result> | 'unknown-effect'>(store, turnId, start, (turn) => {
      const effect = findEffect(turn.record, effectId);
      if (effect === undefined) return { stop: 'unknown-effect' };
      if (effect.status === 'completed') return { stop: completed(effect.result, true) };
      return { write: withEffect(turn.record, { effectId, claim: effect.claim, status: 'completed', result, source }) };
    });
    switch (written.type) {
      case 'stopped':
        return written.value;
      case 'written':
        return completed(result, false);
      case 'unacknowledged': {
        const readBack = await this.snapshots.read(store, turnId);
        const effect = readBack === 'unavailable' || readBack === null ? undefined : findEffect(readBack.record, effectId);
        if (effect?.status === 'completed') return completed(effect.result, effect.source !== source);
        return checkpointFailed('the result was not confirmed by the store; it is returned here, and the effect needs reconciliation');
      }
      case 'missing':
        return checkpointFailed('the turn is gone; the result is returned here');
      case 'exhausted':
        return checkpointFailed('the result kept conflicting with other writes; it is returned here');
    }
  }

  // After the execution settled: store its result, or mark the effect for reconciliation.
  private async finish(
    store: TurnStore<Result, Caller>,
    execution: EffectExecution,
    settled: Settled<Result>,
  ): Promise<DispatchEffectResult<Result>> {
    if (settled.ok) {
      const start = await this.snapshots.snapshot(store, execution.turnId);
      if (start === 'unavailable' || start === null) {
        return {
          ok: false,
          code: 'checkpoint-failed',
          message: 'the turn could not be read to store the result; it is returned here',
          result: settled.result,
        };
      }
      const outcome = await this.storeResult(store, execution.turnId, start, execution.effectId, settled.result, 'dispatch');
      return outcome === 'unknown-effect'
        ? {
            ok: false,
            code: 'checkpoint-failed',
            message: 'the effect vanished from its turn; the result is returned here',
            result: settled.result,
          }
        : outcome;
    }
    // A fresh read, not a snapshot: a snapshot may still show a mark that a
    // verified result (another worker's reconcileEffect) has since replaced,
    // and a mark is a stop that no compare-and-swap would correct.
    const start = await this.snapshots.read(store, execution.turnId);
    if (start === 'unavailable' || start === null) return needsReconciliation('dispatch-failed');
    // Best effort: mark the effect so a later claim says why. If a verified
    // result was stored meanwhile, that result is the answer.
    const marked = await this.queue.write<CompletedOutcome<Result> | null>(store, execution.turnId, start, (turn) => {
      const effect = findEffect(turn.record, execution.effectId);
      if (effect === undefined || effect.status === 'needs-reconciliation') return { stop: null };
      if (effect.status === 'completed') return { stop: completed(effect.result, true) };
      return {
        write: withEffect(turn.record, {
          effectId: effect.effectId,
          claim: effect.claim,
          status: 'needs-reconciliation',
          reason: 'dispatch-failed',
        }),
      };
    });
    return marked.type === 'stopped' && marked.value !== null ? marked.value : needsReconciliation('dispatch-failed');
  }
}
