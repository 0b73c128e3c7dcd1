/**
 * Canonical JSON text: the one way the packages turn a value into text they can
 * compare, so two values with the same content in another key order read as
 * the same (the reducer's content digest, the resolver's "same answer", the
 * testkit's "same delivery"). It owns no hashing and no validation: callers
 * decide what is JSON data (`isSafeJson`) before comparing.
 */
import { isPlainObject } from './primitives.js';

/**
 * The JSON text of `value` with the keys of every plain object sorted (by
 * UTF-16 code units, as `Array.prototype.sort` orders strings), arrays kept in
 * order: equal JSON data gives equal text, whatever the order its keys were
 * written in. For JSON data (see `isSafeJson`) it is JSON text that
 * `JSON.parse` reads back as the same data; unlike `JSON.stringify`, it puts
 * integer-like keys (`"10"`, `"2"`) in the same sorted order as the rest. Other values
 * still get a deterministic text, which need not be JSON: `undefined` (also
 * as a property's value) and functions write `undefined`, and an object that
 * is not plain (a `Date`, a class instance) is written by `JSON.stringify` as
 * it stands. Throws only what `JSON.stringify` throws (a cycle, a `bigint`, a
 * throwing getter or `toJSON`); never mutates `value`.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
