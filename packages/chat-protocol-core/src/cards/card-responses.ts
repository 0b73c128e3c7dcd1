/**
 * What a person sends back to a card: the submit value of each base kind and
 * the response envelope (`submit`, `decline`, `cancel`), as shapes only.
 * Whether a response answers a particular card is `validate-card-response.ts`'s
 * job. Prompt-only cards' values are here with the others; which kind a card
 * without presentation is, `prompt-only-cards.ts` tells.
 */
import * as z from 'zod/v4/mini';
import { discriminatedUnionSchema } from '../primitives/portable-zod.js';
import { ChatIdSchema, textSchema } from '../primitives/primitives.js';
import { CARD_LIMITS, CalendarDateSchema, type CardKind } from './card-schemas.js';
import type { PromptOnlyCardKind } from './prompt-only-cards.js';

// The submit value of each kind, shape and protocol bounds only.
/** A text card's value. */
export const TextValueSchema = /* @__PURE__ */ (() => z.strictObject({ text: textSchema(CARD_LIMITS.maxTextAnswerLength) }))();
/** A radio or select card's value. */
export const OptionValueSchema = /* @__PURE__ */ (() => z.strictObject({ optionId: ChatIdSchema }))();
/** A checkbox card's value. */
export const OptionsValueSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    optionIds: z.array(ChatIdSchema).check(z.maxLength(CARD_LIMITS.maxOptions)),
  }))();
/** A confirm card's (and an approval card's) value. */
export const ConfirmValueSchema = /* @__PURE__ */ (() => z.strictObject({ confirmed: z.boolean() }))();
/** A date card's value. */
export const DateValueSchema = /* @__PURE__ */ (() => z.strictObject({ date: CalendarDateSchema }))();
/** A slider card's value. */
export const SliderValueSchema = /* @__PURE__ */ (() => z.strictObject({ value: z.number() }))();
/** A report card's value: read and acknowledged. */
export const AcknowledgedValueSchema = /* @__PURE__ */ (() => z.strictObject({ acknowledged: z.literal(true) }))();

/**
 * The submit value schema of each base kind. These check the shape and the
 * protocol bounds only; whether a value fits a particular card (known option,
 * within its min/max, on its step) is {@link validateCardResponse}'s job.
 */
export const CARD_VALUE_SCHEMAS = /* @__PURE__ */ Object.freeze({
  text: TextValueSchema,
  radio: OptionValueSchema,
  select: OptionValueSchema,
  checkbox: OptionsValueSchema,
  confirm: ConfirmValueSchema,
  date: DateValueSchema,
  slider: SliderValueSchema,
});

/**
 * The submit value of each base kind: text `{ text }`, radio/select
 * `{ optionId }`, checkbox `{ optionIds }`, confirm `{ confirmed }`, date
 * `{ date }` (`YYYY-MM-DD`), slider `{ value }`.
 */
export type CardValueByKind = { [Kind in CardKind]: z.infer<(typeof CARD_VALUE_SCHEMAS)[Kind]> };

/** The submit value of each prompt-only card kind (see `PROMPT_ONLY_CARD_KINDS`). */
export type PromptOnlyCardValueByKind = {
  plain: CardValueByKind['text'];
  approval: CardValueByKind['confirm'];
  report: z.infer<typeof AcknowledgedValueSchema>;
};

/** Any prompt-only card's submit value. */
export type PromptOnlyCardValue = PromptOnlyCardValueByKind[PromptOnlyCardKind];

/** Schema of any base kind's submit value (the kind is not known without the card). */
export const CardValueSchema = /* @__PURE__ */ z.union([
  TextValueSchema,
  OptionValueSchema,
  OptionsValueSchema,
  ConfirmValueSchema,
  DateValueSchema,
  SliderValueSchema,
  AcknowledgedValueSchema,
]);

/** Any base kind's or prompt-only card's submit value. */
export type CardValue = z.infer<typeof CardValueSchema>;

/**
 * The submit value type of a card whose presentation type is `Presentation`
 * (possibly `undefined`: a prompt-only card), for a vocabulary whose values
 * are `ValueByKind`.
 */
export type CardAnswerValue<
  Presentation extends { readonly kind: string } | undefined,
  ValueByKind extends { readonly [Kind in NonNullable<Presentation>['kind']]: unknown },
> = ValueByKind[NonNullable<Presentation>['kind']] | (undefined extends Presentation ? PromptOnlyCardValue : never);

/** Schema of a response whose submit value is `value`, discriminated on `action`. */
export function cardResponseSchema<Value extends z.ZodMiniType>(value: Value) {
  return discriminatedUnionSchema('action', [
    z.strictObject({ action: z.literal('submit'), correlationId: ChatIdSchema, value }),
    z.strictObject({
      action: z.literal('decline'),
      correlationId: ChatIdSchema,
      reason: z.optional(textSchema(CARD_LIMITS.maxDeclineReasonLength)),
    }),
    z.strictObject({ action: z.literal('cancel'), correlationId: ChatIdSchema }),
  ]);
}

/**
 * Schema of a person's answer to a card, discriminated on `action`: `submit`
 * carries a value, `decline` refuses to answer (with a short `reason` when the
 * person gives one), `cancel` withdraws. Checks the
 * shape only; {@link validateCardResponse} checks it against the card.
 */
export const CardResponseSchema = /* @__PURE__ */ cardResponseSchema(CardValueSchema);

/** A person's answer to a card. */
export type CardResponse = z.infer<typeof CardResponseSchema>;

/** A {@link CardResponse} whose submit value is `Value`: what a {@link CardCodec} returns for a card's kind. */
export type CardResponseOf<Value> =
  | { action: 'submit'; correlationId: string; value: Value }
  | { action: 'decline'; correlationId: string; reason?: string | undefined }
  | { action: 'cancel'; correlationId: string };

/**
 * The response before its value is judged against the card's kind. Its value is
 * any value but a missing one: zod 4 refuses a missing `z.unknown()` key, zod
 * 3.25 lets it through, so the rule is stated here (the data check has already
 * refused a key holding `undefined`) and a submit without a value is
 * `invalid-response` under both lines of the peer range.
 */
export const ResponseEnvelopeSchema = /* @__PURE__ */ (() =>
  cardResponseSchema(z.custom<unknown>((value) => value !== undefined, 'expected nonoptional')))();
