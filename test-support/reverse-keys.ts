/**
 * The same data written in another key order, for tests of rules that must not
 * depend on it (the reducer's digest, `canonicalJson`): every object's keys in
 * reverse order, at every level, arrays kept in order. A fresh copy; the input
 * is never mutated. Test support only.
 */

/** `value` with the keys of every object in reverse order: the same data, another JSON text. */
export function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, entry]) => [key, reverseKeys(entry)]),
    );
  }
  return value;
}
