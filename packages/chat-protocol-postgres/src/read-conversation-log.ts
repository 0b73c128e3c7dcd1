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
  readonly turn_id: string | null;
  readonly lower_bound: number | null;
  readonly latest_seq: number | null;
  readonly ended: boolean | null;
  readonly pruned: boolean | null;
  readonly envelope: ChatEventEnvelope | null;
}

const isBound = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/**
 * The reader over `database` in the quoted-on-use `schema` (tables from
 * `migrateChatStore`, version 2 or later); `describeConversationStoreConformance`
 * judges it. Guarantees: recovery's `ConversationLogReader`; one statement, so the
 * turns and frames are one snapshot; turns in the order their first frame
 * was appended; a conversation with more turns than `maxTurns`, or more
 * retained frames than `maxFrames`, is refused (`too-many-turns`,
 * `too-many-frames`, with the `limit`) without reading its frames; a
 * conversation the log does not hold reads as no turns; bounds past the SQL
 * integer range (2^31 - 2 turns, 2^31 - 1 frames) are `invalid-request`;
 * never rejects.
 */
export function createConversationLogReader(database: ChatDatabase, schema: string): ConversationLogReader {
  const quoted = quoteIdentifier(schema);
  // The turns (one past the bound, to tell), their retained frame count, then the frames only when both bounds hold.
  const statement = `
    WITH listed AS (
      SELECT turn_id, turn_order, lower_bound, latest_seq, ended_at IS NOT NULL AS ended, pruned
        FROM ${quoted}.event_log_turns
       WHERE conversation_id = $1
       ORDER BY turn_order
       LIMIT $2::integer + 1
    ), totals AS (
      SELECT count(*) AS listed_turns, coalesce(sum(latest_seq - lower_bound), 0) AS listed_frames FROM listed
    )
    SELECT totals.listed_turns, totals.listed_frames,
           listed.turn_id, listed.lower_bound, listed.latest_seq, listed.ended, listed.pruned, frame.envelope
      FROM totals
      LEFT JOIN listed ON totals.listed_turns <= $2::integer AND totals.listed_frames <= $3::integer
      LEFT JOIN ${quoted}.event_log AS frame ON frame.turn_id = listed.turn_id
     ORDER BY listed.turn_order, frame.seq`;

  return async (given) => {
    const request = readFields(given, ['conversationId', 'maxTurns', 'maxFrames']);
    const conversationId = request?.conversationId;
    const maxTurns = request?.maxTurns ?? DEFAULT_CONVERSATION_LOG_MAX_TURNS;
    const maxFrames = request?.maxFrames ?? DEFAULT_CONVERSATION_LOG_MAX_FRAMES;
    if (!isChatId(conversationId) || !isBound(maxTurns) || !isBound(maxFrames) || maxTurns > 2 ** 31 - 2 || maxFrames > 2 ** 31 - 1)
      return refuse('invalid-request', 'readConversationLog: expected a v1 conversation id and positive integer bounds');
    let rows: readonly ConversationRow[];
    try {
      rows = (await database.query<ConversationRow>(statement, [conversationId, maxTurns, maxFrames])).rows;
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
    return { ok: true, value: { conversationId, turns } };
  };
}
