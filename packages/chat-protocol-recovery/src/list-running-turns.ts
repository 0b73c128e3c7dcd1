/**
 * The request of `TurnStore.listRunningTurns` (§6 rule 12, §11.2) as a store
 * reads it: once, each field checked, so every store refuses the same
 * requests. The listing itself, and its order, belong to the store.
 */
import { isChatId } from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import type { ListRunningTurnsRequest } from './adapter.js';

/**
 * A `listRunningTurns` request read once: `limit` a positive safe integer,
 * `afterTurnId` absent or a v1 id (`isChatId`: every stored turn id is one).
 * `undefined` for a request that cannot be read (not an object, a throwing
 * getter, a Proxy) or holds anything else, which the store rejects with a
 * `TypeError`: an empty page would tell the sweeper that nothing runs.
 */
export function readListRunningTurnsRequest(given: ListRunningTurnsRequest): ListRunningTurnsRequest | undefined {
  const request = readFields(given, ['afterTurnId', 'limit']);
  if (request === undefined || !Number.isSafeInteger(request.limit) || request.limit < 1) return undefined;
  const { afterTurnId, limit } = request;
  if (afterTurnId === undefined) return { limit };
  return isChatId(afterTurnId) ? { afterTurnId, limit } : undefined;
}
