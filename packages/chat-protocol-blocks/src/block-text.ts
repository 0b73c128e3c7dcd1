/**
 * The one rule every string in a block follows: trimmed, not blank, bounded,
 * well-formed Unicode without C0 controls other than tab, LF and CR. The
 * parsers normalize to it (a string that cannot meet it is absent); the schemas
 * check it. It owns no structure.
 */
import { isCleanText } from '@papercusp/chat-protocol-core';
import * as z from 'zod/v4/mini';
import { readOwnValue } from './defensive-read.js';
import { customCheck } from './portable-schema.js';

/**
 * `value` trimmed when it is a string that, trimmed, is non-empty, at most `max`
 * code units and clean text; `undefined` for anything else. Numbers, boxed
 * strings and other non-strings are never coerced.
 */
export function normalizeBlockText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  // trim() scans only the edges, so a huge string costs little before the bound refuses it.
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > max || !isCleanText(trimmed)) return undefined;
  return trimmed;
}

/** The own property `key` of `source` as block text ({@link normalizeBlockText}), or `undefined`. */
export function readBlockText(source: object, key: string, max: number): string | undefined {
  return normalizeBlockText(readOwnValue(source, key), max);
}

/**
 * Schema of a block string of at most `max` code units: exactly the strings
 * {@link normalizeBlockText} returns unchanged.
 */
export function blockTextSchema(max: number) {
  return z.string().check(
    customCheck((value: string, report) => {
      const trimmed = value.trim();
      if (trimmed.length === 0) {
        report({ message: 'must not be blank' });
      } else if (trimmed !== value) {
        report({ message: 'must not start or end with whitespace' });
      }
      if (!isCleanText(value)) report({ message: 'must not contain control characters or lone surrogates' });
    }),
    z.maxLength(max),
  );
}
