/**
 * zod builders typed with names every release of the peer range declares. The
 * declaration files spell each exported schema's inferred type, and zod 4.1+
 * types `z.int()` as `ZodMiniInt` and a discriminated union with a second
 * type parameter, which zod 3.25 and 4.0 lack: an app on those would fail to
 * typecheck our types. The schemas are zod's own; only their static names differ.
 */
import * as z from 'zod/v4/mini';

/**
 * A safe-integer schema. An interface, not the class zod returns: the
 * declaration files name it, and its heritage reads alike under every zod of
 * the range (`ZodMiniNumberFormat` is generic with a default in zod 4.1+).
 */
export interface IntegerSchema extends z.ZodMiniNumberFormat {}

/** A discriminated union of `Options`, named with one type parameter for the same reason as {@link IntegerSchema}. */
export interface DiscriminatedUnionSchema<Options extends readonly z.core.SomeType[]> extends z.ZodMiniDiscriminatedUnion<Options> {}

/** `z.int()`: a safe integer. */
export function integerSchema(): IntegerSchema {
  return z.int();
}

/** `z.discriminatedUnion(discriminator, options)`. */
export function discriminatedUnionSchema<const Options extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]]>(
  discriminator: string,
  options: Options,
): DiscriminatedUnionSchema<Options> {
  return z.discriminatedUnion(discriminator, options);
}
