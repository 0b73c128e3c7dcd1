import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReportBlock } from '@papercusp/chat-protocol-core';
import { parseAskBlock, type AskBlock } from './ask.js';
import { parseReportBlock } from './report.js';
import { serializeAskTag, serializeReportTag } from './serialize.js';
import { parseAskTag, parseReportTag } from './tag-readers.js';
import { runs } from '../../../test-support/property-runs.js';

// DESIGN §4: "Tag readers parseReportTag(text), parseAskTag(text) return the
// first complete tag's block or null", and parseAskTag(serializeAskTag(b))
// deep-equals b. They read by the splitter's grammar (split.ts).

const R1 = '{"plans":[{"title":"Ship v1"}]}';
const R2 = '{"plans":[{"title":"Second"}]}';
const A1 = '{"question":"First?"}';
const A2 = '{"question":"Second?"}';

describe('parseReportTag / parseAskTag', () => {
  it('return the block of the first complete tag of their name, wherever it sits in the text', () => {
    expect(parseReportTag(`Intro <ask>${A1}</ask> then <report>${R1}</report> and <report>${R2}</report>`)).toStrictEqual({
      plans: [{ title: 'Ship v1' }],
    });
    expect(parseAskTag(`<report>${R1}</report>\n<ASK>${A1}</Ask><ask>${A2}</ask>`)).toStrictEqual({ question: 'First?' });
  });

  it('skip invalid and unclosed tags and return the first valid one', () => {
    expect(parseAskTag(`<ask>{oops}</ask> <ask>${A2}</ask>`)).toStrictEqual({ question: 'Second?' });
    expect(parseReportTag(`<report>{"title":"no plans"}</report><report>${R2}</report>`)).toStrictEqual({
      plans: [{ title: 'Second' }],
    });
    expect(parseAskTag('<ask>{"question":"never closed"}')).toBeNull();
  });

  it('never read a tag inside fenced or inline code', () => {
    expect(parseAskTag(`\`<ask>${A1}</ask>\`\n\`\`\`\n<ask>${A2}</ask>\n\`\`\`\n`)).toBeNull();
    expect(parseAskTag(`\`<ask>${A1}</ask>\` <ask>${A2}</ask>`)).toStrictEqual({ question: 'Second?' });
  });

  it('return null for text without a tag of their name and for non-strings', () => {
    expect(parseReportTag(`<ask>${A1}</ask>`)).toBeNull();
    expect(parseAskTag('')).toBeNull();
    expect(parseAskTag('<ask>')).toBeNull();
    for (const value of [undefined, null, 1, {}, [`<ask>${A1}</ask>`]]) {
      expect(parseAskTag(value as unknown as string)).toBeNull();
      expect(parseReportTag(value as unknown as string)).toBeNull();
    }
  });
});

// Strings a model writes and a careless serializer would break on.
const nastyText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        '</ask>',
        '</report>',
        '<ask>',
        '<',
        '>',
        '&',
        '&amp;',
        '"',
        "'",
        '\\',
        '`',
        '```',
        '\n',
        '\r\n',
        '🎉',
        '👩‍💻',
        '\u2028',
        ' ',
      ),
      fc.string({ maxLength: 8 }),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((parts) => parts.join(''));

// Valid blocks: generated loosely, then normalized by the tolerant parser, so each is exactly a block it returns.
const askBlock = fc
  .record({
    question: nastyText,
    options: fc.array(fc.record({ id: nastyText, label: nastyText, description: nastyText }), { maxLength: 4 }),
    refs: fc.array(nastyText, { maxLength: 4 }),
  })
  .map((value) => parseAskBlock(value))
  .filter((block): block is AskBlock => block !== null);

const reportBlock = fc
  .record({
    title: nastyText,
    plans: fc.array(
      fc.record({
        slug: nastyText,
        title: nastyText,
        status: nastyText,
        summary: nastyText,
        items: fc.array(fc.record({ id: nastyText, text: nastyText, status: nastyText, ref: nastyText }), { maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map((value) => parseReportBlock(value))
  .filter((block): block is ReportBlock => block !== null);

describe('round trip through the serializers', () => {
  it('parseAskTag(serializeAskTag(block)) deep-equals block, also amid prose and other tags', () => {
    fc.assert(
      fc.property(askBlock, nastyText, (block, prose) => {
        const tag = serializeAskTag(block);
        expect(parseAskTag(tag)).toStrictEqual(block);
        // Prose before it can open inline code; a line break first puts the tag at a fresh line.
        expect(parseAskTag(`<ask>{}</ask>\n${tag}\n${prose}`)).toStrictEqual(block);
      }),
      { numRuns: runs(500) },
    );
  });

  it('parseReportTag(serializeReportTag(block)) deep-equals block', () => {
    fc.assert(
      fc.property(reportBlock, (block) => {
        expect(parseReportTag(serializeReportTag(block))).toStrictEqual(block);
      }),
      { numRuns: runs(500) },
    );
  });
});
