/**
 * Migration 1's tables for the event log: one head row per turn (its
 * conversation, latest seq, retained lower bound, when it ended, whether it
 * was pruned) and the frames. The database enforces what the log promises: a
 * frame's seq is unique in its turn and follows the previous one (a foreign
 * key to seq − 1), an event id is unique in its conversation, a frame's turn
 * and conversation match its head, and the head's latest seq never passes
 * its bound.
 */

/** `CREATE` statements for the event log tables in the quoted schema `schema`. */
export function eventLogTablesV1(schema: string): readonly string[] {
  return [
    `CREATE TABLE ${schema}.event_log_turns (
      turn_id text PRIMARY KEY,
      conversation_id text NOT NULL,
      latest_seq integer NOT NULL DEFAULT 0 CHECK (latest_seq >= 0),
      lower_bound integer NOT NULL DEFAULT 0 CHECK (lower_bound >= 0 AND lower_bound <= latest_seq),
      ended_occurred_at text,
      ended_at timestamptz,
      pruned boolean NOT NULL DEFAULT false,
      CHECK ((ended_occurred_at IS NULL) = (ended_at IS NULL)),
      CHECK (NOT pruned OR (ended_at IS NOT NULL AND lower_bound = latest_seq)),
      UNIQUE (turn_id, conversation_id)
    )`,
    `CREATE INDEX ON ${schema}.event_log_turns (ended_at) WHERE NOT pruned AND ended_at IS NOT NULL`,
    `CREATE TABLE ${schema}.event_log (
      turn_id text NOT NULL,
      seq integer NOT NULL CHECK (seq > 0),
      previous_seq integer GENERATED ALWAYS AS (NULLIF(seq - 1, 0)) STORED,
      conversation_id text NOT NULL,
      event_id text NOT NULL,
      envelope jsonb NOT NULL,
      PRIMARY KEY (turn_id, seq),
      UNIQUE (conversation_id, event_id),
      FOREIGN KEY (turn_id, conversation_id) REFERENCES ${schema}.event_log_turns (turn_id, conversation_id),
      FOREIGN KEY (turn_id, previous_seq) REFERENCES ${schema}.event_log (turn_id, seq)
    )`,
  ];
}
