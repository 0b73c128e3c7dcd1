import type { PGlite } from '@electric-sql/pglite';
import type { OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionAuthority, InteractionStore } from '@papercusp/chat-protocol-interactions';
import type { ChatConversationStore, ChatEventLog, ConversationLogReader, TurnStore } from '@papercusp/chat-protocol-recovery';
import type pg from 'pg';
import { expectTypeOf } from 'vitest';
import {
  createPostgresChatStore,
  migrateChatStore,
  pgDatabase,
  pgliteDatabase,
  type ChatDatabase,
  type ChatQueryable,
  type ConversationAuthorityRequest,
  type MigrateChatStoreResult,
} from './index.js';

declare const pool: pg.Pool;
declare const client: pg.Client;
declare const embedded: PGlite;
declare const database: ChatDatabase;

// Both drivers, as their own packages type them, fit the structural types.
expectTypeOf(pgDatabase(pool)).toEqualTypeOf<ChatDatabase>();
expectTypeOf(pgDatabase(client)).toEqualTypeOf<ChatDatabase>();
expectTypeOf(pgliteDatabase(embedded)).toEqualTypeOf<ChatDatabase>();
expectTypeOf(migrateChatStore(database)).resolves.toEqualTypeOf<MigrateChatStoreResult>();

interface Receipt {
  readonly receipt: string;
}
type Caller = { readonly sessionId: string };

// The host's lookups get the transaction's own handle and the typed caller.
const store = createPostgresChatStore<Receipt, Caller>(database, {
  authorizeDispatch: (query, request) => {
    expectTypeOf(query).toEqualTypeOf<ChatQueryable>();
    expectTypeOf(request.caller).toEqualTypeOf<Caller>();
    return request.effectId.length > 0;
  },
  interactionAuthority: async (query, request): Promise<InteractionAuthority | null> => {
    expectTypeOf(request.correlationId).toEqualTypeOf<string>();
    return (await query.query<{ principal_id: string }>('SELECT 1')).rows.length > 0 ? null : null;
  },
});
expectTypeOf(store.turnStore).toEqualTypeOf<Required<TurnStore<Receipt, Caller>>>();
expectTypeOf(store.interactionStore).toEqualTypeOf<InteractionStore<OpenCardSnapshotV1, Caller>>();
expectTypeOf(store.eventLog).toEqualTypeOf<ChatEventLog>();
expectTypeOf(store.authorizeConversation).parameter(0).toEqualTypeOf<ConversationAuthorityRequest<Caller>>();
expectTypeOf(store.authorizeConversation).returns.toEqualTypeOf<Promise<boolean>>();
// Issue 25: the conversation reads are recovery's one declaration, not a copy of it.
expectTypeOf(store).toMatchTypeOf<ChatConversationStore<Caller>>();
expectTypeOf(store.readConversationLog).toEqualTypeOf<ConversationLogReader>();

// @ts-expect-error: a lookup answers a boolean, not a grant row
createPostgresChatStore<Receipt, Caller>(database, { authorizeDispatch: () => ({ granted: true }) });
