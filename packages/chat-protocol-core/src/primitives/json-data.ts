/**
 * The check that runs before any card schema reads untrusted input: zod reads
 * properties, so a getter or a Proxy trap would run inside a parser that
 * promises not to throw. It accepts only what JSON could have produced and
 * says where the first thing that is not lies; it owns no rule about what the
 * data means (the schemas judge that). Unlike `isSafeJson`, it reads property
 * descriptors instead of values, so no getter ever runs.
 */
import { CHAT_LIMITS } from './limits.js';
import { FORBIDDEN_JSON_KEYS, isPlainObject } from './primitives.js';
import type { ChatIssue } from './result.js';
import { quoteKey } from './zod-issues.js';

function findNonData(value: unknown, path: readonly (string | number)[], depth: number): ChatIssue | undefined {
  if (value === null || value === undefined) return undefined;
  const type = typeof value;
  if (type === 'string' || type === 'number' || type === 'boolean') return undefined;
  if (type !== 'object') return { path, message: `not JSON data (${type})` };
  if (depth >= CHAT_LIMITS.maxJsonDepth) return { path, message: 'nested too deeply' };
  const isArray = Array.isArray(value);
  if (!isArray && !isPlainObject(value)) return { path, message: 'not a plain object or array' };
  const record = value as Readonly<Record<PropertyKey, unknown>>;
  const keys = Reflect.ownKeys(record);
  if (isArray && keys.length !== (value as readonly unknown[]).length + 1) {
    return { path, message: 'sparse array or array with extra properties' };
  }
  for (const key of keys) {
    if (typeof key === 'symbol') return { path, message: 'symbol key' };
    if (isArray && key === 'length') continue;
    const keyPath = [...path, isArray ? Number(key) : key];
    if (FORBIDDEN_JSON_KEYS.has(key)) return { path: keyPath, message: `forbidden key ${quoteKey(key)}` };
    const descriptor = Object.getOwnPropertyDescriptor(record, key);
    if (descriptor === undefined || !('value' in descriptor)) return { path: keyPath, message: 'accessor property' };
    const nested = findNonData(descriptor.value, keyPath, depth + 1);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

/**
 * The first place where `value` is not JSON data (primitives, plain objects
 * and dense arrays of own data properties, no forbidden keys, nesting below
 * `CHAT_LIMITS.maxJsonDepth`), or `undefined` when it all is. Never throws and
 * runs no getter: a Proxy's traps run inside it (`Array.isArray`,
 * `getPrototypeOf`, `ownKeys`) and may throw, and a value that cannot be read
 * is not data.
 */
export function nonDataIssue(value: unknown): ChatIssue | undefined {
  try {
    return findNonData(value, [], 0);
  } catch {
    return { path: [], message: 'not JSON data (it cannot be read)' };
  }
}
