import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReportBlock } from '@papercusp/chat-protocol-core';
import { validAskArb, validReportArb } from '../test/block-arbitraries.js';
import type { AskBlock } from './ask.js';
import { BLOCK_LIMITS } from './limits.js';
import { serializeAskTag, serializeReportTag } from './serialize.js';
import { runs } from '../../../test-support/property-runs.js';

/** The JSON between the tags, or a failure when the tag is not exactly `<tag>…</tag>`. */
function bodyOf(tag: string, text: string): string {
  expect(text.startsWith(`<${tag}>`)).toBe(true);
  expect(text.endsWith(`</${tag}>`)).toBe(true);
  return text.slice(tag.length + 2, text.length - tag.length - 3);
}

describe('serializeAskTag and serializeReportTag: output (DESIGN §4)', () => {
  it('writes <ask>{json}</ask> with keys in the schema order, whatever the input order', () => {
    const block = { refs: ['r'], options: [{ description: 'd', label: 'L', id: 'i' }], question: 'Q' } satisfies AskBlock;
    expect(serializeAskTag(block)).toBe('<ask>{"question":"Q","options":[{"id":"i","label":"L","description":"d"}],"refs":["r"]}</ask>');
  });

  it('writes <report>{json}</report> with keys in the schema order, whatever the input order', () => {
    const block = {
      plans: [{ items: [{ ref: 'r', status: 'done', text: 't', id: 'i' }], summary: 'm', status: 'wip', title: 'T', slug: 's' }],
      title: 'R',
    } satisfies ReportBlock;
    expect(serializeReportTag(block)).toBe(
      '<report>{"title":"R","plans":[{"slug":"s","title":"T","status":"wip","summary":"m","items":[{"id":"i","text":"t","status":"done","ref":"r"}]}]}</report>',
    );
  });

  it('escapes <, > and & so a closer can never appear inside; U+2028 and U+2029 too', () => {
    expect(serializeAskTag({ question: 'a </ask> & <b>\u2028\u2029 "q" \\ 😀\nz' })).toBe(
      '<ask>{"question":"a \\u003c/ask\\u003e \\u0026 \\u003cb\\u003e\\u2028\\u2029 \\"q\\" \\\\ 😀\\nz"}</ask>',
    );
    expect(serializeReportTag({ plans: [{ title: '</report><report>' }] })).toBe(
      '<report>{"plans":[{"title":"\\u003c/report\\u003e\\u003creport\\u003e"}]}</report>',
    );
  });

  it('the JSON body never holds <, >, &, a raw line break or U+2028/U+2029, and parses back to the block', () => {
    fc.assert(
      fc.property(validAskArb, validReportArb, (ask, report) => {
        for (const [tag, text, block] of [
          ['ask', serializeAskTag(ask), ask],
          ['report', serializeReportTag(report), report],
        ] as const) {
          const body = bodyOf(tag, text);
          expect(/[<>&\n\r\u2028\u2029]/.test(body)).toBe(false);
          expect(JSON.parse(body)).toStrictEqual(block);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it('is deterministic: the same block in any key order gives the same text', () => {
    fc.assert(
      fc.property(validAskArb, (block) => {
        const reversed = Object.fromEntries(Object.entries(block).reverse()) as AskBlock;
        expect(serializeAskTag(reversed)).toBe(serializeAskTag(block));
      }),
      { numRuns: runs(500) },
    );
  });

  it('never mutates the block it writes', () => {
    const block: AskBlock = { question: 'Q', options: [{ id: 'a', label: 'A' }] };
    const before = structuredClone(block);
    serializeAskTag(block);
    expect(block).toStrictEqual(before);
  });
});

describe('serializeAskTag and serializeReportTag: invalid input throws a TypeError naming the problem', () => {
  const long = (length: number) => 'x'.repeat(length);
  it.each<[string, unknown, string]>([
    ['not an object', null, 'invalid ask block: expected object'],
    ['a string', '<ask>{"question":"Q"}</ask>', 'invalid ask block: expected object'],
    ['no question', {}, 'invalid ask block at question: expected string'],
    ['a number question', { question: 7 }, 'invalid ask block at question: expected string'],
    ['an empty question', { question: '' }, 'invalid ask block at question: must not be blank'],
    ['a blank question', { question: ' \n ' }, 'invalid ask block at question: must not be blank'],
    ['an untrimmed question', { question: ' Q' }, 'invalid ask block at question: must not start or end with whitespace'],
    [
      'a control character',
      { question: 'Q\u0007' },
      'invalid ask block at question: must not contain control characters or lone surrogates',
    ],
    ['a lone surrogate', { question: 'Q\ud83d' }, 'invalid ask block at question: must not contain control characters or lone surrogates'],
    [
      'an over-long question',
      { question: long(BLOCK_LIMITS.maxTextLength + 1) },
      'invalid ask block at question: must be at most 4096 characters',
    ],
    ['a key holding undefined', { question: 'Q', refs: undefined }, 'invalid ask block at refs: expected array'],
    ['an unknown key', { question: 'Q', kind: 'confirm' }, 'invalid ask block: unknown key "kind"'],
    ['an own __proto__ key', JSON.parse('{"question":"Q","__proto__":{"polluted":1}}'), 'invalid ask block: unknown key "__proto__"'],
    [
      'an unknown option key',
      { question: 'Q', options: [{ id: 'a', label: 'A', value: 1 }] },
      'invalid ask block at options[0]: unknown key "value"',
    ],
    ['empty options', { question: 'Q', options: [] }, 'invalid ask block at options: must not be empty'],
    ['an option without a label', { question: 'Q', options: [{ id: 'a' }] }, 'invalid ask block at options[0].label: expected string'],
    [
      'an over-long option id',
      { question: 'Q', options: [{ id: long(257), label: 'L' }] },
      'invalid ask block at options[0].id: must be at most 256 characters',
    ],
    [
      'a repeated option id',
      {
        question: 'Q',
        options: [
          { id: 'a', label: 'A' },
          { id: 'b', label: 'B' },
          { id: 'a', label: 'C' },
        ],
      },
      'invalid ask block at options[2].id: duplicate option id',
    ],
    ['a repeated ref', { question: 'Q', refs: ['r', 'r'] }, 'invalid ask block at refs[1]: duplicate ref'],
    [
      'too many refs',
      { question: 'Q', refs: Array.from({ length: BLOCK_LIMITS.maxRefs + 1 }, (_, index) => String(index)) },
      'invalid ask block at refs: must have at most 64 entries',
    ],
    ['several problems', { question: '', options: [], extra: 1 }, 'invalid ask block at question: must not be blank (and 2 more)'],
    [
      'a bad option id does not hide a repeated one',
      {
        question: 'Q',
        options: [
          { id: ' a', label: 'A' },
          { id: 'b', label: 'B' },
          { id: 'b', label: 'C' },
        ],
      },
      'invalid ask block at options[0].id: must not start or end with whitespace (and 1 more)',
    ],
    [
      'a key holding undefined is counted beside other problems',
      { question: 7, refs: undefined },
      'invalid ask block at question: expected string (and 1 more)',
    ],
  ])('ask: %s', (_case, block, message) => {
    expect(() => serializeAskTag(block as AskBlock)).toThrow(new TypeError(message));
    try {
      serializeAskTag(block as AskBlock);
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
    }
  });

  it.each<[string, unknown, string]>([
    ['not an object', [], 'invalid report block: expected object'],
    ['no plans', { title: 'R' }, 'invalid report block at plans: expected array'],
    ['empty plans', { plans: [] }, 'invalid report block at plans: must not be empty unless the report carries an extension'],
    [
      'a plan without a title (the parser would fall back; the serializer does not)',
      { plans: [{ slug: 's' }] },
      'invalid report block at plans[0].title: expected string',
    ],
    [
      'a blank item text',
      { plans: [{ title: 'T', items: [{ text: ' ' }] }] },
      'invalid report block at plans[0].items[0].text: must not be blank',
    ],
    ['empty items', { plans: [{ title: 'T', items: [] }] }, 'invalid report block at plans[0].items: must not be empty'],
    ['a number status', { plans: [{ title: 'T', status: 1 }] }, 'invalid report block at plans[0].status: expected string'],
    [
      'an over-long slug',
      { plans: [{ title: 'T', slug: long(257) }] },
      'invalid report block at plans[0].slug: must be at most 256 characters',
    ],
    [
      'an unknown item key',
      { plans: [{ title: 'T', items: [{ text: 'x', due: 'mon' }] }] },
      'invalid report block at plans[0].items[0]: unknown key "due"',
    ],
    [
      'too many plans',
      { plans: Array.from({ length: BLOCK_LIMITS.maxPlans + 1 }, () => ({ title: 'T' })) },
      'invalid report block at plans: must have at most 100 entries',
    ],
    [
      'a long unknown key is cut in the message',
      { plans: [{ title: 'T' }], [long(100)]: 1 },
      `invalid report block: unknown key "${long(64)}…"`,
    ],
  ])('report: %s', (_case, block, message) => {
    expect(() => serializeReportTag(block as ReportBlock)).toThrow(new TypeError(message));
  });

  it('a getter that throws is a TypeError, not the getter error', () => {
    const block = { question: 'Q' };
    Object.defineProperty(block, 'refs', {
      enumerable: true,
      get: () => {
        throw new RangeError('boom');
      },
    });
    expect(() => serializeAskTag(block)).toThrow(new TypeError('invalid ask block: it could not be read (a getter or proxy trap threw)'));
  });

  it('a cycle is refused by the strict schema, not a stack overflow', () => {
    const plan: Record<string, unknown> = { title: 'T' };
    plan['items'] = [plan];
    expect(() => serializeReportTag({ plans: [plan] } as ReportBlock)).toThrow(
      new TypeError('invalid report block at plans[0].items[0].text: expected string (and 2 more)'),
    );
  });
});
