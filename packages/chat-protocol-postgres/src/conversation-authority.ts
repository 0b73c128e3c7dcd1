/**
 * The conversation-level grant lookup: may this caller see this conversation
 * at all? A host's routes ask it before reading or writing anything; the
 * admission and card lookups (`authorizeDispatch`, `interactionAuthority`)
 * still revalidate inside their own transactions.
 */
import type { ChatDatabase, ChatQueryable } from './chat-database.js';

/** What `authorizeConversation` is asked: may `caller` see `conversationId` now? */
export interface ConversationAuthorityRequest<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
}

/** The host's lookup, called with the database's query handle, so grants kept in the same database are read there. */
export type ConversationAuthorityLookup<Caller> = (
  query: ChatQueryable,
  request: ConversationAuthorityRequest<Caller>,
) => boolean | Promise<boolean>;

/**
 * Binds the host's lookup to `database`. Guarantees: only `true` grants; a
 * throw, any other answer, or no lookup at all is `false` (fail closed); it
 * never rejects.
 */
export function createConversationAuthority<Caller>(
  database: ChatDatabase,
  lookup: ConversationAuthorityLookup<Caller> | undefined,
): (request: ConversationAuthorityRequest<Caller>) => Promise<boolean> {
  return async (request) => {
    if (lookup === undefined) return false;
    try {
      return (await lookup(database, request)) === true;
    } catch {
      return false;
    }
  };
}
