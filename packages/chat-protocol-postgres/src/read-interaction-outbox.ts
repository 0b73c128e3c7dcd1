/**
 * `readInteractionOutbox`: the committed workflow transitions of the
 * interaction store, in commit order, after a cursor, for a host that relays
 * them to its own workflow once they are durable (DESIGN §7.3: a transition is
 * a stored row the host's outbox turns into effects). It owns reading, not
 * relaying: the host keeps its own cursor and delivers at least once, so its
 * effects must tolerate a transition seen twice. The reference host does not
 * read it yet: a run waiting on a card is woken in its own process at once and
 * across processes by a poll of the card (`cardPollMs`); waking it by
 * notification and reading the outbox after its cursor is issue 28's.
 */
import { type ChatRefusal } from '@papercusp/chat-protocol-core';
import { readFields, refuse } from '@papercusp/chat-protocol-core/internal';
import type { InteractionTransition } from '@papercusp/chat-protocol-interactions';
import { INTERACTION_OUTBOX_NAMESPACE, advisoryLockSql, interactionOutboxLockName } from './advisory-locks.js';
import type { ChatDatabase } from './chat-database.js';
import { describeDatabaseError } from './database-errors.js';
import { isChatIdentifier, quoteIdentifier } from './identifiers.js';
import { DEFAULT_CHAT_STORE_SCHEMA } from './migrate-chat-store.js';
import { countOption } from './store-options.js';

/** Options of {@link readInteractionOutbox}. */
export interface ReadInteractionOutboxOptions {
  /** The store's schema (default `chat_protocol`). */
  readonly schema?: string;
  /** The id of the last transition already relayed; `0` (the default) reads from the start. */
  readonly after?: number;
  /** At most this many transitions (1–1,000, default 100). */
  readonly limit?: number;
  /** How long the read waits for card writes in flight to settle (milliseconds, 1 to 2,147,483,647; default 5,000). */
  readonly lockTimeoutMs?: number;
}

/** One committed transition and its outbox id (increasing in commit order; gaps where a transaction rolled back). */
export interface InteractionOutboxEntry {
  readonly id: number;
  readonly transition: InteractionTransition;
}

/**
 * Refusal codes of {@link readInteractionOutbox}: `invalid-schema` (not a
 * lower-case identifier), `invalid-request` (`after`, `limit` or
 * `lockTimeoutMs` out of range), `store-unavailable` (a statement failed or
 * the writes in flight did not settle within `lockTimeoutMs`; nothing was read).
 */
export type ReadInteractionOutboxRefusalCode = 'invalid-schema' | 'invalid-request' | 'store-unavailable';

/** The result of {@link readInteractionOutbox}. */
export type ReadInteractionOutboxResult =
  { readonly ok: true; readonly value: readonly InteractionOutboxEntry[] } | ChatRefusal<ReadInteractionOutboxRefusalCode>;

const MAXIMUM_LIMIT = 1_000;
const DEFAULT_LOCK_TIMEOUT_MS = 5_000;
const MAXIMUM_LOCK_TIMEOUT_MS = 2_147_483_647;

/**
 * The transitions committed after `options.after`, oldest first.
 *
 * Guarantees: the order is commit order, and a later call with the last id
 * returned as `after` never misses a transition committed since: each write
 * holds a per-schema lock shared from taking its outbox id until it commits,
 * and the read takes that lock exclusive before it reads, so every id handed
 * out before it is committed or rolled back, and later ones are higher.
 * Writes of different cards share the lock, so they never wait on each
 * other; while a read waits (at most `lockTimeoutMs`, then
 * `store-unavailable`) new writes queue behind it. Only committed
 * transitions are returned: a transaction that failed or was killed left
 * none. Each transition is what `transact` stored. Never rejects, on any
 * argument (options it cannot read are `invalid-request`); one short
 * transaction.
 */
export async function readInteractionOutbox(
  database: ChatDatabase,
  options: ReadInteractionOutboxOptions = {},
): Promise<ReadInteractionOutboxResult> {
  const read = readFields(options, ['schema', 'after', 'limit', 'lockTimeoutMs']);
  if (read === undefined) return refuse('invalid-request', 'options: expected { schema?, after?, limit?, lockTimeoutMs? }');
  const schema = read.schema ?? DEFAULT_CHAT_STORE_SCHEMA;
  if (!isChatIdentifier(schema)) return refuse('invalid-schema', 'schema: expected a lower-case identifier of at most 63 characters');
  const after = read.after ?? 0;
  const limit = read.limit ?? 100;
  if (!Number.isSafeInteger(after) || after < 0) return refuse('invalid-request', 'after: expected a non-negative safe integer');
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAXIMUM_LIMIT)
    return refuse('invalid-request', `limit: expected an integer from 1 to ${MAXIMUM_LIMIT}`);
  let lockTimeoutMs: number;
  try {
    lockTimeoutMs = countOption(
      'readInteractionOutbox',
      'lockTimeoutMs',
      read.lockTimeoutMs,
      DEFAULT_LOCK_TIMEOUT_MS,
      MAXIMUM_LOCK_TIMEOUT_MS,
    );
  } catch (error) {
    return refuse('invalid-request', describeDatabaseError(error));
  }
  const quoted = quoteIdentifier(schema);
  try {
    const rows = await database.session(async (connection) => {
      await connection.query('BEGIN ISOLATION LEVEL READ COMMITTED');
      await connection.query(`SELECT set_config('lock_timeout', $1, true)`, [`${lockTimeoutMs}ms`]);
      // Waits for every write holding an outbox id to settle; the read's snapshot is taken after.
      await connection.query(advisoryLockSql(INTERACTION_OUTBOX_NAMESPACE, 1, 'transaction'), [interactionOutboxLockName(quoted)]);
      const answer = await connection.query<{ id: string; transition: InteractionTransition }>(
        `SELECT id::text AS id, transition FROM ${quoted}.interaction_outbox WHERE id > $1 ORDER BY id LIMIT $2`,
        [after, limit],
      );
      await connection.query('COMMIT');
      return answer.rows;
    });
    return { ok: true, value: rows.map((row) => ({ id: Number(row.id), transition: row.transition })) };
  } catch (error) {
    return refuse('store-unavailable', `the outbox could not be read: ${describeDatabaseError(error)}`);
  }
}
