import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timestampArb } from '../../../../test-support/v1-arbitraries.js';
import { compareChatTimestamps } from '../index.js';
import { runs } from '../../../../test-support/property-runs.js';

describe('compareChatTimestamps orders v1 timestamps as instants', () => {
  it.each([
    ['the same instant in two offsets', '2026-11-30T09:00:00Z', '2026-11-30T10:00:00+01:00', 0],
    ['trailing zero digits', '2026-11-30T09:00:00.500Z', '2026-11-30T09:00:00.5Z', 0],
    ['one nanosecond later', '2026-11-30T09:00:00.000000001Z', '2026-11-30T09:00:00Z', 1],
    ['one millisecond earlier', '2026-11-30T08:59:59.999Z', '2026-11-30T09:00:00Z', -1],
    ['across midnight and offsets', '2026-11-30T23:30:00-01:00', '2026-12-01T00:15:00Z', 1],
    ['years before 100', '0042-01-01T00:00:00Z', '0043-01-01T00:00:00Z', -1],
  ])('%s', (_, left, right, sign) => {
    expect(Math.sign(compareChatTimestamps(left, right))).toBe(sign);
    expect(Math.sign(compareChatTimestamps(right, left))).toBe(0 - sign);
  });

  it('is NaN when either side is not a v1 timestamp', () => {
    expect(compareChatTimestamps('2026-11-30T09:00:00', '2026-11-30T09:00:00Z')).toBeNaN();
    expect(compareChatTimestamps('2026-11-30T09:00:00Z', 'tomorrow')).toBeNaN();
  });

  it('agrees with Date.parse wherever milliseconds tell the instants apart', () => {
    fc.assert(
      fc.property(timestampArb, timestampArb, (left, right) => {
        const difference = Date.parse(left) - Date.parse(right);
        if (difference !== 0) expect(Math.sign(compareChatTimestamps(left, right))).toBe(Math.sign(difference));
      }),
      { numRuns: runs(2_000) },
    );
  });
});
