import { ReportBlockSchema } from '@papercusp/chat-protocol-core';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { parseReportBlock } from './report.js';
import { createReportBlockReader } from './report-reader.js';
import { createTurnTextSplitter, splitTurnText } from './split.js';
import { runs } from '../../../test-support/property-runs.js';

// DESIGN §4, last-but-one bullet, and issue 13: "A goal-only report (a product
// reference with empty `plans`) is dropped to `null`". The reference and the
// flat report shape are Papercusp's (Papercusp/chat-protocol src/index.ts,
// `ReportBlock.goalReport`, and src/goal-owner-report.ts, `GoalOwnerReportRefV1`).
const goalReport = { schemaVersion: 1, goalId: 'goal-7', reportId: 'report-3', bodySha256: 'ab'.repeat(32) };
const GoalReportRefSchema = z.strictObject({
  schemaVersion: z.literal(1),
  goalId: z.string().check(z.minLength(1)),
  reportId: z.string().check(z.minLength(1)),
  bodySha256: z.string().check(z.regex(/^[a-f0-9]{64}$/)),
});
const reader = createReportBlockReader({ extensions: { goalReport: GoalReportRefSchema } });
const plans = [{ title: 'Ship v1', status: 'wip' }];

describe('createReportBlockReader: a typed extension point for product report content (DESIGN §4)', () => {
  it("reads Papercusp's goal-only report, the reference at the top level and plans empty, into extensions", () => {
    const block = reader.parse({ plans: [], goalReport });
    expect(block).toStrictEqual({ plans: [], extensions: { goalReport } });
    expect(z.safeParse(ReportBlockSchema, block).success).toBe(true);
    expect(reader.parse({ title: '  Goal 7 ', goalReport })).toStrictEqual({ title: 'Goal 7', plans: [], extensions: { goalReport } });
  });

  it("reads the extension from the block's extensions object first, and keeps plans beside it", () => {
    const other = { ...goalReport, reportId: 'report-4' };
    expect(reader.parse({ plans, extensions: { goalReport }, goalReport: other })).toStrictEqual({ plans, extensions: { goalReport } });
  });

  it('types the extension end to end: the block carries the schema output under its name', () => {
    const block = reader.parse({ plans: [], goalReport });
    expectTypeOf(block?.extensions?.goalReport).toEqualTypeOf<z.output<typeof GoalReportRefSchema> | undefined>();
    expect(block?.extensions?.goalReport?.bodySha256).toBe('ab'.repeat(32));
  });

  it('drops an extension its schema refuses, like any unusable entry: null when it was the only content', () => {
    const bad = { ...goalReport, bodySha256: 'not-a-digest' };
    expect(reader.parse({ plans: [], goalReport: bad })).toBeNull();
    expect(reader.parse({ plans, goalReport: bad })).toStrictEqual({ plans });
    expect(reader.parse({ plans: [], goalReport: { ...goalReport, extra: true } })).toBeNull();
  });

  it('drops undeclared extensions and never reads block keys or bad names as extensions', () => {
    const odd = createReportBlockReader({
      extensions: { plans: z.array(z.unknown()), 'bad name': z.unknown(), title: z.string(), goalReport: GoalReportRefSchema },
    });
    expect(odd.parse({ plans, title: 'T', 'bad name': 1, extensions: { other: 1 } })).toStrictEqual({ title: 'T', plans });
    expect(reader.parse({ plans, extensions: { scout: { cart: [1] } } })).toStrictEqual({ plans });
  });

  it('keeps only bounded JSON: a value with a getter, a non-JSON schema output or a throwing schema is dropped, never thrown', () => {
    let ran = false;
    const withGetter = Object.defineProperty({ ...goalReport }, 'goalId', { get: () => ((ran = true), 'goal-7'), enumerable: true });
    expect(reader.parse({ plans: [], goalReport: withGetter })).toBeNull();
    expect(ran).toBe(false);
    const dated = createReportBlockReader({
      extensions: {
        when: z.pipe(
          z.string(),
          z.transform((value) => new Date(value)),
        ),
      },
    });
    expect(dated.parse({ plans: [], when: '2026-12-01' })).toBeNull();
    const throwing = createReportBlockReader({
      extensions: {
        boom: z.custom(() => {
          throw new Error('product bug');
        }),
      },
    });
    expect(throwing.parse({ plans, boom: 1 })).toStrictEqual({ plans });
    expect(createReportBlockReader(null as never).parse({ plans })).toStrictEqual({ plans });
  });

  it('parseTag reads the first report tag this reader reads, outside code; the plain splitter sees the goal-only tag as invalid', () => {
    const tag = `<report>${JSON.stringify({ plans: [], goalReport })}</report>`;
    expect(reader.parseTag(`Status:\n${tag}\nDone.`)).toStrictEqual({ plans: [], extensions: { goalReport } });
    expect(reader.parseTag(`\`${tag}\``)).toBeNull();
    expect(reader.parseTag(`<report>{"plans":[]}</report> ${tag}`)).toStrictEqual({ plans: [], extensions: { goalReport } });
    expect(reader.parseTag(`<report>${JSON.stringify({ plans: [], goalReport })}`)).toBeNull();
    expect(reader.parseTag(42 as never)).toBeNull();
    expect(splitTurnText(tag)).toStrictEqual([{ kind: 'invalid', tag: 'report', raw: tag }]);
  });
});

// Issue 13 follow-up: the splitter reads a goal-only report when given the product's reader.
describe('splitTurnText and createTurnTextSplitter with a reportReader (DESIGN §4, issue 13)', () => {
  const tag = `<report>${JSON.stringify({ plans: [], goalReport })}</report>`;
  const block = { plans: [], extensions: { goalReport } };

  it('read a goal-only report written as a top-level key as a report segment typed with the extension', () => {
    const segments = splitTurnText(`Status: ${tag} done`, { reportReader: reader });
    expect(segments).toStrictEqual([
      { kind: 'text', text: 'Status: ' },
      { kind: 'report', block, raw: tag },
      { kind: 'text', text: ' done' },
    ]);
    const report = segments.find((segment) => segment.kind === 'report');
    expectTypeOf(report?.kind === 'report' ? report.block.extensions?.goalReport : undefined).toEqualTypeOf<
      z.output<typeof GoalReportRefSchema> | undefined
    >();
  });

  it('the incremental splitter with the reader gives the same report segment, cut into one-character deltas', () => {
    const splitter = createTurnTextSplitter({ reportReader: reader });
    const outputs = [...tag].flatMap((character) => splitter.push(character));
    expect(splitter.peek()).toStrictEqual([]);
    expect([...outputs, ...splitter.end()]).toStrictEqual([{ kind: 'report', block, raw: tag }]);
    // end() resets the splitter, and the next text is read with the same reader.
    expect([...splitter.push(tag), ...splitter.end()]).toStrictEqual([{ kind: 'report', block, raw: tag }]);
  });

  it('the reader decides every report body: an extension it does not declare is dropped, a report with nothing else is invalid', () => {
    const other = '<report>{"plans":[],"extensions":{"scout":1}}</report>';
    expect(splitTurnText(other)).toStrictEqual([{ kind: 'report', block: { plans: [], extensions: { scout: 1 } }, raw: other }]);
    expect(splitTurnText(other, { reportReader: reader })).toStrictEqual([{ kind: 'invalid', tag: 'report', raw: other }]);
    const plain = '<report>{"plans":[{"title":"Ship"}]}</report><ask>{"question":"Now?"}</ask>';
    expect(splitTurnText(plain, { reportReader: reader })).toStrictEqual(splitTurnText(plain));
  });

  it('without a usable reader nothing changes: no own parse function reads as parseReportBlock, a throwing reader makes the tag invalid', () => {
    let ran = false;
    const withGetter = Object.defineProperty({}, 'parse', { get: () => ((ran = true), reader.parse), enumerable: true });
    for (const reportReader of [undefined, null, {}, { parse: 'no' }, withGetter, Object.create(reader) as typeof reader]) {
      expect(splitTurnText(tag, { reportReader } as never)).toStrictEqual([{ kind: 'invalid', tag: 'report', raw: tag }]);
    }
    expect(ran).toBe(false);
    const throwing = {
      parse: (): never => {
        throw new Error('product bug');
      },
    };
    const planned = '<report>{"plans":[{"title":"Ship"}]}</report>';
    expect(splitTurnText(planned, { reportReader: throwing })).toStrictEqual([{ kind: 'invalid', tag: 'report', raw: planned }]);
    // A reader that breaks its type (undefined for null) still gives no block.
    expect(splitTurnText(planned, { reportReader: { parse: () => undefined as never } })).toStrictEqual([
      { kind: 'invalid', tag: 'report', raw: planned },
    ]);
  });
});

describe('parseReportBlock keeps product extensions as bounded JSON (DESIGN §4)', () => {
  it('keeps a goal-only report written with extensions: plans stay an empty list', () => {
    const block = { plans: [], extensions: { goalReport } };
    expect(parseReportBlock(block)).toStrictEqual(block);
    expect(parseReportBlock(parseReportBlock(block))).toStrictEqual(block);
    const tag = `<report>${JSON.stringify(block)}</report>`;
    expect(splitTurnText(tag)).toStrictEqual([{ kind: 'report', block, raw: tag }]);
  });

  it('does not read a flat product key it was not told about: that needs the product reader', () => {
    expect(parseReportBlock({ plans: [], goalReport })).toBeNull();
    expect(parseReportBlock({ plans, goalReport })).toStrictEqual({ plans });
  });

  it('drops extensions with a bad name or a value that is not bounded JSON, and omits an empty extensions object', () => {
    const extensions = JSON.parse('{"__proto__":{"x":1},"1st":1,"nan":null,"ok":{"a":[1,"b"]},"constructor":1}') as object;
    expect(
      parseReportBlock({ plans, extensions: { ...extensions, deep: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) } }),
    ).toStrictEqual({
      plans,
      extensions: { nan: null, ok: { a: [1, 'b'] } },
    });
    expect(parseReportBlock({ plans, extensions: { control: 'a\u0000' } })).toStrictEqual({ plans });
    expect(parseReportBlock({ plans: [], extensions: {} })).toBeNull();
    expect(parseReportBlock({ plans: [], extensions: [1] })).toBeNull();
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it('keeps at most REPORT_LIMITS.maxExtensions (16), the first in key order, and copies what it keeps', () => {
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`x${index}`, { index }]));
    const block = parseReportBlock({ plans, extensions: many });
    expect(Object.keys(block?.extensions ?? {})).toStrictEqual(Array.from({ length: 16 }, (_, index) => `x${index}`));
    expect(block?.extensions?.['x0']).not.toBe(many['x0']);
  });

  it('a parsed report with generated extensions satisfies the schema and is a fixed point, typed reader or not', () => {
    const names = fc.constantFrom('goalReport', 'scout-cart', 'x', '1st', 'constructor', '__proto__', 'a b');
    fc.assert(
      fc.property(fc.dictionary(names, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }), fc.boolean(), (extensions, withPlans) => {
        const input = { plans: withPlans ? plans : [], extensions };
        const block = parseReportBlock(input);
        const typed = createReportBlockReader({ extensions: { goalReport: z.unknown(), x: z.unknown() } }).parse(input);
        for (const value of [block, typed]) {
          if (value === null) continue;
          expect(z.safeParse(ReportBlockSchema, value).success).toBe(true);
          expect(parseReportBlock(value)).toStrictEqual(value);
        }
      }),
      { numRuns: runs(300) },
    );
  });
});
