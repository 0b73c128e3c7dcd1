/**
 * The rule language of the hot-path validator: a rule per key of a strict
 * object (a check, and whether the key may be left out), compiled once into
 * arrays the fast pass walks by index, and `checkStrict`, which holds an object
 * to them and names the first problem with its path. It owns no field of the
 * contract: the tables in `card-tables.ts` and `event-tables.ts` are written in it.
 */
import { hasOwn } from '../../primitives/primitives.js';
import type { ChatIssue } from '../../primitives/result.js';

type Path = readonly (string | number)[];
/**
 * Returns null when the value is acceptable, else the problem with its path
 * relative to the value; paths are built only on failure, never on the hot path.
 */
export type Check = (value: unknown) => ChatIssue | null;
interface Rule<Optional extends boolean = boolean> {
  readonly check: Check;
  readonly optional: Optional;
}
/**
 * The rules of a strict object shaped like `Shape`: one per key, no more and no
 * fewer, required exactly where `Shape` requires the key. Tables are written
 * against the schemas' inferred types, so a field added to a schema and not
 * here (or the other way round) fails the type check.
 */
type FieldRules<Shape> = {
  readonly [Key in keyof Shape]-?: Rule<Record<never, never> extends Pick<Shape, Key> ? true : false>;
};
/**
 * Field rules of one strict object, also split once into parallel arrays of
 * required and optional keys and checks: the fast pass walks those by index.
 * `keys` lists every field in declaration order, which is the wire order.
 */
export interface Rules {
  readonly byKey: Readonly<Record<string, Rule>>;
  readonly keys: readonly string[];
  readonly requiredKeys: readonly string[];
  readonly requiredChecks: readonly Check[];
  readonly optionalKeys: readonly string[];
  readonly optionalChecks: readonly Check[];
}

/** Compiles the field rules of one strict object; `keys` follows the order they are written in. */
export function rules<Shape>(byKey: FieldRules<Shape>): Rules {
  const entries = Object.entries(byKey as Readonly<Record<string, Rule>>);
  const requiredEntries = entries.filter(([, rule]) => !rule.optional);
  const optionalEntries = entries.filter(([, rule]) => rule.optional);
  return {
    byKey: byKey as Readonly<Record<string, Rule>>,
    keys: Object.freeze(entries.map(([key]) => key)),
    requiredKeys: requiredEntries.map(([key]) => key),
    requiredChecks: requiredEntries.map(([, rule]) => rule.check),
    optionalKeys: optionalEntries.map(([key]) => key),
    optionalChecks: optionalEntries.map(([, rule]) => rule.check),
  };
}

/**
 * An object as `JSON.parse` makes them: every value the validator sees comes
 * from `JSON.parse` (parseChatEnvelope reads other input as its JSON form), so
 * checking for arrays is enough; no prototype lookup on the hot path.
 */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A problem at `path`, relative to the value checked. */
export const fail = (path: Path, message: string): ChatIssue => ({ path, message });
/** `issue` found under `key`: its path gains `key` in front. */
export const under = (key: string | number, issue: ChatIssue): ChatIssue => ({ path: [key, ...issue.path], message: issue.message });
/** A check from a predicate: `message` at the value itself when it is false. */
export const when =
  (predicate: (value: unknown) => boolean, message: string): Check =>
  (value) =>
    predicate(value) ? null : fail([], message);
/** The rule of a key that must be present. */
export const required = (check: Check): Rule<false> => ({ check, optional: false });
/** The rule of a key that may be left out. */
export const optional = (check: Check): Rule<true> => ({ check, optional: true });
/** A required key whose value the caller already dispatched on or checks itself (`type`, `kind`, `event`). */
export const dispatched = /* @__PURE__ */ required(() => null);

/** A string among `values`. */
export const oneOf = (values: readonly string[]): Check =>
  when((value) => typeof value === 'string' && values.includes(value), `expected one of ${values.join(', ')}`);
/** An array of at most `max` items, each passing `item`; the first failing item names its index. */
export const arrayOf =
  (max: number, item: Check): Check =>
  (value) => {
    if (!Array.isArray(value)) return fail([], 'expected an array');
    if (value.length > max) return fail([], `expected at most ${max} items`);
    for (let index = 0; index < value.length; index++) {
      const problem = item(value[index]);
      if (problem !== null) return under(index, problem);
    }
    return null;
  };
/** A strict object that `compiled` holds (see {@link checkStrict}). */
export const strict =
  (compiled: Rules): Check =>
  (value) =>
    checkStrict(value, compiled);

/**
 * Checks a plain object against `rules`: no unknown keys, every required key
 * present. The first pass only counts and tests (no allocation); the second,
 * which names the problem, runs only when the first found one.
 */
export function checkStrict(value: unknown, rules: Rules): ChatIssue | null {
  if (!isJsonObject(value)) return fail([], 'expected an object');
  const { requiredKeys, requiredChecks, optionalKeys, optionalChecks } = rules;
  let expected = requiredKeys.length;
  let valid = true;
  for (let index = 0; index < requiredKeys.length; index++) {
    const field = value[requiredKeys[index] as string];
    if (field === undefined || (requiredChecks[index] as Check)(field) !== null) valid = false;
  }
  for (let index = 0; index < optionalKeys.length; index++) {
    const field = value[optionalKeys[index] as string];
    if (field !== undefined) {
      expected++;
      if ((optionalChecks[index] as Check)(field) !== null) valid = false;
    }
  }
  const keys = countKeys(value);
  return valid && keys === expected ? null : explain(value, rules);
}

function explain(value: Record<string, unknown>, rules: Rules): ChatIssue {
  const { byKey } = rules;
  for (const key in value) {
    const rule = hasOwn(byKey, key) ? byKey[key] : undefined;
    if (rule === undefined) return fail([key], 'unknown property');
    const problem = rule.check(value[key]);
    if (problem !== null) return under(key, problem);
  }
  for (const key of rules.requiredKeys) {
    if (!hasOwn(value, key)) return fail([key], 'required');
  }
  // Reached only if a key is present through the prototype chain, not as an own property.
  return fail([], 'unexpected inherited property');
}

/** How many enumerable keys `value` has, counted without allocating. */
export function countKeys(value: object): number {
  let keys = 0;
  for (const _key in value) keys++;
  return keys;
}
