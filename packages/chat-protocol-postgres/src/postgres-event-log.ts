/**
 * `createPostgresEventLog`: recovery's `ChatEventLog` (DESIGN §9.3) on
 * Postgres or PGlite. Contiguity and uniqueness live in the tables'
 * constraints; appends in flight together commit as one statement (one
 * transaction: the heads compared and swapped, one multi-row insert, one
 * notification per turn), and a frame that statement does not take is
 * appended alone, checked and written in one transaction under the turn
 * head's row lock as before (`event-log-group-commit.ts` forms the batches); windows and catch-up reads are
 * keyset pages of at most `pageFrames` frames that still answer one snapshot
 * (the first page's: see `readWindow`), pruning deletes in batches of
 * `pruneBatchTurns` turns, and tails follow `LISTEN`/`NOTIFY` carrying only
 * the cursor. It authorizes nothing: the host checks the caller first.
 */
import {
  canonicalJson,
  compareChatTimestamps,
  isChatId,
  isZonedTimestamp,
  parseChatEnvelope,
  type ChatEventEnvelope,
} from '@papercusp/chat-protocol-core';
import { readFields, refuse } from '@papercusp/chat-protocol-core/internal';
import type {
  AppendChatEventResult,
  ChatEventLog,
  ChatEventLogUnsubscribe,
  PruneTurnsRequest,
  PruneTurnsResult,
  ReplayWindow,
  ReplayWindowRequest,
} from '@papercusp/chat-protocol-recovery';
import type { ChatDatabase, ChatQueryable } from './chat-database.js';
import { classifyDatabaseError, describeDatabaseError } from './database-errors.js';
import { createGroupCommit, isTerminal, type AppendRun } from './event-log-group-commit.js';
import { createEventLogSubscriptions, notificationPayload, type TailRead, type TailRequest } from './event-log-subscriptions.js';
import { isChatIdentifier, quoteIdentifier, shownName } from './identifiers.js';
import { DEFAULT_CHAT_STORE_SCHEMA } from './migrate-chat-store.js';
import { countOption, readStoreOptions } from './store-options.js';

/** Options of {@link createPostgresEventLog}. */
export interface PostgresEventLogOptions {
  /** The schema `migrateChatStore` created the tables in (default `chat_protocol`). */
  readonly schema?: string;
  /**
   * The `LISTEN`/`NOTIFY` channel (default `<schema>_event_log`, which must
   * then fit in 63 characters). Every process sharing the log must use the
   * same channel; a lower-case identifier like the schema.
   */
  readonly channel?: string;
  /** The most frames one statement of a replay or a catch-up reads (1 to 100,000, default 1,000). */
  readonly pageFrames?: number;
  /** The most turns one transaction of `pruneTurns` prunes (1 to 100,000, default 500). */
  readonly pruneBatchTurns?: number;
  /** The most appends one group commit carries (1 to 100,000, default 500); appends past it wait for the next batch. */
  readonly batchFrames?: number;
}

const EMPTY_WINDOW: ReplayWindow = Object.freeze({ lowerBound: 0, latestSeq: 0, frames: Object.freeze([]) });
const NO_SUBSCRIPTION: ChatEventLogUnsubscribe = () => undefined;
// The largest seq an `integer` column holds: a cursor past it reads as past everything.
const MAX_SEQ = 2_147_483_647;
// Attempts of an append whose transaction met a concurrent writer (a constraint, a serialization failure): the next attempt reads what committed.
const APPEND_ATTEMPTS = 3;

// FNV-1a of a statement's text: its prepared statement's name. A process holds a handful of texts (one per schema and
// channel), so two sharing a 32-bit name is vanishingly unlikely; if they did, node-postgres refuses the second and its
// appends go alone, still correct.
function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return (hash >>> 0).toString(16);
}

// Postgres' jsonb key order: shorter keys first (in UTF-8 bytes), then bytewise.
function compareJsonbKeys(left: string, right: string): number {
  const leftBytes = Buffer.from(left);
  const rightBytes = Buffer.from(right);
  return leftBytes.length - rightBytes.length || Buffer.compare(leftBytes, rightBytes);
}

// A parsed frame as a read of the table hands it back (jsonb reorders object keys), so a frame handed over from a
// committed batch serializes to the same bytes as the same frame replayed: what a client sees never depends on the path.
function asStored(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asStored);
  if (typeof value !== 'object' || value === null) return value;
  const fields = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(fields)
      .sort(compareJsonbKeys)
      .map((key) => [key, asStored(fields[key])]),
  );
}

interface HeadRow {
  readonly conversation_id: string;
  readonly latest_seq: number;
  readonly ended: boolean;
  readonly pruned: boolean;
}

interface EventRow {
  readonly turn_id: string;
  readonly seq: number;
  readonly envelope: ChatEventEnvelope;
}

/** Where a prune sweep goes on: after this turn, in `(ended_at, turn_id)` order. */
interface PruneCursor {
  readonly endedAt: string;
  readonly turnId: string;
}

interface WindowRow {
  readonly lower_bound: number;
  readonly latest_seq: number;
  readonly ended: boolean;
  readonly pruned: boolean;
  readonly envelope: ChatEventEnvelope | null;
}

/**
 * A request's `{ conversationId, turnId, after }` read once, `after` as a whole seq; `undefined` when it names no
 * turn: ids core refuses (a NUL or a lone surrogate Postgres cannot bind, a key past 256 characters) were never
 * appended, so they read as an unknown turn without a round trip.
 */
function readTailRequest(given: ReplayWindowRequest): TailRequest | undefined {
  const request = readFields(given, ['conversationId', 'turnId', 'after']);
  const after = request?.after;
  if (!isChatId(request?.conversationId) || !isChatId(request.turnId) || typeof after !== 'number' || Number.isNaN(after)) return undefined;
  return { conversationId: request.conversationId, turnId: request.turnId, after: Math.min(Math.max(Math.floor(after), 0), MAX_SEQ) };
}

const MAXIMUM_PAGE = 100_000;

/** The names and page sizes of `options`, each read once and validated; a `TypeError` names what is wrong. */
function readEventLogOptions(options: PostgresEventLogOptions | undefined): {
  readonly schema: string;
  readonly channel: string;
  readonly pageFrames: number;
  readonly pruneBatchTurns: number;
  readonly batchFrames: number;
} {
  const factory = 'createPostgresEventLog';
  const read = readStoreOptions(factory, options, ['schema', 'channel', 'pageFrames', 'pruneBatchTurns', 'batchFrames']);
  const schema = read.schema ?? DEFAULT_CHAT_STORE_SCHEMA;
  if (!isChatIdentifier(schema))
    throw new TypeError(`createPostgresEventLog: the schema ${shownName(schema)} is not a lower-case identifier`);
  const channel = read.channel ?? `${schema}_event_log`;
  if (!isChatIdentifier(channel))
    throw new TypeError(
      `createPostgresEventLog: the channel ${shownName(channel)} is not a lower-case identifier of at most 63 characters`,
    );
  return {
    schema,
    channel,
    pageFrames: countOption(factory, 'pageFrames', read.pageFrames, 1_000, MAXIMUM_PAGE),
    pruneBatchTurns: countOption(factory, 'pruneBatchTurns', read.pruneBatchTurns, 500, MAXIMUM_PAGE),
    batchFrames: countOption(factory, 'batchFrames', read.batchFrames, 500, MAXIMUM_PAGE),
  };
}

/**
 * The event log in `options.schema` of `database` (tables from
 * `migrateChatStore`). Any number of logs over any number of connections and
 * processes may share the schema; every guarantee holds across them.
 *
 * Guarantees: the whole `ChatEventLog` contract (recovery's JSDoc), checked by
 * `describeChatEventLogConformance` on PGlite and on a real server.
 * - `append` parses with core's strict v1 parser, then in one transaction
 *   creates or locks the turn's head row and checks, in order,
 *   `foreign-conversation`, `conflicting-duplicate`, `turn-terminal`,
 *   `seq-gap` (with `expectedSeq`); an identical redelivery is `duplicate`;
 *   the frame's insert is held to contiguity and uniqueness by the tables'
 *   constraints, and `pg_notify` in the same transaction carries only the
 *   cursor. A concurrent writer's constraint or a serialization failure is
 *   read back (the checks run again on what committed); a lost connection or
 *   a timeout is `store-unavailable` (a redelivery then tells). Never rejects.
 * - `replayWindow` (and each catch-up read of `subscribe`) answers one
 *   snapshot, read in keyset pages of at most `pageFrames` frames. A request
 *   that names no turn reads empty.
 * - Ids core refuses (`isChatId`: a NUL, a lone surrogate, a control
 *   character, more than 256 characters) never reach the database: `append`
 *   refuses them `invalid-envelope` (core's parser), `replayWindow` reads the
 *   empty window of an unknown turn, `subscribe` resolves an unsubscribe that
 *   delivers nothing and never ends. Only a backend that cannot answer makes
 *   `replayWindow` or `subscribe` reject.
 * - `subscribe` shares one `LISTEN` connection per log among its
 *   subscriptions (opened with the first, closed with the last): size a pool
 *   for it. A lost listening connection ends every subscription on it
 *   `lost`; the next `subscribe` listens again.
 * - `pruneTurns` deletes the frames of finished turns whose terminal
 *   `occurredAt` is before `before` (exact to the nanosecond) and keeps their
 *   head as a tombstone (`lowerBound = latestSeq`, appends `turn-terminal`),
 *   in batches of at most `pruneBatchTurns` turns, each its own short
 *   transaction; it answers the total. A refusal after some batches
 *   committed leaves those pruned (the next call prunes the rest).
 *
 * Throws `TypeError` at creation when the options cannot be read (a throwing
 * getter, a Proxy), the schema or the channel is not a lower-case
 * identifier (`isChatIdentifier`), or `pageFrames` or `pruneBatchTurns` is
 * not a whole number from 1 to 100,000; each option is read once.
 */
export function createPostgresEventLog(database: ChatDatabase, options?: PostgresEventLogOptions): ChatEventLog {
  const { schema, channel, pageFrames, pruneBatchTurns, batchFrames } = readEventLogOptions(options);
  const quoted = quoteIdentifier(schema);
  const heads = `${quoted}.event_log_turns`;
  const frames = `${quoted}.event_log`;

  // One attempt: a refusal rolls back and answers; a thrown error leaves the session to discard or reset the connection.
  const attemptAppend = async (connection: ChatQueryable, envelope: ChatEventEnvelope): Promise<AppendChatEventResult> => {
    const { conversationId, turnId, eventId, seq } = envelope;
    const content = canonicalJson(envelope);
    const refused = async (answer: AppendChatEventResult): Promise<AppendChatEventResult> => {
      await connection.query('ROLLBACK');
      return answer;
    };
    await connection.query('BEGIN');
    await connection.query(`INSERT INTO ${heads} (turn_id, conversation_id) VALUES ($1, $2) ON CONFLICT (turn_id) DO NOTHING`, [
      turnId,
      conversationId,
    ]);
    const head = (
      await connection.query<HeadRow>(
        `SELECT conversation_id, latest_seq, ended_at IS NOT NULL AS ended, pruned FROM ${heads} WHERE turn_id = $1 FOR UPDATE`,
        [turnId],
      )
    ).rows[0];
    if (head === undefined) throw new Error(`append: the head row of turn ${JSON.stringify(turnId)} vanished`);
    if (head.conversation_id !== conversationId)
      return refused(refuse('foreign-conversation', `append: turn ${JSON.stringify(turnId)} belongs to another conversation`));
    const stored = (
      await connection.query<EventRow>(`SELECT turn_id, seq, envelope FROM ${frames} WHERE conversation_id = $1 AND event_id = $2`, [
        conversationId,
        eventId,
      ])
    ).rows[0];
    if (stored !== undefined) {
      if (canonicalJson(stored.envelope) !== content)
        return refused(
          refuse('conflicting-duplicate', `append: event id ${JSON.stringify(eventId)} is stored in this conversation with other content`),
        );
      // Identical content names the same turn and seq, so the turn's head is the one locked.
      return refused({ ok: true, outcome: 'duplicate', seq, latestSeq: head.latest_seq });
    }
    if (head.pruned) return refused(refuse('turn-terminal', `append: turn ${JSON.stringify(turnId)} finished and was pruned`));
    if (seq <= head.latest_seq)
      return refused(refuse('conflicting-duplicate', `append: seq ${seq} of turn ${JSON.stringify(turnId)} holds another event`));
    if (head.ended) return refused(refuse('turn-terminal', `append: turn ${JSON.stringify(turnId)} has its terminal event`));
    if (seq > head.latest_seq + 1) {
      return refused({
        ...refuse('seq-gap', `append: seq ${seq} of turn ${JSON.stringify(turnId)}: seq ${head.latest_seq + 1} is due`),
        expectedSeq: head.latest_seq + 1,
      });
    }
    // The constraints, not the checks above, keep the log contiguous and unique: a rival's commit surfaces here as a violation.
    await connection.query(`INSERT INTO ${frames} (turn_id, seq, conversation_id, event_id, envelope) VALUES ($1, $2, $3, $4, $5::jsonb)`, [
      turnId,
      seq,
      conversationId,
      eventId,
      content,
    ]);
    const terminal = isTerminal(envelope);
    const updated = await connection.query(
      `UPDATE ${heads} SET latest_seq = $2,
         ended_occurred_at = $3,
         ended_at = CASE WHEN $4::float8 IS NULL THEN NULL ELSE to_timestamp($4::float8 / 1000) END
       WHERE turn_id = $1 AND latest_seq = $2 - 1 AND ended_at IS NULL AND NOT pruned`,
      [turnId, seq, terminal ? envelope.occurredAt : null, terminal ? Date.parse(envelope.occurredAt) : null],
    );
    if (updated.rowCount !== 1) throw new Error(`append: the head of turn ${JSON.stringify(turnId)} moved under its lock`);
    await connection.query('SELECT pg_notify($1, $2)', [channel, notificationPayload(turnId, seq)]);
    await connection.query('COMMIT');
    return { ok: true, outcome: 'appended', seq, latestSeq: seq };
  };

  // One statement, so one implicit transaction and one round trip: each run's head is compared and swapped (created for a
  // run from seq 1), its frames inserted, one notification sent per turn. Heads are locked first, in code point order of
  // turn id (the `locked` count gates both head writes), so batches of two processes over the same turns cannot deadlock.
  // A head that is not where its run starts is left alone and its run is not returned; a constraint the rows break fails
  // the whole statement. Either way the frames not taken are appended alone.
  const commitText = `WITH runs AS MATERIALIZED (
      SELECT * FROM jsonb_to_recordset($1::jsonb)
        AS run(turn_id text, conversation_id text, first_seq integer, last_seq integer, ended_occurred_at text, ended_ms float8, payload text)
    ), locked AS MATERIALIZED (
      SELECT count(*) AS heads FROM (
        SELECT 1 FROM ${heads} AS head WHERE head.turn_id IN (SELECT turn_id FROM runs) ORDER BY head.turn_id COLLATE "C" FOR UPDATE
      ) AS held
    ), created AS (
      INSERT INTO ${heads} AS head (turn_id, conversation_id, latest_seq, ended_occurred_at, ended_at)
      SELECT run.turn_id, run.conversation_id, run.last_seq, run.ended_occurred_at, to_timestamp(run.ended_ms / 1000)
        FROM runs AS run, locked WHERE run.first_seq = 1 ORDER BY run.turn_id COLLATE "C"
      ON CONFLICT (turn_id) DO UPDATE
        SET latest_seq = excluded.latest_seq, ended_occurred_at = excluded.ended_occurred_at, ended_at = excluded.ended_at
        WHERE head.latest_seq = 0 AND head.conversation_id = excluded.conversation_id AND head.ended_at IS NULL AND NOT head.pruned
      RETURNING head.turn_id
    ), moved AS (
      UPDATE ${heads} AS head
         SET latest_seq = run.last_seq, ended_occurred_at = run.ended_occurred_at, ended_at = to_timestamp(run.ended_ms / 1000)
        FROM runs AS run, locked
       WHERE run.first_seq > 1 AND head.turn_id = run.turn_id AND head.conversation_id = run.conversation_id
         AND head.latest_seq = run.first_seq - 1 AND head.ended_at IS NULL AND NOT head.pruned
      RETURNING head.turn_id
    ), taken AS MATERIALIZED (
      SELECT turn_id FROM created UNION ALL SELECT turn_id FROM moved
    ), inserted AS (
      INSERT INTO ${frames} (turn_id, seq, conversation_id, event_id, envelope)
      SELECT frame.turn_id, frame.seq, frame.conversation_id, frame.event_id, frame.envelope
        FROM jsonb_to_recordset($2::jsonb) AS frame(turn_id text, seq integer, conversation_id text, event_id text, envelope jsonb)
       WHERE frame.turn_id IN (SELECT turn_id FROM taken)
      RETURNING 1
    ), notified AS (
      SELECT pg_notify($3, run.payload) FROM runs AS run WHERE run.turn_id IN (SELECT turn_id FROM taken)
    )
    SELECT taken.turn_id, (SELECT count(*) FROM inserted) AS inserted, (SELECT count(*) FROM notified) AS notified FROM taken`;
  const commitOptions = { name: `chat_event_log_append_${textHash(commitText)}` };

  const commitRuns = async (runs: readonly AppendRun[]): Promise<ReadonlySet<string>> => {
    const runHeads = runs.map((run) => {
      const last = run.frames.at(-1) as ChatEventEnvelope;
      const terminal = isTerminal(last);
      return {
        turn_id: run.turnId,
        conversation_id: run.conversationId,
        first_seq: run.frames[0]?.seq,
        last_seq: last.seq,
        ended_occurred_at: terminal ? last.occurredAt : null,
        ended_ms: terminal ? Date.parse(last.occurredAt) : null,
        payload: notificationPayload(run.turnId, last.seq),
      };
    });
    // The frames' JSON is spliced in as canonicalJson wrote it: no second serialization of the envelopes.
    const rows = runs.flatMap((run) =>
      run.frames.map(
        (frame) =>
          `{"turn_id":${JSON.stringify(frame.turnId)},"seq":${frame.seq},"conversation_id":${JSON.stringify(frame.conversationId)},"event_id":${JSON.stringify(frame.eventId)},"envelope":${canonicalJson(frame)}}`,
      ),
    );
    const { rows: taken } = await database.query<{ readonly turn_id: string }>(
      commitText,
      [JSON.stringify(runHeads), `[${rows.join(',')}]`, channel],
      commitOptions,
    );
    return new Set(taken.map((row) => row.turn_id));
  };

  const readTail = async (request: TailRequest): Promise<TailRead> => {
    const window = await readWindow(request);
    return { frames: window.frames, finished: window.ended, latestSeq: window.latestSeq, pruned: window.pruned };
  };

  // The window as of one snapshot, read in keyset pages. The first statement reads the head and the first page together
  // (one snapshot: its latestSeq L). Every frame with a seq up to L is committed by then (a frame and its head move in one
  // transaction) and never changes afterwards: frames are append-only, and the only thing that removes one is a prune, which
  // removes every frame of the turn. So each later page, bounded by L, reads exactly the frames that snapshot held, or comes
  // up short (contiguous seqs are expected) when a prune landed in between; the read then starts again and answers the pruned
  // turn, as a read after the prune would.
  const readWindow = async (request: TailRequest): Promise<ReplayWindow & { readonly ended: boolean; readonly pruned: boolean }> => {
    for (;;) {
      const { rows } = await database.query<WindowRow>(
        `SELECT head.lower_bound, head.latest_seq, head.ended_at IS NOT NULL AS ended, head.pruned, frame.envelope
           FROM ${heads} AS head LEFT JOIN ${frames} AS frame ON frame.turn_id = head.turn_id AND frame.seq > $3
          WHERE head.turn_id = $1 AND head.conversation_id = $2
          ORDER BY frame.seq LIMIT $4`,
        [request.turnId, request.conversationId, request.after, pageFrames],
      );
      const head = rows[0];
      if (head === undefined) return { ...EMPTY_WINDOW, ended: false, pruned: false };
      const window = rows.flatMap((row) => (row.envelope === null ? [] : [row.envelope]));
      const complete = await readLaterPages(request.turnId, window, head.latest_seq);
      if (!complete) continue;
      return { lowerBound: head.lower_bound, latestSeq: head.latest_seq, frames: window, ended: head.ended, pruned: head.pruned };
    }
  };

  // Appends the pages after the last frame of `window` up to `latestSeq`; false when a page came up short (a prune landed).
  const readLaterPages = async (turnId: string, window: ChatEventEnvelope[], latestSeq: number): Promise<boolean> => {
    for (let last = window.at(-1)?.seq; last !== undefined && last < latestSeq;) {
      const { rows } = await database.query<{ readonly envelope: ChatEventEnvelope }>(
        `SELECT envelope FROM ${frames} WHERE turn_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4`,
        [turnId, last, latestSeq, pageFrames],
      );
      const from: number = last;
      if (rows.length !== Math.min(pageFrames, latestSeq - from) || rows.some((row, index) => row.envelope.seq !== from + index + 1))
        return false;
      for (const row of rows) window.push(row.envelope);
      last = from + rows.length;
    }
    return true;
  };

  // One short transaction: the next `pruneBatchTurns` finished turns after `cursor` (in end order) whose end is in the
  // millisecond range, pruned where their exact end is before `before`. The cursor, not only `NOT pruned`, moves the
  // sweep on, since a turn of `before`'s own millisecond that ended after it stays unpruned. `next` is absent after the last batch.
  const pruneBatch = async (
    beforeMs: number,
    before: string,
    cursor: PruneCursor | undefined,
  ): Promise<{ readonly pruned: number; readonly next?: PruneCursor }> =>
    database.session(async (connection) => {
      await connection.query('BEGIN');
      // Milliseconds first (an index range, a superset since flooring keeps order), then the exact instant.
      const { rows } = await connection.query<{ readonly turn_id: string; readonly ended_at: string; readonly ended_occurred_at: string }>(
        `SELECT turn_id, ended_at::text AS ended_at, ended_occurred_at FROM ${heads}
          WHERE NOT pruned AND ended_at IS NOT NULL AND ended_at <= to_timestamp($1::float8 / 1000)
            AND ($2::timestamptz IS NULL OR (ended_at, turn_id) > ($2::timestamptz, $3::text))
          ORDER BY ended_at, turn_id LIMIT $4
          FOR UPDATE`,
        [beforeMs, cursor?.endedAt ?? null, cursor?.turnId ?? null, pruneBatchTurns],
      );
      const expired = rows.filter((row) => compareChatTimestamps(row.ended_occurred_at, before) < 0).map((row) => row.turn_id);
      if (expired.length > 0) {
        await connection.query(`DELETE FROM ${frames} WHERE turn_id = ANY($1::text[])`, [expired]);
        await connection.query(`UPDATE ${heads} SET lower_bound = latest_seq, pruned = true WHERE turn_id = ANY($1::text[])`, [expired]);
      }
      await connection.query('COMMIT');
      const last = rows.at(-1);
      return last === undefined || rows.length < pruneBatchTurns
        ? { pruned: expired.length }
        : { pruned: expired.length, next: { endedAt: last.ended_at, turnId: last.turn_id } };
    });

  const subscriptions = createEventLogSubscriptions(database, channel, readTail);

  const appendAlone = async (envelope: ChatEventEnvelope): Promise<AppendChatEventResult> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await database.session((connection) => attemptAppend(connection, envelope));
      } catch (error) {
        const kind = classifyDatabaseError(error);
        // Nothing committed; a rival's commit made the write fail, so the next attempt's checks answer from it.
        if ((kind === 'constraint' || kind === 'conflict') && attempt < APPEND_ATTEMPTS) continue;
        return refuse('store-unavailable', `append: ${describeDatabaseError(error)}`);
      }
    }
  };
  const onCommitted = (committed: readonly ChatEventEnvelope[]): void =>
    subscriptions.deliverCommitted(committed.map((frame) => asStored(frame) as ChatEventEnvelope));
  const groupCommit = createGroupCommit({ commitRuns, appendAlone, onCommitted }, batchFrames);

  return {
    async append(given) {
      const parsed = parseChatEnvelope(given);
      if (!parsed.ok) return refuse('invalid-envelope', `append: ${parsed.code}: ${parsed.message}`);
      return groupCommit.append(parsed.value);
    },

    async replayWindow(given) {
      const request = readTailRequest(given);
      if (request === undefined) return EMPTY_WINDOW;
      const { lowerBound, latestSeq, frames: retained } = await readWindow(request);
      return { lowerBound, latestSeq, frames: retained };
    },

    async subscribe(given, onEnvelope, onEnd) {
      const request = readTailRequest(given);
      if (request === undefined || typeof onEnvelope !== 'function' || (onEnd !== undefined && typeof onEnd !== 'function'))
        return NO_SUBSCRIPTION;
      return subscriptions.subscribe(request, onEnvelope, onEnd);
    },

    async pruneTurns(given: PruneTurnsRequest): Promise<PruneTurnsResult> {
      const before = readFields(given, ['before'])?.before;
      if (!isZonedTimestamp(before)) return refuse('invalid-request', 'pruneTurns: before must be an RFC 3339 instant with an offset');
      try {
        let pruned = 0;
        let cursor: PruneCursor | undefined;
        do {
          const batch = await pruneBatch(Date.parse(before), before, cursor);
          pruned += batch.pruned;
          cursor = batch.next;
        } while (cursor !== undefined);
        return { ok: true, pruned };
      } catch (error) {
        return refuse('store-unavailable', `pruneTurns: ${describeDatabaseError(error)}`);
      }
    },
  };
}
