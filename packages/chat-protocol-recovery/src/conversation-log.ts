/**
 * The conversation contract beside the event log (DESIGN §9.3, §11): reading
 * every turn of one conversation from the log in one snapshot (what a host
 * folds into `GET /state`), and the caller's current grant to a conversation
 * (what a host asks before a route touches it). Types and default bounds
 * only: a backend (the testkit's fake, the Postgres store) answers both from
 * its own database, and the conformance suite judges it. Reading authorizes
 * nothing: the host asks the grant first.
 */
import type { ChatEventEnvelope, ChatRefusal } from '@papercusp/chat-protocol-core';

/** The turn bound a {@link ConversationLogReader} applies when the request names none. */
export const DEFAULT_CONVERSATION_LOG_MAX_TURNS = 1000;
/** The frame bound, over all turns, a {@link ConversationLogReader} applies when the request names none. */
export const DEFAULT_CONVERSATION_LOG_MAX_FRAMES = 20_000;

/**
 * One request: the conversation, the bounds (positive safe integers), and what
 * a conversation past them gets.
 */
export interface ReadConversationLogRequest {
  readonly conversationId: string;
  /** At most this many turns (default {@link DEFAULT_CONVERSATION_LOG_MAX_TURNS}). */
  readonly maxTurns?: number;
  /** At most this many retained frames in all (default {@link DEFAULT_CONVERSATION_LOG_MAX_FRAMES}). */
  readonly maxFrames?: number;
  /**
   * Only the turns that started no later than this one, the turn itself included: what an agent's history is
   * read from, while later turns of the conversation may already be running. An id the conversation does not
   * hold reads as no turns. The bounds apply to the turns it leaves.
   */
  readonly throughTurnId?: string;
  /**
   * What a conversation past a bound gets: `'refuse'` (the default) is `too-many-turns` or `too-many-frames`;
   * `'keep-newest'` reads the newest turns that fit both bounds (never skipping one to fit an older one) and
   * counts the older ones in `omittedTurns`, so a long conversation can always be read from its end.
   */
  readonly overflow?: 'refuse' | 'keep-newest';
}

/** One turn of the conversation as the log holds it. */
export interface ConversationLogTurn {
  readonly turnId: string;
  /** The lowest seq a cursor may name: the frames after it are in `frames` (0: nothing dropped). */
  readonly lowerBound: number;
  /** The seq of the turn's latest frame. */
  readonly latestSeq: number;
  /** The terminal frame (`done` or `error`) is stored, or the finished turn was pruned. */
  readonly ended: boolean;
  /** `pruneTurns` dropped its frames: `frames` is empty and `lowerBound === latestSeq`. */
  readonly pruned: boolean;
  /** The retained frames, seqs `lowerBound + 1` to `latestSeq`, in order. */
  readonly frames: readonly ChatEventEnvelope[];
}

/**
 * Refusal codes of a {@link ConversationLogReader}: `invalid-request` (not a
 * v1 conversation id, a bound that is not a positive safe integer, or one past
 * what the backend can represent, a `throughTurnId` that is not a v1 id, an
 * `overflow` the contract does not name), `too-many-turns` and `too-many-frames`
 * (see {@link ConversationLogTooLarge}), `store-unavailable` (the backend
 * could not answer; nothing was read).
 */
export type ReadConversationLogRefusalCode = 'invalid-request' | 'too-many-turns' | 'too-many-frames' | 'store-unavailable';

/** A bound the conversation exceeds: `limit` is the bound that applied. Nothing else was read. */
export interface ConversationLogTooLarge extends ChatRefusal<'too-many-turns' | 'too-many-frames'> {
  readonly limit: number;
}

/** What a {@link ConversationLogReader} read. */
export interface ConversationLog {
  readonly conversationId: string;
  readonly turns: readonly ConversationLogTurn[];
  /** With `overflow: 'keep-newest'` only: how many older turns (within `throughTurnId`) were left out to fit the bounds. */
  readonly omittedTurns?: number;
}

/** The answer of a {@link ConversationLogReader}. */
export type ReadConversationLogResult =
  { readonly ok: true; readonly value: ConversationLog } | ConversationLogTooLarge | ChatRefusal<'invalid-request' | 'store-unavailable'>;

/**
 * Reads every turn of one conversation from the event log. Guarantees: the
 * turns of this conversation only, in the order their first frame was
 * appended, each with exactly its retained frames (seqs `lowerBound + 1` to
 * `latestSeq`, in order), all read from one snapshot, so a concurrent append
 * or prune never tears the answer; a pruned turn is listed in its place with
 * `pruned: true`, `ended: true` and no frames; a conversation the log does not
 * hold reads as no turns. More turns than `maxTurns`, or more retained frames
 * than `maxFrames` (a pruned turn holds none), is refused with the `limit`
 * before any frame is read; exactly at a bound is read. With `throughTurnId`,
 * the same of the turns up to that one. With `overflow: 'keep-newest'` nothing
 * is refused for its size: the answer is the longest run of newest turns
 * within both bounds, with `omittedTurns` (0 when none was left out); without
 * it the answer has no `omittedTurns`. Never rejects.
 */
export type ConversationLogReader = (request: ReadConversationLogRequest) => Promise<ReadConversationLogResult>;

/** What a {@link ConversationAuthority} is asked: may `caller` see `conversationId` now? */
export interface ConversationAuthorityRequest<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
}

/**
 * The caller's current grant to a conversation. Guarantees: only `true`
 * grants; it answers from the grants as they are now (a revocation is seen
 * by the next call, never hidden by a cache); a grant to one conversation
 * grants no other, and one caller's grant no other caller; a request it
 * cannot read, or an id core refuses, is `false`; never rejects. It should
 * read the same grants as the store's admission and card lookups.
 */
export type ConversationAuthority<Caller> = (request: ConversationAuthorityRequest<Caller>) => Promise<boolean>;

/**
 * The part of a store that answers for a whole conversation, beside its
 * `TurnStore`, `InteractionStore` and `ChatEventLog`: what a host's routes ask
 * before and after they touch a turn. Both are properties (not methods), so a
 * host may pass them on unbound.
 */
export interface ChatConversationStore<Caller> {
  /** The caller's current right to the conversation: asked on every request. */
  readonly authorizeConversation: ConversationAuthority<Caller>;
  /** Every turn of a conversation with its retained frames, in one snapshot and bounded. */
  readonly readConversationLog: ConversationLogReader;
}
