/**
 * Migration 1's tables for interactions' store: one row per card (locked
 * with `FOR UPDATE`, created under its unique key before the lock so two
 * first answers meet on one row) and the outbox of workflow transitions,
 * written in the same transaction as the record they describe. A row at
 * revision 0 with no record is a placeholder a transaction created to lock
 * and never committed without a record; it reads as "no record".
 */

/** `CREATE` statements for the interaction tables in the quoted schema `schema`. */
export function interactionTablesV1(schema: string): readonly string[] {
  return [
    // `record` is `json`, not `jsonb`: the record comes back exactly as written, key order included.
    `CREATE TABLE ${schema}.interactions (
      conversation_id text NOT NULL,
      correlation_id text NOT NULL,
      revision integer NOT NULL DEFAULT 0 CHECK (revision >= 0),
      record json,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (conversation_id, correlation_id),
      CHECK ((revision = 0) = (record IS NULL))
    )`,
    `CREATE TABLE ${schema}.interaction_outbox (
      id bigserial PRIMARY KEY,
      conversation_id text NOT NULL,
      correlation_id text NOT NULL,
      revision integer NOT NULL CHECK (revision >= 1),
      transition jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (conversation_id, correlation_id, revision),
      FOREIGN KEY (conversation_id, correlation_id) REFERENCES ${schema}.interactions (conversation_id, correlation_id)
    )`,
  ];
}
