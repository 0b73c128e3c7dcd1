/**
 * Migration 1's tables for interactions' store: one row per card (locked
 * with `FOR UPDATE`, created under its unique key before the lock so two
 * first answers meet on one row) and the outbox of workflow transitions,
 * written in the same transaction as the record they describe.
 */

/** `CREATE` statements for the interaction tables in the quoted schema `schema`. */
export function interactionTablesV1(schema: string): readonly string[] {
  return [
    `CREATE TABLE ${schema}.interactions (
      conversation_id text NOT NULL,
      correlation_id text NOT NULL,
      revision integer NOT NULL DEFAULT 0 CHECK (revision >= 0),
      record jsonb,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (conversation_id, correlation_id)
    )`,
    `CREATE TABLE ${schema}.interaction_outbox (
      id bigserial PRIMARY KEY,
      conversation_id text NOT NULL,
      correlation_id text NOT NULL,
      revision integer NOT NULL,
      transition jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (conversation_id, correlation_id, revision),
      FOREIGN KEY (conversation_id, correlation_id) REFERENCES ${schema}.interactions (conversation_id, correlation_id)
    )`,
  ];
}
