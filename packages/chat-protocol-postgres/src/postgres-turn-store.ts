/**
 * `createPostgresTurnStore`: recovery's `TurnStore` on Postgres or PGlite.
 * One per-turn fence, an advisory lock in the database (DESIGN §9.2): the
 * compare-and-swap takes it for its transaction, and admission takes it for
 * its session, so it outlives the admission's commit until `launch()` ran.
 * It owns the turn and admission rows; the caller's authority is the host's
 * (`authorizeDispatch`), read inside the admission's own transaction.
 */
import { isChatId, isSafeJson, isZonedTimestamp } from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import {
  admissionRefusal,
  readAdmitDispatchRequest,
  readListRunningTurnsRequest,
  type AdmitDispatchRefusalCode,
  type AdmitDispatchRequest,
  type AdmitDispatchResult,
  type CompareAndSwapRequest,
  type CompareAndSwapResult,
  type EffectAdmission,
  type EffectRecord,
  type ListRunningTurnsRequest,
  type RunLease,
  type StoredTurn,
  type TurnRecord,
  type TurnStore,
} from '@papercusp/chat-protocol-recovery';
import { TURN_FENCE_NAMESPACE, advisoryLockCall, advisoryUnlockSql } from './advisory-locks.js';
import type { ChatDatabase, ChatQueryable } from './chat-database.js';
import { quoteIdentifier } from './identifiers.js';
import { FENCE_LIMIT_KEYS, boundedLookup, limitAndLock, readFenceLimits, type FenceLimitOptions } from './fence-limits.js';
import { DEFAULT_CHAT_STORE_SCHEMA } from './migrate-chat-store.js';
import { optionalLookup, readStoreOptions } from './store-options.js';

/** What `authorizeDispatch` is asked: may `caller` still launch `effectId` of this turn? */
export interface DispatchAuthorityRequest<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
  readonly turnId: string;
  readonly effectId: string;
}

/** Options of {@link createPostgresTurnStore}: the schema, the host's authority lookup, and the fence's time limits. */
export interface PostgresTurnStoreOptions<Caller> extends FenceLimitOptions {
  /** The schema `migrateChatStore` created (default `chat_protocol`): a lower-case identifier, at most 63 characters. */
  readonly schema?: string;
  /**
   * The host's authority lookup for an admission, called inside the
   * admission's transaction with that transaction's own handle (`query`), so
   * grants kept in the same database are read under its snapshot and locks.
   * Only `true` authorizes; a throw, any other answer or no answer within
   * `authorityTimeoutMs` is `forbidden`. Without it every admission is
   * `forbidden` (fail closed).
   */
  readonly authorizeDispatch?: (query: ChatQueryable, request: DispatchAuthorityRequest<Caller>) => boolean | Promise<boolean>;
}

// The most turns one `listRunningTurns` page answers, whatever `limit` asks: a page is one bounded statement.
const MAXIMUM_RUNNING_TURNS_PAGE = 500;

interface TurnRow {
  readonly record: TurnRecord<unknown>;
  readonly admissions: readonly EffectAdmission[];
}

// The admissions of a turn as one jsonb array, in the order they were admitted.
const admissionsOf = (schema: string, turn: string): string =>
  `COALESCE((SELECT jsonb_agg(jsonb_build_object('effectId', a.effect_id, 'claim', a.claim, 'admittedAt', a.admitted_at) ORDER BY a.admission_order)
     FROM ${schema}.admissions a WHERE a.turn_id = ${turn}), '[]'::jsonb)`;

/** Why a record may not be written for this swap, or `null`. */
function unwritable(turnId: string, expectedRevision: number, next: unknown): string | null {
  try {
    return recordProblem(turnId, expectedRevision, next);
  } catch {
    // A getter or a Proxy trap inside the record (an effect's field) threw: the caller's bug, a TypeError.
    return 'the record cannot be read (a getter or a Proxy trap threw)';
  }
}

// Whether a record's `run` (§6 rule 12) is one the store can keep: absent, or a v1 run id and an RFC 3339 deadline.
function isStorableRun(run: unknown): boolean {
  if (run === undefined) return true;
  const fields = typeof run === 'object' && run !== null ? readFields(run as RunLease, ['runId', 'leaseExpiresAt']) : undefined;
  return fields !== undefined && isChatId(fields.runId) && isZonedTimestamp(fields.leaseExpiresAt);
}

function recordProblem(turnId: string, expectedRevision: number, next: unknown): string | null {
  const record = readFields(next as TurnRecord<unknown>, ['turnId', 'conversationId', 'revision', 'status', 'effects', 'run']);
  if (
    record === undefined ||
    !isChatId(record.conversationId) ||
    typeof record.status !== 'string' ||
    !Array.isArray(record.effects) ||
    !record.effects.every(
      (effect: unknown) =>
        typeof effect === 'object' &&
        effect !== null &&
        isChatId((effect as EffectRecord<unknown>).effectId) &&
        typeof (effect as EffectRecord<unknown>).claim === 'number' &&
        typeof (effect as EffectRecord<unknown>).status === 'string',
    )
  )
    return 'the record is not a turn record';
  if (!isStorableRun(record.run)) return 'the record names its run without a v1 run id and an RFC 3339 lease deadline';
  if (record.turnId !== turnId) return 'the record names another turn';
  if (record.revision !== expectedRevision + 1) return 'the revision must go up by one';
  if (!isSafeJson(next)) return 'the record (its results included) is not JSON the store can keep';
  return null;
}

/**
 * Recovery's `TurnStore` over `database`, in the tables `migrateChatStore`
 * created in `options.schema`. `Result` must be JSON: records are stored as
 * jsonb (object key order is not kept).
 *
 * Guarantees: `read` answers the record and its admissions from one statement
 * (one snapshot). `compareAndSwap` is one transaction under the turn's fence
 * (a transaction-level advisory lock) that writes only where the stored
 * revision is `expectedRevision` (0 creates) and answers with the turn as of
 * its commit, or `{ swapped: false, current }`; it rejects only when the write
 * failed or its outcome is unknown (a `TypeError` for a record that is not the
 * next revision of this turn, not JSON, or whose `run` lacks a v1 run id or an
 * RFC 3339 lease deadline). The record, its owning run and lease included
 * (§6 rule 12), is kept whole as jsonb, so a renewal or an interruption is a
 * compare-and-swap like any other. `admitDispatch` holds the same
 * fence as a session lock: it revalidates authority (through
 * `authorizeDispatch`, fail closed), that the turn is running (a cancelled or
 * interrupted one is `turn-not-running`), the effect and the claim,
 * commits the admission with `admittedAt` kept as given, calls `launch`
 * exactly once, then releases the fence, so no cancellation commits between
 * the admission and the launch. A failure before the commit, or a commit
 * whose outcome is unknown, rejects and never launches; a `launch` that
 * throws is still admitted (the admission committed). Both transactions run
 * at READ COMMITTED whatever the server's default, so each reads after the
 * fence is granted and sees every write committed under it before. No lock is
 * held in the process: the fence holds across processes.
 *
 * Fences cannot hang (DESIGN §9.2): both transactions set `lockTimeoutMs`
 * and `statementTimeoutMs` for themselves, so a fence held by a frozen
 * connection makes the next swap or admission reject after the lock timeout
 * (SQLSTATE 55P03; recovery answers it `checkpoint-failed` for a
 * cancellation, `admission-unacknowledged` for a dispatch), never wait for
 * ever; `authorizeDispatch` gets `authorityTimeoutMs` to answer, past which
 * the admission is `forbidden` and its handle refuses further statements.
 *
 * `listRunningTurns` (the host's sweeper's read, no authority check: never
 * expose it to callers) answers one page of the turns whose record is
 * `running`, in turn id order by code point (`COLLATE "C"`, whatever the
 * database's collation), strictly after `afterTurnId`, at most `limit` capped
 * at 500, each with its admissions as `read`
 * answers it: one statement, one snapshot, a range of migration 3's partial
 * index on running turns. It rejects with a `TypeError` for a request it
 * cannot read, a `limit` that is not a positive integer or an `afterTurnId`
 * that is not a v1 id, before any statement.
 *
 * Ids core refuses (`isChatId`: a NUL, a lone surrogate, a control
 * character, more than 256 characters) name no turn the store can hold, and
 * never reach the database: `read` answers `null`, `compareAndSwap` on such a
 * turn id `{ swapped: false, current: null }`, `admitDispatch` with such a
 * conversation, turn or effect id (or an `admittedAt` that is not an RFC 3339
 * instant) `forbidden`, like a request it cannot read, and a `next` record
 * carrying one is the `TypeError` of a record that is not a turn record.
 *
 * Throws `TypeError` at creation for options that cannot be read (a throwing
 * getter, a Proxy), a schema that is not a lower-case identifier, an
 * `authorizeDispatch` that is not a function, or a time limit that is not a
 * whole number of milliseconds from 1 to 2,147,483,647; each option is read once.
 */
export function createPostgresTurnStore<Result, Caller>(
  database: ChatDatabase,
  options?: PostgresTurnStoreOptions<Caller>,
): Required<TurnStore<Result, Caller>> {
  const factory = 'createPostgresTurnStore';
  const read = readStoreOptions(factory, options, ['schema', 'authorizeDispatch', ...FENCE_LIMIT_KEYS]);
  const limits = readFenceLimits(factory, read);
  const schemaName = read.schema ?? DEFAULT_CHAT_STORE_SCHEMA;
  const schema = quoteIdentifier(schemaName);
  const authorizeDispatch = optionalLookup(factory, 'authorizeDispatch', read.authorizeDispatch);
  // The schema is an identifier (no `.`), so the key names one turn of one schema.
  const fenceKey = (turnId: string): string => `${schemaName}.${turnId}`;
  const selectTurn = `SELECT t.record, ${admissionsOf(schema, 't.turn_id')} AS admissions FROM ${schema}.turns t WHERE t.turn_id = $1`;
  // The predicate is migration 3's index's, word for word, so the planner reads that index; '' sorts before every id.
  const selectRunning = `SELECT t.record, ${admissionsOf(schema, 't.turn_id')} AS admissions FROM ${schema}.turns t
    WHERE t.record->>'status' = 'running' AND t.turn_id COLLATE "C" > $1 ORDER BY t.turn_id COLLATE "C" LIMIT $2`;

  const readOn = async (query: ChatQueryable, turnId: string): Promise<StoredTurn<Result> | null> => {
    const { rows } = await query.query<TurnRow>(selectTurn, [turnId]);
    const row = rows[0];
    return row === undefined ? null : ({ record: row.record, admissions: row.admissions } as StoredTurn<Result>);
  };

  const authorized = async (query: ChatQueryable, request: DispatchAuthorityRequest<Caller>): Promise<boolean> => {
    if (authorizeDispatch === undefined) return false;
    try {
      const answer = await boundedLookup(query, limits.authorityTimeoutMs, (handle) => authorizeDispatch(handle, request));
      return answer.answered && answer.value === true;
    } catch {
      return false;
    }
  };

  return {
    async read(turnId: string): Promise<StoredTurn<Result> | null> {
      // A turn id core refuses names no turn: no swap ever stored one.
      if (!isChatId(turnId)) return null;
      return readOn(database, turnId);
    },

    async listRunningTurns(given: ListRunningTurnsRequest): Promise<readonly StoredTurn<Result>[]> {
      const request = readListRunningTurnsRequest(given);
      if (request === undefined)
        throw new TypeError('listRunningTurns: expected { afterTurnId?, limit }, afterTurnId a v1 id and limit a positive integer');
      const { rows } = await database.query<TurnRow>(selectRunning, [
        request.afterTurnId ?? '',
        Math.min(request.limit, MAXIMUM_RUNNING_TURNS_PAGE),
      ]);
      return rows.map((row) => ({ record: row.record, admissions: row.admissions }) as StoredTurn<Result>);
    },

    async compareAndSwap(given: CompareAndSwapRequest<Result>): Promise<CompareAndSwapResult<Result>> {
      const request = readFields(given, ['turnId', 'expectedRevision', 'next']);
      // A turn id core refuses names no turn, and none can be created under it (nor its fence taken).
      if (request === undefined || !isChatId(request.turnId)) return { swapped: false, current: null };
      const { turnId, expectedRevision, next } = request;
      // No stored revision is anything but a count: the swap cannot match.
      if (typeof expectedRevision !== 'number' || !Number.isSafeInteger(expectedRevision) || expectedRevision < 0)
        return { swapped: false, current: await readOn(database, turnId) };
      return database.session(async (connection) => {
        await connection.query('BEGIN ISOLATION LEVEL READ COMMITTED');
        await limitAndLock(connection, limits, advisoryLockCall(TURN_FENCE_NAMESPACE, 1, 'transaction'), fenceKey(turnId));
        const current = await readOn(connection, turnId);
        if ((current?.record.revision ?? 0) !== expectedRevision) {
          await connection.query('ROLLBACK');
          return { swapped: false, current };
        }
        const reason = unwritable(turnId, expectedRevision, next);
        if (reason !== null) {
          await connection.query('ROLLBACK');
          throw new TypeError(`compareAndSwap of ${turnId}: ${reason}`);
        }
        const record = JSON.stringify(next);
        const written =
          current === null
            ? await connection.query(
                `INSERT INTO ${schema}.turns (turn_id, conversation_id, revision, record) VALUES ($1, $2, $3, $4::jsonb)`,
                [turnId, next.conversationId, next.revision, record],
              )
            : await connection.query(
                `UPDATE ${schema}.turns SET conversation_id = $2, revision = $3, record = $4::jsonb, updated_at = now() WHERE turn_id = $1 AND revision = $5`,
                [turnId, next.conversationId, next.revision, record, expectedRevision],
              );
        // Under the fence the row cannot have moved; a writer that skipped the fence only makes this a mismatch.
        if (written.rowCount !== 1) {
          await connection.query('ROLLBACK');
          return { swapped: false, current: await readOn(connection, turnId) };
        }
        // What is stored now, without reading it back: the record just written, and the admissions read above,
        // which no admission can change while this transaction holds the turn's fence.
        const turn: StoredTurn<Result> = { record: JSON.parse(record) as TurnRecord<Result>, admissions: current?.admissions ?? [] };
        // A COMMIT that fails here has an unknown outcome: the rejection makes the caller read back.
        await connection.query('COMMIT');
        return { swapped: true, turn };
      });
    },

    async admitDispatch(given: AdmitDispatchRequest<Caller>, launch: () => void): Promise<AdmitDispatchResult> {
      const request = readAdmitDispatchRequest(given);
      // A request that cannot be read, whose ids core refuses or whose admittedAt is no instant (text the admissions
      // table may not hold) names no turn to take the fence of: nothing is admitted or launched, nothing reaches the database.
      if (
        request === undefined ||
        !isChatId(request.conversationId) ||
        !isChatId(request.turnId) ||
        !isChatId(request.effectId) ||
        !isZonedTimestamp(request.admittedAt) ||
        typeof launch !== 'function'
      )
        return { admitted: false, code: 'forbidden' };
      const { caller, conversationId, turnId, effectId, claim, admittedAt } = request;
      const key = fenceKey(turnId);
      let launched = false;
      try {
        return await database.session(async (connection): Promise<AdmitDispatchResult> => {
          // The session lock is taken inside the transaction so the transaction's limits bound its wait; it outlives the commit.
          await connection.query('BEGIN ISOLATION LEVEL READ COMMITTED');
          await limitAndLock(connection, limits, advisoryLockCall(TURN_FENCE_NAMESPACE, 1, 'session'), key);
          let refusal: AdmitDispatchRefusalCode | null = 'forbidden';
          if (await authorized(connection, { caller, conversationId, turnId, effectId })) {
            const { rows } = await connection.query<{ readonly record: TurnRecord<unknown>; readonly admitted: boolean }>(
              `SELECT t.record, EXISTS (SELECT 1 FROM ${schema}.admissions a WHERE a.turn_id = t.turn_id AND a.effect_id = $2) AS admitted
               FROM ${schema}.turns t WHERE t.turn_id = $1`,
              [turnId, effectId],
            );
            refusal = admissionRefusal(rows[0]?.record, request, { granted: true, admitted: rows[0]?.admitted === true });
          }
          if (refusal !== null) {
            await connection.query('ROLLBACK');
            await connection.query(advisoryUnlockSql(TURN_FENCE_NAMESPACE, 1), [key]);
            return { admitted: false, code: refusal };
          }
          await connection.query(`INSERT INTO ${schema}.admissions (turn_id, effect_id, claim, admitted_at) VALUES ($1, $2, $3, $4)`, [
            turnId,
            effectId,
            claim,
            admittedAt,
          ]);
          // Only a COMMIT that answered launches; one that failed may or may not have landed, and rejects.
          await connection.query('COMMIT');
          launched = true;
          try {
            launch();
          } finally {
            await connection.query(advisoryUnlockSql(TURN_FENCE_NAMESPACE, 1), [key]);
          }
          return { admitted: true };
        });
      } catch (error) {
        // The admission committed and `launch` was called: it is admitted. What failed after
        // (the unlock, or a throw from `launch`) made the session discard its connection, and the lock with it.
        if (launched) return { admitted: true };
        throw error;
      }
    },
  };
}
