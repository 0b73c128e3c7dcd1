/**
 * Client turn identity: the id a client mints once when a person seals a turn
 * and sends on every attempt, in the `Idempotency-Key` header and the body, so
 * a resend after a dropped connection is recognized instead of run twice. The
 * only randomness in the protocol packages lives here, behind an injectable
 * source; nothing else allocates ids.
 */

/** The HTTP header a turn id travels in on every attempt. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** The request body field that carries the same turn id. */
export const TURN_ID_FIELD = 'turnId';

/** Fills `bytes` with random values, like `crypto.getRandomValues`. */
export type RandomSource = (bytes: Uint8Array) => unknown;

/** Options of {@link createTurnId}. */
export interface CreateTurnIdOptions {
  /** The random source; default `globalThis.crypto.getRandomValues`. Inject one for tests or runtimes without Web Crypto. */
  readonly getRandomValues?: RandomSource;
}

const TURN_ID_PATTERN = /^turn_[0-9a-f]{32}$/;
const TURN_ID_BYTES = 16;

function defaultRandomSource(): RandomSource | undefined {
  const crypto = (globalThis as { crypto?: { getRandomValues?: (bytes: Uint8Array) => Uint8Array } }).crypto;
  const getRandomValues = crypto?.getRandomValues;
  return typeof getRandomValues === 'function' ? (bytes) => getRandomValues.call(crypto, bytes) : undefined;
}

/**
 * Mints a turn id: `turn_` and 32 lowercase hex digits (128 random bits), a
 * valid v1 id. Call it once per sealed turn and keep it for every resend.
 * Throws `TypeError` when no random source is given and the runtime has no
 * `crypto.getRandomValues`, when `getRandomValues` is not a function or throws,
 * and when the options cannot be read; never anything else.
 */
export function createTurnId(options: CreateTurnIdOptions = {}): string {
  let source: unknown;
  try {
    source = options.getRandomValues ?? defaultRandomSource();
  } catch {
    throw new TypeError('createTurnId: the options cannot be read');
  }
  if (source === undefined) throw new TypeError('createTurnId: no random source (pass getRandomValues)');
  if (typeof source !== 'function') throw new TypeError('createTurnId: getRandomValues must be a function');
  const bytes = new Uint8Array(TURN_ID_BYTES);
  try {
    (source as RandomSource)(bytes);
  } catch {
    throw new TypeError('createTurnId: the random source failed');
  }
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return `turn_${hex}`;
}

/** Whether `value` has the form {@link createTurnId} mints (checks the form, not who minted it). */
export function isTurnId(value: unknown): value is string {
  return typeof value === 'string' && TURN_ID_PATTERN.test(value);
}
