import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NASTY_PIECES, validAskArb, validReportArb } from '../test/block-arbitraries.js';
import { serializeAskTag, serializeReportTag } from './serialize.js';
import { parseAskTag, parseReportTag } from './tag-readers.js';
import { runs } from '../../../test-support/property-runs.js';

const RUNS = runs(500);

describe('round trip: the tag readers read back exactly what the serializers wrote (DESIGN §4)', () => {
  it('parseAskTag(serializeAskTag(b)) deep-equals b for every valid ask block', () => {
    fc.assert(
      fc.property(validAskArb, (block) => {
        expect(parseAskTag(serializeAskTag(block))).toStrictEqual(block);
      }),
      { numRuns: RUNS },
    );
  });

  it('parseReportTag(serializeReportTag(b)) deep-equals b for every valid report block', () => {
    fc.assert(
      fc.property(validReportArb, (block) => {
        expect(parseReportTag(serializeReportTag(block))).toStrictEqual(block);
      }),
      { numRuns: RUNS },
    );
  });

  it('a question holding every hostile piece at once round-trips', () => {
    const question = `Q ${NASTY_PIECES.join(' ')} end`;
    const block = { question, options: [{ id: '</ask>', label: '<ask>&amp;' }], refs: ['a"b', '😀\nz'] };
    expect(parseAskTag(serializeAskTag(block))).toStrictEqual(block);
  });

  it('round-trips inside prose, after an earlier tag of the other kind', () => {
    fc.assert(
      fc.property(validAskArb, validReportArb, fc.constantFrom('', 'Here you go:\n', 'a < b && c > d '), (ask, report, prose) => {
        const text = `${prose}${serializeReportTag(report)}\n${prose}${serializeAskTag(ask)} done`;
        expect(parseReportTag(text)).toStrictEqual(report);
        expect(parseAskTag(text)).toStrictEqual(ask);
      }),
      { numRuns: runs(500) },
    );
  });
});
