/**
 * Reading an untrusted AG-UI value exactly once, as plain data: a copy of its
 * own enumerable data properties (plain objects and dense arrays, strings,
 * numbers, booleans, null), so no getter ever runs, no Proxy trap runs twice,
 * and a value checked is the value used. It owns no rule about what the data
 * means: the decoder's mapping and core's strict parser judge the copy.
 */
import { CHAT_LIMITS } from '@papercusp/chat-protocol-core';

// Far deeper than a v1 envelope may nest (CHAT_LIMITS.maxJsonDepth), so nothing the parser could accept is
// refused here, and shallow enough that a cyclic or 100,000-level value cannot exhaust the stack.
const MAX_DEPTH = 128;
// More values than the longest envelope text has characters: a Proxy claiming a huge length cannot make it run for ever.
const MAX_VALUES = CHAT_LIMITS.maxEnvelopeLength;

const NOT_DATA: unique symbol = Symbol('not data');

/**
 * `{ value }` with a fresh copy of `value` when it is plain data, else
 * `undefined`: a getter (accessor property), a function, a symbol, a bigint, a
 * class instance (a `Date`, a `Map`), a sparse array, a cycle, nesting past 128
 * levels, more than `CHAT_LIMITS.maxEnvelopeLength` values, or a Proxy whose
 * trap throws. Never throws; never mutates `value`. An own `__proto__` key is
 * copied as an own data property (never as the copy's prototype), so the
 * caller sees it as the field it is.
 */
export function readPlainData(value: unknown): { readonly value: unknown } | undefined {
  try {
    const copy = copyData(value, 0, { left: MAX_VALUES });
    return copy === NOT_DATA ? undefined : { value: copy };
  } catch {
    // A Proxy trap (ownKeys, getOwnPropertyDescriptor, getPrototypeOf) threw, or the Proxy was revoked.
    return undefined;
  }
}

/** The own field `key` of plain data, never an inherited one (`toString`, `constructor`). */
export function ownField(record: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

function copyData(value: unknown, depth: number, budget: { left: number }): unknown {
  budget.left -= 1;
  if (budget.left < 0) return NOT_DATA;
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
    case 'object':
      break;
    default:
      return NOT_DATA;
  }
  if (value === null) return null;
  if (depth >= MAX_DEPTH) return NOT_DATA;
  if (Array.isArray(value)) return copyArray(value, depth, budget);
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return NOT_DATA;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const entry = ownData(value, key, depth, budget);
    if (entry === NOT_DATA) return NOT_DATA;
    // Defined, not assigned: an own `__proto__` key stays a field and never becomes the copy's prototype.
    Object.defineProperty(copy, key, { value: entry, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

function copyArray(array: readonly unknown[], depth: number, budget: { left: number }): unknown {
  const length = Object.getOwnPropertyDescriptor(array, 'length')?.value as unknown;
  if (typeof length !== 'number') return NOT_DATA;
  const copy: unknown[] = [];
  for (let index = 0; index < length; index++) {
    const entry = ownData(array, String(index), depth, budget);
    if (entry === NOT_DATA) return NOT_DATA;
    copy.push(entry);
  }
  return copy;
}

// The copy of the own data property `key`; an accessor or a hole is not data.
function ownData(source: object, key: string, depth: number, budget: { left: number }): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(source, key);
  if (descriptor === undefined || !('value' in descriptor)) return NOT_DATA;
  return copyData(descriptor.value, depth + 1, budget);
}
