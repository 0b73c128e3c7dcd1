/**
 * `createPostgresInteractionStore`: interactions' `InteractionStore` on
 * Postgres or PGlite (DESIGN §7.3, §9.2). `transact` is one transaction on the
 * card's row, created under its unique key and locked with `FOR UPDATE`; the
 * caller's authority is resolved by the host inside it; the record and its
 * outbox row commit together. It owns no retry: a failed or unacknowledged
 * transaction rejects, and the resolver reads once. A card write locks its
 * card, never the schema.
 */
import { isChatId, type OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import type {
  InteractionAuthority,
  InteractionDecision,
  InteractionSnapshot,
  InteractionStore,
  InteractionStoreRequest,
} from '@papercusp/chat-protocol-interactions';
import { INTERACTION_OUTBOX_NAMESPACE, advisoryLockSql, interactionOutboxLockName } from './advisory-locks.js';
import type { ChatDatabase, ChatQueryable } from './chat-database.js';
import { quoteIdentifier } from './identifiers.js';
import { FENCE_LIMIT_KEYS, boundedLookup, limitTransaction, readFenceLimits, type FenceLimitOptions } from './fence-limits.js';
import { DEFAULT_CHAT_STORE_SCHEMA } from './migrate-chat-store.js';
import { optionalLookup, readStoreOptions } from './store-options.js';

/** What the host's authority lookup is asked: who is calling, about which card. */
export interface InteractionAuthorityRequest<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
  readonly correlationId: string;
}

/**
 * The host's authority lookup: the caller's current authority in the
 * conversation, or `null` when it has none. Called inside the store's
 * transaction with that transaction's own handle, so grants kept in the same
 * database are read under the card's lock (a revocation that committed first
 * is seen). Throwing (or rejecting) fails the transaction: nothing is written,
 * and `transact` and `read` reject. No answer within `authorityTimeoutMs` is
 * a denial: the authority is `null` and the handle refuses further statements. The caller comes as the request gave it,
 * so a lookup should answer `null` for a caller it cannot look up (one with a
 * NUL, say, which Postgres refuses to bind) rather than throw.
 */
export type InteractionAuthorityLookup<Caller> = (
  query: ChatQueryable,
  request: InteractionAuthorityRequest<Caller>,
) => InteractionAuthority | null | Promise<InteractionAuthority | null>;

/** Options of {@link createPostgresInteractionStore}: the schema, the host's authority lookup, and the fence's time limits. */
export interface PostgresInteractionStoreOptions<Caller> extends FenceLimitOptions {
  /** The schema `migrateChatStore` created the tables in (default `chat_protocol`). */
  readonly schema?: string;
  /** The host's authority lookup. Without it every caller's authority is `null`: the store fails closed. */
  readonly interactionAuthority?: InteractionAuthorityLookup<Caller>;
}

/**
 * A request read once, naming a card: both ids are chat ids (`isChatId`), as
 * every record the resolver writes has them, so no key can be one Postgres
 * refuses (a NUL, a lone surrogate, a key beyond the index's size).
 */
interface CardKey<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
  readonly correlationId: string;
}

function readCardKey<Caller>(given: InteractionStoreRequest<Caller>): CardKey<Caller> | undefined {
  const request = readFields(given, ['caller', 'conversationId', 'correlationId']);
  if (request === undefined) return undefined;
  const { caller, conversationId, correlationId } = request;
  if (!isChatId(conversationId) || !isChatId(correlationId)) return undefined;
  return { caller: caller as Caller, conversationId, correlationId };
}

// What a request that names no card sees: no record, no authority.
const nothing = (): InteractionSnapshot => ({ record: null, authority: null });

interface CardRow {
  readonly revision: number;
  readonly record: unknown;
}

// A stored record's status, read without trusting its shape.
function statusOf(record: unknown): unknown {
  return typeof record === 'object' && record !== null ? (record as { readonly status?: unknown }).status : undefined;
}

/** The revision and JSON of a `next` the store can write after `stored`, or the reason it cannot. */
function writableNext(
  next: unknown,
  transition: unknown,
  stored: CardRow,
): { record: string; transition: string; revision: number } | string {
  let revision: unknown;
  let record: string | undefined;
  let transitionJson: string | undefined;
  try {
    revision = (next as { readonly revision?: unknown }).revision;
    record = JSON.stringify(next);
    transitionJson = JSON.stringify(transition);
  } catch {
    return 'the record or its transition cannot be stored';
  }
  if (typeof revision !== 'number' || revision !== stored.revision + 1) return 'the revision must go up by one';
  if (stored.record !== null && statusOf(stored.record) !== 'pending') return 'a closed card was written again';
  if (record === undefined || transitionJson === undefined) return 'the record or its transition cannot be stored';
  return { record, transition: transitionJson, revision };
}

/**
 * The interaction store on `database`, in the tables `migrateChatStore`
 * created in `options.schema`.
 *
 * Guarantees: `transact` runs in one transaction: it creates the card's row
 * under its primary key when absent (a placeholder at revision 0 that is
 * never committed without a record), locks it with `SELECT … FOR UPDATE`
 * (the card's only fence: a second creator of the same card waits on the
 * first one's uncommitted row under the unique key, another card's write
 * never waits on it),
 * resolves authority through `options.interactionAuthority` with the
 * transaction's handle, and calls `decide` exactly once, synchronously. A
 * decision with `next` is written only when `next.revision` is the stored
 * revision plus one and the stored record is not closed (otherwise it
 * rejects with `TypeError` and writes nothing), together with its transition
 * as one `interaction_outbox` row whose id is taken under a per-schema lock
 * held shared to the commit (writers never wait on each other; an outbox
 * read takes it exclusive, so it sees ids in commit order); both commit together. A
 * decision without `next` is rolled back: no visible change. It resolves once
 * `COMMIT` is acknowledged and rejects when any statement fails (a lost
 * connection, a serialization failure, a statement or lock timeout), the
 * commit's outcome then being for the resolver's single read to find. The
 * transaction sets `lockTimeoutMs` and `statementTimeoutMs` for itself: a
 * card held by a frozen connection makes the next write of that card reject
 * after the lock timeout (SQLSTATE 55P03, which the resolver answers after
 * its one read), never wait for ever. No in-process lock. `read` returns the committed record and the current
 * authority, read in one snapshot, and writes nothing.
 *
 * Hostile requests: both read each request once and never throw
 * synchronously. A request that names no card (not an object, a throwing
 * getter, ids that are not chat ids) sees no record and no authority without
 * a round trip; `next` for it rejects with `TypeError`. Without
 * `interactionAuthority`, every authority is `null` (the store fails closed).
 * Throws `TypeError` at creation when the options cannot be read (a throwing
 * getter, a Proxy), `options.schema` is not a lower-case identifier
 * (`isChatIdentifier`), `interactionAuthority` is not a function or a time
 * limit is not a whole number of milliseconds from 1 to 2,147,483,647; each
 * option is read once.
 */
export function createPostgresInteractionStore<Caller>(
  database: ChatDatabase,
  options?: PostgresInteractionStoreOptions<Caller>,
): InteractionStore<OpenCardSnapshotV1, Caller> {
  const factory = 'createPostgresInteractionStore';
  const read = readStoreOptions(factory, options, ['schema', 'interactionAuthority', ...FENCE_LIMIT_KEYS]);
  const limits = readFenceLimits(factory, read);
  const schema = quoteIdentifier(read.schema ?? DEFAULT_CHAT_STORE_SCHEMA);
  const lookup = optionalLookup(factory, 'interactionAuthority', read.interactionAuthority);
  const cards = `${schema}.interactions`;
  const outbox = `${schema}.interaction_outbox`;
  const outboxLockName = interactionOutboxLockName(schema);
  const authorityOf = async (query: ChatQueryable, key: CardKey<Caller>): Promise<InteractionAuthority | null> => {
    if (lookup === undefined) return null;
    const request = { caller: key.caller, conversationId: key.conversationId, correlationId: key.correlationId };
    const answer = await boundedLookup(query, limits.authorityTimeoutMs, (handle) => lookup(handle, request));
    return answer.answered ? (answer.value ?? null) : null;
  };

  return {
    async transact<Result>(
      given: InteractionStoreRequest<Caller>,
      decide: (snapshot: InteractionSnapshot) => InteractionDecision<OpenCardSnapshotV1, Result>,
    ): Promise<Result> {
      const key = readCardKey(given);
      if (key === undefined) {
        const decision = decide(nothing());
        if ('next' in decision) throw new TypeError('postgres interaction store: a write for a request that names no card');
        return decision.result;
      }
      const ids = [key.conversationId, key.correlationId];
      return database.session(async (connection) => {
        await connection.query('BEGIN');
        await limitTransaction(connection, limits);
        await connection.query(`INSERT INTO ${cards} (conversation_id, correlation_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, ids);
        const { rows } = await connection.query<CardRow>(
          `SELECT revision, record FROM ${cards} WHERE conversation_id = $1 AND correlation_id = $2 FOR UPDATE`,
          ids,
        );
        const stored = rows[0];
        if (stored === undefined) throw new Error('postgres interaction store: the card row vanished under its lock');
        const authority = await authorityOf(connection, key);
        const decision = decide({ record: stored.record ?? null, authority });
        if (!('next' in decision)) {
          // Also drops the placeholder this transaction may have created: a read-only decision changes nothing.
          await connection.query('ROLLBACK');
          return decision.result;
        }
        const write = writableNext(decision.next, decision.transition, stored);
        if (typeof write === 'string') throw new TypeError(`postgres interaction store: ${write}`);
        await connection.query(
          `UPDATE ${cards} SET revision = $3, record = $4::json, updated_at = now() WHERE conversation_id = $1 AND correlation_id = $2`,
          [...ids, write.revision, write.record],
        );
        // Held shared to COMMIT: writes of other cards go on, and an outbox read (exclusive) waits until this id is settled.
        await connection.query(advisoryLockSql(INTERACTION_OUTBOX_NAMESPACE, 1, 'transaction', 'shared'), [outboxLockName]);
        await connection.query(
          `INSERT INTO ${outbox} (conversation_id, correlation_id, revision, transition) VALUES ($1, $2, $3, $4::jsonb)`,
          [...ids, write.revision, write.transition],
        );
        await connection.query('COMMIT');
        return decision.result;
      });
    },
    async read(given) {
      const key = readCardKey(given);
      if (key === undefined) return nothing();
      const select = `SELECT revision, record FROM ${cards} WHERE conversation_id = $1 AND correlation_id = $2`;
      if (lookup === undefined) {
        const { rows } = await database.query<CardRow>(select, [key.conversationId, key.correlationId]);
        return { record: rows[0]?.record ?? null, authority: null };
      }
      return database.session(async (connection) => {
        // One snapshot for the record and the host's grants.
        await connection.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const { rows } = await connection.query<CardRow>(select, [key.conversationId, key.correlationId]);
        const authority = await authorityOf(connection, key);
        await connection.query('COMMIT');
        return { record: rows[0]?.record ?? null, authority };
      });
    },
  };
}
