/**
 * Reading a store factory's options exactly once, as the factories' JSDoc
 * promises: each field is copied out of the options object a single time (so
 * a getter cannot answer the check one value and the use another), an object
 * that cannot be read (a throwing getter, a Proxy) or a lookup that is not a
 * function is a `TypeError` at creation, never a failure on first use. It
 * owns no SQL and no identifier rule (`identifiers.ts` does).
 */
import { readFields } from '@papercusp/chat-protocol-core/internal';

/**
 * The fields `keys` of `options`, each read once into a plain copy; `{}` for
 * `undefined`. Throws `TypeError` naming `factory` when `options` is not an
 * object or a read throws.
 */
export function readStoreOptions<Options extends object, Key extends keyof Options & string>(
  factory: string,
  options: Options | undefined,
  keys: readonly Key[],
): Partial<Pick<Options, Key>> {
  if (options === undefined) return {};
  const read = readFields(options, keys);
  if (read === undefined) throw new TypeError(`${factory}: the options must be an object whose fields can be read`);
  return read;
}

/** `lookup` when it is a function or absent; a `TypeError` naming the option otherwise. */
export function optionalLookup<Lookup>(factory: string, name: string, lookup: Lookup | undefined): Lookup | undefined {
  if (lookup !== undefined && typeof lookup !== 'function') throw new TypeError(`${factory}: ${name} must be a function`);
  return lookup;
}

/**
 * `value` when it is a whole number from 1 to `maximum`, `fallback` when it
 * is `undefined`; a `TypeError` naming `factory` and `name` otherwise.
 */
export function countOption(factory: string, name: string, value: unknown, fallback: number, maximum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > maximum)
    throw new TypeError(`${factory}: ${name} must be a whole number from 1 to ${maximum}`);
  return value;
}
