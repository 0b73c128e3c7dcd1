import { describe, expectTypeOf, it } from 'vitest';
import {
  createTurnTextSplitter,
  parseAskBlock,
  parseAskTag,
  parseReportBlock,
  serializeAskTag,
  splitTurnText,
  type AskBlock,
  type ReportBlock,
  type TurnTextSegment,
} from './index.js';

describe('public types', () => {
  it('parsers return a normalized block or null', () => {
    expectTypeOf(parseAskBlock).returns.toEqualTypeOf<AskBlock | null>();
    expectTypeOf(parseReportBlock).returns.toEqualTypeOf<ReportBlock | null>();
    expectTypeOf(parseAskTag).returns.toEqualTypeOf<AskBlock | null>();
    expectTypeOf(serializeAskTag).parameter(0).toEqualTypeOf<AskBlock>();
  });

  it('segments discriminate on kind, and each block kind carries its own block', () => {
    expectTypeOf<TurnTextSegment['kind']>().toEqualTypeOf<'text' | 'report' | 'ask' | 'invalid' | 'pending'>();
    expectTypeOf<Extract<TurnTextSegment, { kind: 'ask' }>['block']>().toEqualTypeOf<AskBlock>();
    expectTypeOf<Extract<TurnTextSegment, { kind: 'report' }>['block']>().toEqualTypeOf<ReportBlock>();
    expectTypeOf<Extract<TurnTextSegment, { kind: 'invalid' }>['tag']>().toEqualTypeOf<'report' | 'ask'>();
    expectTypeOf(splitTurnText).returns.toEqualTypeOf<TurnTextSegment[]>();
    expectTypeOf(createTurnTextSplitter().push).returns.toEqualTypeOf<TurnTextSegment[]>();
  });

  it('an ask block has a question and optional options and refs', () => {
    expectTypeOf<AskBlock['question']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<AskBlock['options']>[number]['id']>().toEqualTypeOf<string>();
  });
});
