/**
 * Reading a request from an untrusted caller exactly once: the named fields of
 * an object, copied into a fresh plain object, or `undefined` when it is not an
 * object or a read throws (a getter, a Proxy trap). Packages built on core read
 * every request through it, so a value checked is the value used. It owns no
 * rule about what the fields hold: the caller checks the copy.
 */

/**
 * The fields `keys` of `value`, each read once (own or inherited, getters
 * included), in a fresh object without a prototype; a field that reads `undefined` is left
 * out. `undefined` when `value` is not a non-null object (a function, an array
 * passes only as an object) or any read throws. Never throws; never mutates
 * `value`. The copy can be checked and then used without reading `value`
 * again, so a getter cannot answer one check and then another.
 */
export function readFields<Value extends object, Key extends keyof Value & string>(
  value: Value,
  keys: readonly Key[],
): Pick<Value, Key> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  try {
    // No prototype: a key named `__proto__` is then an own field like any other.
    const copy = Object.create(null) as Partial<Record<Key, unknown>>;
    for (const key of keys) {
      const field: unknown = value[key];
      if (field !== undefined) copy[key] = field;
    }
    return copy as Pick<Value, Key>;
  } catch {
    return undefined;
  }
}
