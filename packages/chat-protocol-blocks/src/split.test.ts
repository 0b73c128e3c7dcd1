import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCK_LIMITS } from './limits.js';
import { createTurnTextSplitter, splitTurnText, type TurnTextSegment } from './split.js';
import * as z from 'zod/v4/mini';
import { createReportBlockReader } from './report-reader.js';
import { stripBlockTags } from './strip-block-tags.js';
import { runs } from '../../../test-support/property-runs.js';

// Rules of the turn-text grammar (DESIGN §4 and the module comment of split.ts)
// with exact segments; fixtures/blocks/corpus.json holds one case per rule and
// corpus.test.ts runs it. Here: the API around the grammar, stripBlockTags, and
// properties over generated hostile text.

const R1 = '{"plans":[{"title":"Ship v1","status":"wip"}]}';
const R1_BLOCK = { plans: [{ title: 'Ship v1', status: 'wip' }] };
const A1 = '{"question":"Deploy now?","options":[{"id":"yes","label":"Yes"}]}';
const A1_BLOCK = { question: 'Deploy now?', options: [{ id: 'yes', label: 'Yes' }] };
const REPORT = `<report>${R1}</report>`;
const ASK = `<ask>${A1}</ask>`;

const text = (value: string): TurnTextSegment => ({ kind: 'text', text: value });

/** Adjacent text segments joined, as a renderer concatenates successive pushes. */
function mergeText<Report>(segments: readonly TurnTextSegment<Report>[]): TurnTextSegment<Report>[] {
  const merged: TurnTextSegment<Report>[] = [];
  for (const segment of segments) {
    const last = merged[merged.length - 1];
    if (segment.kind === 'text' && last?.kind === 'text') merged[merged.length - 1] = { kind: 'text', text: last.text + segment.text };
    else merged.push(segment);
  }
  return merged;
}

/** The characters a segment stands for (a pending segment shows none). */
const writtenAs = (segment: TurnTextSegment): string =>
  segment.kind === 'text' ? segment.text : segment.kind === 'pending' ? '' : segment.raw;

const OPENER_PREFIXES = ['<', '<r', '<re', '<rep', '<repo', '<repor', '<report', '<a', '<as', '<ask'];

/** The invariants every split result holds, whatever the text. */
function expectWellFormed(source: string, segments: readonly TurnTextSegment[], streaming: boolean): void {
  let previousKind = '';
  let written = '';
  segments.forEach((segment, index) => {
    expect(segment.kind === 'text' && (segment.text === '' || previousKind === 'text')).toBe(false);
    if (segment.kind === 'pending') expect(streaming && index === segments.length - 1).toBe(true);
    if (segment.kind === 'report' || segment.kind === 'ask' || segment.kind === 'invalid') {
      const name = segment.kind === 'invalid' ? segment.tag : segment.kind;
      expect(segment.raw.slice(0, name.length + 2).toLowerCase()).toBe(`<${name}>`);
      if (segment.kind !== 'invalid') expect(segment.raw.slice(-(name.length + 3)).toLowerCase()).toBe(`</${name}>`);
    }
    previousKind = segment.kind;
    written += writtenAs(segment);
  });
  if (!streaming) {
    // A finished text is covered exactly: nothing lost, nothing repeated.
    expect(written).toBe(source);
  } else {
    expect(source.startsWith(written)).toBe(true);
    const rest = source.slice(written.length);
    // Only an open tag (pending) or a partial opener at the very end is not shown.
    if (segments[segments.length - 1]?.kind === 'pending') {
      expect(rest.slice(0, 5).toLowerCase() === '<ask>' || rest.slice(0, 8).toLowerCase() === '<report>').toBe(true);
    } else {
      expect(rest === '' || OPENER_PREFIXES.includes(rest.toLowerCase())).toBe(true);
    }
  }
}

describe('splitTurnText', () => {
  it('reads a text as finished unless streaming is true', () => {
    const source = `Plan ${REPORT} <ask>{`;
    const finished = [
      text('Plan '),
      { kind: 'report', block: R1_BLOCK, raw: REPORT },
      text(' '),
      { kind: 'invalid', tag: 'ask', raw: '<ask>{' },
    ];
    expect(splitTurnText(source)).toStrictEqual(finished);
    expect(splitTurnText(source, {})).toStrictEqual(finished);
    expect(splitTurnText(source, { streaming: false })).toStrictEqual(finished);
    expect(splitTurnText(source, { streaming: true })).toStrictEqual([
      text('Plan '),
      { kind: 'report', block: R1_BLOCK, raw: REPORT },
      text(' '),
      { kind: 'pending', tag: 'ask' },
    ]);
  });

  it(`parses a body of exactly BLOCK_LIMITS.maxTagBodyLength (${BLOCK_LIMITS.maxTagBodyLength}) code units and refuses one more without parsing`, () => {
    const head = '{"question":"Q","padding":"';
    const body = (length: number) => `${head}${'x'.repeat(length - head.length - 2)}"}`;
    const atLimit = `<ask>${body(BLOCK_LIMITS.maxTagBodyLength)}</ask>`;
    const overLimit = `<ask>${body(BLOCK_LIMITS.maxTagBodyLength + 1)}</ask>`;
    expect(splitTurnText(atLimit)).toStrictEqual([{ kind: 'ask', block: { question: 'Q' }, raw: atLimit }]);
    expect(splitTurnText(overLimit)).toStrictEqual([{ kind: 'invalid', tag: 'ask', raw: overLimit }]);
    // The bound counts the body before trimming.
    const padded = `<ask>${' '.repeat(BLOCK_LIMITS.maxTagBodyLength)}{"question":"Q"}</ask>`;
    expect(splitTurnText(padded)).toStrictEqual([{ kind: 'invalid', tag: 'ask', raw: padded }]);
  });

  it('reads a non-string as empty text and never throws on it', () => {
    for (const value of [undefined, null, 42, {}, ['<ask>']]) {
      expect(splitTurnText(value as unknown as string)).toStrictEqual([]);
      expect(stripBlockTags(value as unknown as string)).toBe('');
    }
  });

  it('returns fresh segments: the same text split twice gives equal, unshared arrays', () => {
    const first = splitTurnText(`a ${ASK}`);
    const second = splitTurnText(`a ${ASK}`);
    expect(first).toStrictEqual(second);
    expect(first).not.toBe(second);
  });

  it('reads a block body that holds a deeply nested value without a stack overflow', () => {
    const depth = 100_000;
    const deep = `<report>{"plans":[{"title":"T"}],"extra":${'['.repeat(depth)}${']'.repeat(depth)}}</report>`;
    expect(splitTurnText(deep)).toStrictEqual([{ kind: 'report', block: { plans: [{ title: 'T' }] }, raw: deep }]);
    const unbalanced = `<ask>${'{"a":'.repeat(50_000)}</ask>`;
    expect(splitTurnText(unbalanced)).toStrictEqual([{ kind: 'invalid', tag: 'ask', raw: unbalanced }]);
  });

  it('reads floods of unbalanced openers, <, backticks and tildes in time linear in the text', () => {
    const openers = '<report>'.repeat(20_000);
    expect(splitTurnText(openers)).toStrictEqual([{ kind: 'invalid', tag: 'report', raw: openers }]);
    expect(splitTurnText(openers, { streaming: true })).toStrictEqual([{ kind: 'pending', tag: 'report' }]);
    const closers = '</report></ask>'.repeat(20_000);
    expect(splitTurnText(closers)).toStrictEqual([text(closers)]);
    const lessThan = '<'.repeat(200_000);
    expect(splitTurnText(lessThan)).toStrictEqual([text(lessThan)]);
    expect(splitTurnText(lessThan, { streaming: true })).toStrictEqual([text(lessThan.slice(1))]);
    // Runs of every length from 1 to 600: none closes another, so each line is one long unclosed span.
    const backticks = Array.from({ length: 600 }, (_, index) => '`'.repeat(index + 1)).join(' ');
    expect(splitTurnText(`${backticks} ${ASK}\n${ASK}`)).toStrictEqual([
      text(`${backticks} ${ASK}\n`),
      { kind: 'ask', block: A1_BLOCK, raw: ASK },
    ]);
    const fences = '```\n~~~\n'.repeat(20_000);
    expect(splitTurnText(`${fences}${ASK}`)).toStrictEqual([text(`${fences}${ASK}`)]);
  });
});

describe('createTurnTextSplitter', () => {
  it('push returns what became final at once, holds a partial opener, and shows an open tag only as pending', () => {
    const splitter = createTurnTextSplitter();
    expect(splitter.push('Hello ')).toStrictEqual([text('Hello ')]);
    expect(splitter.peek()).toStrictEqual([]);
    expect(splitter.push('<rep')).toStrictEqual([]);
    expect(splitter.peek()).toStrictEqual([]);
    expect(splitter.push('ort>{"plans":')).toStrictEqual([]);
    expect(splitter.peek()).toStrictEqual([{ kind: 'pending', tag: 'report' }]);
    expect(splitter.push('[{"title":"Ship v1","status":"wip"}]}</rep')).toStrictEqual([]);
    expect(splitter.push('ort> ok <')).toStrictEqual([{ kind: 'report', block: R1_BLOCK, raw: REPORT }, text(' ok ')]);
    expect(splitter.push('b>')).toStrictEqual([text('<b>')]);
    expect(splitter.end()).toStrictEqual([]);
  });

  it('end() reads a held partial opener as text and an open tag as invalid', () => {
    const partial = createTurnTextSplitter();
    expect(partial.push('a <AS')).toStrictEqual([text('a ')]);
    expect(partial.end()).toStrictEqual([text('<AS')]);
    const open = createTurnTextSplitter();
    expect(open.push('<ask>{"quest')).toStrictEqual([]);
    expect(open.push('ion":')).toStrictEqual([]);
    expect(open.end()).toStrictEqual([{ kind: 'invalid', tag: 'ask', raw: '<ask>{"question":' }]);
  });

  it('end() resets the splitter: the next text is read from a fresh state', () => {
    const splitter = createTurnTextSplitter();
    expect(splitter.push('```\nstill in a fence')).toStrictEqual([text('```\nstill in a fence')]);
    expect(splitter.end()).toStrictEqual([]);
    expect(splitter.push(ASK)).toStrictEqual([{ kind: 'ask', block: A1_BLOCK, raw: ASK }]);
    expect(splitter.push('<ask>')).toStrictEqual([]);
    expect(splitter.end()).toStrictEqual([{ kind: 'invalid', tag: 'ask', raw: '<ask>' }]);
    expect(splitter.peek()).toStrictEqual([]);
    expect(splitter.end()).toStrictEqual([]);
  });

  it('ignores empty and non-string deltas', () => {
    const splitter = createTurnTextSplitter();
    expect(splitter.push('')).toStrictEqual([]);
    expect(splitter.push(undefined as unknown as string)).toStrictEqual([]);
    expect(splitter.push(7 as unknown as string)).toStrictEqual([]);
    expect(splitter.push('a')).toStrictEqual([text('a')]);
    expect(splitter.end()).toStrictEqual([]);
  });

  it('finds a closer cut into single characters across pushes', () => {
    const splitter = createTurnTextSplitter();
    const outputs: TurnTextSegment[] = [];
    for (const character of `x${REPORT}y`) outputs.push(...splitter.push(character));
    outputs.push(...splitter.end());
    expect(mergeText(outputs)).toStrictEqual([text('x'), { kind: 'report', block: R1_BLOCK, raw: REPORT }, text('y')]);
  });

  it('reads a huge unclosed tag in small deltas and returns it whole at the end', () => {
    const splitter = createTurnTextSplitter();
    const body = `{"question":"${'q'.repeat(300_000)}"}`;
    expect(splitter.push('<ask>')).toStrictEqual([]);
    for (let index = 0; index < body.length; index += 16) expect(splitter.push(body.slice(index, index + 16))).toStrictEqual([]);
    expect(splitter.push('</ask>')).toStrictEqual([{ kind: 'invalid', tag: 'ask', raw: `<ask>${body}</ask>` }]);
  });
});

describe('stripBlockTags', () => {
  it('removes a report with the whitespace around it and leaves the wider separator', () => {
    expect(stripBlockTags(`Done.\n\n${REPORT}\n\nNext.`)).toBe('Done.\n\nNext.');
    expect(stripBlockTags(`Done.\n${REPORT}\n\nNext.`)).toBe('Done.\n\nNext.');
    expect(stripBlockTags(`Done.\n${REPORT}\nNext.`)).toBe('Done.\nNext.');
    expect(stripBlockTags(`Done. ${REPORT}  Next.`)).toBe('Done. Next.');
    expect(stripBlockTags(`Done.${REPORT}Next.`)).toBe('Done.Next.');
    expect(stripBlockTags(`Done.\r\n\r\n${REPORT}\r\nNext.`)).toBe('Done.\r\n\r\nNext.');
    expect(stripBlockTags(`Done.\r\n${REPORT}\nNext.`)).toBe('Done.\r\nNext.');
  });

  it('replaces an ask with its question, in place', () => {
    expect(stripBlockTags(`Before we go on: ${ASK}\nThanks.`)).toBe('Before we go on: Deploy now?\nThanks.');
    expect(stripBlockTags(`${REPORT}\n\n${ASK}`)).toBe('Deploy now?');
  });

  it('removes invalid and unclosed tags like reports', () => {
    expect(stripBlockTags('a <ask>{oops}</ask> b')).toBe('a b');
    expect(stripBlockTags('Working.\n\n<report>{"plans":[')).toBe('Working.');
  });

  it('leaves nothing at the start or end of the text, and one separator for consecutive removals', () => {
    expect(stripBlockTags(`\n${REPORT}\n\nHello`)).toBe('Hello');
    expect(stripBlockTags(`Hello \n${REPORT}\n`)).toBe('Hello');
    expect(stripBlockTags(`A\n\n${REPORT}\n ${REPORT}\n\n<ask>[]</ask>\nB`)).toBe('A\n\nB');
    expect(stripBlockTags(`${REPORT} ${REPORT}`)).toBe('');
  });

  it('keeps code, stray closers and text away from removed tags exactly as written', () => {
    const source = `  Keep   this\n\n\n\`<report>${R1}</report>\` and </ask> \n\`\`\`\n${ASK}\n\`\`\`\n`;
    expect(stripBlockTags(source)).toBe(source);
    expect(stripBlockTags(`  lead\n\n\n${REPORT}`)).toBe('  lead');
  });

  it('returns a text without tags unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (value) => {
        expect(stripBlockTags(value.replace(/</g, '{'))).toBe(value.replace(/</g, '{'));
      }),
      { numRuns: runs(300) },
    );
  });
});

// Fragments that exercise every rule: tags valid and not, partial tags, code
// fences, inline code, line ends and prose. Generated texts are concatenations.
const FRAGMENTS = [
  REPORT,
  ASK,
  '<REPORT>{"plans":[{"title":"X"}]}</Report>',
  '<ask>{"question":"a \\u003c/ask\\u003e b"}</ask>',
  '<ask>{bad}</ask>',
  '<report>{"title":"no plans"}</report>',
  '<report>',
  '<ask>',
  '</report>',
  '</ask>',
  '<',
  '<r',
  '<rep',
  '<as',
  '<ASK',
  '<reporting>',
  '<report >',
  '`',
  '``',
  '```',
  '````',
  '~~~',
  '```js',
  '\n',
  '\r\n',
  '   ',
  '    ',
  '\t',
  ' prose ',
  'x',
  '{"question":"q"}',
  '"}',
  ']}',
  '🎉',
  '\ud800',
];
const fragmentText = (maxLength: number) => fc.array(fc.constantFrom(...FRAGMENTS), { maxLength }).map((parts) => parts.join(''));

const hostileText = fc.oneof(
  fragmentText(60),
  fc.string({ unit: fc.constantFrom('<', '>', '/', '`', '~', '\n', ' ', 'r', 'a', 's', 'k', 'R', 'A'), maxLength: 400 }),
  // Floods: thousands of one fragment, with a few others mixed in.
  fc
    .tuple(
      fc.constantFrom('<report>', '<ask>', '<', '`', '``', '```\n', '~~~\n', '</ask>', '<rep'),
      fc.integer({ min: 1, max: 3_000 }),
      fragmentText(6),
    )
    .map(([fragment, count, tail]) => fragment.repeat(count) + tail),
  // A huge JSON body inside a tag, closed or not.
  fc
    .tuple(fc.integer({ min: 1, max: 40_000 }), fc.boolean())
    .map(([size, closed]) => `<ask>{"question":"${'q'.repeat(size)}"}${closed ? '</ask>' : ''}`),
  // Deep nesting inside a body.
  fc.integer({ min: 1, max: 20_000 }).map((depth) => `<report>${'['.repeat(depth)}${']'.repeat(depth)}</report>`),
);

describe('never throws, never hangs', () => {
  it('splitTurnText covers every generated hostile text exactly, finished and streaming', () => {
    fc.assert(
      fc.property(hostileText, (source) => {
        expectWellFormed(source, splitTurnText(source), false);
        expectWellFormed(source, splitTurnText(source, { streaming: true }), true);
      }),
      { numRuns: runs(300) },
    );
  });

  it('the splitter and stripBlockTags read every generated hostile text without throwing', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 1, max: 64 }), (source, deltaLength) => {
        const splitter = createTurnTextSplitter();
        const outputs: TurnTextSegment[] = [];
        for (let index = 0; index < source.length; index += deltaLength)
          outputs.push(...splitter.push(source.slice(index, index + deltaLength)));
        outputs.push(...splitter.end());
        expect(mergeText(outputs)).toStrictEqual(splitTurnText(source));
        expect(typeof stripBlockTags(source)).toBe('string');
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('every split point gives the same segments', () => {
  const mixedText = fragmentText(40);

  it('cutting a generated text at any single position gives splitTurnText of the whole', () => {
    fc.assert(
      fc.property(mixedText, (source) => {
        const whole = splitTurnText(source);
        for (let cut = 0; cut <= source.length; cut++) {
          const splitter = createTurnTextSplitter();
          const outputs = [...splitter.push(source.slice(0, cut)), ...splitter.push(source.slice(cut)), ...splitter.end()];
          expect(mergeText(outputs)).toStrictEqual(whole);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('after every delta of a random cut, pushes so far plus peek() equal splitTurnText of the prefix while streaming', () => {
    fc.assert(
      fc.property(
        mixedText.chain((source) =>
          fc.tuple(fc.constant(source), fc.uniqueArray(fc.integer({ min: 0, max: source.length }), { maxLength: 30 })),
        ),
        ([source, cuts]) => {
          const splitter = createTurnTextSplitter();
          const outputs: TurnTextSegment[] = [];
          let previous = 0;
          for (const cut of [...cuts].sort((left, right) => left - right)) {
            outputs.push(...splitter.push(source.slice(previous, cut)));
            previous = cut;
            const prefix = source.slice(0, cut);
            expect(mergeText([...outputs, ...splitter.peek()])).toStrictEqual(splitTurnText(prefix, { streaming: true }));
          }
          outputs.push(...splitter.push(source.slice(previous)));
          outputs.push(...splitter.end());
          expect(mergeText(outputs)).toStrictEqual(splitTurnText(source));
        },
      ),
      { numRuns: runs(500) },
    );
  });

  // Issue 13 follow-up: a product's report reader given to the splitter changes how
  // report bodies read, never the grammar, so both forms still agree with it.
  const goalReader = createReportBlockReader({ extensions: { goalReport: z.strictObject({ goalId: z.string() }) } });
  const GOAL_TAG = '<report>{"plans":[],"goalReport":{"goalId":"g-1"}}</report>';
  const goalText = fc
    .array(fc.constantFrom(...FRAGMENTS, GOAL_TAG, '<report>{"plans":[],"goalReport":', '{"goalId":"g-1"}}', '</report>'), {
      maxLength: 40,
    })
    .map((parts) => parts.join(''));

  it('with a reportReader, pushes plus peek() or end() equal splitTurnText with the same reader, for every random cut', () => {
    fc.assert(
      fc.property(
        goalText.chain((source) =>
          fc.tuple(fc.constant(source), fc.uniqueArray(fc.integer({ min: 0, max: source.length }), { maxLength: 30 })),
        ),
        ([source, cuts]) => {
          const options = { reportReader: goalReader };
          const splitter = createTurnTextSplitter(options);
          const outputs: Array<TurnTextSegment<NonNullable<ReturnType<typeof goalReader.parse>>>> = [];
          let previous = 0;
          for (const cut of [...cuts].sort((left, right) => left - right)) {
            outputs.push(...splitter.push(source.slice(previous, cut)));
            previous = cut;
            expect(mergeText([...outputs, ...splitter.peek()])).toStrictEqual(
              splitTurnText(source.slice(0, cut), { ...options, streaming: true }),
            );
          }
          outputs.push(...splitter.push(source.slice(previous)));
          outputs.push(...splitter.end());
          expect(mergeText(outputs)).toStrictEqual(splitTurnText(source, options));
        },
      ),
      { numRuns: runs(300) },
    );
  });
});
