/**
 * `readConversationLog`: recovery's `ConversationLogReader` on the event log's
 * tables: every turn of one conversation, in the order the turns started, with
 * their retained frames, read in one statement (one snapshot, so no concurrent
 * append or prune can tear it) and bounded by a turn and a frame limit. The
 * contract's types are recovery's; this owns the statement. It authorizes
 * nothing and folds nothing: the host checks the caller first and applies the
 * frames itself.
 */
import { isChatId, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { readFields, refuse } from '@papercusp/chat-protocol-core/internal';
import {
  DEFAULT_CONVERSATION_LOG_MAX_FRAMES,
  DEFAULT_CONVERSATION_LOG_MAX_TURNS,
  type ConversationLogReader,
  type ConversationLogTurn,
} from '@papercusp/chat-protocol-recovery';
import type { ChatDatabase } from './chat-database.js';
import { describeDatabaseError } from './database-errors.js';
import { quoteIdentifier } from './identifiers.js';

interface ConversationRow {
  readonly listed_turns: string;
  readonly listed_frames: string;
  readonly omitted_turns: string;
  readonly turn_id: string | null;
  readonly lower_bound: number | null;
  readonly latest_seq: number | null;
  readonly ended: boolean | null;
  readonly pruned: boolean | null;
  readonly envelope: ChatEventEnvelope | null;
}

const isBound = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const OVERFLOWS: ReadonlySet<unknown> = new Set([undefined, 'refuse', 'keep-newest']);

/**
 * The reader over `database` in the quoted-on-use `schema` (tables from
 * `migrateChatStore`, version 2 or later); `describeConversationStoreConformance`
 * judges it. Guarantees: recovery's `ConversationLogReader`; one statement, so the
 * turns and frames are one snapshot; turns in the order their first frame
 * was appended; a conversation with more turns than `maxTurns`, or more
 * retained frames than `maxFrames`, is refused (`too-many-turns`,
 * `too-many-frames`, with the `limit`) without reading its frames, or with
 * `overflow: 'keep-newest'` read from its newest turn back as far as both
 * bounds allow; `throughTurnId` leaves out the turns that started after it; a
 * conversation the log does not hold reads as no turns; bounds past the SQL
 * integer range (2^31 - 2 turns, 2^31 - 1 frames) are `invalid-request`;
 * never rejects.
 */
export function createConversationLogReader(database: ChatDatabase, schema: string): ConversationLogReader {
  const quoted = quoteIdentifier(schema);
  // The conversation's turns, but those that started after throughTurnId ($4, when named; an id the conversation
  // does not hold leaves none).
  const matching = `
       WHERE conversation_id = $1
         AND ($4::text IS NULL
              OR turn_order <= (SELECT turn_order FROM ${quoted}.event_log_turns WHERE conversation_id = $1 AND turn_id = $4))`;
  const columns = 'turn_id, turn_order, lower_bound, latest_seq, ended_at IS NOT NULL AS ended, pruned';
  const answer = `
    SELECT totals.listed_turns, totals.listed_frames, totals.omitted_turns,
           listed.turn_id, listed.lower_bound, listed.latest_seq, listed.ended, listed.pruned, frame.envelope
      FROM totals`;
  const frames = `
      LEFT JOIN ${quoted}.event_log AS frame ON frame.turn_id = listed.turn_id
     ORDER BY listed.turn_order, frame.seq`;
  // 'refuse': the turns (one past the bound, to tell), their retained frame count, then the frames only when both
  // bounds hold.
  const refusing = `
    WITH listed AS (
      SELECT ${columns} FROM ${quoted}.event_log_turns ${matching}
       ORDER BY turn_order
       LIMIT $2::integer + 1
    ), totals AS (
      SELECT count(*) AS listed_turns, coalesce(sum(latest_seq - lower_bound), 0) AS listed_frames, 0 AS omitted_turns FROM listed
    ) ${answer}
      LEFT JOIN listed ON totals.listed_turns <= $2::integer AND totals.listed_frames <= $3::integer ${frames}`;
  // 'keep-newest': the newest turns within the turn bound, then those of them whose frames, counted from the
  // newest, fit the frame bound (a running sum only grows, so they are a run from the newest), and how many of the
  // matching turns that leaves out.
  const keepingNewest = `
    WITH newest AS (
      SELECT ${columns} FROM ${quoted}.event_log_turns ${matching}
       ORDER BY turn_order DESC
       LIMIT $2::integer
    ), listed AS (
      SELECT * FROM (
        SELECT *, sum(latest_seq - lower_bound) OVER (ORDER BY turn_order DESC ROWS UNBOUNDED PRECEDING) AS frames_to_here
          FROM newest
      ) AS counted
       WHERE frames_to_here <= $3::integer
    ), totals AS (
      SELECT 0 AS listed_turns, 0 AS listed_frames,
             (SELECT count(*) FROM ${quoted}.event_log_turns ${matching}) - (SELECT count(*) FROM listed) AS omitted_turns
    ) ${answer}
      LEFT JOIN listed ON true ${frames}`;

  return async (given) => {
    const request = readFields(given, ['conversationId', 'maxTurns', 'maxFrames', 'throughTurnId', 'overflow']);
    const conversationId = request?.conversationId;
    const maxTurns = request?.maxTurns ?? DEFAULT_CONVERSATION_LOG_MAX_TURNS;
    const maxFrames = request?.maxFrames ?? DEFAULT_CONVERSATION_LOG_MAX_FRAMES;
    const throughTurnId = request?.throughTurnId;
    const overflow = request?.overflow;
    if (
      !isChatId(conversationId) ||
      !isBound(maxTurns) ||
      !isBound(maxFrames) ||
      maxTurns > 2 ** 31 - 2 ||
      maxFrames > 2 ** 31 - 1 ||
      (throughTurnId !== undefined && !isChatId(throughTurnId)) ||
      !OVERFLOWS.has(overflow)
    )
      return refuse(
        'invalid-request',
        "readConversationLog: expected a v1 conversation id, positive integer bounds, a v1 throughTurnId and overflow 'refuse' or 'keep-newest'",
      );
    const keepNewest = overflow === 'keep-newest';
    let rows: readonly ConversationRow[];
    try {
      const parameters = [conversationId, maxTurns, maxFrames, throughTurnId ?? null];
      rows = (await database.query<ConversationRow>(keepNewest ? keepingNewest : refusing, parameters)).rows;
    } catch (error) {
      return refuse('store-unavailable', `readConversationLog: ${describeDatabaseError(error)}`);
    }
    const totals = rows[0];
    if (totals === undefined) return refuse('store-unavailable', 'readConversationLog: the store answered no row');
    if (Number(totals.listed_turns) > maxTurns)
      return { ...refuse('too-many-turns', `readConversationLog: the conversation has more than ${maxTurns} turns`), limit: maxTurns };
    if (Number(totals.listed_frames) > maxFrames)
      return { ...refuse('too-many-frames', `readConversationLog: the conversation has more than ${maxFrames} frames`), limit: maxFrames };
    const turns: (ConversationLogTurn & { readonly frames: ChatEventEnvelope[] })[] = [];
    for (const row of rows) {
      if (row.turn_id === null) continue;
      let turn = turns.at(-1);
      if (turn?.turnId !== row.turn_id) {
        turn = {
          turnId: row.turn_id,
          lowerBound: row.lower_bound ?? 0,
          latestSeq: row.latest_seq ?? 0,
          ended: row.ended === true,
          pruned: row.pruned === true,
          frames: [],
        };
        turns.push(turn);
      }
      if (row.envelope !== null) turn.frames.push(row.envelope);
    }
    return keepNewest
      ? { ok: true, value: { conversationId, turns, omittedTurns: Number(totals.omitted_turns) } }
      : { ok: true, value: { conversationId, turns } };
  };
}
