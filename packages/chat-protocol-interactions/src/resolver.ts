/**
 * `InteractionResolver`: opening a card and taking its one answer safely. The
 * answer may come late, twice, from the wrong person, against a schema that
 * changed, or while the card is being cancelled; exactly one terminal outcome
 * is ever stored, every decision is taken inside the host store's fence with
 * the caller's current authority, and nothing a client sends grants any. The
 * closing rules (deadline, lateness, staleness, replays) live here; requests,
 * outcomes and the card vocabulary have modules of their own.
 */
import {
  baseCardCodec,
  canonicalJson,
  cardDeadline,
  compareChatTimestamps,
  isSafeJson,
  isZonedTimestamp,
  type ChatIssue,
  type ChatRefusal,
  type OpenCardSnapshotV1,
  type ParseResult,
} from '@papercusp/chat-protocol-core';
import { hasBrand, readFields, refuse } from '@papercusp/chat-protocol-core/internal';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { readCardVocabulary, type InteractionCard, type InteractionCardVocabulary } from './card-vocabulary.js';
import {
  isInteractionSchemaRef,
  isInteractionScope,
  parseInteractionRecord,
  type InteractionRecordV1,
  type InteractionSchemaRef,
  type InteractionScope,
  type InteractionTerminalStatus,
  type PendingInteractionV1,
  type TerminalInteractionV1,
} from './records.js';
import {
  alreadyExists,
  closed,
  needsReconciliation,
  notFound,
  opened,
  storeUnavailable,
  type CloseInteractionResult,
  type ExpireInteractionResult,
  type InteractionAlreadyClosed,
  type InteractionClosed,
  type InteractionRefusalCode,
  type OpenInteractionResult,
  type ReadInteractionResult,
  type SubmitInteractionResult,
} from './outcomes.js';
import {
  INTERACTION_REQUEST_KEYS,
  invalidRequest,
  keyOf,
  unreadableRequest,
  type DeclineInteractionRequest,
  type InteractionRequest,
  type OpenInteractionRequest,
  type RespondInteractionRequest,
  type SubmitInteractionRequest,
} from './requests.js';
import type { InteractionAuthority, InteractionDecision, InteractionSnapshot, InteractionStore, InteractionStoreRequest } from './store.js';
import type { InteractionValidator } from './validator.js';

/** How an {@link InteractionResolver} reaches the host. */
export interface InteractionResolverOptions<Card, Caller> {
  readonly store: InteractionStore<Card, Caller>;
  /** Validates a submission against the record's schema; see `standardSchemaValidator`. */
  readonly validate: InteractionValidator<Card>;
  /** The card vocabulary: core's base v1 cards when absent, or a product codec from `createCardCodec`. */
  readonly cards?: InteractionCardVocabulary<Card>;
  /** The injected clock (RFC 3339), used when a request carries no `at`. The package never reads the system time. */
  readonly clock?: () => string;
}

type Action = 'submit' | 'decline' | 'cancel' | 'expire';
const STATUS_OF: Readonly<Record<Action, InteractionTerminalStatus>> = {
  submit: 'submitted',
  decline: 'declined',
  cancel: 'cancelled',
  expire: 'expired',
};

/** A record as the caller may see it, with the authority it was read under. */
interface View<Card> {
  readonly record: InteractionRecordV1<Card> | null;
  readonly authority: InteractionAuthority;
}

/** A request naming a card, after its first read: when it asks, the store key, and the record as the caller may see it. */
interface Requested<Card, Caller> extends View<Card> {
  readonly at: string;
  readonly key: InteractionStoreRequest<Caller>;
}

/** What a closing write is checked against inside the fence. */
interface CloseAttempt {
  readonly action: Action;
  readonly at: string;
  /** A decline's reason; the card vocabulary validates it before it is written. */
  readonly reason?: string;
  /** The submit's validated value and the record revision and schema it was validated against. */
  readonly submission?: { readonly value: unknown; readonly revision: number; readonly schema: InteractionSchemaRef };
}

// A registry symbol: every copy of the package (both builds, any version) reads the same key.
const INTERACTION_RESOLVER_BRAND: unique symbol = Symbol.for('@papercusp/chat-protocol-interactions.InteractionResolver');

// The brand getter lives on a base class made inside a pure IIFE: a computed key in a class body makes bundlers keep
// the class, and everything it reaches (core's card codec and zod included), in a bundle that never uses it.
const BrandedInteractionResolver = /* @__PURE__ */ (() =>
  class {
    /** The brand {@link InteractionResolver.is} reads: `true` on every instance. */
    get [INTERACTION_RESOLVER_BRAND](): true {
      return true;
    }
  })();

/** What a resolver holds of the host, out of its callers' reach. */
interface ResolverParts<Card, Caller> {
  readonly store: InteractionStore<Card, Caller>;
  readonly validate: InteractionValidator<Card>;
  readonly cards: InteractionCardVocabulary<Card>;
  readonly clock: (() => string) | undefined;
}

// Each resolver's parts, kept here rather than in private fields: an ES2020 build lowers private fields and methods
// to top-level assignments, which bundlers keep (and the class with them) in every bundle of the package.
const RESOLVER_PARTS = /* @__PURE__ */ new WeakMap<object, ResolverParts<never, unknown>>();

// A resolver's parts; a `TypeError` for anything else, as reading a private field of a non-instance throws.
function partsOf<Card, Caller>(resolver: object): ResolverParts<Card, Caller> {
  const parts = RESOLVER_PARTS.get(resolver);
  if (parts === undefined) throw new TypeError('InteractionResolver: not an instance');
  return parts as unknown as ResolverParts<Card, Caller>;
}

/**
 * Opens cards and resolves their answers through the host's
 * {@link InteractionStore}. Every method resolves to a typed result and never
 * rejects, whatever the request: one that is not an object or cannot be read
 * (a throwing getter, a Proxy) is `invalid-request`, and each request is read
 * once. The only exceptions are those the host's own callbacks throw outside a
 * store call.
 */
export class InteractionResolver<Caller = unknown, Card extends InteractionCard = OpenCardSnapshotV1> extends BrandedInteractionResolver {
  /**
   * Whether `value` is an `InteractionResolver` of any copy of this package:
   * the ESM build, the CommonJS build (an app that mixes the two, as Jest and
   * Next.js do, holds two classes, and `instanceof` answers for one only) or
   * another installed version. Never throws; `false` for anything unreadable.
   */
  static is(value: unknown): value is InteractionResolver<unknown, InteractionCard> {
    return hasBrand(value, INTERACTION_RESOLVER_BRAND);
  }

  /**
   * Holds the host's store, validator, card vocabulary and clock; does no I/O.
   * Throws `TypeError` (a programming error, at construction only) when the
   * options cannot be read, or `cards` or `clock` is given but is not a card
   * vocabulary or a function; the options are read once, here.
   */
  constructor(options: InteractionResolverOptions<Card, Caller>) {
    super();
    const read = readFields(options, ['store', 'validate', 'cards', 'clock']);
    if (read === undefined) throw new TypeError('InteractionResolver needs { store, validate, cards?, clock? }');
    const cards = readCardVocabulary(read.cards ?? (baseCardCodec as unknown as InteractionCardVocabulary<Card>));
    if (cards === undefined) throw new TypeError('InteractionResolver: cards must have parseCard and validateResponse functions');
    if (read.clock !== undefined && typeof read.clock !== 'function') throw new TypeError('InteractionResolver: clock must be a function');
    const parts: ResolverParts<Card, Caller> = { store: read.store, validate: read.validate, cards, clock: read.clock };
    RESOLVER_PARTS.set(this, parts as unknown as ResolverParts<never, unknown>);
  }

  /**
   * Stores a pending record for a card the agent asked: its server-owned
   * schema, expiry and scope are the backend's, checked against the caller's
   * current authority inside the fence (`forbidden`). Opening the same card
   * again with the same binding is `replayed`; a different one under the same
   * correlation id is `already-exists`.
   */
  async open(given: OpenInteractionRequest<Caller>): Promise<OpenInteractionResult<Card>> {
    const request = readFields(given, ['caller', 'card', 'schema', 'expiresAt', 'scope', 'at']);
    if (request === undefined) return unreadableRequest();
    const at = timeOf(this, request.at);
    if (typeof at !== 'string') return at;
    const { schema, expiresAt, scope } = request;
    if (!isInteractionSchemaRef(schema)) return invalidRequest('schema: expected { id, revision }');
    if (!isInteractionScope(scope))
      return invalidRequest('scope: expected ids for conversation, principal and tenant, an id or null for customer and public owner');
    if (!isZonedTimestamp(expiresAt) || compareChatTimestamps(expiresAt, at) <= 0) {
      return invalidRequest('expiresAt: expected an RFC 3339 timestamp after the opening time');
    }
    const parsed = partsOf<Card, Caller>(this).cards.parseCard(request.card);
    if (!parsed.ok) return refuse('invalid-card', parsed.message, parsed.issues);
    const card = parsed.value;
    if (card.schema !== undefined && (card.schema.id !== schema.id || card.schema.revision !== schema.revision)) {
      return invalidRequest('card.schema: differs from the schema the backend binds');
    }
    const pending: PendingInteractionV1<Card> = {
      recordVersion: 1,
      status: 'pending',
      correlationId: card.correlationId,
      card,
      schema: { id: schema.id, revision: schema.revision },
      expiresAt,
      scope: { ...scope },
      revision: 1,
      openedAt: at,
    };
    const key = { conversationId: scope.conversationId, correlationId: card.correlationId, caller: request.caller };
    // Whatever its status since: an answer may already have closed the card our earlier attempt opened.
    const sameBinding = (record: InteractionRecordV1<Card>) => canonicalJson(bindingOf(record)) === canonicalJson(bindingOf(pending));

    const decide = (snapshot: InteractionSnapshot): InteractionDecision<Card, OpenInteractionResult<Card>> => {
      if (snapshot.authority === null || !authorityFits(snapshot.authority, scope)) {
        return { result: refuse('forbidden', 'the caller may not open a card for this scope') };
      }
      if (snapshot.record !== null) {
        const existing = parseStored(this, snapshot.record);
        if (!existing.ok) return { result: existing };
        return { result: sameBinding(existing.value) ? opened(existing.value, true) : alreadyExists() };
      }
      const transition = {
        type: 'interaction-opened',
        conversationId: scope.conversationId,
        correlationId: card.correlationId,
        status: 'pending',
        revision: 1,
        at,
      } as const;
      return { result: opened(pending, false), next: pending, transition };
    };
    try {
      return await partsOf<Card, Caller>(this).store.transact(key, decide);
    } catch {
      const recovered = await readOnce(this, key);
      if (!recovered.ok) return recovered.code === 'read-failed' ? needsReconciliation('read-failed') : recovered;
      const { record } = recovered.value;
      if (record === null) return needsReconciliation('write-not-visible');
      return sameBinding(record) ? opened(record, true) : alreadyExists();
    }
  }

  /**
   * Submits a value. Checks, in order: the card is here for this caller
   * (`not-found` otherwise, the same whether it is missing or someone
   * else's), it is not late (`expired`, `already-closed`), the value fits the
   * card (core's `validateCardResponse` codes) and the record's schema (the
   * host's validator, awaited outside the transaction: `invalid-value` with
   * its issues, `unknown-schema`, `validation-failed`). The final transaction
   * rechecks everything with current authority, and that the record still has
   * the revision and schema the value was validated against (`schema-changed`,
   * `stale-revision`). The same submission retried is `replayed` with the
   * stored outcome.
   */
  async submit(given: SubmitInteractionRequest<Caller>): Promise<SubmitInteractionResult<Card>> {
    const request = readFields(given, ['caller', 'conversationId', 'correlationId', 'at', 'value']);
    if (request === undefined) return unreadableRequest();
    return closeInteraction(this, request, 'submit', request.value) as Promise<SubmitInteractionResult<Card>>;
  }

  /**
   * Declines a card that allows it (`decline-not-allowed` otherwise); the same
   * rules of scope and lateness as submit. A `reason` that is not a string is
   * `invalid-request`; the card vocabulary validates it (`invalid-response`
   * past its bound) and it is stored in the record. The same decline retried
   * is `replayed` only with the same reason.
   */
  async decline(given: DeclineInteractionRequest<Caller>): Promise<CloseInteractionResult<Card>> {
    const request = readFields(given, [...INTERACTION_REQUEST_KEYS, 'reason']);
    if (request === undefined) return unreadableRequest();
    if (request.reason !== undefined && typeof request.reason !== 'string') return invalidRequest('reason: expected a string');
    return closeInteraction(this, request, 'decline', undefined, request.reason) as Promise<CloseInteractionResult<Card>>;
  }

  /** Cancels a pending card (the person dismissed it, or its turn was cancelled); always allowed while pending and not expired. */
  async cancel(request: InteractionRequest<Caller>): Promise<CloseInteractionResult<Card>> {
    return closeInteraction(this, request, 'cancel', undefined) as Promise<CloseInteractionResult<Card>>;
  }

  /** Closes a pending card as `expired` once `at` (or the clock) has reached its expiry (`not-expired` before). */
  async expire(request: InteractionRequest<Caller>): Promise<ExpireInteractionResult<Card>> {
    return closeInteraction(this, request, 'expire', undefined) as Promise<ExpireInteractionResult<Card>>;
  }

  /**
   * Takes a client's `CardResponse` as it arrived (`{ action, correlationId,
   * value? }`) to submit, decline or cancel. Anything else is `invalid-request`.
   */
  async respond(given: RespondInteractionRequest<Caller>): Promise<SubmitInteractionResult<Card>> {
    const request = readFields(given, ['caller', 'conversationId', 'response', 'at']);
    if (request === undefined) return unreadableRequest();
    const response = readFields(
      request.response as {
        readonly action?: unknown;
        readonly correlationId?: unknown;
        readonly value?: unknown;
        readonly reason?: unknown;
      },
      ['action', 'correlationId', 'value', 'reason'],
    );
    if (response === undefined) return invalidRequest('response: expected a CardResponse');
    const { action, correlationId, value, reason } = response;
    if (typeof correlationId !== 'string') return invalidRequest('response.correlationId: expected an id');
    const base = {
      caller: request.caller,
      conversationId: request.conversationId,
      correlationId,
      ...(request.at === undefined ? {} : { at: request.at }),
    };
    switch (action) {
      case 'submit':
        return this.submit({ ...base, value });
      case 'decline':
        return reason === undefined ? this.decline(base) : this.decline({ ...base, reason: reason as string });
      case 'cancel':
        return this.cancel(base);
      default:
        return invalidRequest('response.action: expected submit, decline or cancel');
    }
  }

  /**
   * Reads the current record without any write, rechecking the caller's
   * current authority (`not-found` otherwise). `expired` tells whether answers
   * are late at `at` (or the clock).
   */
  async read(given: InteractionRequest<Caller>): Promise<ReadInteractionResult<Card>> {
    const requested = await readRequested(this, given);
    if (!requested.ok) return requested;
    const { at, record } = requested.value;
    if (record === null) return notFound();
    const expired = record.status === 'expired' || (record.status === 'pending' && compareChatTimestamps(at, deadlineOf(record)) >= 0);
    return { ok: true, outcome: 'read', record, expired };
  }
}

async function closeInteraction<Caller, Card extends InteractionCard>(
  resolver: InteractionResolver<Caller, Card>,
  given: InteractionRequest<Caller>,
  action: Action,
  value: unknown,
  reason?: unknown,
): Promise<SubmitInteractionResult<Card> | ExpireInteractionResult<Card>> {
  const before = await readRequested(resolver, given);
  if (!before.ok) return before;
  const { at, key, record, authority } = before.value;
  if (record === null) return notFound();
  // A reason is compared as given with a stored one (which was validated), and validated below before any write.
  let attempt: CloseAttempt = { action, at, ...(typeof reason === 'string' ? { reason } : {}) };
  if (record.status === 'pending') {
    const early = lateness(record, attempt);
    if (early !== null) return early;
  } else if (action !== 'submit' || record.status !== 'submitted' || record.closedBy !== authority.principalId) {
    // A terminal record never changes again: anything but our own submission retried is settled now.
    return settled(record, attempt, authority);
  }
  if (action !== 'expire') {
    // On a closed card (our own earlier submission), a value that no longer validates is simply not the same answer.
    const late = record.status === 'pending' ? null : settled(record, attempt, authority);
    const response = partsOf<Card, Caller>(resolver).cards.validateResponse(record.card, {
      action,
      correlationId: key.correlationId,
      ...(action === 'submit' ? { value } : {}),
      ...(reason === undefined ? {} : { reason }),
    });
    if (!response.ok) return late ?? response;
    if (action === 'submit') {
      const validated = await validateValue(resolver, record, (response.value as { readonly value: unknown }).value);
      if (!validated.ok) return late ?? validated;
      attempt = { action, at, submission: { value: validated.value, revision: record.revision, schema: record.schema } };
    }
  }
  const closing = attempt;
  const decide = (
    snapshot: InteractionSnapshot,
  ): InteractionDecision<Card, SubmitInteractionResult<Card> | ExpireInteractionResult<Card>> => {
    const current = viewSnapshot(resolver, snapshot, key.conversationId);
    if (!current.ok) return { result: current };
    const { record: stored, authority } = current.value;
    if (stored === null) return { result: notFound() };
    if (stored.status !== 'pending') return { result: settled(stored, closing, authority) };
    const refusal = lateness(stored, closing) ?? staleness(stored, closing);
    if (refusal !== null) return { result: refusal };
    const next = closeRecord(stored, closing, authority);
    const transition = {
      type: 'interaction-closed',
      conversationId: key.conversationId,
      correlationId: key.correlationId,
      status: next.status,
      revision: next.revision,
      at,
    } as const;
    return { result: closed(next, false), next, transition };
  };
  try {
    return await partsOf<Card, Caller>(resolver).store.transact(key, decide);
  } catch {
    // The acknowledgement was lost: one read tells whether our write landed. Never a second write.
    const after = await readOnce(resolver, key);
    if (!after.ok) return after.code === 'read-failed' ? needsReconciliation('read-failed') : after;
    const { record: stored, authority } = after.value;
    if (stored === null || stored.status === 'pending') return needsReconciliation('write-not-visible');
    return settled(stored, closing, authority);
  }
}

/**
 * The first read every request naming a card makes: the request read once,
 * its time (`at`, else the clock) and key, and the record as the caller may
 * see it (`null` when there is none). Refuses as the operations do:
 * `invalid-request`, `not-found`, `invalid-record`, `store-unavailable`.
 */
async function readRequested<Caller, Card extends InteractionCard>(
  resolver: InteractionResolver<Caller, Card>,
  given: InteractionRequest<Caller>,
): Promise<ParseResult<Requested<Card, Caller>, InteractionRefusalCode>> {
  const request = readFields(given, INTERACTION_REQUEST_KEYS);
  if (request === undefined) return unreadableRequest();
  const at = timeOf(resolver, request.at);
  if (typeof at !== 'string') return at;
  const key = keyOf(request);
  if (typeof key === 'string') return invalidRequest(key);
  const read = await readOnce(resolver, key);
  if (!read.ok) return read.code === 'read-failed' ? storeUnavailable() : read;
  return { ok: true, value: { at, key, ...read.value } };
}

async function validateValue<Caller, Card extends InteractionCard>(
  resolver: InteractionResolver<Caller, Card>,
  record: InteractionRecordV1<Card>,
  value: unknown,
): Promise<ParseResult<unknown, 'unknown-schema' | 'validation-failed' | 'invalid-value'>> {
  let result: StandardSchemaV1.Result<unknown> | undefined;
  try {
    // Called on the resolver, as the host's callbacks always were.
    result = await partsOf<Card, Caller>(resolver).validate.call(resolver, { schema: record.schema, card: record.card, value });
  } catch {
    return refuse('validation-failed', 'the host validator threw; nothing was stored');
  }
  if (result === undefined) return refuse('unknown-schema', `no schema ${record.schema.id} revision ${record.schema.revision}`);
  if (result.issues !== undefined) {
    const issues = result.issues.map(toChatIssue);
    return refuse('invalid-value', issues[0] === undefined ? 'the value does not fit the schema' : describe(issues[0]), issues);
  }
  if (!isSafeJson(result.value)) return refuse('invalid-value', 'the schema’s output is not bounded JSON data, so it cannot be stored');
  return { ok: true, value: result.value };
}

/** One read: the record (strictly parsed) and authority; `not-found` when the caller may not see it. */
async function readOnce<Caller, Card extends InteractionCard>(
  resolver: InteractionResolver<Caller, Card>,
  key: InteractionStoreRequest<Caller>,
): Promise<
  { readonly ok: true; readonly value: View<Card> } | ChatRefusal<'not-found'> | ChatRefusal<'invalid-record'> | ChatRefusal<'read-failed'>
> {
  let snapshot: InteractionSnapshot;
  try {
    snapshot = await partsOf<Card, Caller>(resolver).store.read(key);
  } catch {
    return refuse('read-failed', 'the store could not be read');
  }
  return viewSnapshot(resolver, snapshot, key.conversationId);
}

/** Authority first, so nothing about a record reaches a caller who may not see it. */
function viewSnapshot<Caller, Card extends InteractionCard>(
  resolver: InteractionResolver<Caller, Card>,
  snapshot: InteractionSnapshot,
  conversationId: string,
): ParseResult<View<Card>, 'not-found' | 'invalid-record'> {
  const { record, authority } = snapshot;
  if (authority === null) return notFound();
  if (record === null) return { ok: true, value: { record: null, authority } };
  const scope = typeof record === 'object' ? (record as { readonly scope?: unknown }).scope : undefined;
  if (!isInteractionScope(scope) || scope.conversationId !== conversationId || !authorityFits(authority, scope)) return notFound();
  const parsed = parseStored(resolver, record);
  return parsed.ok ? { ok: true, value: { record: parsed.value, authority } } : parsed;
}

function parseStored<Caller, Card extends InteractionCard>(
  resolver: InteractionResolver<Caller, Card>,
  record: unknown,
): ParseResult<InteractionRecordV1<Card>, 'invalid-record'> {
  return parseInteractionRecord(record, (card) => partsOf<Card, Caller>(resolver).cards.parseCard(card));
}

function timeOf<Caller, Card extends InteractionCard>(
  resolver: InteractionResolver<Caller, Card>,
  at: string | undefined,
): string | ChatRefusal<'invalid-request'> {
  let time: unknown = at;
  const { clock } = partsOf<Card, Caller>(resolver);
  if (time === undefined && clock !== undefined) {
    try {
      time = clock.call(resolver);
    } catch {
      return invalidRequest('at: the clock threw');
    }
  }
  return isZonedTimestamp(time) ? time : invalidRequest('at: expected an RFC 3339 timestamp with an offset, or a clock');
}

function authorityFits(authority: InteractionAuthority, scope: InteractionScope): boolean {
  return (
    authority.principalId === scope.principalId &&
    authority.tenantId === scope.tenantId &&
    authority.customerId === scope.customerId &&
    authority.publicOwnerId === scope.publicOwnerId
  );
}

/**
 * The instant a record's answers become late: the earlier of the record's
 * `expiresAt` (the backend's binding) and the card's own deadline (core's
 * `cardDeadline`: its `expiresAt`, else `createdAt + timeoutMs`).
 */
function deadlineOf<Card extends InteractionCard>(record: InteractionRecordV1<Card>): string {
  const { createdAt, expiresAt, timeoutMs } = record.card;
  const own = createdAt === undefined ? undefined : cardDeadline({ createdAt, expiresAt, timeoutMs });
  return own !== undefined && compareChatTimestamps(own, record.expiresAt) < 0 ? own : record.expiresAt;
}

/** A pending record judged at the attempt's time: late answers, or an expiry asked for too early. */
function lateness<Card extends InteractionCard>(
  record: PendingInteractionV1<Card>,
  attempt: CloseAttempt,
): ChatRefusal<'expired' | 'not-expired'> | null {
  const deadline = deadlineOf(record);
  const due = compareChatTimestamps(attempt.at, deadline) >= 0;
  if (attempt.action === 'expire') return due ? null : refuse('not-expired', `the card expires at ${deadline}`);
  return due ? refuse('expired', `the card expired at ${deadline}`) : null;
}

/** A submission validated against another revision or schema than the record has now. */
function staleness<Card>(
  record: PendingInteractionV1<Card>,
  attempt: CloseAttempt,
): ChatRefusal<'schema-changed' | 'stale-revision'> | null {
  const submission = attempt.submission;
  if (submission === undefined) return null;
  if (record.schema.id !== submission.schema.id || record.schema.revision !== submission.schema.revision) {
    return refuse('schema-changed', `the card now uses schema ${record.schema.id} revision ${record.schema.revision}; validate again`);
  }
  return record.revision === submission.revision
    ? null
    : refuse('stale-revision', `the card changed (revision ${record.revision}, validated against ${submission.revision}); read it again`);
}

function closeRecord<Card>(
  record: PendingInteractionV1<Card>,
  attempt: CloseAttempt,
  authority: InteractionAuthority,
): TerminalInteractionV1<Card> {
  const status = STATUS_OF[attempt.action];
  return {
    ...record,
    status,
    revision: record.revision + 1,
    closedAt: attempt.at,
    closedBy: attempt.action === 'expire' ? null : authority.principalId,
    ...(attempt.submission === undefined ? {} : { value: attempt.submission.value }),
    ...(attempt.reason === undefined ? {} : { reason: attempt.reason }),
  };
}

/** A terminal record met by a closing attempt: the same answer replayed, or a late one refused. */
function settled<Card>(
  record: TerminalInteractionV1<Card>,
  attempt: CloseAttempt,
  authority: InteractionAuthority,
): InteractionClosed<Card> | InteractionAlreadyClosed | ChatRefusal<'expired'> {
  const same =
    record.status === STATUS_OF[attempt.action] &&
    record.closedBy === (attempt.action === 'expire' ? null : authority.principalId) &&
    record.reason === attempt.reason &&
    (attempt.action !== 'submit' ||
      (attempt.submission !== undefined && canonicalJson(record.value) === canonicalJson(attempt.submission.value)));
  if (same) return closed(record, true);
  if (record.status === 'expired') return refuse('expired', `the card expired at ${record.expiresAt}`);
  return { ...refuse('already-closed', `the card was already ${record.status}`), status: record.status };
}

function bindingOf<Card>(record: InteractionRecordV1<Card>): unknown {
  const { card, schema, expiresAt, scope } = record;
  return { card, schema, expiresAt, scope };
}

function toChatIssue(issue: StandardSchemaV1.Issue): ChatIssue {
  const path = (issue.path ?? []).map((segment) => {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    return typeof key === 'number' ? key : String(key);
  });
  return { path: ['value', ...path], message: issue.message };
}

function describe(issue: ChatIssue): string {
  return `${issue.path.join('.')}: ${issue.message}`;
}
