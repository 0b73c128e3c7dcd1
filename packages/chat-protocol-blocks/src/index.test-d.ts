import { describe, expectTypeOf, it } from 'vitest';
import {
  createSayProjector,
  createTurnTextSplitter,
  parseAskBlock,
  parseAskTag,
  parseReportBlock,
  projectSayText,
  serializeAskTag,
  splitTurnText,
  type AskBlock,
  type ReportBlock,
  type SayProjectionOptions,
  type SayProjector,
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
    // Without a report reader, segments carry core's ReportBlock.
    expectTypeOf(splitTurnText('')).toEqualTypeOf<TurnTextSegment[]>();
    expectTypeOf(createTurnTextSplitter().push).returns.toEqualTypeOf<TurnTextSegment[]>();
  });

  it('an ask block has a question and optional options and refs', () => {
    expectTypeOf<AskBlock['question']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<AskBlock['options']>[number]['id']>().toEqualTypeOf<string>();
  });

  it('an optional key is absent, never undefined: the block types say so under exactOptionalPropertyTypes', () => {
    expectTypeOf<AskBlock>().toEqualTypeOf<{
      question: string;
      options?: { id: string; label: string; description?: string }[];
      refs?: string[];
    }>();
    expectTypeOf<ReportBlock>().toEqualTypeOf<{
      title?: string;
      plans: {
        slug?: string;
        title: string;
        status?: string;
        summary?: string;
        items?: { id?: string; text: string; status?: string; ref?: string }[];
      }[];
      extensions?: Readonly<Record<string, unknown>>;
    }>();
    // toEqualTypeOf does not tell `key?: T` from `key?: T | undefined`; assignment does.
    expectTypeOf<{ question: string; refs: undefined }>().not.toExtend<AskBlock>();
    expectTypeOf<{ question: string; options: [{ id: string; label: string; description: undefined }] }>().not.toExtend<AskBlock>();
    expectTypeOf<{ title: undefined; plans: [{ title: string }] }>().not.toExtend<ReportBlock>();
    expectTypeOf<{ plans: [{ title: string; items: [{ text: string; ref: undefined }] }] }>().not.toExtend<ReportBlock>();
  });

  it('the say projection takes optional options and returns text (DESIGN §4)', () => {
    expectTypeOf(projectSayText).parameters.toEqualTypeOf<[text: string, options?: SayProjectionOptions]>();
    expectTypeOf(projectSayText).returns.toEqualTypeOf<string>();
    expectTypeOf(createSayProjector).returns.toEqualTypeOf<SayProjector>();
    expectTypeOf(createSayProjector().push).returns.toEqualTypeOf<string>();
    expectTypeOf<SayProjectionOptions['allowPlainText']>().toEqualTypeOf<boolean | undefined>();
  });
});
