/**
 * Migration 3's index for the host's sweeper (DESIGN §6 rule 12, §11.2): the
 * turns whose record is `running`, by turn id in code point order (`COLLATE
 * "C"`, whatever the database's collation), so `listRunningTurns` reads one
 * page of them as one range of a small index, never scanning ended turns.
 */

/** `CREATE` statement of migration 3 in the quoted schema `schema`. */
export function runningTurnsIndexV3(schema: string): readonly string[] {
  return [`CREATE INDEX ON ${schema}.turns (turn_id COLLATE "C") WHERE record->>'status' = 'running'`];
}
