/**
 * The shapes of a v1 card: its bounds and kind vocabulary, the presentation of
 * each base kind, and the open card snapshot a model shows a person (strict at
 * every level, cross-field rules from `card-rules.ts`). It owns no answer:
 * responses are `card-responses.ts`, judging them `validate-card-response.ts`,
 * product kinds `card-codec.ts`.
 */
import * as z from 'zod/v4/mini';
import { discriminatedUnionSchema, integerSchema } from '../primitives/portable-zod.js';
import { CHAT_LIMITS } from '../primitives/limits.js';
import { ChatIdSchema, CountSchema, ZonedTimestampSchema, isCalendarDate, isSafeJsonObject, textSchema } from '../primitives/primitives.js';
import {
  expiresAfterCreation,
  hasUniqueIds,
  isCheckboxMaximumReachable,
  isCheckboxMinimumReachable,
  isDateRangeOrdered,
  isSliderRangeValid,
  isTextLengthRangeOrdered,
} from './card-rules.js';
import { ReportBlockSchema } from './report-block.js';

// ---------------------------------------------------------------------------
// Bounds and vocabulary
/** Bounds of v1 cards and their responses, on top of {@link CHAT_LIMITS}. Frozen; sizes are UTF-16 code units. */
export const CARD_LIMITS = /* @__PURE__ */ (() =>
  Object.freeze({
    /** `prompt` (at least one character), `details` and `fallbackText`. */
    maxPromptLength: CHAT_LIMITS.maxSummaryLength,
    /** Options of a `radio`, `select` or `checkbox` card. */
    maxOptions: 64,
    /** Option labels, placeholders, confirm labels. */
    maxLabelLength: CHAT_LIMITS.maxNameLength,
    /** Option descriptions. */
    maxDescriptionLength: 1_024,
    /** Slider units (`km`, `%`). */
    maxUnitLength: 32,
    /** Text a person submits to a `text` card; also the largest `minLength`/`maxLength` a card may ask for. */
    maxTextAnswerLength: CHAT_LIMITS.maxTextLength,
    /** `timeoutMs`: seven days. */
    maxTimeoutMs: 604_800_000,
    /** Names of product kinds given to `createCardCodec`. */
    maxKindLength: 64,
    /** Option hints (secondary text under a label). */
    maxHintLength: 1_024,
    /** An approval card's `title` and `question`. */
    maxApprovalTextLength: CHAT_LIMITS.maxSummaryLength,
    /** Lines of an approval card's `body` (the change shown once). */
    maxApprovalBodyLines: 256,
    /** One line of an approval card's `body`. */
    maxApprovalBodyLineLength: CHAT_LIMITS.maxSummaryLength,
    /** `dataSchemaJson`, measured as its JSON text. */
    maxDataSchemaJsonLength: 65_536,
    /** The `reason` a decline may carry. */
    maxDeclineReasonLength: 1_024,
  }))();

/** The visual emphasis an option may ask for (Papercusp's vocabulary); renderers fall back to `default`. */
export const CARD_OPTION_STYLES = /* @__PURE__ */ Object.freeze(['default', 'primary', 'danger'] as const);

/** One of {@link CARD_OPTION_STYLES}. */
export type CardOptionStyle = (typeof CARD_OPTION_STYLES)[number];

/** The presentation kinds every v1 reader understands. Product kinds come through {@link createCardCodec}. */
export const CARD_KINDS = /* @__PURE__ */ Object.freeze(['text', 'radio', 'select', 'checkbox', 'confirm', 'date', 'slider'] as const);

/** One of {@link CARD_KINDS}. */
export type CardKind = (typeof CARD_KINDS)[number];

const CALENDAR_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

// ---------------------------------------------------------------------------
// Presentations

/** Schema of a `YYYY-MM-DD` string on a real calendar day (date cards and their values). */
export const CalendarDateSchema = /* @__PURE__ */ (() =>
  z.string().check(z.regex(CALENDAR_DATE_PATTERN), z.refine(isCalendarDate, 'not a real YYYY-MM-DD calendar date')))();

/** Schema of one choice on a `radio`, `select` or `checkbox` card. */
export const CardOptionSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    id: ChatIdSchema,
    label: textSchema(CARD_LIMITS.maxLabelLength, 1),
    description: z.optional(textSchema(CARD_LIMITS.maxDescriptionLength)),
    hint: z.optional(textSchema(CARD_LIMITS.maxHintLength)),
    style: z.optional(z.enum(CARD_OPTION_STYLES)),
  }))();

/** One choice on a `radio`, `select` or `checkbox` card. */
export type CardOption = z.infer<typeof CardOptionSchema>;

const CardOptionsSchema = /* @__PURE__ */ (() =>
  z
    .array(CardOptionSchema)
    .check(z.minLength(1), z.maxLength(CARD_LIMITS.maxOptions), z.refine(hasUniqueIds, 'option ids must be unique')))();

const TextPresentationSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      kind: z.literal('text'),
      voiceAnswerable: z.optional(z.boolean()),
      placeholder: z.optional(textSchema(CARD_LIMITS.maxLabelLength)),
      multiline: z.optional(z.boolean()),
      // A count, so `-0` is refused as the hot path refuses it (JSON writes it as `0`).
      minLength: z.optional(CountSchema.check(z.maximum(CARD_LIMITS.maxTextAnswerLength))),
      maxLength: z.optional(integerSchema().check(z.positive(), z.maximum(CARD_LIMITS.maxTextAnswerLength))),
    })
    .check(z.refine(isTextLengthRangeOrdered, { message: 'minLength must not exceed maxLength', path: ['minLength'] })))();

const RadioPresentationSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    kind: z.literal('radio'),
    voiceAnswerable: z.optional(z.boolean()),
    options: CardOptionsSchema,
  }))();

const SelectPresentationSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    kind: z.literal('select'),
    voiceAnswerable: z.optional(z.boolean()),
    options: CardOptionsSchema,
    // The trigger's resting text before a choice is made (Papercusp's select).
    placeholder: z.optional(textSchema(CARD_LIMITS.maxLabelLength)),
  }))();

const CheckboxPresentationSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      kind: z.literal('checkbox'),
      voiceAnswerable: z.optional(z.boolean()),
      options: CardOptionsSchema,
      minSelected: z.optional(CountSchema),
      maxSelected: z.optional(CountSchema),
    })
    .check(
      z.refine(isCheckboxMinimumReachable, {
        message: 'minSelected must not exceed maxSelected or the number of options',
        path: ['minSelected'],
      }),
      z.refine(isCheckboxMaximumReachable, { message: 'maxSelected must not exceed the number of options', path: ['maxSelected'] }),
    ))();

const ConfirmPresentationSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    kind: z.literal('confirm'),
    voiceAnswerable: z.optional(z.boolean()),
    confirmLabel: z.optional(textSchema(CARD_LIMITS.maxLabelLength, 1)),
    rejectLabel: z.optional(textSchema(CARD_LIMITS.maxLabelLength, 1)),
  }))();

const DatePresentationSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      kind: z.literal('date'),
      voiceAnswerable: z.optional(z.boolean()),
      min: z.optional(CalendarDateSchema),
      max: z.optional(CalendarDateSchema),
    })
    .check(z.refine(isDateRangeOrdered, { message: 'min must not be after max', path: ['min'] })))();

const SliderPresentationSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      kind: z.literal('slider'),
      voiceAnswerable: z.optional(z.boolean()),
      min: z.number(),
      max: z.number(),
      step: z.optional(z.number().check(z.positive())),
      unit: z.optional(textSchema(CARD_LIMITS.maxUnitLength, 1)),
    })
    .check(z.refine(isSliderRangeValid, { message: 'min must be below max, with a finite span', path: ['max'] })))();

/** The presentation schema of each base kind, in {@link CARD_KINDS} order. */
export const BASE_PRESENTATION_SCHEMAS = /* @__PURE__ */ Object.freeze([
  TextPresentationSchema,
  RadioPresentationSchema,
  SelectPresentationSchema,
  CheckboxPresentationSchema,
  ConfirmPresentationSchema,
  DatePresentationSchema,
  SliderPresentationSchema,
] as const);

/**
 * Schema of how a card asks, discriminated on `kind` (one of {@link CARD_KINDS}).
 * Option ids are unique; `minLength ≤ maxLength`, `minSelected ≤ maxSelected ≤
 * options.length`, date `min ≤ max`, slider `min < max` with a positive `step`.
 * A confirm card's `rejectLabel` names the "no" answer (`{ confirmed: false }`),
 * which is an answer, not the card-level decline.
 */
export const CardPresentationV1Schema = /* @__PURE__ */ discriminatedUnionSchema('kind', BASE_PRESENTATION_SCHEMAS);

/** How a v1 card asks: one of the {@link CARD_KINDS} with its fields. */
export type CardPresentationV1 = z.infer<typeof CardPresentationV1Schema>;

// ---------------------------------------------------------------------------
// Card snapshot

/**
 * Schema of a tool-approval card's content: the call's row `title`, the
 * `question` asked, and the change shown once as `body` lines. The card's
 * `prompt` carries the same question for renderers that ignore it.
 */
export const CardApprovalSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    title: textSchema(CARD_LIMITS.maxApprovalTextLength, 1),
    question: textSchema(CARD_LIMITS.maxApprovalTextLength, 1),
    body: z.array(textSchema(CARD_LIMITS.maxApprovalBodyLineLength)).check(z.maxLength(CARD_LIMITS.maxApprovalBodyLines)),
  }))();

/** A tool-approval card's content. */
export type CardApproval = z.infer<typeof CardApprovalSchema>;

/**
 * A bounded JSON Schema document for renderers: a JSON object (as Papercusp
 * ships it) whose JSON text is at most `CARD_LIMITS.maxDataSchemaJsonLength`.
 * It is read as data, never compiled or trusted: the server's own validation
 * stays the authority (DESIGN §7). Never throws.
 */
export function isCardDataSchemaJson(value: unknown): value is Record<string, unknown> {
  try {
    // Inside the guard: isPlainObject reads the prototype, which a Proxy's trap may refuse.
    return isSafeJsonObject(value) && JSON.stringify(value).length <= CARD_LIMITS.maxDataSchemaJsonLength;
  } catch {
    return false;
  }
}

const DataSchemaJsonSchema = /* @__PURE__ */ (() =>
  z.custom<Record<string, unknown>>(
    isCardDataSchemaJson,
    `not a JSON object of at most ${CARD_LIMITS.maxDataSchemaJsonLength} characters`,
  ))();

/** Schema of a card snapshot whose `presentation` is `presentation` (the base union or a codec's). */
export function cardSnapshotSchema<Presentation extends z.ZodMiniType>(presentation: Presentation) {
  return z
    .strictObject({
      correlationId: ChatIdSchema,
      createdAt: ZonedTimestampSchema,
      expiresAt: z.optional(ZonedTimestampSchema),
      schema: z.optional(z.strictObject({ id: ChatIdSchema, revision: CountSchema })),
      prompt: textSchema(CARD_LIMITS.maxPromptLength, 1),
      presentation: z.optional(presentation),
      fallbackText: z.optional(textSchema(CARD_LIMITS.maxPromptLength)),
      details: z.optional(textSchema(CARD_LIMITS.maxPromptLength)),
      allowDecline: z.optional(z.boolean()),
      timeoutMs: z.optional(integerSchema().check(z.positive(), z.maximum(CARD_LIMITS.maxTimeoutMs))),
      approval: z.optional(CardApprovalSchema),
      report: z.optional(ReportBlockSchema),
      dataSchemaJson: z.optional(DataSchemaJsonSchema),
    })
    .check(z.refine(expiresAfterCreation, { message: 'expiresAt must be after createdAt', path: ['expiresAt'] }));
}

/**
 * Schema of the card a model shows a person (strict at every level). Timestamps
 * carry an explicit zone and `expiresAt`, when present, is a later instant than
 * `createdAt`. `allowDecline` absent means declining is not allowed. A card
 * without `presentation` is prompt-only; {@link promptOnlyCardKind} says how it
 * is answered.
 */
export const OpenCardSnapshotV1Schema = /* @__PURE__ */ cardSnapshotSchema(CardPresentationV1Schema);

/** The v1 card a model shows a person. */
export type OpenCardSnapshotV1 = z.infer<typeof OpenCardSnapshotV1Schema>;

/** A card whose presentation is `Presentation`: the card type of a {@link CardCodec}. */
export type OpenCardSnapshotOf<Presentation> = {
  [Key in keyof OpenCardSnapshotV1]: Key extends 'presentation' ? Presentation | undefined : OpenCardSnapshotV1[Key];
};
