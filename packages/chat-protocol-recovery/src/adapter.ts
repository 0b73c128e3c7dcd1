/**
 * The host adapter `TurnRecovery` runs on: current caller authorization, the
 * session store (a compare-and-swap on the versioned turn record and the
 * admission seam, both under one per-turn fence), the replay window, and the
 * abort hook for host-owned executions. Interfaces only: the host owns the
 * database, the executions and who may do what.
 */
import type { ChatCapabilities, ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type { StoredTurn, TurnRecord } from './turn-record.js';

/**
 * What a caller asks to do; `authorize` answers for the caller's current authority. `declare` adds an effect
 * identity to a running turn as its run discovers it (§6 rule 1); `renew` extends the owning run's lease and
 * `interrupt` ends a turn whose run lease expired (§6 rule 12).
 */
export type TurnAction = 'start' | 'declare' | 'claim' | 'cancel' | 'reconcile' | 'replay' | 'inspect' | 'renew' | 'interrupt' | 'finish';

/** One authorization question. */
export interface AuthorizationRequest<Caller> {
  readonly caller: Caller;
  readonly action: TurnAction;
  readonly conversationId: string;
  readonly turnId: string;
}

/** The store's answer to a compare-and-swap. */
export type CompareAndSwapResult<Result> =
  | { readonly swapped: true; readonly turn: StoredTurn<Result> }
  /** The revision did not match: `current` is what is stored now (`null`: no such turn). */
  | { readonly swapped: false; readonly current: StoredTurn<Result> | null };

/** One compare-and-swap: write `next` only if the stored revision is `expectedRevision` (0: create). */
export interface CompareAndSwapRequest<Result> {
  readonly turnId: string;
  readonly expectedRevision: number;
  /** The whole next record; its `revision` is `expectedRevision + 1`. */
  readonly next: TurnRecord<Result>;
}

/** One admission request: the claim the dispatcher holds and the caller it acts for. */
export interface AdmitDispatchRequest<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
  readonly turnId: string;
  readonly effectId: string;
  readonly claim: number;
  /**
   * When `TurnRecovery` asks for the admission: an RFC 3339 timestamp from its
   * clock. The store records it with the admission (`EffectAdmission.admittedAt`)
   * and returns the same instant in every `StoredTurn`; the admission lease is
   * judged from it (§6.11).
   */
  readonly admittedAt: string;
}

/** Why the store refused an admission (checked under the fence, in this order). */
export type AdmitDispatchRefusalCode =
  'forbidden' | 'unknown-turn' | 'turn-not-running' | 'unknown-effect' | 'effect-settled' | 'already-admitted' | 'stale-claim';

/** The store's answer to `admitDispatch`. */
export type AdmitDispatchResult = { readonly admitted: true } | { readonly admitted: false; readonly code: AdmitDispatchRefusalCode };

/** One page of {@link TurnStore.listRunningTurns}: the running turns after a turn id, at most `limit` of them. */
export interface ListRunningTurnsRequest {
  /** Only turns whose id sorts strictly after this one (the last id of the previous page); absent: from the first. */
  readonly afterTurnId?: string;
  /** At most this many turns: a positive integer. A store may answer fewer (a cap of its own). */
  readonly limit: number;
}

/**
 * The session store. `compareAndSwap` and `admitDispatch` take the same per-turn
 * fence (a row lock, a serializable transaction): no admission can interleave
 * with a cancellation or any other write to the turn.
 */
export interface TurnStore<Result, Caller> {
  /** The turn record and its admissions, or `null` when no such turn exists. One round trip. */
  read(turnId: string): Promise<StoredTurn<Result> | null>;
  /**
   * Atomically replaces the record if its revision equals `expectedRevision`
   * (0 creates it if absent). Answers with what is stored after the call —
   * the record and the admissions as of the commit; a mismatch is not an error. Throws only when the outcome is unknown or the
   * write failed (the caller reads back). Under the turn's fence.
   */
  compareAndSwap(request: CompareAndSwapRequest<Result>): Promise<CompareAndSwapResult<Result>>;
  /**
   * The admission seam. Under the turn's fence, in one transaction: revalidate
   * the caller's current authority, that the turn exists and is running, that
   * the effect exists, is open, has no admission and still carries `claim`;
   * durably record the admission with `request.admittedAt`; then call `launch` exactly once, before the
   * fence is released. Never calls `launch` when it refuses or cannot confirm
   * the commit. A store without this method cannot dispatch.
   */
  admitDispatch?(request: AdmitDispatchRequest<Caller>, launch: () => void): Promise<AdmitDispatchResult>;
  /**
   * One page of the store's running turns, for the host's sweeper (§6 rule 12,
   * §11.2): every turn whose record status is `running`, in turn id order (by
   * Unicode code point, the order of their UTF-8 bytes: Postgres's
   * `COLLATE "C"`), strictly after `afterTurnId` when given, at most `limit`
   * (a positive integer; a store may cap it, so a page shorter than `limit`
   * does not prove the end: an empty page does). The sweeper walks every
   * running turn in bounded reads, each page's last id the next
   * `afterTurnId`, and judges each with `isRunLeaseExpired` before calling
   * `TurnRecovery.interruptTurn`, which judges the lease again under the fence.
   *
   * Guarantees: each page is one snapshot, each turn in it as `read` answers
   * it (record and admissions); across pages a turn listed once is never
   * listed again, and one that ends between pages, or starts with an id below
   * the cursor, may or may not appear. No authority check: it is the host's
   * own maintenance read, never to be exposed to callers. Rejects with a
   * `TypeError` for a request it cannot read, a `limit` that is not a positive
   * integer or an `afterTurnId` that is not a v1 id. A store without it
   * offers no sweep: expired runs are still interrupted by whoever meets them.
   */
  listRunningTurns?(request: ListRunningTurnsRequest): Promise<readonly StoredTurn<Result>[]>;
}

/** What the host's log holds for a turn after a cursor. */
export interface ReplayWindow {
  /** The lowest seq a cursor may name: every frame after it is retained (0: nothing dropped). */
  readonly lowerBound: number;
  /** The seq of the turn's latest frame (0: none yet). Reported even when `frames` is empty. */
  readonly latestSeq: number;
  /** The retained frames after the requested cursor, in seq order. */
  readonly frames: readonly ChatEventEnvelope[];
}

/** One replay-window request. */
export interface ReplayWindowRequest {
  readonly conversationId: string;
  readonly turnId: string;
  /** Frames after this seq. */
  readonly after: number;
}

/** The abort hook's request: the effects admitted and still open when cancellation committed. */
export interface AbortRequest {
  readonly conversationId: string;
  readonly turnId: string;
  readonly effectIds: readonly string[];
}

/**
 * Everything `TurnRecovery` needs from its host. Only `capabilities` and
 * `authorize` are required: without `store` the effect operations refuse,
 * without `replayWindow` replay refuses, whatever is declared.
 */
export interface TurnRecoveryAdapter<Result, Caller> {
  /** The host's declaration (core's `ChatCapabilities`); checked on every operation. */
  readonly capabilities: ChatCapabilities;
  /** The caller's current authority for one action on one turn. A throw is read as "no". */
  authorize(request: AuthorizationRequest<Caller>): boolean | Promise<boolean>;
  /** The session store; needed for restart recovery (`interruptedTurnRecovery`). */
  readonly store?: TurnStore<Result, Caller>;
  /** The replay window: the frames after `after`, the retained lower bound and the latest seq. */
  replayWindow?(request: ReplayWindowRequest): Promise<ReplayWindow>;
  /**
   * The abort hook, called after a cancellation committed, with the effects
   * still in flight. It reaches the host's own executions (the dispatch signal
   * belongs to them). It cannot launch anything: it is given no claim.
   */
  abort?(request: AbortRequest): void | Promise<void>;
}
