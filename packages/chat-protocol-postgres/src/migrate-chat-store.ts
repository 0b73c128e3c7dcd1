/**
 * `migrateChatStore`: creates or upgrades the store's tables in one schema
 * from the migrations shipped in the package. Idempotent, and safe when
 * several processes start at once: they queue on one advisory lock per
 * schema, and each migration commits with its version row. A database that
 * an newer package migrated is refused, never downgraded or written.
 */
import { type ChatRefusal } from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import { MIGRATION_LOCK_NAMESPACE, advisoryLockSql, advisoryUnlockSql } from './advisory-locks.js';
import type { ChatDatabase } from './chat-database.js';
import { describeDatabaseError } from './database-errors.js';
import { isChatIdentifier, quoteIdentifier } from './identifiers.js';
import { CHAT_STORE_MIGRATIONS, CHAT_STORE_SCHEMA_VERSION } from './migrations.js';

/** The schema the store uses unless told otherwise. */
export const DEFAULT_CHAT_STORE_SCHEMA = 'chat_protocol';

/** Options of {@link migrateChatStore}. */
export interface MigrateChatStoreOptions {
  /** The schema holding the tables (default `chat_protocol`): a lower-case identifier, at most 63 characters. */
  readonly schema?: string;
}

/**
 * Refusal codes of {@link migrateChatStore}: `invalid-schema` (the schema name
 * is not a lower-case identifier, or the options holding it cannot be read:
 * not an object, a throwing getter, a Proxy), `database-newer` (a newer package migrated
 * it: upgrade this one), `store-unavailable` (a statement failed; every
 * migration commits whole, so a rerun resumes where it stopped).
 */
export type MigrateChatStoreRefusalCode = 'invalid-schema' | 'database-newer' | 'store-unavailable';

/** The result of {@link migrateChatStore}: the versions before and after, and the migrations this call applied. */
export type MigrateChatStoreResult =
  | {
      readonly ok: true;
      readonly schema: string;
      readonly fromVersion: number;
      readonly toVersion: number;
      readonly applied: readonly { readonly version: number; readonly name: string }[];
    }
  | ChatRefusal<MigrateChatStoreRefusalCode>;

const refuse = (code: MigrateChatStoreRefusalCode, message: string): ChatRefusal<MigrateChatStoreRefusalCode> => ({
  ok: false,
  code,
  message,
});

/**
 * Creates or upgrades the store's tables in `options.schema`.
 *
 * Guarantees: every statement of a migration and its row in
 * `<schema>.migrations` commit together, so a crash leaves each migration
 * applied or not; concurrent callers wait on one advisory lock and the later
 * ones find nothing to do; a database whose recorded version is above this
 * package's is `database-newer` and nothing is written. Never rejects, on
 * any argument: options are read once (options that cannot be read are
 * `invalid-schema`), and whatever `database` throws, a Proxy's trap
 * included, is `store-unavailable`.
 */
export async function migrateChatStore(database: ChatDatabase, options?: MigrateChatStoreOptions): Promise<MigrateChatStoreResult> {
  const read = options === undefined ? {} : readFields(options, ['schema']);
  if (read === undefined) return refuse('invalid-schema', 'the options must be an object whose schema can be read');
  const schema = read.schema ?? DEFAULT_CHAT_STORE_SCHEMA;
  if (!isChatIdentifier(schema)) {
    return refuse('invalid-schema', 'the schema must be a lower-case identifier: a letter or _, then letters, digits or _, at most 63');
  }
  const quoted = quoteIdentifier(schema);
  try {
    return await database.session(async (connection) => {
      await connection.query(advisoryLockSql(MIGRATION_LOCK_NAMESPACE, 1, 'session'), [schema]);
      // A throw leaves the lock to the session, which discards or resets a connection whose work threw.
      const result = await (async (): Promise<MigrateChatStoreResult> => {
        await connection.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
        await connection.query(
          `CREATE TABLE IF NOT EXISTS ${quoted}.migrations (
            version integer PRIMARY KEY,
            name text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now()
          )`,
        );
        const { rows } = await connection.query<{ readonly version: number | null }>(
          `SELECT max(version) AS version FROM ${quoted}.migrations`,
        );
        const fromVersion = rows[0]?.version ?? 0;
        if (fromVersion > CHAT_STORE_SCHEMA_VERSION) {
          return refuse(
            'database-newer',
            `schema ${schema} is at version ${fromVersion}, newer than this package's ${CHAT_STORE_SCHEMA_VERSION}: upgrade @papercusp/chat-protocol-postgres`,
          );
        }
        const applied: { readonly version: number; readonly name: string }[] = [];
        for (const migration of CHAT_STORE_MIGRATIONS.slice(fromVersion)) {
          await connection.query('BEGIN');
          for (const statement of migration.statements(quoted)) await connection.query(statement);
          await connection.query(`INSERT INTO ${quoted}.migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
          await connection.query('COMMIT');
          applied.push({ version: migration.version, name: migration.name });
        }
        return { ok: true, schema, fromVersion, toVersion: CHAT_STORE_SCHEMA_VERSION, applied };
      })();
      await connection.query(advisoryUnlockSql(MIGRATION_LOCK_NAMESPACE, 1), [schema]);
      return result;
    });
  } catch (error) {
    return refuse('store-unavailable', `the migration could not finish: ${describeDatabaseError(error)}`);
  }
}
