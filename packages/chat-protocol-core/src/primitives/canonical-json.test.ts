import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../index.js';
import { runs } from '../../../../test-support/property-runs.js';
import { reverseKeys } from '../../../../test-support/reverse-keys.js';

describe('canonicalJson: one canonical JSON text for the packages (issue 14, "canonicalJson written twice")', () => {
  it('sorts the keys of every object and keeps arrays in order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: null }, 'x'], '': true })).toBe('{"":true,"a":[{"c":null,"d":2},"x"],"b":1}');
  });

  it('gives equal text for equal JSON data whatever its key order', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(reverseKeys(value))).toBe(canonicalJson(value));
      }),
      { numRuns: runs(500) },
    );
  });

  it('is JSON text that reads back as the same JSON data', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: runs(500) },
    );
  });

  it('orders keys by code unit, integer-like keys included (JSON.stringify would put those first)', () => {
    expect(canonicalJson({ b: 0, 10: 0, 2: 0, '': 0 })).toBe('{"":0,"10":0,"2":0,"b":0}');
  });

  it('reads an own __proto__ key as data, never as a prototype', () => {
    const value = JSON.parse('{"__proto__":{"b":2,"a":1},"z":0}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"a":1,"b":2},"z":0}');
  });

  it('writes values that are not JSON data deterministically, as the reducer digest always has', () => {
    expect(canonicalJson(undefined)).toBe('undefined');
    expect(canonicalJson({ b: undefined, a: 1 })).toBe('{"a":1,"b":undefined}');
    expect(canonicalJson([undefined])).toBe('[undefined]');
    expect(canonicalJson({ at: new Date('2026-12-01T00:00:00.000Z') })).toBe('{"at":"2026-12-01T00:00:00.000Z"}');
  });

  it('never mutates its input', () => {
    const value = { b: [2, 1], a: { d: 1, c: 2 } };
    canonicalJson(value);
    expect(Object.keys(value)).toEqual(['b', 'a']);
    expect(value).toEqual({ b: [2, 1], a: { d: 1, c: 2 } });
  });
});
