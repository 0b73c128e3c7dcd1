import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { timestampArb } from '../../../../test-support/v1-arbitraries.js';
import { CHAT_LIMITS } from './limits.js';
import {
  isCalendarDate,
  isChatId,
  isCleanText,
  isSafeHref,
  isSafeJson,
  isScreenedJsonText,
  isWellFormedText,
  isZonedTimestamp,
} from './primitives.js';
import { runs } from '../../../../test-support/property-runs.js';

// A slow, obviously right reading of the timestamp rule, to hold the
// position scanner in primitives.ts to it.
function referenceIsZonedTimestamp(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|([+-])(\d{2}):(\d{2}))$/.exec(value);
  if (match === null) return false;
  const [, year, month, day, hour, minute, second, , , sign, zoneHours, zoneMinutes] = match.map((part) => part ?? '');
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const realDay = date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  const clock = Number(hour) <= 23 && Number(minute) <= 59 && Number(second) <= 59;
  const zone =
    sign === '' || (Number(zoneHours) <= 23 && Number(zoneMinutes) <= 59 && !(sign === '-' && zoneHours === '00' && zoneMinutes === '00'));
  return realDay && clock && zone;
}

// Strings near `base`: one of `inserts` put in at a generated position, replacing a character half the time.
function mutationsOf(base: fc.Arbitrary<string>, inserts: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(base, fc.nat(), fc.constantFrom(...inserts)).map(([value, at, insert]) => {
    const position = at % (value.length + 1);
    return value.slice(0, position) + insert + value.slice(position + (at % 2));
  });
}

describe('isZonedTimestamp', () => {
  it.each([
    ['2026-11-29T12:00:00Z', true],
    ['2026-11-29T12:00:00.5+01:00', true],
    ['2024-02-29T00:00:00Z', true],
    ['2100-02-29T00:00:00Z', false],
    ['2000-02-29T00:00:00Z', true],
    ['2026-04-31T00:00:00Z', false],
    ['2026-11-29T12:00:00', false],
    ['2026-11-29T12:00:00z', false],
    ['2026-11-29t12:00:00Z', false],
    ['2026-11-29T12:00:00.Z', false],
    ['2026-11-29T12:00:00.1234567890Z', false],
    ['2026-11-29T12:00:60Z', false],
    ['2026-11-29T12:60:00Z', false],
    ['2026-11-29T12:00:00+24:00', false],
    ['2026-11-29T12:00:00+00:00', true],
    ['2026-11-29T12:00:00-00:00', false],
    ['2026-11-29T12:00:00+0100', false],
    ['+2026-11-29T12:00:00Z', false],
    ['2026-11-29T12:00:00Z ', false],
    ['٢٠٢٦-11-29T12:00:00Z', false],
  ])('%s → %s', (value, expected) => {
    expect(isZonedTimestamp(value)).toBe(expected);
  });

  it('agrees with a reference reading on generated and mutated timestamps', () => {
    const mutated = mutationsOf(timestampArb, ['0', '9', ':', '-', 'T', 'Z', '.', '+', 'x', '', '00']);
    fc.assert(
      fc.property(fc.oneof(timestampArb, mutated), (value) => {
        // Years below 100 are valid RFC 3339 but Date.UTC maps them to 19xx; skip those in the reference.
        fc.pre(!/^00\d\d/.test(value));
        expect(isZonedTimestamp(value)).toBe(referenceIsZonedTimestamp(value));
      }),
      { numRuns: runs(2_000) },
    );
  });
});

// A slow, obviously right reading of the calendar-date rule (`YYYY-MM-DD` on a
// real day of the proleptic Gregorian calendar, years 0000–9999).
function referenceIsCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

describe('isCalendarDate (card date bounds and answers)', () => {
  it.each([
    ['2026-11-29', true],
    ['2024-02-29', true],
    ['2000-02-29', true],
    ['0000-02-29', true],
    ['0001-01-01', true],
    ['9999-12-31', true],
    ['2100-02-29', false],
    ['2026-04-31', false],
    ['2026-00-10', false],
    ['2026-13-01', false],
    ['2026-01-00', false],
    ['2026-1-01', false],
    ['2026/01/01', false],
    ['2026-01-01T00:00:00Z', false],
    ['２０２６-01-01', false],
    ['', false],
  ])('%s → %s', (value, expected) => {
    expect(isCalendarDate(value)).toBe(expected);
  });

  it('agrees with a reference reading on generated and mutated dates, and refuses non-strings', () => {
    const pad = (value: number, length: number) => String(value).padStart(length, '0');
    const dateArb = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
      .map(([year, month, day]) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`);
    const mutated = mutationsOf(dateArb, ['0', '9', '-', 'T', 'Z', ' ', 'x', '', '00', '/', '\u0660']);
    fc.assert(
      fc.property(fc.oneof(dateArb, mutated, fc.string({ maxLength: 12 })), (value) => {
        expect(isCalendarDate(value)).toBe(referenceIsCalendarDate(value));
      }),
      { numRuns: runs(5_000) },
    );
    for (const value of [undefined, null, 20261129, ['2026-11-29'], { toString: () => '2026-11-29' }])
      expect(isCalendarDate(value)).toBe(false);
  });
});

describe('isChatId, isCleanText, isSafeHref, isSafeJson', () => {
  it('ids are 1–256 printable ASCII characters without spaces', () => {
    expect(isChatId('a')).toBe(true);
    expect(isChatId('~'.repeat(CHAT_LIMITS.maxIdLength))).toBe(true);
    expect(isChatId('~'.repeat(CHAT_LIMITS.maxIdLength + 1))).toBe(false);
    expect(isChatId('')).toBe(false);
    expect(isChatId('a b')).toBe(false);
    expect(isChatId('a\u007f')).toBe(false);
    expect(isChatId(1)).toBe(false);
  });

  it('clean text allows tab, LF, CR and pairs; refuses other C0 controls and lone surrogates', () => {
    expect(isCleanText('a\tb\nc\r😀')).toBe(true);
    for (const bad of ['\u0000', '\u0007', '\u000b', '\u001f', '\ud83d', '\ude00', 'a\ude00\ud83d']) {
      expect(isCleanText(bad)).toBe(false);
    }
  });

  it.each([
    ['/', true],
    ['/a/b?c=d#e', true],
    ['https://example.com', true],
    ['https://a.example:8443/x?y#z', true],
    ['https://example.com@evil.example', false],
    ['https://', false],
    ['https://exa mple.com', false],
    ['HTTPS://example.com', false],
    ['//evil.example', false],
    ['/\\evil.example', false],
    ['/a\\b', false],
    ['javascript:alert(1)', false],
    ['mailto:a@b.c', false],
    ['', false],
    [`/${'a'.repeat(CHAT_LIMITS.maxHrefLength)}`, false],
  ])('href %s → %s', (href, expected) => {
    expect(isSafeHref(href)).toBe(expected);
  });

  it('free JSON refuses prototype keys at any depth, non-finite numbers and depth past the bound', () => {
    expect(isSafeJson({ a: [{ b: 'c' }] })).toBe(true);
    expect(isSafeJson(JSON.parse('{"a":{"__proto__":1}}'))).toBe(false);
    expect(isSafeJson({ a: [{ constructor: 1 }] })).toBe(false);
    expect(isSafeJson({ prototype: 1 })).toBe(false);
    expect(isSafeJson(Number.NaN)).toBe(false);
    expect(isSafeJson(undefined)).toBe(false);
    expect(isSafeJson(new Date())).toBe(false);
    expect(isSafeJson({ 'a\u0000': 1 })).toBe(false);
  });

  it('free JSON is what JSON.stringify writes as itself: no toJSON method, and no Proxy whose get throws, even an empty one', () => {
    const throwing = (): never => {
      throw new Error('hostile');
    };
    expect(isSafeJson({ toJSON: 1 })).toBe(true);
    expect(isSafeJson(Object.assign(Object.create(null) as object, { a: 1 }))).toBe(true);
    expect(isSafeJson(new Proxy({}, { get: throwing }))).toBe(false);
    expect(isSafeJson([new Proxy({}, { get: throwing })])).toBe(false);
    expect(isSafeJson(new Proxy({}, { get: (_, key) => (key === 'toJSON' ? () => 'other' : undefined) }))).toBe(false);
  });
});

// Characters at the edges of the clean-text rule, and the escapes JSON writes for them.
const EDGE_CHARACTERS = [
  'a',
  'é',
  '\t',
  '\n',
  '\r',
  '\b',
  '\f',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\\',
  '"',
  '/',
  '\u2028',
  '\ud83d',
  '\ude00',
  '😀',
];
const edgeTextArb = fc.array(fc.constantFrom(...EDGE_CHARACTERS), { maxLength: 8 }).map((characters) => characters.join(''));
// JSON with such strings as values and keys, its lone surrogates written raw (a
// JS string may hold them, and JSON.parse takes them) rather than escaped.
const edgeJsonTextArb = fc
  .oneof(edgeTextArb, fc.dictionary(edgeTextArb, fc.oneof(edgeTextArb, fc.array(edgeTextArb, { maxLength: 3 })), { maxKeys: 3 }))
  .map((value) =>
    JSON.stringify(value).replace(/\\u(d[89a-f][0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
  );
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, entry]) => [key, ...stringsOf(entry)])
      : [];

describe('isScreenedJsonText: one search of the JSON text stands in for a control-character scan of every string (issue 12)', () => {
  it.each([
    ['"plain"', true],
    ['"a\\nb\\rc\\td"', true],
    ['"quote \\" slash \\/ backslash \\\\"', true],
    ['"\\\\b is a backslash and a b"', true],
    ['"\\b"', false],
    ['"\\f"', false],
    ['"\\u0041"', false],
    ['"\\\\\\f"', false],
    ['{"k\\u0000":1}', false],
  ])('%s → %s', (text, expected) => {
    expect(isScreenedJsonText(text)).toBe(expected);
  });

  it('passes a text only when no string or key JSON.parse makes of it holds a control character', () => {
    fc.assert(
      fc.property(edgeJsonTextArb, (text) => {
        const parsed: unknown = JSON.parse(text);
        const hasControl = stringsOf(parsed).some((string) => /[\0-\x08\x0b\x0c\x0e-\x1f]/.test(string));
        if (isScreenedJsonText(text)) expect({ text, hasControl }).toEqual({ text, hasControl: false });
      }),
      { numRuns: runs(1_000) },
    );
  });

  it('relies on JSON: raw control characters inside strings are refused by JSON.parse itself', () => {
    for (const control of ['\u0000', '\b', '\f', '\u001f', '\n']) expect(() => JSON.parse(`"a${control}"`)).toThrow(SyntaxError);
  });
});

describe('isWellFormedText and isCleanText (issue 12: the clean-text scan)', () => {
  const referenceIsWellFormed = (text: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?:^|[^\ud800-\udbff])[\udc00-\udfff]/.test(text);
  const referenceIsClean = (text: string) => referenceIsWellFormed(text) && !/[\0-\x08\x0b\x0c\x0e-\x1f]/.test(text);

  it('agree with a reference reading of the rule on strings made of its edge characters', () => {
    fc.assert(
      fc.property(edgeTextArb, (text) => {
        expect({ text, wellFormed: isWellFormedText(text), clean: isCleanText(text) }).toEqual({
          text,
          wellFormed: referenceIsWellFormed(text),
          clean: referenceIsClean(text),
        });
      }),
      { numRuns: runs(1_000) },
    );
  });

  it('give the same verdicts on a runtime without String.prototype.isWellFormed (Hermes)', async () => {
    const prototype = String.prototype as { isWellFormed?: () => boolean };
    const native = prototype.isWellFormed;
    delete prototype.isWellFormed;
    try {
      vi.resetModules();
      const fallback = await import('./primitives.js');
      fc.assert(
        fc.property(edgeTextArb, (text) => {
          expect([fallback.isWellFormedText(text), fallback.isCleanText(text)]).toEqual([
            referenceIsWellFormed(text),
            referenceIsClean(text),
          ]);
        }),
        { numRuns: runs(1_000) },
      );
    } finally {
      if (native !== undefined) prototype.isWellFormed = native;
      vi.resetModules();
    }
  });
});
