/**
 * The versioned SQL migrations shipped in the package, in order. A version
 * once released never changes; a change to the tables is a new version. Each
 * migration is a list of statements for a quoted schema name.
 */
import { eventLogTablesV1 } from './sql/event-log-tables.js';
import { eventLogTurnOrderV2 } from './sql/event-log-turn-order.js';
import { interactionTablesV1 } from './sql/interaction-tables.js';
import { runningTurnsIndexV3 } from './sql/running-turns-index.js';
import { turnTablesV1 } from './sql/turn-tables.js';

/** One migration: its version (1, 2, … without gaps), a name, and its statements. */
export interface ChatStoreMigration {
  readonly version: number;
  readonly name: string;
  statements(schema: string): readonly string[];
}

/** Every migration, oldest first. */
export const CHAT_STORE_MIGRATIONS: readonly ChatStoreMigration[] = [
  {
    version: 1,
    name: 'turns, admissions, interactions, outbox, event log',
    statements: (schema) => [...turnTablesV1(schema), ...interactionTablesV1(schema), ...eventLogTablesV1(schema)],
  },
  {
    version: 2,
    name: 'event log turn order per conversation',
    statements: (schema) => eventLogTurnOrderV2(schema),
  },
  {
    version: 3,
    name: 'running turns by turn id',
    statements: (schema) => runningTurnsIndexV3(schema),
  },
];

/** The schema version this package writes and reads. */
export const CHAT_STORE_SCHEMA_VERSION = CHAT_STORE_MIGRATIONS.length;
