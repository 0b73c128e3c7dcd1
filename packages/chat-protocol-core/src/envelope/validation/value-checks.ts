/**
 * The leaf checks both rule tables build on, each with the message the
 * validator reports: ids, booleans, counts and zoned timestamps, the same in
 * every text mode, and the text checks (names, clean text, bounded JSON),
 * built per mode: for a screened text (one `isScreenedJsonText` passed) strings
 * need only be well-formed Unicode. It owns no field: the tables say where
 * each applies.
 */
import { CHAT_LIMITS } from '../../primitives/limits.js';
import {
  isChatId,
  isCleanText,
  isCount,
  isSafeJson,
  isScreenedSafeJson,
  isWellFormedText,
  isZonedTimestamp,
} from '../../primitives/primitives.js';
import { when, type Check } from './rules.js';

/** A v1 id. */
export const id = /* @__PURE__ */ when(isChatId, 'expected an id: 1–256 printable ASCII characters without spaces');
/** A boolean. */
export const boolean = /* @__PURE__ */ when((value) => typeof value === 'boolean', 'expected a boolean');
/** A non-negative safe integer. */
export const count = /* @__PURE__ */ when(isCount, 'expected a non-negative integer');
/** An RFC 3339 date-time with `Z` or `±HH:MM`. */
export const timestamp = /* @__PURE__ */ when(isZonedTimestamp, 'expected an RFC 3339 date-time with Z or ±HH:MM');

/**
 * How one text mode judges a string's characters: clean text (`isCleanText`),
 * or, for a screened text, well-formed Unicode only (`isWellFormedText`).
 */
export function textRule(screened: boolean): (value: string) => boolean {
  return screened ? isWellFormedText : isCleanText;
}

/** Non-empty text of at most `CHAT_LIMITS.maxNameLength` characters that `isText` accepts. */
export function nameCheck(isText: (value: string) => boolean): Check {
  return when(
    (value) => typeof value === 'string' && value.length > 0 && value.length <= CHAT_LIMITS.maxNameLength && isText(value),
    'expected non-empty clean text of at most 256 characters',
  );
}

/** Checks of text of `min`–`max` characters that `isText` accepts. */
export function textCheck(isText: (value: string) => boolean): (max: number, min?: number) => Check {
  return (max, min = 0) =>
    when(
      (value) => typeof value === 'string' && value.length <= max && value.length >= min && isText(value),
      `expected clean text of ${min}–${max} characters`,
    );
}

/** Bounded JSON data; `screened`: parsed from a screened text, whose strings need no scan. */
export function jsonCheck(screened: boolean): Check {
  return when((value) => value !== undefined && (screened ? isScreenedSafeJson(value) : isSafeJson(value)), 'expected bounded JSON data');
}
