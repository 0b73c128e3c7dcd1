/**
 * fast-check arbitraries for report and ask blocks: valid, already normalized
 * blocks (for round trips and fixed points), messy near-blocks a model might
 * write (for idempotence), and anything at all (for "never throws").
 */
import fc from 'fast-check';
import { isCleanText } from '@papercusp/chat-protocol-core';
import type { ReportBlock } from '@papercusp/chat-protocol-core';
import type { AskBlock } from '../src/ask.js';
import { BLOCK_LIMITS } from '../src/limits.js';

/** Pieces that break naive tag writers and readers. */
export const NASTY_PIECES = [
  '</ask>',
  '</report>',
  '<ask>',
  '<report>',
  '</ASK>',
  '<',
  '>',
  '&',
  '&amp;',
  '&lt;',
  '"',
  "'",
  '\\',
  '\\u003c',
  '😀',
  '👩‍👩‍👧',
  '\n',
  '\r\n',
  '\t',
  '\u2028',
  '\u2029',
  '`',
  '```',
  ' ',
  'é',
  '{"a":1}',
  ']',
] as const;

/** A valid block string of at most `max` code units: trimmed, non-blank, clean. */
function blockTextArb(max: number): fc.Arbitrary<string> {
  const piece = fc.oneof(fc.constantFrom(...NASTY_PIECES), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }));
  return fc
    .oneof(
      { weight: 20, arbitrary: fc.array(piece, { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join('').trim()) },
      { weight: 1, arbitrary: fc.constant('x'.repeat(max)) },
    )
    .filter((text) => text.length > 0 && text.length <= max && isCleanText(text));
}

const tokenArb = blockTextArb(BLOCK_LIMITS.maxTokenLength);
const textArb = blockTextArb(BLOCK_LIMITS.maxTextLength);

/** A valid, normalized report block. */
export const validReportArb: fc.Arbitrary<ReportBlock> = fc.record(
  {
    title: textArb,
    plans: fc.array(
      fc.record(
        {
          slug: tokenArb,
          title: textArb,
          status: fc.oneof(fc.constant('needs-human'), tokenArb),
          summary: textArb,
          items: fc.array(
            fc.record({ id: tokenArb, text: textArb, status: tokenArb, ref: textArb }, { requiredKeys: ['text'], noNullPrototype: true }),
            { minLength: 1, maxLength: 4 },
          ),
        },
        { requiredKeys: ['title'], noNullPrototype: true },
      ),
      { minLength: 1, maxLength: 4 },
    ),
  },
  { requiredKeys: ['plans'], noNullPrototype: true },
);

/** A valid, normalized ask block: option ids and refs unique. */
export const validAskArb: fc.Arbitrary<AskBlock> = fc.record(
  {
    question: textArb,
    options: fc.uniqueArray(
      fc.record({ id: tokenArb, label: textArb, description: textArb }, { requiredKeys: ['id', 'label'], noNullPrototype: true }),
      { selector: (option) => option.id, minLength: 1, maxLength: 5 },
    ),
    refs: fc.uniqueArray(textArb, { minLength: 1, maxLength: 5 }),
  },
  { requiredKeys: ['question'], noNullPrototype: true },
);

/** Values a model or an attacker might put where a block string belongs. */
const junkArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    undefined,
    null,
    true,
    0,
    7,
    Number.NaN,
    '',
    '   ',
    '\n\t',
    'x'.repeat(BLOCK_LIMITS.maxTextLength + 1),
    'bell\u0007',
    '\ud800',
  ),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
);

/** A string that is valid once trimmed, padded with whitespace. */
const paddedTextArb = fc
  .tuple(fc.constantFrom('', ' ', '\n', '\t ', '\u00a0', '\ufeff'), blockTextArb(64), fc.constantFrom('', ' ', '\r\n', '\u2028'))
  .map(([before, text, after]) => before + text + after);

const messyTextArb = fc.oneof({ weight: 3, arbitrary: paddedTextArb }, { weight: 1, arbitrary: junkArb });

/** `arbitrary` four times in five, junk otherwise. */
function mostly<T>(arbitrary: fc.Arbitrary<T>, junk: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary }, { weight: 1, arbitrary: junk });
}

/** Report-like JSON with padding, blanks, wrong types, unknown keys and `__proto__` keys. */
export const messyReportArb: fc.Arbitrary<unknown> = mostly(
  fc.record(
    {
      title: messyTextArb,
      extra: junkArb,
      plans: mostly(
        fc.array(
          mostly(
            fc.record(
              {
                slug: messyTextArb,
                title: messyTextArb,
                status: messyTextArb,
                summary: messyTextArb,
                items: mostly(
                  fc.array(
                    mostly(
                      fc.record({ id: messyTextArb, text: messyTextArb, status: messyTextArb, ref: messyTextArb }, { requiredKeys: [] }),
                      junkArb,
                    ),
                    { maxLength: 4 },
                  ),
                  junkArb,
                ),
              },
              { requiredKeys: [] },
            ),
            junkArb,
          ),
          { maxLength: 4 },
        ),
        junkArb,
      ),
    },
    { requiredKeys: [] },
  ),
  junkArb,
);

/** Ask-like JSON with padding, blanks, wrong types, repeated ids and refs. */
export const messyAskArb: fc.Arbitrary<unknown> = mostly(
  fc.record(
    {
      question: messyTextArb,
      extra: junkArb,
      options: mostly(
        fc.array(
          mostly(
            fc.record(
              { id: fc.oneof(fc.constantFrom('a', ' a ', 'b'), messyTextArb), label: messyTextArb, description: messyTextArb },
              { requiredKeys: [] },
            ),
            junkArb,
          ),
          { maxLength: 5 },
        ),
        junkArb,
      ),
      refs: fc.oneof(fc.array(fc.oneof(fc.constantFrom('r', ' r'), messyTextArb), { maxLength: 5 }), junkArb),
    },
    { requiredKeys: [] },
  ),
  junkArb,
);

/** Anything at all, with keys that often name block fields and prototype paths. */
export const anythingArb: fc.Arbitrary<unknown> = fc.anything({
  withNullPrototype: true,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  stringUnit: 'grapheme',
  maxDepth: 5,
  key: fc.oneof(
    fc.constantFrom(
      'title',
      'plans',
      'slug',
      'status',
      'summary',
      'items',
      'id',
      'text',
      'ref',
      'question',
      'options',
      'label',
      'description',
      'refs',
      '__proto__',
      'constructor',
      'prototype',
      'length',
    ),
    fc.string(),
  ),
});
