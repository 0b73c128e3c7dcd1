/**
 * Strict object schemas that read the same under both lines of the peer range
 * (`zod/v4/mini` of zod 3.25 and of zod 4): custom issues (zod 4's
 * `superRefine` is absent from 3.25) and optional keys that are absent or
 * valid, never `undefined` (3.25 has no `z.exactOptional`, and its objects
 * accept `undefined` for every optional key). The report block and the blocks
 * package's schemas are built from them, and so can a product's. No block rule.
 */
import * as z from 'zod/v4/mini';

/** A problem a {@link customCheck} reports; `path` is relative to the checked value. */
export interface CustomIssue {
  readonly message: string;
  readonly path?: readonly PropertyKey[];
  readonly input?: unknown;
}

/**
 * A check that reports every issue `inspect` passes to `report` as a `custom`
 * issue, as `superRefine` does: the checks after it still run, so every
 * problem is reported, not only the first.
 */
export function customCheck<T>(inspect: (value: T, report: (issue: CustomIssue) => void) => void): z.core.$ZodCheck<T> {
  return z.check<T>((payload) => {
    inspect(payload.value, ({ message, path = [], input = payload.value }) => {
      payload.issues.push({ code: 'custom', message, path: [...path], input, continue: true });
    });
  });
}

// The type zod 4's `z.exactOptional` infers: the key may be missing, and its value is the schema's output, without `undefined`.
interface ExactOptionalInternals<T extends z.core.SomeType> extends z.core.$ZodOptionalInternals<T> {
  output: z.output<T>;
  input: z.input<T>;
}

/** A key of a {@link strictExactObject} that may be absent and, when present, holds a value of `T`, never `undefined`. */
export interface ExactOptional<T extends z.core.SomeType> extends z.ZodMiniOptional<T> {
  _zod: ExactOptionalInternals<T>;
}

/**
 * Marks a key of a {@link strictExactObject} optional: absent, or valid under
 * `schema`. A key holding `undefined` is refused by the object, with the issue
 * `schema` gives for `undefined` (`expected array`), so the rule holds only
 * inside a {@link strictExactObject}.
 */
export function exactOptional<T extends z.core.SomeType>(schema: T): ExactOptional<T> {
  return z.optional(schema) as ExactOptional<T>;
}

/**
 * `z.strictObject(shape)` that refuses a key holding `undefined`: every key is
 * absent (optional ones only) or holds a valid value. The issue of such a key
 * is its schema's issue for `undefined`, at its path; it is reported with the
 * object's other issues, after them.
 */
export function strictExactObject<const Shape extends z.core.$ZodShape>(shape: Shape): z.ZodMiniObject<Shape, z.core.$strict> {
  const refuseUndefinedKeys = z.check<object>(
    (payload) => {
      const value = payload.value;
      // When the object's own parse refused the input's type, the value is that input: nothing to add.
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return;
      // Otherwise it is zod's fresh copy, holding exactly the shape's keys the input had.
      for (const [key, held] of Object.entries(value)) {
        const field = shape[key];
        // A required key's own schema has refused `undefined` already; an optional key's inner schema judges it.
        if (held !== undefined || field === undefined || field._zod.def.type !== 'optional') continue;
        const result = z.safeParse((field as z.ZodMiniOptional)._zod.def.innerType, undefined);
        if (result.success) continue;
        for (const issue of result.error.issues) {
          // The issue is zod's own, moved to the key's path (zod 3.25's issue types and zod 4's differ in `input`).
          payload.issues.push({ ...issue, path: [key, ...issue.path], input: undefined } as z.core.$ZodRawIssue);
        }
      }
    },
    // Runs whatever the other keys' issues are, so a report lists every problem.
    { when: () => true },
  );
  return z.strictObject(shape).check(refuseUndefinedKeys);
}
