/**
 * Ordering v1 timestamps (zoned RFC 3339, `isZonedTimestamp`) as instants,
 * exactly to the nanosecond whatever their offsets. It owns no clock and no
 * deadline rule: card deadlines are in `card-rules.ts`, which builds on it.
 */
import { isZonedTimestamp } from './primitives.js';

/**
 * Orders two v1 timestamps (`isZonedTimestamp`) as instants, whatever their
 * offsets: negative when `left` is earlier, 0 when they name the same instant,
 * positive when later. Exact to the nanosecond (`Date.parse` keeps
 * milliseconds only, so the fraction is compared separately as digits).
 * Returns `NaN` when either is not a v1 timestamp; never throws.
 */
export function compareChatTimestamps(left: string, right: string): number {
  return isZonedTimestamp(left) && isZonedTimestamp(right) ? compareInstants(left, right) : Number.NaN;
}

/** {@link compareChatTimestamps} for two strings already known to be v1 timestamps. */
export function compareInstants(left: string, right: string): number {
  const [leftSeconds, leftFraction] = splitInstant(left);
  const [rightSeconds, rightFraction] = splitInstant(right);
  if (leftSeconds !== rightSeconds) return leftSeconds < rightSeconds ? -1 : 1;
  return leftFraction === rightFraction ? 0 : leftFraction < rightFraction ? -1 : 1;
}

/**
 * A v1 timestamp as its whole UTC milliseconds (fraction dropped) and its
 * fraction as nine digits, so instants compare exactly past the millisecond.
 */
export function splitInstant(timestamp: string): readonly [number, string] {
  // Validated shape: 19 characters of date-time, an optional fraction, the zone.
  const fractionEnd = timestamp[19] === '.' ? 20 + timestamp.slice(20).search(/[Z+-]/) : 19;
  const fraction = timestamp.slice(20, fractionEnd);
  return [Date.parse(timestamp.slice(0, 19) + timestamp.slice(fractionEnd)), fraction.padEnd(9, '0')];
}
