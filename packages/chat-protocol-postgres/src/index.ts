/**
 * @papercusp/chat-protocol-postgres: the durable chat store on Postgres or
 * PGlite (DESIGN §9). Public exports, by name.
 */
export type { ChatDatabase, ChatDatabaseUnlisten, ChatQueryable, ChatQueryOptions, ChatQueryResult } from './chat-database.js';
export type { ConversationAuthorityLookup } from './conversation-authority.js';
export type { ConversationAuthorityRequest } from '@papercusp/chat-protocol-recovery';
export { createPostgresChatStore, type PostgresChatStore, type PostgresChatStoreOptions } from './create-postgres-chat-store.js';
export { classifyDatabaseError, type DatabaseFailureKind } from './database-errors.js';
export type { FenceLimitOptions } from './fence-limits.js';
export { isChatIdentifier } from './identifiers.js';
export {
  DEFAULT_CHAT_STORE_SCHEMA,
  migrateChatStore,
  type MigrateChatStoreOptions,
  type MigrateChatStoreRefusalCode,
  type MigrateChatStoreResult,
} from './migrate-chat-store.js';
export { CHAT_STORE_SCHEMA_VERSION } from './migrations.js';
export { pgDatabase, type PgClientLike, type PgPoolClientLike, type PgPoolLike, type PgQueryConfigLike } from './pg-database.js';
export { pgliteDatabase, type PgliteLike, type PgliteTransactionLike } from './pglite-database.js';
export { createPostgresEventLog, type PostgresEventLogOptions } from './postgres-event-log.js';
export {
  createPostgresInteractionStore,
  type InteractionAuthorityLookup,
  type InteractionAuthorityRequest,
  type PostgresInteractionStoreOptions,
} from './postgres-interaction-store.js';
export { createPostgresTurnStore, type DispatchAuthorityRequest, type PostgresTurnStoreOptions } from './postgres-turn-store.js';
// The conversation contract is recovery's (issue 25); its names stay here for the store's users.
export {
  DEFAULT_CONVERSATION_LOG_MAX_FRAMES,
  DEFAULT_CONVERSATION_LOG_MAX_TURNS,
  type ConversationLogTooLarge,
  type ConversationLogTurn,
  type ReadConversationLogRefusalCode,
  type ReadConversationLogRequest,
  type ReadConversationLogResult,
} from '@papercusp/chat-protocol-recovery';
export {
  readInteractionOutbox,
  type InteractionOutboxEntry,
  type ReadInteractionOutboxOptions,
  type ReadInteractionOutboxRefusalCode,
  type ReadInteractionOutboxResult,
} from './read-interaction-outbox.js';
