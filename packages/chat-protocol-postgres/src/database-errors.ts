/**
 * What a failed statement means for the store's contracts, read off the
 * error Postgres (or the driver) gave: `conflict` (a serialization failure or
 * a deadlock: nothing committed), `timeout` (a statement or lock timeout, or
 * a cancel: nothing committed by that statement), `constraint` (the database
 * refused the row), `connection` (the connection or server went away: a
 * `COMMIT` in flight may or may not have landed), `other`. A thrown value is
 * read defensively: a driver (or a host's wrapper) may throw anything, and
 * reading it must never throw in the catch that handles it.
 */

/** The kinds of failure the store tells apart. */
export type DatabaseFailureKind = 'conflict' | 'timeout' | 'constraint' | 'connection' | 'other';

/** The SQLSTATE of a Postgres error, or `undefined`. */
function sqlStateOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { readonly code?: unknown }).code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

// Node's socket errors, and node-postgres's words for a connection that ended.
const CONNECTION_ERROR_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'ENOTCONN', 'EHOSTUNREACH']);
const CONNECTION_ERROR_MESSAGE = /connection terminated|connection ended|client has encountered a connection error|not queryable|closed/i;

/** Which kind of failure `error` is; `other` for a value that cannot be read (a throwing getter, a Proxy). Never throws. */
export function classifyDatabaseError(error: unknown): DatabaseFailureKind {
  try {
    return classify(error);
  } catch {
    return 'other';
  }
}

/** `error`'s message for a refusal, or `fallback` when it is not an `Error` or cannot be read. Never throws. */
export function describeDatabaseError(error: unknown, fallback = 'the store could not answer'): string {
  try {
    if (!(error instanceof Error)) return fallback;
    const message: unknown = error.message;
    return typeof message === 'string' ? message : fallback;
  } catch {
    return fallback;
  }
}

function classify(error: unknown): DatabaseFailureKind {
  const state = sqlStateOf(error);
  if (state !== undefined) {
    if (state === '40001' || state === '40P01') return 'conflict';
    if (state === '57014' || state === '55P03' || state === '25P03') return 'timeout';
    if (state.startsWith('23')) return 'constraint';
    // 08: connection exceptions; 57P01–57P05: the server is shutting down or crashed; 53300: too many connections.
    if (state.startsWith('08') || state.startsWith('57P') || state === '53300') return 'connection';
    return 'other';
  }
  if (typeof error === 'object' && error !== null) {
    const code = (error as { readonly code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_ERROR_CODES.has(code)) return 'connection';
    const message = (error as { readonly message?: unknown }).message;
    if (typeof message === 'string' && CONNECTION_ERROR_MESSAGE.test(message)) return 'connection';
  }
  return 'other';
}
