/**
 * The event log contract (DESIGN §9.3): the durable per-turn log of envelopes
 * the store writes, the SSE transport tails and replays, and recovery's
 * `replayTurn` validates. Interfaces only: a backend (the testkit's fake, the
 * Postgres store) enforces contiguity and uniqueness itself, in its database,
 * not in a cache in front of it. It owns no authorization: the host checks the
 * caller before it reads or tails a turn.
 */
import type { ChatEventEnvelope, ChatRefusal } from '@papercusp/chat-protocol-core';
import type { ReplayWindow, ReplayWindowRequest } from './adapter.js';

/**
 * Refusal codes of {@link ChatEventLog.append}, in the order a backend checks them:
 * `invalid-envelope` (not a v1 envelope by core's strict parser),
 * `foreign-conversation` (the turn belongs to another conversation),
 * `conflicting-duplicate` (the event id is taken in the conversation by other
 * content, or the seq by another event), `turn-terminal` (the turn's `done` or
 * `error` is stored, or the turn was pruned), `seq-gap` (the seq is not the
 * latest plus one), and `store-unavailable` (the backend could not answer, or
 * its acknowledgement was lost: the write may have landed).
 */
export type AppendChatEventRefusalCode =
  'invalid-envelope' | 'foreign-conversation' | 'conflicting-duplicate' | 'turn-terminal' | 'seq-gap' | 'store-unavailable';

/** The envelope's seq is not the turn's next one: `expectedSeq` is (the latest stored plus one). */
export interface SeqGapRefusal extends ChatRefusal<'seq-gap'> {
  readonly expectedSeq: number;
}

/**
 * The result of {@link ChatEventLog.append}. `appended`: this call stored the
 * envelope. `duplicate`: the same event id with the same content was stored
 * before (a redelivery), and nothing changed. Either way `seq` is the
 * envelope's and `latestSeq` the turn's latest seq after the call.
 */
export type AppendChatEventResult =
  | { readonly ok: true; readonly outcome: 'appended' | 'duplicate'; readonly seq: number; readonly latestSeq: number }
  | SeqGapRefusal
  | ChatRefusal<Exclude<AppendChatEventRefusalCode, 'seq-gap'>>;

/** Which turn's tail to follow, and the seq it follows from (`0`: from the start). */
export type SubscribeChatEventsRequest = ReplayWindowRequest;

/** Stops a subscription: once it returns, neither `onEnvelope` nor `onEnd` is called again. Calling it twice is harmless. */
export type ChatEventLogUnsubscribe = () => void;

/**
 * Why a live subscription ended without `unsubscribe()`, so a subscriber never
 * waits on a dead tail. `terminal`: the turn's terminal frame (`done`,
 * `error`) was delivered, or the subscription started at or past it (or after
 * the finished turn was pruned), and nothing more will ever come. `lost`: the backend can no longer deliver (its
 * `LISTEN` connection dropped, the process restarted); `afterSeq` is the last
 * seq delivered to this subscription (the request's `after` if none was), so a
 * subscriber that subscribes again from `afterSeq` loses and doubles nothing.
 */
export type ChatEventLogSubscriptionEnd = { readonly reason: 'terminal' } | { readonly reason: 'lost'; readonly afterSeq: number };

/** One retention request: drop every finished turn whose terminal event occurred before `before`. */
export interface PruneTurnsRequest {
  /** An RFC 3339 instant with an explicit offset; compared as an instant with the terminal envelope's `occurredAt`. */
  readonly before: string;
}

/** Refusal codes of {@link ChatEventLog.pruneTurns}: `invalid-request` (`before` is not an RFC 3339 instant with an offset), `store-unavailable`. */
export type PruneTurnsRefusalCode = 'invalid-request' | 'store-unavailable';

/** The result of {@link ChatEventLog.pruneTurns}: how many turns this call dropped. */
export type PruneTurnsResult = { readonly ok: true; readonly pruned: number } | ChatRefusal<PruneTurnsRefusalCode>;

/**
 * A durable per-turn event log. Any number of connections (processes,
 * machines) may share one log; every guarantee holds across them.
 *
 * - `append` stores an envelope only as the turn's next seq (contiguous from
 *   1), once: an identical redelivery is `duplicate` and changes nothing, so a
 *   writer that got `store-unavailable` redelivers the same envelope and learns
 *   whether it landed. Event ids are unique within the conversation. Nothing is
 *   appended after the turn's terminal event (`done`, `error`). Never rejects.
 * - `replayWindow` answers recovery's `ReplayWindow` (the adapter's
 *   `replayWindow` seam as it is) from one snapshot: a concurrent append is
 *   either wholly in it (`latestSeq` and frames) or not at all. A turn the log
 *   does not hold, or one of another conversation, reads as empty
 *   (`{ lowerBound: 0, latestSeq: 0, frames: [] }`). A pruned turn reports
 *   `lowerBound = latestSeq` and no frames, so `validateReplayWindow` calls any
 *   earlier cursor `stale-cursor`. Rejects only when the backend cannot answer.
 * - `subscribe` delivers every retained frame with seq above `after` to
 *   `onEnvelope`, those stored already and those appended later by any
 *   connection, in seq order, each once, with no gap; it resolves once the
 *   subscription is live, so a replay read after it resolves misses nothing the
 *   subscription will not deliver. After the terminal frame nothing more comes.
 *   A throw from `onEnvelope` is swallowed and does not stop delivery. Rejects
 *   only when the backend cannot subscribe.
 * - A subscription that ends without `unsubscribe()` says so through `onEnd`
 *   (a {@link ChatEventLogSubscriptionEnd}): `terminal` right after the terminal
 *   frame was delivered, `lost` with the last delivered seq when the backend
 *   can no longer deliver, so a subscriber never waits on a dead tail. `onEnd`
 *   is called at most once, never before the last frame it follows and never
 *   after `unsubscribe()` returned; a throw from it is swallowed.
 * - `pruneTurns` drops whole finished turns, never a running turn or part of one.
 */
export interface ChatEventLog {
  /** Stores one envelope as its turn's next frame, or says why not. */
  append(envelope: ChatEventEnvelope): Promise<AppendChatEventResult>;
  /** The retained frames after `after`, with the lower bound and latest seq, read in one snapshot. */
  replayWindow(request: ReplayWindowRequest): Promise<ReplayWindow>;
  /** Follows a turn's tail after `after`; resolves with the unsubscribe function once live; `onEnd` hears why it ended, if not by unsubscribe. */
  subscribe(
    request: SubscribeChatEventsRequest,
    onEnvelope: (envelope: ChatEventEnvelope) => void,
    onEnd?: (end: ChatEventLogSubscriptionEnd) => void,
  ): Promise<ChatEventLogUnsubscribe>;
  /** Retention: drops every finished turn whose terminal event occurred before `before`. */
  pruneTurns(request: PruneTurnsRequest): Promise<PruneTurnsResult>;
}
