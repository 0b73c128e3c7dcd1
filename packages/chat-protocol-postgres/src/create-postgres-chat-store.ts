/**
 * `createPostgresChatStore`: the three durable components a host wires, over
 * one `ChatDatabase` and one schema: recovery's `TurnStore`, interactions'
 * `InteractionStore` and the `ChatEventLog` (DESIGN §9.1), plus the host's
 * conversation grant bound to the same database. It creates no
 * tables (`migrateChatStore` does) and opens no connection until used.
 */
import type { OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionStore } from '@papercusp/chat-protocol-interactions';
import type { ChatConversationStore, ChatEventLog, TurnStore } from '@papercusp/chat-protocol-recovery';
import type { ChatDatabase } from './chat-database.js';
import { createConversationAuthority, type ConversationAuthorityLookup } from './conversation-authority.js';
import { FENCE_LIMIT_KEYS } from './fence-limits.js';
import { DEFAULT_CHAT_STORE_SCHEMA } from './migrate-chat-store.js';
import { createPostgresEventLog, type PostgresEventLogOptions } from './postgres-event-log.js';
import { createPostgresInteractionStore, type PostgresInteractionStoreOptions } from './postgres-interaction-store.js';
import { createPostgresTurnStore, type PostgresTurnStoreOptions } from './postgres-turn-store.js';
import { createConversationLogReader } from './read-conversation-log.js';
import { optionalLookup, readStoreOptions } from './store-options.js';

/** Options of {@link createPostgresChatStore}: the schema and the host's authority lookups. */
export interface PostgresChatStoreOptions<Caller>
  extends PostgresTurnStoreOptions<Caller>, PostgresInteractionStoreOptions<Caller>, PostgresEventLogOptions {
  /**
   * The host's conversation grant: may the caller see the conversation at
   * all? Called with the database's query handle. Only `true` grants; a throw
   * or any other answer is no, and without it nothing is granted (fail closed).
   * It should read the same grants as `authorizeDispatch` and `interactionAuthority`.
   */
  readonly authorizeConversation?: ConversationAuthorityLookup<Caller>;
}

/**
 * The store's components, all over the same database and schema; with
 * `authorizeConversation` and `readConversationLog` it is recovery's
 * `ChatConversationStore` (judged by the testkit's `describeConversationStoreConformance`).
 */
export interface PostgresChatStore<Result, Caller> extends ChatConversationStore<Caller> {
  /** Recovery's `TurnStore`, with `admitDispatch`. */
  readonly turnStore: Required<TurnStore<Result, Caller>>;
  /** Interactions' `InteractionStore` for v1 cards. */
  readonly interactionStore: InteractionStore<OpenCardSnapshotV1, Caller>;
  /** The durable per-turn event log. */
  readonly eventLog: ChatEventLog;
  /** `options.authorizeConversation` on this database, failing closed; never rejects. */
  readonly authorizeConversation: ChatConversationStore<Caller>['authorizeConversation'];
  /**
   * Every turn of one conversation in the event log, in the order the turns
   * started, with their retained frames: one statement (one snapshot),
   * bounded by `maxTurns` and `maxFrames` (a typed refusal past either, with
   * its `limit`). A pruned turn is listed with no frames. Authorizes nothing;
   * never rejects. Needs migration 2.
   */
  readonly readConversationLog: ChatConversationStore<Caller>['readConversationLog'];
}

/**
 * The store's components over `database`, in `options.schema` (default
 * `chat_protocol`, which `migrateChatStore` must have created). Each option
 * is read once, so every component gets the same values. Throws `TypeError`
 * for options that cannot be read (a throwing getter, a Proxy), a schema or
 * channel that is not a lower-case identifier, or a lookup that is not a
 * function. It reads nothing of `database` until a component is used.
 */
export function createPostgresChatStore<Result = unknown, Caller = unknown>(
  database: ChatDatabase,
  options?: PostgresChatStoreOptions<Caller>,
): PostgresChatStore<Result, Caller> {
  const factory = 'createPostgresChatStore';
  const read: PostgresChatStoreOptions<Caller> = readStoreOptions(factory, options, [
    'schema',
    'channel',
    'authorizeDispatch',
    'interactionAuthority',
    'authorizeConversation',
    'pageFrames',
    'pruneBatchTurns',
    'batchFrames',
    ...FENCE_LIMIT_KEYS,
  ]);
  return {
    turnStore: createPostgresTurnStore<Result, Caller>(database, read),
    interactionStore: createPostgresInteractionStore<Caller>(database, read),
    eventLog: createPostgresEventLog(database, read),
    authorizeConversation: createConversationAuthority(
      database,
      optionalLookup(factory, 'authorizeConversation', read.authorizeConversation),
    ),
    readConversationLog: createConversationLogReader(database, read.schema ?? DEFAULT_CHAT_STORE_SCHEMA),
  };
}
