/**
 * RFC 6902 JSON Patch over JSON data, for AG-UI's `STATE_DELTA`: v1 state is
 * a snapshot (last write wins), so the decoder applies AG-UI's patch to the
 * last snapshot it saw and emits the result. Pure: it works on a copy and
 * refuses (never throws on) a malformed patch or a pointer that misses.
 */
import { canonicalJson, type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';

/** Refusal codes of {@link applyJsonPatch}. */
type ApplyJsonPatchRefusalCode = 'invalid-patch';

/** Result of {@link applyJsonPatch}. */
export type ApplyJsonPatchResult = { readonly ok: true; readonly value: unknown } | ChatRefusal<ApplyJsonPatchRefusalCode>;

type Container = Record<string, unknown> | unknown[];

// Keys that would reach an object's prototype rather than its own data.
const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

// Thrown inside the patch walk only, and always caught by applyJsonPatch.
class PatchFault {
  constructor(readonly message: string) {}
}

/**
 * Applies `operations` (unknown input) to a copy of `document`, a JSON value.
 *
 * Guarantees: never mutates `document`; all operations or none (the first
 * failing one refuses the whole patch with `invalid-patch`, as RFC 6902 says);
 * a pointer through `__proto__`, `constructor` or `prototype` is refused.
 */
export function applyJsonPatch(document: unknown, operations: unknown): ApplyJsonPatchResult {
  if (!Array.isArray(operations)) return refuse('invalid-patch', 'a JSON Patch is an array of operations');
  try {
    let root: unknown = JSON.parse(JSON.stringify(document ?? null)) as unknown;
    for (const operation of operations as unknown[]) root = applyOperation(root, operation);
    return { ok: true, value: root };
  } catch (error) {
    if (error instanceof PatchFault) return refuse('invalid-patch', error.message);
    return refuse('invalid-patch', 'the patch could not be read');
  }
}

function applyOperation(root: unknown, operation: unknown): unknown {
  if (typeof operation !== 'object' || operation === null) throw new PatchFault('an operation is an object');
  const record = operation as Record<string, unknown>;
  const path = pointer(record['path']);
  switch (record['op']) {
    case 'add':
      return add(root, path, valueOf(record));
    case 'remove':
      return remove(root, path);
    case 'replace':
      return add(remove(root, path, true), path, valueOf(record));
    case 'move': {
      const from = pointer(record['from']);
      if (path.length > from.length && from.every((token, index) => token === path[index]))
        throw new PatchFault('a value cannot move into itself');
      const value = get(root, from);
      return add(remove(root, from), path, value);
    }
    case 'copy':
      return add(root, path, JSON.parse(JSON.stringify(get(root, pointer(record['from'])))) as unknown);
    case 'test':
      if (canonicalJson(get(root, path)) !== canonicalJson(valueOf(record))) throw new PatchFault('a test operation failed');
      return root;
    default:
      throw new PatchFault('an operation is add, remove, replace, move, copy or test');
  }
}

function valueOf(record: Record<string, unknown>): unknown {
  if (!Object.prototype.hasOwnProperty.call(record, 'value')) throw new PatchFault('the operation needs a value');
  return record['value'];
}

function pointer(value: unknown): string[] {
  if (typeof value !== 'string' || (value !== '' && !value.startsWith('/'))) throw new PatchFault('a path is a JSON Pointer');
  if (value === '') return [];
  const tokens = value
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (tokens.some((token) => UNSAFE_KEYS.has(token))) throw new PatchFault('a path may not reach a prototype');
  return tokens;
}

function parentOf(root: unknown, path: readonly string[]): { readonly parent: Container; readonly key: string } {
  const parent = get(root, path.slice(0, -1));
  if (typeof parent !== 'object' || parent === null) throw new PatchFault('the path does not lead into an object or array');
  return { parent: parent as Container, key: path.at(-1) ?? '' };
}

function indexOf(array: readonly unknown[], key: string, allowEnd: boolean): number {
  if (allowEnd && key === '-') return array.length;
  if (!/^(0|[1-9][0-9]*)$/.test(key)) throw new PatchFault('an array index is a number');
  const index = Number(key);
  if (index > array.length || (!allowEnd && index === array.length)) throw new PatchFault('the array index is out of range');
  return index;
}

function get(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const key of path) {
    if (Array.isArray(current)) current = current[indexOf(current, key, false)];
    else if (typeof current === 'object' && current !== null && Object.prototype.hasOwnProperty.call(current, key))
      current = (current as Record<string, unknown>)[key];
    else throw new PatchFault('the path does not exist');
  }
  return current;
}

function add(root: unknown, path: readonly string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const { parent, key } = parentOf(root, path);
  if (Array.isArray(parent)) parent.splice(indexOf(parent, key, true), 0, value);
  else parent[key] = value;
  return root;
}

function remove(root: unknown, path: readonly string[], replacing = false): unknown {
  if (path.length === 0) {
    if (replacing) return null;
    throw new PatchFault('the whole document cannot be removed');
  }
  const { parent, key } = parentOf(root, path);
  if (Array.isArray(parent)) {
    parent.splice(indexOf(parent, key, false), 1);
  } else {
    if (!Object.prototype.hasOwnProperty.call(parent, key)) throw new PatchFault('the path does not exist');
    delete parent[key];
  }
  return root;
}
