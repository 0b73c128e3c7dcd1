/**
 * The typed results of every `InteractionResolver` operation and their
 * constructors: `opened`, a terminal outcome (`submitted`, `declined`,
 * `cancelled`, `expired`, with `replayed`), `read`, `needs-reconciliation`
 * (with the reason), or a refusal whose code comes from the operation's
 * closed union. Which result an operation answers is the resolver's.
 */
import { type CardResponseRefusalCode, type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { InteractionRecordV1, InteractionTerminalStatus, TerminalInteractionV1 } from './records.js';

/**
 * A card opened, or found opened with the same binding by an earlier attempt
 * (`replayed`; its record may since have been answered).
 */
export interface InteractionOpened<Card> {
  readonly ok: true;
  readonly outcome: 'opened';
  readonly record: InteractionRecordV1<Card>;
  readonly replayed: boolean;
}

/** A card closed with this outcome; `replayed` when an earlier attempt of the same answer stored it. */
export interface InteractionClosed<Card> {
  readonly ok: true;
  readonly outcome: InteractionTerminalStatus;
  readonly record: TerminalInteractionV1<Card>;
  readonly replayed: boolean;
}

/** The current record, read without any write. */
export interface InteractionRead<Card> {
  readonly ok: true;
  readonly outcome: 'read';
  readonly record: InteractionRecordV1<Card>;
  /** True when answers are late: the card expired, or its expiry has passed. */
  readonly expired: boolean;
}

/** Why a write's outcome is unknown after its acknowledgement was lost. */
export type InteractionReconciliationReason = 'write-not-visible' | 'read-failed';

/**
 * The store took the write but its acknowledgement was lost, and the one read
 * that followed could not show it: the host reconciles (the write may still
 * land). The resolver never retries the write.
 */
export interface InteractionNeedsReconciliation {
  readonly ok: true;
  readonly outcome: 'needs-reconciliation';
  readonly reason: InteractionReconciliationReason;
  readonly message: string;
}

/** A late answer: the card already has its one outcome. */
export interface InteractionAlreadyClosed extends ChatRefusal<'already-closed'> {
  readonly status: Exclude<InteractionTerminalStatus, 'expired'>;
}

/** Refusals every operation may give. */
export type InteractionRefusalCode = 'invalid-request' | 'not-found' | 'invalid-record' | 'store-unavailable';

/** Refusal codes of `InteractionResolver.open`. */
export type OpenInteractionRefusalCode = InteractionRefusalCode | 'invalid-card' | 'forbidden' | 'already-exists';

/** Refusal codes of decline and cancel (submit adds its own). */
export type CloseInteractionRefusalCode = InteractionRefusalCode | CardResponseRefusalCode | 'expired' | 'already-closed';

/** Refusal codes of `InteractionResolver.submit`. */
export type SubmitInteractionRefusalCode =
  CloseInteractionRefusalCode | 'unknown-schema' | 'validation-failed' | 'stale-revision' | 'schema-changed';

/** Refusal codes of `InteractionResolver.expire`. */
export type ExpireInteractionRefusalCode = InteractionRefusalCode | 'not-expired' | 'already-closed';

/** A refusal; `already-closed` carries the stored status. */
export type InteractionRefusal<Code extends string> =
  ChatRefusal<Exclude<Code, 'already-closed'>> | (Code extends 'already-closed' ? InteractionAlreadyClosed : never);

/** Result of `InteractionResolver.open`. */
export type OpenInteractionResult<Card> =
  InteractionOpened<Card> | InteractionNeedsReconciliation | InteractionRefusal<OpenInteractionRefusalCode>;
/** Result of `InteractionResolver.submit`. */
export type SubmitInteractionResult<Card> =
  InteractionClosed<Card> | InteractionNeedsReconciliation | InteractionRefusal<SubmitInteractionRefusalCode>;
/** Result of decline and cancel. */
export type CloseInteractionResult<Card> =
  InteractionClosed<Card> | InteractionNeedsReconciliation | InteractionRefusal<CloseInteractionRefusalCode>;
/** Result of `InteractionResolver.expire`. */
export type ExpireInteractionResult<Card> =
  InteractionClosed<Card> | InteractionNeedsReconciliation | InteractionRefusal<ExpireInteractionRefusalCode>;
/** Result of `InteractionResolver.read`. */
export type ReadInteractionResult<Card> = InteractionRead<Card> | ChatRefusal<InteractionRefusalCode>;

/** The card is open; `replayed` when an earlier attempt opened it with the same binding. */
export function opened<Card>(record: InteractionRecordV1<Card>, replayed: boolean): InteractionOpened<Card> {
  return { ok: true, outcome: 'opened', record, replayed };
}

/** The card has this record's outcome; `replayed` when an earlier attempt of the same answer stored it. */
export function closed<Card>(record: TerminalInteractionV1<Card>, replayed: boolean): InteractionClosed<Card> {
  return { ok: true, outcome: record.status, record, replayed };
}

const RECONCILIATION_MESSAGES: Readonly<Record<InteractionReconciliationReason, string>> = {
  'write-not-visible': 'the write’s acknowledgement was lost and the read after it does not show it; it may still land',
  'read-failed': 'the write’s acknowledgement was lost and the read after it failed',
};

/** A write whose acknowledgement was lost and that one read could not confirm. */
export function needsReconciliation(reason: InteractionReconciliationReason): InteractionNeedsReconciliation {
  return { ok: true, outcome: 'needs-reconciliation', reason, message: RECONCILIATION_MESSAGES[reason] };
}

/** The store could not be read before any write. */
export function storeUnavailable(): ChatRefusal<'store-unavailable'> {
  return refuse('store-unavailable', 'the store could not be read; nothing was written');
}

// Identical whatever the reason, so a refusal never tells whether the card exists.
const NOT_FOUND = 'no such interaction for this caller';

/** The caller may not see this card, or there is none: the two are never told apart. */
export function notFound(): ChatRefusal<'not-found'> {
  return refuse('not-found', NOT_FOUND);
}

/** Another card is open under the correlation id. */
export function alreadyExists(): ChatRefusal<'already-exists'> {
  return refuse('already-exists', 'another card is open under this correlation id');
}
