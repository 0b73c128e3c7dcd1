/**
 * The time limits of a fence (DESIGN §9.2: fences cannot hang): the
 * `lock_timeout` and `statement_timeout` every fenced transaction sets for
 * itself (`set_config(…, true)`, so they end with it and never leak into a
 * pooled connection), and the bound on a host's authority lookup inside a
 * fence, past which the lookup counts as a denial. It owns no fence SQL.
 */
import type { ChatQueryable } from './chat-database.js';
import { countOption } from './store-options.js';

/** The limit options the fenced stores take (each a whole number of milliseconds, 1 to 2,147,483,647). */
export interface FenceLimitOptions {
  /** How long a fenced write waits for a lock (its turn's fence, its card's row) before it fails (default 5,000 ms). */
  readonly lockTimeoutMs?: number;
  /** How long any statement of a fenced write may run before it fails (default 15,000 ms). */
  readonly statementTimeoutMs?: number;
  /** How long the host's authority lookup inside a fence may take before it counts as a denial (default 5,000 ms). */
  readonly authorityTimeoutMs?: number;
}

/** The limits, validated. */
export type FenceLimits = Required<FenceLimitOptions>;

/** The option names, for `readStoreOptions`. */
export const FENCE_LIMIT_KEYS = ['lockTimeoutMs', 'statementTimeoutMs', 'authorityTimeoutMs'] as const;

const DEFAULT_FENCE_LIMITS: FenceLimits = { lockTimeoutMs: 5_000, statementTimeoutMs: 15_000, authorityTimeoutMs: 5_000 };

// Postgres keeps both timeouts as a 32-bit count of milliseconds, and so does setTimeout.
const MAXIMUM_MILLISECONDS = 2_147_483_647;

/** The limits of options already read once; a `TypeError` naming `factory` for a value out of range. */
export function readFenceLimits(factory: string, read: FenceLimitOptions): FenceLimits {
  const limit = (name: keyof FenceLimits): number =>
    countOption(factory, name, read[name], DEFAULT_FENCE_LIMITS[name], MAXIMUM_MILLISECONDS);
  return {
    lockTimeoutMs: limit('lockTimeoutMs'),
    statementTimeoutMs: limit('statementTimeoutMs'),
    authorityTimeoutMs: limit('authorityTimeoutMs'),
  };
}

// The limits as set_config calls on the bound text parameters `$first` (lock_timeout) and the next (statement_timeout).
const limitsSql = (first: number): string =>
  `set_config('lock_timeout', $${first}, true), set_config('statement_timeout', $${first + 1}, true)`;
const limitValues = (limits: FenceLimits): string[] => [`${limits.lockTimeoutMs}ms`, `${limits.statementTimeoutMs}ms`];

/** Sets the limits for the rest of the open transaction on `connection`: a wait past them fails with SQLSTATE 55P03 or 57014. */
export async function limitTransaction(connection: ChatQueryable, limits: FenceLimits): Promise<void> {
  await connection.query(`SELECT ${limitsSql(1)}`, limitValues(limits));
}

/**
 * {@link limitTransaction} and a lock in one statement: `lock` is an advisory lock call on the bound parameter
 * `$1` (`advisoryLockCall`), given `key`. The limits are set before the lock's wait begins (the select list is
 * evaluated in order), so the wait is bounded by them, and a fence costs no round trip for its limits.
 */
export async function limitAndLock(connection: ChatQueryable, limits: FenceLimits, lock: string, key: string): Promise<void> {
  await connection.query(`SELECT ${limitsSql(2)}, ${lock}`, [key, ...limitValues(limits)]);
}

/** What a bounded lookup answered, or that it did not answer in time. */
export type BoundedAnswer<Value> = { readonly answered: true; readonly value: Value } | { readonly answered: false };

/**
 * Calls `lookup` with a handle on `connection` and waits for it at most
 * `timeoutMs`: its answer, `{ answered: false }` when the time ran out, or
 * its rejection when it threw or rejected in time. Once it is given up on,
 * the handle refuses every further statement, so a lookup still running
 * never touches the connection after the fence has moved on (a statement it
 * already sent finishes first, within `statement_timeout`).
 */
export async function boundedLookup<Value>(
  connection: ChatQueryable,
  timeoutMs: number,
  lookup: (query: ChatQueryable) => Value | Promise<Value>,
): Promise<BoundedAnswer<Value>> {
  let abandoned = false;
  const handle: ChatQueryable = {
    query: (text, values) =>
      abandoned ? Promise.reject(new Error('the authority lookup ran out of time')) : connection.query(text, values),
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<BoundedAnswer<Value>>((resolve) => {
    timer = setTimeout(() => resolve({ answered: false }), timeoutMs);
  });
  const answered = (async (): Promise<BoundedAnswer<Value>> => ({ answered: true, value: await lookup(handle) }))();
  // A lookup that rejects after it was given up on is nobody's failure: never an unhandled rejection.
  answered.catch(() => undefined);
  try {
    return await Promise.race([answered, expired]);
  } finally {
    abandoned = true;
    clearTimeout(timer);
  }
}
