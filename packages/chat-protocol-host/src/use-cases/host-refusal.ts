/**
 * What a use case answers: a value, or a refusal made of a host refusal code,
 * a message and the fields its answer adds (a `turnId`, a `status`). Use cases
 * return these, never a `Response`, so the v1 routes and the peers' routes map
 * one result to HTTP the same way (`routes/host-responses.ts` owns the statuses).
 */

/** Refusal codes the host answers; `routes/host-responses.ts` gives each its fixed status. */
export type ChatHostRefusalCode =
  | 'unauthenticated'
  | 'invalid-request-target'
  | 'method-not-allowed'
  | 'request-timeout'
  | 'not-found'
  | 'invalid-id'
  | 'unsupported-media-type'
  | 'body-too-large'
  | 'invalid-json'
  | 'invalid-body'
  | 'missing-idempotency-key'
  | 'idempotency-key-mismatch'
  | 'turn-in-flight'
  | 'turn-already-processed'
  | 'turn-interrupted'
  | 'turn-id-reused'
  | 'turn-finished'
  | 'card-refused'
  | 'already-closed'
  | 'too-many-streams'
  | 'unsupported-format'
  | 'store-unavailable'
  | 'draining'
  | 'internal-error'
  | 'state-too-large'
  | 'state-unfoldable';

/** A use case's refusal: the code, its message and the extra fields of its JSON answer. */
export interface HostRefusal {
  readonly ok: false;
  readonly code: ChatHostRefusalCode;
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/** A use case's result: its value, or the {@link HostRefusal} to answer. */
export type HostResult<Value> = { readonly ok: true; readonly value: Value } | HostRefusal;

/** A refusal; `details` are the extra fields of the answer (default none). */
export function hostRefusal(code: ChatHostRefusalCode, message: string, details: Readonly<Record<string, unknown>> = {}): HostRefusal {
  return { ok: false, code, message, details };
}

/** The one refusal for anything missing or not the caller's: identical in both cases. */
export const NOT_FOUND: HostRefusal = hostRefusal('not-found', 'no such conversation, turn or card');
