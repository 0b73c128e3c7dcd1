/**
 * Reading untrusted values without trusting them: only own data properties,
 * never a getter, never an inherited key, and a throwing Proxy trap reads as
 * absent. The block parsers read every input through these; they own no rule
 * about what a block contains.
 */

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
