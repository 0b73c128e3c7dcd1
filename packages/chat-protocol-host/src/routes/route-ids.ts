/**
 * Which route parameters the host accepts as ids: a stricter form than core's
 * v1 ids, because they arrive in URL paths. It refuses dots, slashes and
 * percent signs outright, so no traversal (`..`, `%2F`) or decoding trick
 * reaches a store; what an id names is the stores' to answer.
 */
import { isChatId } from '@papercusp/chat-protocol-core';

const ROUTE_ID_PATTERN = /^[A-Za-z0-9_-]{1,200}$/;

/** Whether a decoded route parameter is an id the host routes: letters, digits, `_` and `-`, 1 to 200 of them. */
export function isRouteId(value: string | undefined): value is string {
  return value !== undefined && ROUTE_ID_PATTERN.test(value) && isChatId(value);
}
