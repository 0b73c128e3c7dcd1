/**
 * Validating a submission against its server-owned schema with Standard
 * Schema. The host supplies the lookup (schemas are immutable per id and
 * revision); this package adds no validator library. Validation may be async
 * and always runs outside the store's transaction.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { InteractionSchemaRef } from './records.js';

/** What a validator is asked: the schema the pending record names, the card, and the submitted value. */
export interface InteractionValidationRequest<Card> {
  readonly schema: InteractionSchemaRef;
  readonly card: Card;
  readonly value: unknown;
}

/**
 * The host's validator: a Standard Schema result (sync or async), or
 * `undefined` when it knows no schema by that id and revision.
 */
export type InteractionValidator<Card> = (
  request: InteractionValidationRequest<Card>,
) => StandardSchemaV1.Result<unknown> | undefined | Promise<StandardSchemaV1.Result<unknown> | undefined>;

/**
 * Builds an {@link InteractionValidator} from a lookup of Standard Schema
 * schemas (zod, valibot, ArkType, …) by id and revision:
 *
 * ```ts
 * const schemas = new Map([['refund-choice@3', z.object({ optionId: z.enum(['refund', 'replace']) })]]);
 * const validate = standardSchemaValidator(({ id, revision }) => schemas.get(`${id}@${revision}`));
 * ```
 */
export function standardSchemaValidator<Card>(
  lookup: (schema: InteractionSchemaRef) => StandardSchemaV1 | undefined,
): InteractionValidator<Card> {
  return ({ schema, value }) => lookup(schema)?.['~standard'].validate(value);
}
