/**
 * Reading untrusted values without trusting them: only own data properties,
 * never a getter, never an inherited key, and a throwing Proxy trap reads as
 * absent. The block parsers read every input through these; they own no rule
 * about what a block contains.
 */
import { CHAT_LIMITS, isSafeJson } from '@papercusp/chat-protocol-core';

/**
 * The own data property `key` of `source`, or `undefined`. Accessor properties
 * are absent (their getters never run), inherited keys are absent, and a Proxy
 * trap that throws reads as absent.
 */
export function readOwnValue(source: object, key: string): unknown {
  try {
    const descriptor = Object.getOwnPropertyDescriptor(source, key);
    return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The own data property `key` of a caller's options, or `undefined` when
 * `options` is not an object to read keys from: options are read like any
 * input, so a getter or a Proxy trap never runs or throws.
 */
export function readOption(options: unknown, key: string): unknown {
  const record = asRecord(options);
  return record === undefined ? undefined : readOwnValue(record, key);
}

/** The own enumerable string keys of `source`, or none when they cannot be read (a Proxy whose trap throws). */
export function ownKeys(source: object): string[] {
  try {
    return Object.keys(source);
  } catch {
    return [];
  }
}

/** `value` when it is an object to read keys from (not null, not an array, not a function); else `undefined`. */
export function asRecord(value: unknown): object | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    return Array.isArray(value) ? undefined : value;
  } catch {
    // Array.isArray throws on a revoked Proxy.
    return undefined;
  }
}

/**
 * The first `limit` entries of `value` when it is an array (holes and accessor
 * entries read as `undefined`), in a fresh array; `undefined` when `value` is
 * not an array. Never reads past `limit`, whatever `length` claims.
 */
function readEntries(value: unknown, limit: number): unknown[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    if (!Array.isArray(value)) return undefined;
  } catch {
    return undefined;
  }
  const length = readOwnValue(value, 'length');
  if (typeof length !== 'number' || !(length >= 0)) return undefined;
  const count = Math.min(length, limit);
  const entries: unknown[] = [];
  for (let index = 0; index < count; index++) entries.push(readOwnValue(value, String(index)));
  return entries;
}

/**
 * The usable entries among the first `limit` entries of `value`, in order:
 * each entry mapped by `read`, those it returns `undefined` for dropped. Empty
 * when `value` is not an array.
 */
export function readList<T>(value: unknown, limit: number, read: (entry: unknown) => T | undefined): T[] {
  const list: T[] = [];
  for (const entry of readEntries(value, limit) ?? []) {
    const item = read(entry);
    if (item !== undefined) list.push(item);
  }
  return list;
}

/**
 * A fresh copy of `value` when it is bounded JSON under core's `isSafeJson`
 * (finite numbers, clean strings and keys, no `__proto__`/`constructor`/
 * `prototype` keys, plain objects and arrays, at most `CHAT_LIMITS.maxJsonDepth`
 * deep), read through own data properties only; else `undefined`. The copy is
 * checked, not the input, so no getter of the input runs and nothing of it is
 * retained.
 */
export function readJsonCopy(value: unknown): unknown {
  try {
    const copy = copyOwnData(value, 0);
    return copy !== undefined && isSafeJson(copy) ? copy : undefined;
  } catch {
    return undefined;
  }
}

// Copies what could be JSON: the check of the copy judges it. Stops at the first hole or accessor.
function copyOwnData(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= CHAT_LIMITS.maxJsonDepth) return undefined;
  // An array's every own entry (a hole or accessor reads as undefined, which refuses the copy).
  const entries = readEntries(value, Infinity);
  if (entries !== undefined) {
    const copy: unknown[] = [];
    for (const entry of entries) {
      const copied = copyOwnData(entry, depth + 1);
      if (copied === undefined) return undefined;
      copy.push(copied);
    }
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const entry = copyOwnData(readOwnValue(value, key), depth + 1);
    // A `__proto__` key is refused before an assignment could set the copy's prototype.
    if (entry === undefined || key === '__proto__') return undefined;
    copy[key] = entry;
  }
  return copy;
}
