/**
 * The one rule every string in a block follows: trimmed, not blank, bounded,
 * well-formed Unicode without C0 controls other than tab, LF and CR. The
 * parsers normalize to it (a string that cannot meet it is absent); core's
 * `trimmedTextSchema` checks it. It owns no structure.
 */
import { isCleanText } from '@papercusp/chat-protocol-core';
import { readOwnValue } from './defensive-read.js';

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
