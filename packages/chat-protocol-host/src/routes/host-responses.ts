/**
 * The host's JSON answers: one shape for every refusal (`{ code, message }`)
 * and the single not-found answer every route gives for a conversation, turn
 * or card that is missing or belongs to someone else, so the two can never be
 * told apart by status, body or headers.
 */
import { NOT_FOUND, type ChatHostRefusalCode, type HostRefusal } from '../use-cases/host-refusal.js';

/** The HTTP status of each host refusal. */
export const CHAT_HOST_REFUSAL_STATUS: Readonly<Record<ChatHostRefusalCode, number>> = Object.freeze({
  unauthenticated: 401,
  'invalid-request-target': 400,
  'method-not-allowed': 405,
  'request-timeout': 408,
  'not-found': 404,
  'invalid-id': 400,
  'unsupported-media-type': 415,
  'body-too-large': 413,
  'invalid-json': 400,
  'invalid-body': 400,
  'missing-idempotency-key': 400,
  'idempotency-key-mismatch': 400,
  'turn-in-flight': 409,
  'turn-already-processed': 409,
  'turn-interrupted': 410,
  'turn-id-reused': 409,
  'turn-finished': 409,
  'card-refused': 409,
  'already-closed': 409,
  'too-many-streams': 429,
  'unsupported-format': 400,
  'store-unavailable': 503,
  draining: 503,
  'internal-error': 500,
  'state-too-large': 422,
  'state-unfoldable': 500,
});

/**
 * A JSON response with `no-store` caching (every host answer is per caller)
 * and its `content-length`, so a client has the whole answer as soon as its
 * bytes arrive, even while the connection lingers after an early refusal.
 */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  return new Response(bytes, {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'content-length': String(bytes.byteLength),
      ...headers,
    },
  });
}

// The headers a refusal carries: how to authenticate, or when to come back (a draining host: to another process).
const REFUSAL_HEADERS: Partial<Record<ChatHostRefusalCode, Record<string, string>>> = {
  unauthenticated: { 'www-authenticate': 'Bearer' },
  draining: { 'retry-after': '1' },
};

/** A refusal with its fixed status (and headers: `WWW-Authenticate` for a 401, `Retry-After` while draining); `extra` adds fields such as `turnId`. */
export function refusalResponse(code: ChatHostRefusalCode, message: string, extra: Record<string, unknown> = {}): Response {
  const headers = REFUSAL_HEADERS[code] ?? {};
  return jsonResponse(CHAT_HOST_REFUSAL_STATUS[code], { code, message, ...extra }, headers);
}

/** `405 method-not-allowed` with the `Allow` header (RFC 9110 §15.5.6): the methods the request's path serves, as `allow` lists them. */
export function methodNotAllowedResponse(allow: string): Response {
  const code = 'method-not-allowed';
  const message = allow === '' ? 'this path allows no method' : `this path allows ${allow}`;
  return jsonResponse(CHAT_HOST_REFUSAL_STATUS[code], { code, message }, { allow });
}

/** A use case's refusal as its answer: the code's status, `{ code, message, ...details }`. */
export function hostRefusalResponse(refusal: HostRefusal): Response {
  return refusalResponse(refusal.code, refusal.message, refusal.details);
}

/** The one answer for anything missing or not the caller's: identical in both cases. */
export function notFoundResponse(): Response {
  return hostRefusalResponse(NOT_FOUND);
}
