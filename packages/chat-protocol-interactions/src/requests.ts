/**
 * The requests of `InteractionResolver`'s operations, the keys each is read
 * with (the resolver reads a request once, into a copy, with core's
 * `readFields`, so a getter cannot answer twice) and the `invalid-request`
 * refusals: a request that cannot be read or names no card by v1 ids is
 * refused, never an exception. What an operation does with it is the resolver's.
 */
import { isChatId, type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { InteractionSchemaRef, InteractionScope } from './records.js';
import type { InteractionStoreRequest } from './store.js';

/** Which card, who asks, and when (`at`, else the injected clock). */
export interface InteractionRequest<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
  readonly correlationId: string;
  readonly at?: string;
}

/** Opening a card: the backend binds its schema, expiry and scope. */
export interface OpenInteractionRequest<Caller> {
  readonly caller: Caller;
  readonly card: unknown;
  readonly schema: InteractionSchemaRef;
  readonly expiresAt: string;
  readonly scope: InteractionScope;
  readonly at?: string;
}

/** Declining a card, with the short reason the person gave when there is one (bounded as core bounds it). */
export interface DeclineInteractionRequest<Caller> extends InteractionRequest<Caller> {
  readonly reason?: string;
}

/** Submitting a value for a card. */
export interface SubmitInteractionRequest<Caller> extends InteractionRequest<Caller> {
  readonly value: unknown;
}

/** A client's `CardResponse` as it arrived, for `InteractionResolver.respond`. */
export interface RespondInteractionRequest<Caller> {
  readonly caller: Caller;
  readonly conversationId: string;
  readonly response: unknown;
  readonly at?: string;
}

/** The fields every request naming a card is read with. */
export const INTERACTION_REQUEST_KEYS = ['caller', 'conversationId', 'correlationId', 'at'] as const;

/** The store key of a request naming a card, or what is wrong with its ids. */
export function keyOf<Caller>(request: InteractionRequest<Caller>): InteractionStoreRequest<Caller> | string {
  if (!isChatId(request.conversationId)) return 'conversationId: expected an id';
  if (!isChatId(request.correlationId)) return 'correlationId: expected an id';
  return { conversationId: request.conversationId, correlationId: request.correlationId, caller: request.caller };
}

/** A request that is not an object or whose fields cannot be read. */
export function unreadableRequest(): ChatRefusal<'invalid-request'> {
  return invalidRequest('expected a request object whose fields can be read');
}

/** A request field that is not what the operation takes. */
export function invalidRequest(message: string): ChatRefusal<'invalid-request'> {
  return refuse('invalid-request', message);
}
