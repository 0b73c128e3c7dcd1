/**
 * Migration 1's tables for recovery's turn store: the versioned turn record
 * and the per-effect admissions beside it (`admitted_at` kept as the exact
 * RFC 3339 text the component's clock gave, so no precision is lost, and
 * `admission_order` keeping the order they were admitted in).
 */

/** `CREATE` statements for the turn tables in the quoted schema `schema`. */
export function turnTablesV1(schema: string): readonly string[] {
  return [
    `CREATE TABLE ${schema}.turns (
      turn_id text PRIMARY KEY,
      conversation_id text NOT NULL,
      revision integer NOT NULL CHECK (revision > 0),
      record jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE TABLE ${schema}.admissions (
      turn_id text NOT NULL REFERENCES ${schema}.turns (turn_id) ON DELETE CASCADE,
      effect_id text NOT NULL,
      claim integer NOT NULL CHECK (claim >= 0),
      admitted_at text NOT NULL,
      admission_order bigint GENERATED ALWAYS AS IDENTITY,
      PRIMARY KEY (turn_id, effect_id)
    )`,
  ];
}
