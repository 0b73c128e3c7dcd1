/**
 * The conversation-level grant: recovery's `ConversationAuthority` bound to
 * the database, over the host's lookup. A host's routes ask it before reading
 * or writing anything; the admission and card lookups (`authorizeDispatch`,
 * `interactionAuthority`) still revalidate inside their own transactions.
 */
import { isChatId } from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import type { ConversationAuthority, ConversationAuthorityRequest } from '@papercusp/chat-protocol-recovery';
import type { ChatDatabase, ChatQueryable } from './chat-database.js';

/** The host's lookup, called with the database's query handle, so grants kept in the same database are read there. */
export type ConversationAuthorityLookup<Caller> = (
  query: ChatQueryable,
  request: ConversationAuthorityRequest<Caller>,
) => boolean | Promise<boolean>;

/**
 * Binds the host's lookup to `database`. Guarantees: recovery's
 * `ConversationAuthority`: only `true` grants; a throw, any other answer, or
 * no lookup at all is `false` (fail closed). The request is read once and the
 * lookup gets a plain copy; a request it cannot read, or a conversation id
 * core refuses (which no grant can name, and the database may fail to bind),
 * is `false` without calling the lookup. It never rejects.
 */
export function createConversationAuthority<Caller>(
  database: ChatDatabase,
  lookup: ConversationAuthorityLookup<Caller> | undefined,
): ConversationAuthority<Caller> {
  return async (given) => {
    const request = readFields(given, ['caller', 'conversationId']);
    if (lookup === undefined || request === undefined || !isChatId(request.conversationId)) return false;
    try {
      return (await lookup(database, { caller: request.caller, conversationId: request.conversationId })) === true;
    } catch {
      return false;
    }
  };
}
