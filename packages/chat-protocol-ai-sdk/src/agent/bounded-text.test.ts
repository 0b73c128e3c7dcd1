import { isCleanText } from '@papercusp/chat-protocol-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedText, splitText } from './bounded-text.js';

// Any UTF-16 text: lone surrogates and control characters included.
const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 60 });

describe('boundedText: text the agent writes into v1 fields passes core’s check', () => {
  it('is clean v1 text within the bound for any text and bound', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 2, max: 40 }), (text, max) => {
        const bounded = boundedText(text, max);
        expect(isCleanText(bounded)).toBe(true);
        expect(bounded.length).toBeLessThanOrEqual(max);
      }),
    );
  });

  it.each([
    ['clean text within the bound, unchanged', 'Lyon, 21 °C\n', 20, 'Lyon, 21 °C\n'],
    ['a control character and lone surrogates, replaced', 'a\u0000b\udc00c\ud800', 20, 'a\ufffdb\ufffdc\ufffd'],
    ['text past the bound, cut with an ellipsis', 'abcdefgh', 5, 'abcd…'],
    ['a cut that would split a surrogate pair, one code unit earlier', 'abc😀def', 5, 'abc…'],
  ])('keeps %s', (_name, text, max, expected) => {
    expect(boundedText(text, max)).toBe(expected);
  });
});

describe('splitText: a model delta past v1’s text bound', () => {
  it('splits any text into pieces within the bound that join back exactly, none ending inside a surrogate pair', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 2, max: 12 }), (text, max) => {
        const pieces = splitText(text, max);
        expect(pieces.join('')).toBe(text);
        for (const piece of pieces) {
          expect(piece.length).toBeGreaterThan(0);
          expect(piece.length).toBeLessThanOrEqual(max);
        }
        for (const [index, piece] of pieces.entries()) {
          const next = pieces[index + 1];
          const last = piece.charCodeAt(piece.length - 1);
          if (next !== undefined && last >= 0xd800 && last <= 0xdbff)
            expect(next.charCodeAt(0) >= 0xdc00 && next.charCodeAt(0) <= 0xdfff).toBe(false);
        }
      }),
    );
  });

  it('has no piece for empty text', () => {
    expect(splitText('', 8)).toEqual([]);
  });
});
