/**
 * The scalar rules of v1 — ids, zoned timestamps, clean text, safe hrefs and
 * bounded free JSON — each as a plain predicate (the hot path) and as a zod/mini
 * schema built on it (the documented shape and the JSON Schema export).
 * It owns no envelope or event structure.
 */
import * as z from 'zod/v4/mini';
import { integerSchema } from './portable-zod.js';
import { CHAT_LIMITS } from './limits.js';

const ID_PATTERN = /^[\x21-\x7e]+$/;
// The same rule as a search for one bad character: a valid id then never
// matches, and a failed search skips the match bookkeeping a successful one pays.
const NON_ID_CHARACTER = /[^\x21-\x7e]/;
// C0 controls other than tab, LF and CR, or any surrogate: text with neither is clean.
const SUSPECT_TEXT = /[\0-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]/;
const CONTROL_CHARACTER = /[\0-\x08\x0b\x0c\x0e-\x1f]/;
// A high surrogate not followed by a low one; a low surrogate not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/;
// `String.prototype.isWellFormed` (ES2024) answers without reading a string
// that holds no character past U+00FF, and scans the others faster than a
// regex; runtimes without it (Hermes, older browsers) take the regex.
const HAS_IS_WELL_FORMED = /* @__PURE__ */ (() => typeof (String.prototype as { isWellFormed?: unknown }).isWellFormed === 'function')();
// The shape only; the calendar and `-00:00` are checked by isZonedTimestamp.
const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;
const APP_PATH_PATTERN = /^\/(?![/\\])[\x21-\x5b\x5d-\x7e]*$/;
const HTTPS_URL_PATTERN = /^https:\/\/[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?(?:[/?#][\x21-\x5b\x5d-\x7e]*)?$/;
/** Keys free JSON may not carry anywhere: the classic prototype-pollution paths. */
export const FORBIDDEN_JSON_KEYS: ReadonlySet<string> = /* @__PURE__ */ new Set(['__proto__', 'constructor', 'prototype']);

/** 1–256 printable ASCII characters without spaces. */
export function isChatId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= CHAT_LIMITS.maxIdLength && !NON_ID_CHARACTER.test(value);
}

/**
 * No lone surrogate: every high surrogate is followed by a low one and every
 * low one preceded by a high one. Says nothing about control characters.
 */
export function isWellFormedText(value: string): boolean {
  return HAS_IS_WELL_FORMED ? (value as string & { isWellFormed(): boolean }).isWellFormed() : !LONE_SURROGATE.test(value);
}

/** Well-formed Unicode without C0 control characters other than tab, LF and CR. False for a non-string; never throws. */
export function isCleanText(value: string): boolean {
  // Most text has no surrogate and no control character at all: one scan for a
  // plain character class settles it, and only text with either pays for the
  // exact checks. A non-string is never coerced: coercion runs the
  // value's own code (`toString`, `Symbol.toPrimitive`), which may throw.
  return typeof value === 'string' && (!SUSPECT_TEXT.test(value) || (!CONTROL_CHARACTER.test(value) && isWellFormedText(value)));
}

/** Days in `month` (1–12) of `year` in the proleptic Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/**
 * RFC 3339 date-time with an explicit zone: `Z` or `±HH:MM` (upper-case `T` and
 * `Z`; `-00:00`, "offset unknown", is refused), on a real calendar day.
 * Scanned by position, not with a regex: every envelope carries one, so it sits
 * on the hot path. Each character is read once, into a local: a read is a
 * dispatch on how the engine stores the string, and the reads are most of the
 * cost, so the function does no more of them than the rule needs and calls no
 * helpers an engine might not inline.
 */
export function isZonedTimestamp(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const length = value.length;
  if (length < 20 || length > 35) return false;
  // `YYYY-MM-DDTHH:MM:SS`: fourteen digits and five separators at fixed places.
  const year1 = value.charCodeAt(0) - 48;
  const year2 = value.charCodeAt(1) - 48;
  const year3 = value.charCodeAt(2) - 48;
  const year4 = value.charCodeAt(3) - 48;
  const month1 = value.charCodeAt(5) - 48;
  const month2 = value.charCodeAt(6) - 48;
  const day1 = value.charCodeAt(8) - 48;
  const day2 = value.charCodeAt(9) - 48;
  const hour1 = value.charCodeAt(11) - 48;
  const hour2 = value.charCodeAt(12) - 48;
  const minute1 = value.charCodeAt(14) - 48;
  const minute2 = value.charCodeAt(15) - 48;
  const second1 = value.charCodeAt(17) - 48;
  const second2 = value.charCodeAt(18) - 48;
  // A digit d has d ≥ 0 and 9 − d ≥ 0; one negative term sets the sign bit of the OR.
  if (
    (year1 |
      year2 |
      year3 |
      year4 |
      month1 |
      month2 |
      day1 |
      day2 |
      hour1 |
      hour2 |
      minute1 |
      minute2 |
      second1 |
      second2 |
      (9 - year1) |
      (9 - year2) |
      (9 - year3) |
      (9 - year4) |
      (9 - month1) |
      (9 - month2) |
      (9 - day1) |
      (9 - day2) |
      (9 - hour1) |
      (9 - hour2) |
      (9 - minute1) |
      (9 - minute2) |
      (9 - second1) |
      (9 - second2)) <
      0 ||
    value.charCodeAt(4) !== 45 ||
    value.charCodeAt(7) !== 45 ||
    value.charCodeAt(10) !== 84 ||
    value.charCodeAt(13) !== 58 ||
    value.charCodeAt(16) !== 58
  ) {
    return false;
  }
  const month = month1 * 10 + month2;
  const day = day1 * 10 + day2;
  if (
    month < 1 ||
    month > 12 ||
    day < 1 ||
    (day > 28 && day > daysInMonth(year1 * 1000 + year2 * 100 + year3 * 10 + year4, month)) ||
    hour1 * 10 + hour2 > 23 ||
    minute1 > 5 ||
    second1 > 5
  ) {
    return false;
  }
  let index = 19;
  let zone = value.charCodeAt(19);
  if (zone === 46) {
    // A fraction of 1–9 digits; `zone` ends as the first character after it.
    do zone = value.charCodeAt(++index);
    while (zone >= 48 && zone <= 57);
    if (index === 20 || index > 29) return false;
  }
  if (zone === 90) return index + 1 === length;
  if ((zone !== 43 && zone !== 45) || index + 6 !== length || value.charCodeAt(index + 3) !== 58) return false;
  const zoneHour1 = value.charCodeAt(index + 1) - 48;
  const zoneHour2 = value.charCodeAt(index + 2) - 48;
  const zoneMinute1 = value.charCodeAt(index + 4) - 48;
  const zoneMinute2 = value.charCodeAt(index + 5) - 48;
  if (
    (zoneHour1 | zoneHour2 | zoneMinute1 | zoneMinute2 | (9 - zoneHour1) | (9 - zoneHour2) | (9 - zoneMinute1) | (9 - zoneMinute2)) < 0 ||
    zoneHour1 * 10 + zoneHour2 > 23 ||
    zoneMinute1 > 5
  ) {
    return false;
  }
  // `-00:00` says the offset is unknown.
  return !(zone === 45 && zoneHour1 === 0 && zoneHour2 === 0 && zoneMinute1 === 0 && zoneMinute2 === 0);
}

/** `YYYY-MM-DD` on a real calendar day. Two such strings order as dates when compared as strings. */
export function isCalendarDate(value: unknown): value is string {
  // The date part of a timestamp is the same rule; dates are rare (card bounds
  // and answers), so the one scanner serves both.
  return typeof value === 'string' && value.length === 10 && isZonedTimestamp(`${value}T00:00:00Z`);
}

/** An app-relative path (`/…`, never `//…`) or an `https:` URL without credentials. */
export function isSafeHref(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    value.length <= CHAT_LIMITS.maxHrefLength &&
    (APP_PATH_PATTERN.test(value) || HTTPS_URL_PATTERN.test(value))
  );
}

/**
 * A non-negative safe integer, `-0` excluded: JSON writes `-0` as `0`, so a
 * count read as `-0` would not survive a round trip unchanged (issue 12).
 */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0);
}

/** A positive safe integer. */
export function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

/** `Object.hasOwn` for ES2020 runtimes (Hermes): an own property, never an inherited one. */
export function hasOwn(object: object, key: PropertyKey): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/** A plain object: created by a literal or `JSON.parse`, not an array, class instance or null. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * JSON data within the v1 bounds: finite numbers, clean strings and keys, no
 * `__proto__`/`constructor`/`prototype` keys, nesting at most `maxJsonDepth`,
 * plain objects and arrays only, none with a `toJSON` method. Never throws: a
 * value that cannot be read (a throwing getter, a Proxy whose traps throw, a
 * revoked Proxy) is not safe JSON.
 */
export function isSafeJson(value: unknown): boolean {
  try {
    return isSafeJsonAt(value, 0, false);
  } catch {
    return false;
  }
}

/**
 * {@link isSafeJson} for a value `JSON.parse` returned from a text that
 * `isScreenedJsonText` passed: its strings and keys cannot hold a control
 * character, so only their well-formedness is left to check.
 */
export function isScreenedSafeJson(value: unknown): boolean {
  return isSafeJsonAt(value, 0, true);
}

function isSafeJsonAt(value: unknown, depth: number, screened: boolean): boolean {
  switch (typeof value) {
    case 'string':
      return screened ? isWellFormedText(value) : isCleanText(value);
    case 'number':
      return Number.isFinite(value);
    case 'boolean':
      return true;
    case 'object': {
      if (value === null) return true;
      if (depth >= CHAT_LIMITS.maxJsonDepth) return false;
      // `JSON.stringify` reads `toJSON` on every object: one that has it as a
      // function (inherited, or from a Proxy's `get`) is not written as itself,
      // and a `get` trap that throws would throw there, even on an empty object.
      if (!screened && typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
      if (Array.isArray(value)) {
        for (const item of value) if (!isSafeJsonAt(item, depth + 1, screened)) return false;
        return true;
      }
      if (!isPlainObject(value)) return false;
      for (const key of Object.keys(value)) {
        if (
          FORBIDDEN_JSON_KEYS.has(key) ||
          !(screened ? isWellFormedText(key) : isCleanText(key)) ||
          !isSafeJsonAt(value[key], depth + 1, screened)
        ) {
          return false;
        }
      }
      return true;
    }
    default:
      return false;
  }
}

/** A plain object that is {@link isSafeJson}. */
export function isSafeJsonObject(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && isSafeJson(value);
}

/**
 * True when no string of a JSON text that `JSON.parse` accepted can hold a C0
 * control character. JSON forbids raw controls inside strings, so one can only
 * come from an escape: `\b`, `\f` or `\uXXXX` (`\n`, `\r`, `\t` give the three
 * allowed ones). A text without those escapes passes; any `\u` fails, though
 * most name a harmless character, and leaves the strings to the full check.
 * Only valid for text `JSON.parse` accepted: there every backslash opens a
 * two-character escape inside a string, which is what lets it skip two at a time.
 */
export function isScreenedJsonText(text: string): boolean {
  let index = text.indexOf('\\');
  while (index !== -1) {
    const escaped = text.charCodeAt(index + 1);
    if (escaped === 98 || escaped === 102 || escaped === 117) return false; // b, f, u
    index = text.indexOf('\\', index + 2);
  }
  return true;
}

// Schemas. Each is the documented form of the predicate above it; the
// predicates stay the single definition of the rule.

/** Schema of a v1 id. */
export const ChatIdSchema = /* @__PURE__ */ (() =>
  z.string().check(z.minLength(1), z.maxLength(CHAT_LIMITS.maxIdLength), z.regex(ID_PATTERN)))();

/** Schema of an RFC 3339 timestamp with an explicit zone. */
export const ZonedTimestampSchema = /* @__PURE__ */ (() =>
  z.string().check(z.regex(TIMESTAMP_PATTERN), z.refine(isZonedTimestamp, 'not a real zoned RFC 3339 date-time')))();

/** Schema of a clean string of at most `max` code units, at least `min`. */
export function textSchema(max: number, min = 0) {
  return z.string().check(z.minLength(min), z.maxLength(max), z.refine(isCleanText, 'control character or lone surrogate'));
}

/** Schema of a safe href. */
export const SafeHrefSchema = /* @__PURE__ */ (() =>
  z.string().check(z.maxLength(CHAT_LIMITS.maxHrefLength), z.refine(isSafeHref, 'href must be an app-relative path or an https: URL')))();

/** Schema of a positive safe integer. */
export const SeqSchema = /* @__PURE__ */ (() => integerSchema().check(z.positive()))();

/** Schema of a non-negative safe integer, `-0` excluded (see {@link isCount}). */
export const CountSchema = /* @__PURE__ */ (() =>
  integerSchema().check(
    z.nonnegative(),
    z.refine((value) => !Object.is(value, -0), 'expected a non-negative integer, not -0'),
  ))();

/** Schema of bounded free JSON. */
export const SafeJsonSchema = /* @__PURE__ */ (() =>
  z.unknown().check(z.refine((value) => value !== undefined && isSafeJson(value), 'not bounded JSON data')))();

/**
 * Schema of a bounded free JSON object. A custom check on the input, not
 * `z.record`: a record parse copies keys by assignment, so an own `__proto__`
 * key would vanish (and set the copy's prototype) before any refinement saw it.
 */
export const SafeJsonObjectSchema = /* @__PURE__ */ (() =>
  z.custom<Record<string, unknown>>(isSafeJsonObject, 'not a bounded JSON object'))();
