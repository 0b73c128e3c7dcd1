/**
 * Version-1 interaction records: what a host stores for one card inside its own
 * card/session boundary. A pending record binds the card to its server-owned
 * schema, its expiry and who it belongs to; a terminal record adds the one
 * outcome ever stored. It owns shapes and their strict reading, not storage.
 */
import { CARD_LIMITS, isChatId, isCleanText, isSafeJson, isZonedTimestamp, type ParseResult } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';

/** Who an interaction belongs to, bound on the backend when the card opens; rendered or submitted content never changes it. */
export interface InteractionScope {
  readonly conversationId: string;
  readonly principalId: string;
  readonly tenantId: string;
  /** The customer the principal acts for, when the host has one. */
  readonly customerId: string | null;
  /** The public owner of the conversation (a shared or published chat), when the host has one. */
  readonly publicOwnerId: string | null;
}

/** An immutable server-owned schema a submission is validated against. */
export interface InteractionSchemaRef {
  readonly id: string;
  readonly revision: number;
}

/** The outcomes a card can end with; exactly one is ever stored. */
export type InteractionTerminalStatus = 'submitted' | 'declined' | 'cancelled' | 'expired';

/** The terminal statuses, for renderers and exhaustive checks. */
export const INTERACTION_TERMINAL_STATUSES: readonly InteractionTerminalStatus[] = /* @__PURE__ */ Object.freeze([
  'submitted',
  'declined',
  'cancelled',
  'expired',
]);

interface InteractionRecordBase<Card> {
  readonly recordVersion: 1;
  readonly correlationId: string;
  readonly card: Card;
  readonly schema: InteractionSchemaRef;
  /** RFC 3339: from this instant on, answers are late. */
  readonly expiresAt: string;
  readonly scope: InteractionScope;
  /** 1 when opened; every write, metadata included, advances it by one. */
  readonly revision: number;
  readonly openedAt: string;
}

/** A card waiting for its answer. */
export interface PendingInteractionV1<Card> extends InteractionRecordBase<Card> {
  readonly status: 'pending';
}

/** A card with its one outcome. */
export interface TerminalInteractionV1<Card> extends InteractionRecordBase<Card> {
  readonly status: InteractionTerminalStatus;
  readonly closedAt: string;
  /** The principal who answered, declined or cancelled; `null` when it expired. */
  readonly closedBy: string | null;
  /** The validated submission (the schema's output), present exactly when `status` is `submitted`. */
  readonly value?: unknown;
  /** The reason the person gave for declining, present only when `status` is `declined` and they gave one. */
  readonly reason?: string;
}

/** A version-1 interaction record. */
export type InteractionRecordV1<Card> = PendingInteractionV1<Card> | TerminalInteractionV1<Card>;

/** Refusal codes of {@link parseInteractionRecord}. */
export type ParseInteractionRecordRefusalCode = 'invalid-record';

const BASE_KEYS = ['recordVersion', 'status', 'correlationId', 'card', 'schema', 'expiresAt', 'scope', 'revision', 'openedAt'];
// In a pure IIFE: bundlers keep a top-level array spread (it may run an iterator) in a bundle that never reads it.
const TERMINAL_KEYS = /* @__PURE__ */ (() => [...BASE_KEYS, 'closedAt', 'closedBy', 'value', 'reason'])();
const SCOPE_KEYS = ['conversationId', 'principalId', 'tenantId', 'customerId', 'publicOwnerId'];

// Never throws: `Array.isArray` throws on a revoked Proxy, a `getPrototypeOf` trap may throw.
function isRecordObject(value: unknown): value is Readonly<Record<string, unknown>> {
  try {
    return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
  } catch {
    return false;
  }
}

function hasOnly(value: Readonly<Record<string, unknown>>, keys: readonly string[]): boolean {
  return Object.keys(value).every((key) => keys.includes(key));
}

const isOptionalId = (value: unknown) => value === null || isChatId(value);
// The bound and text rule core's CardResponseSchema puts on a decline's reason.
const isDeclineReason = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= CARD_LIMITS.maxDeclineReasonLength && isCleanText(value);
// `-0` is not a revision: JSON writes it as `0`, so it would come back changed (issue 12).
const isAtLeast = (value: unknown, minimum: number): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum && !Object.is(value, -0);

/** True for a well-formed scope: ids for conversation, principal and tenant; an id or `null` for customer and public owner. Never throws. */
export function isInteractionScope(value: unknown): value is InteractionScope {
  return guarded(
    () =>
      isRecordObject(value) &&
      hasOnly(value, SCOPE_KEYS) &&
      isChatId(value['conversationId']) &&
      isChatId(value['principalId']) &&
      isChatId(value['tenantId']) &&
      isOptionalId(value['customerId']) &&
      isOptionalId(value['publicOwnerId']),
  );
}

// A getter or a Proxy trap that throws makes a value not well-formed, never an exception.
function guarded(check: () => boolean): boolean {
  try {
    return check();
  } catch {
    return false;
  }
}

/** True for a schema reference: an id and a non-negative revision (not `-0`). Never throws. */
export function isInteractionSchemaRef(value: unknown): value is InteractionSchemaRef {
  return guarded(
    () => isRecordObject(value) && hasOnly(value, ['id', 'revision']) && isChatId(value['id']) && isAtLeast(value['revision'], 0),
  );
}

/**
 * Reads a stored record strictly: a record a store hands back is data from
 * outside, so a drifted or corrupted one is `invalid-record` (its issue names
 * the first field at fault), never trusted. `parseCard` reads the card (the
 * base v1 cards or a product codec's). Never throws, on any argument: a
 * record that cannot be read (a throwing getter, a Proxy, a cycle) is
 * `invalid-record`, and so is a card `parseCard` cannot read (it throws, or is
 * not a function). A revision of `-0` is refused.
 */
export function parseInteractionRecord<Card>(
  input: unknown,
  parseCard: (card: unknown) => ParseResult<Card, string>,
): ParseResult<InteractionRecordV1<Card>, ParseInteractionRecordRefusalCode> {
  try {
    return parseRecord(input, parseCard);
  } catch {
    return refuse('invalid-record', 'record: it cannot be read', [{ path: ['record'], message: 'it cannot be read' }]);
  }
}

function parseRecord<Card>(
  input: unknown,
  parseCard: (card: unknown) => ParseResult<Card, string>,
): ParseResult<InteractionRecordV1<Card>, ParseInteractionRecordRefusalCode> {
  const invalid = (path: string, message: string) => refuse('invalid-record', `${path}: ${message}`, [{ path: [path], message }]);
  if (!isRecordObject(input)) return invalid('record', 'expected a record object');
  const status = input['status'];
  const terminal = INTERACTION_TERMINAL_STATUSES.includes(status as InteractionTerminalStatus);
  if (!terminal && status !== 'pending') return invalid('status', 'expected pending or a terminal status');
  const unknownKey = Object.keys(input).find((key) => !(terminal ? TERMINAL_KEYS : BASE_KEYS).includes(key));
  if (unknownKey !== undefined) return invalid(unknownKey, 'unknown property');
  if (input['recordVersion'] !== 1) return invalid('recordVersion', 'expected 1');
  if (!isChatId(input['correlationId'])) return invalid('correlationId', 'expected an id');
  if (!isInteractionSchemaRef(input['schema'])) return invalid('schema', 'expected { id, revision }');
  if (!isZonedTimestamp(input['expiresAt'])) return invalid('expiresAt', 'expected an RFC 3339 timestamp with an offset');
  if (!isZonedTimestamp(input['openedAt'])) return invalid('openedAt', 'expected an RFC 3339 timestamp with an offset');
  if (!isInteractionScope(input['scope'])) return invalid('scope', 'expected an interaction scope');
  if (!isAtLeast(input['revision'], 1)) return invalid('revision', 'expected a positive integer');
  const card = parseCard(input['card']);
  if (!card.ok) return invalid('card', card.message);
  const correlationId = (card.value as { readonly correlationId?: unknown }).correlationId;
  if (correlationId !== input['correlationId']) return invalid('card', 'its correlationId is not the record’s');
  if (terminal) {
    if (!isZonedTimestamp(input['closedAt'])) return invalid('closedAt', 'expected an RFC 3339 timestamp with an offset');
    if (!isOptionalId(input['closedBy'])) return invalid('closedBy', 'expected a principal id or null');
    const hasValue = Object.prototype.hasOwnProperty.call(input, 'value');
    if (hasValue !== (status === 'submitted')) return invalid('value', 'present exactly when submitted');
    if (hasValue && !isSafeJson(input['value'])) return invalid('value', 'expected bounded JSON data');
    if (Object.prototype.hasOwnProperty.call(input, 'reason')) {
      if (status !== 'declined') return invalid('reason', 'present only when declined');
      if (!isDeclineReason(input['reason']))
        return invalid('reason', `expected clean text of at most ${CARD_LIMITS.maxDeclineReasonLength} characters`);
    }
  }
  return { ok: true, value: { ...input, card: card.value } as unknown as InteractionRecordV1<Card> };
}
