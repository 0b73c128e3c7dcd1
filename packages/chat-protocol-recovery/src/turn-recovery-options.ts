/**
 * The tuning of one `TurnRecovery` instance and how it is read: once, at
 * construction, with defaults filled in and bounds applied. A host
 * misconfigured at boot gets a `TypeError` here (the only throw of
 * `TurnRecovery`); nothing read here is an input to refuse later.
 */
import { readFields } from '@papercusp/chat-protocol-core/internal';
import { DEFAULT_ADMISSION_LEASE_MS } from './admission-lease.js';
import { DEFAULT_RUN_LEASE_MS } from './run-lease.js';

/** The default of `TurnRecoveryOptions.maxEffectsPerTurn`. */
export const DEFAULT_MAX_EFFECTS_PER_TURN = 256;

/** Tuning for one `TurnRecovery` instance. */
export interface TurnRecoveryOptions {
  /** Compare-and-swap attempts per write before `checkpoint-failed` (conflicts come from other effects). Default 1,000. */
  readonly maxWriteAttempts?: number;
  /** Turn snapshots kept as write expectations; 0 turns the cache off. Default 256. */
  readonly cacheSize?: number;
  /**
   * How long an admitted effect without a result counts as in flight, in
   * milliseconds (a positive safe integer; default `DEFAULT_ADMISSION_LEASE_MS`,
   * 10 minutes). Past it the worker is presumed gone: a claim marks the effect
   * `needs-reconciliation` (`admission-expired`), never relaunches it (§6.11).
   * Set it above the longest execution of any effect, with margin; every worker
   * sharing a store should use the same lease.
   */
  readonly admissionLeaseMs?: number;
  /**
   * How long a turn's owning run holds it without renewing, in milliseconds (a
   * positive safe integer; default `DEFAULT_RUN_LEASE_MS`, 30 seconds): `startTurn`
   * and `renewRunLease` set the deadline this far past the clock's instant, and
   * past it `interruptTurn` may end the turn (§6 rule 12). Renew well within it;
   * every worker sharing a store should use the same lease.
   */
  readonly runLeaseMs?: number;
  /**
   * The most effects `declareEffect` lets a turn hold (a positive safe integer; default
   * {@link DEFAULT_MAX_EFFECTS_PER_TURN}): past it a declaration is refused `too-many-effects`, so a model looping
   * on tool calls cannot grow the turn record (rewritten whole by every compare-and-swap) without end. `startTurn`
   * is not bounded by it: its effects are the host's own list.
   */
  readonly maxEffectsPerTurn?: number;
  /**
   * The clock: the current instant as an RFC 3339 timestamp with an offset.
   * It dates admissions and run leases and judges both; nothing else reads time.
   * Default: the system clock (`new Date().toISOString()`). A clock that
   * throws or answers anything else makes the call that needed it refuse
   * `clock-unavailable`.
   */
  readonly clock?: () => string;
}

/** The options as an instance holds them: every default filled in, the attempt bound at least 1, the cache size at least 0. */
export interface ResolvedTurnRecoveryOptions {
  readonly maxWriteAttempts: number;
  readonly cacheSize: number;
  readonly admissionLeaseMs: number;
  readonly runLeaseMs: number;
  readonly maxEffectsPerTurn: number;
  readonly clock: () => string;
}

/** The system clock, the default of `TurnRecoveryOptions.clock`. */
const systemClock = (): string => new Date().toISOString();

// An option's value for a TypeError's message: String() throws on a symbol or a throwing toPrimitive.
function describeOption(value: unknown): string {
  return typeof value === 'number' ? String(value) : typeof value;
}

/**
 * Reads the options once. Throws a `TypeError` when they cannot be read (a
 * throwing getter, a Proxy), `admissionLeaseMs`, `runLeaseMs` or `maxEffectsPerTurn` is not a positive safe
 * integer, `clock` is not a function, or `maxWriteAttempts` or `cacheSize` is
 * given but is not a number.
 */
export function readTurnRecoveryOptions(options: TurnRecoveryOptions): ResolvedTurnRecoveryOptions {
  const read = readFields(options, ['maxWriteAttempts', 'cacheSize', 'admissionLeaseMs', 'runLeaseMs', 'maxEffectsPerTurn', 'clock']);
  if (read === undefined) {
    throw new TypeError(
      'TurnRecovery: the options cannot be read; expected { maxWriteAttempts?, cacheSize?, admissionLeaseMs?, runLeaseMs?, maxEffectsPerTurn?, clock? }',
    );
  }
  const {
    admissionLeaseMs = DEFAULT_ADMISSION_LEASE_MS,
    runLeaseMs = DEFAULT_RUN_LEASE_MS,
    maxEffectsPerTurn = DEFAULT_MAX_EFFECTS_PER_TURN,
    clock = systemClock,
    maxWriteAttempts = 1000,
    cacheSize = 256,
  } = read;
  if (!Number.isSafeInteger(admissionLeaseMs) || admissionLeaseMs < 1) {
    throw new TypeError(
      `TurnRecovery: admissionLeaseMs must be a positive safe integer of milliseconds, got ${describeOption(admissionLeaseMs)}`,
    );
  }
  if (!Number.isSafeInteger(runLeaseMs) || runLeaseMs < 1) {
    throw new TypeError(`TurnRecovery: runLeaseMs must be a positive safe integer of milliseconds, got ${describeOption(runLeaseMs)}`);
  }
  if (!Number.isSafeInteger(maxEffectsPerTurn) || maxEffectsPerTurn < 1) {
    throw new TypeError(`TurnRecovery: maxEffectsPerTurn must be a positive safe integer, got ${describeOption(maxEffectsPerTurn)}`);
  }
  if (typeof clock !== 'function') throw new TypeError('TurnRecovery: clock must be a function returning an RFC 3339 timestamp');
  // NaN would never reach the attempt bound, so the write loop could not end.
  if (typeof maxWriteAttempts !== 'number' || Number.isNaN(maxWriteAttempts))
    throw new TypeError('TurnRecovery: maxWriteAttempts must be a number');
  if (typeof cacheSize !== 'number' || Number.isNaN(cacheSize)) throw new TypeError('TurnRecovery: cacheSize must be a number');
  return {
    maxWriteAttempts: Math.max(1, Math.floor(maxWriteAttempts)),
    cacheSize: Math.max(0, Math.floor(cacheSize)),
    admissionLeaseMs,
    runLeaseMs,
    maxEffectsPerTurn,
    clock,
  };
}
