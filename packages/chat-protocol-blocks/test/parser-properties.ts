/**
 * The properties every tolerant block parser keeps, run the same way for
 * reports and asks: never throws, results satisfy the schema, normalization is
 * a fixed point of plain JSON data, and valid blocks come back unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anythingArb } from './block-arbitraries.js';
import { runs } from '../../../test-support/property-runs.js';

const RUNS = runs(1_000);

/** True when every object and array in `value` has the plain prototype. */
export function everyObjectIsPlain(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) return Object.getPrototypeOf(value) === Array.prototype && value.every(everyObjectIsPlain);
  return Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(everyObjectIsPlain);
}

/** Declares the shared properties of one block parser. */
export function describeParserProperties<Block>(
  name: string,
  parser: {
    readonly parse: (value: unknown) => Block | null;
    readonly schema: { safeParse(value: unknown): { success: boolean } };
    readonly messyArb: fc.Arbitrary<unknown>;
    readonly validArb: fc.Arbitrary<Block>;
  },
): void {
  const { parse, schema, messyArb, validArb } = parser;
  describe(`${name}: properties`, () => {
    it('never throws, on anything; a result always satisfies the schema', () => {
      fc.assert(
        fc.property(fc.oneof(anythingArb, messyArb), (value) => {
          const block = parse(value);
          if (block !== null) expect(schema.safeParse(block).success).toBe(true);
        }),
        { numRuns: RUNS },
      );
    });

    it('normalization is a fixed point: parsing a result again gives an equal block, with no undefined key', () => {
      fc.assert(
        fc.property(fc.oneof(messyArb, anythingArb), (value) => {
          const block = parse(value);
          if (block === null) return;
          expect(parse(block)).toStrictEqual(block);
          expect(JSON.parse(JSON.stringify(block))).toStrictEqual(block);
          expect(everyObjectIsPlain(block)).toBe(true);
        }),
        { numRuns: RUNS },
      );
    });

    it('a valid block is returned as it is (the schema and the parser agree)', () => {
      fc.assert(
        fc.property(validArb, (block) => {
          expect(schema.safeParse(block).success).toBe(true);
          expect(parse(block)).toStrictEqual(block);
        }),
        { numRuns: runs(500) },
      );
    });
  });
}
