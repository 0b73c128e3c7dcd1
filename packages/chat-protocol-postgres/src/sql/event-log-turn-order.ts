/**
 * Migration 2's change to the event log: each turn head gets its place in its
 * conversation (`turn_order`, an identity the head's first append draws, so a
 * conversation's turns read back in the order they started) and an index on
 * `(conversation_id, turn_order)`, so one conversation's turns are read
 * without scanning the others'. Heads stored before it are numbered in
 * whatever order the table holds them.
 */

/** `ALTER`/`CREATE` statements of migration 2 in the quoted schema `schema`. */
export function eventLogTurnOrderV2(schema: string): readonly string[] {
  return [
    `ALTER TABLE ${schema}.event_log_turns ADD COLUMN turn_order bigint GENERATED ALWAYS AS IDENTITY`,
    `CREATE INDEX ON ${schema}.event_log_turns (conversation_id, turn_order)`,
  ];
}
