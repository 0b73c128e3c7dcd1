/**
 * The store a host implements for interactions: one `transact` that fences a
 * card's record together with the caller's current authority, and a `read`.
 * Interfaces only; the host owns the database. The README spells out what
 * must be atomic with what, and the testkit's fake store is the reference.
 */
import type { InteractionRecordV1, InteractionTerminalStatus } from './records.js';

/** The caller's current authority in a conversation, as the host resolves it now (never from the request). */
export interface InteractionAuthority {
  readonly principalId: string;
  readonly tenantId: string;
  readonly customerId: string | null;
  readonly publicOwnerId: string | null;
}

/** Which record, and who is asking. `caller` is the host's own notion of an authenticated caller. */
export interface InteractionStoreRequest<Caller> {
  readonly conversationId: string;
  readonly correlationId: string;
  readonly caller: Caller;
}

/** What the store shows inside (or, for `read`, outside) the fence. */
export interface InteractionSnapshot {
  /** The stored record as stored (the resolver reads it strictly), or `null` when there is none. */
  readonly record: unknown;
  /** The caller's current authority in the request's conversation; `null` when it has none (revoked, unknown). */
  readonly authority: InteractionAuthority | null;
}

/**
 * The workflow transition a write carries, persisted in the same transaction
 * as the record: the host's outbox or workflow table turns it into effects
 * (a `card_closed` event, resuming the turn) after commit. A stored transition,
 * never a network call.
 */
export interface InteractionTransition {
  readonly type: 'interaction-opened' | 'interaction-closed';
  readonly conversationId: string;
  readonly correlationId: string;
  readonly status: 'pending' | InteractionTerminalStatus;
  /** The revision of the record this transition wrote. */
  readonly revision: number;
  readonly at: string;
}

/** What the resolver decides inside the fence: a result, and a write only when something changes. */
export type InteractionDecision<Card, Result> =
  | { readonly result: Result }
  | { readonly result: Result; readonly next: InteractionRecordV1<Card>; readonly transition: InteractionTransition };

/**
 * The host's interaction store. Both methods take the record's key and the
 * caller; the store resolves the caller's authority itself, every time.
 */
export interface InteractionStore<Card, Caller> {
  /**
   * One transaction under the record's fence (a row lock or a serializable
   * transaction on the card's key, the same fence cancellation and expiry
   * take): resolve the caller's current authority, read the record, call
   * `decide` exactly once, synchronously, with both; if it returns `next`,
   * check that `next.revision` is the stored revision plus one (1 when there
   * is no record), then persist `next` and `transition` atomically and commit.
   * A decision without `next` writes nothing and has no workflow effect.
   * Resolves with the decision's `result` once committed. Rejects when the
   * transaction failed or its acknowledgement was lost: the resolver then
   * reads once and never retries the write. Never a read followed by an
   * unconditional update, never an in-process lock.
   */
  transact<Result>(
    request: InteractionStoreRequest<Caller>,
    decide: (snapshot: InteractionSnapshot) => InteractionDecision<Card, Result>,
  ): Promise<Result>;
  /** The committed record and the caller's current authority, without a write. */
  read(request: InteractionStoreRequest<Caller>): Promise<InteractionSnapshot>;
}
