/**
 * v1 cards: the open card snapshot a model shows a person, the response that
 * person sends back, and the check that the response answers that card
 * (shape, option ids, bounds, `allowDecline`, and lateness at the instant the
 * caller names). Products add presentation kinds through `createCardCodec`. It
 * owns no clock, storage or authority: the host says when an answer arrived
 * and decides who may answer.
 */
import * as z from 'zod/v4/mini';
import { discriminatedUnionSchema, integerSchema } from './portable-zod.js';
import { CHAT_LIMITS } from './limits.js';
import {
  hasOwn,
  ChatIdSchema,
  CountSchema,
  FORBIDDEN_JSON_KEYS,
  ZonedTimestampSchema,
  isCalendarDate,
  isPlainObject,
  isSafeJsonObject,
  isZonedTimestamp,
  textSchema,
} from './primitives.js';
import {
  cardDeadline,
  expiresAfterCreation,
  isPastDeadline,
  hasUniqueIds,
  isCheckboxMaximumReachable,
  isCheckboxMinimumReachable,
  isDateRangeOrdered,
  isSliderRangeValid,
  isTextLengthRangeOrdered,
} from './card-rules.js';
import { ReportBlockSchema } from './report-block.js';
import { refuse, type ChatIssue, type ChatRefusal, type ParseResult } from './result.js';
import { issuesOf, quoteKey } from './zod-issues.js';

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
export const CARD_KINDS = /* @__PURE__ */ Object.freeze([
  'text',
  'radio',
  'select',
  'checkbox',
  'confirm',
  'date',
  'slider',
] as const);

/** One of {@link CARD_KINDS}. */
export type CardKind = (typeof CARD_KINDS)[number];

const CALENDAR_DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const KIND_NAME_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

// ---------------------------------------------------------------------------
// Presentations

const CalendarDateSchema = /* @__PURE__ */ (() =>
  z
    .string()
    .check(z.regex(CALENDAR_DATE_PATTERN), z.refine(isCalendarDate, 'not a real YYYY-MM-DD calendar date')))();

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
    .check(
      z.minLength(1),
      z.maxLength(CARD_LIMITS.maxOptions),
      z.refine(hasUniqueIds, 'option ids must be unique'),
    ))();

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
    .check(
      z.refine(
        isTextLengthRangeOrdered,
        { message: 'minLength must not exceed maxLength', path: ['minLength'] },
      ),
    ))();

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
      z.refine(
        isCheckboxMinimumReachable,
        { message: 'minSelected must not exceed maxSelected or the number of options', path: ['minSelected'] },
      ),
      z.refine(
        isCheckboxMaximumReachable,
        { message: 'maxSelected must not exceed the number of options', path: ['maxSelected'] },
      ),
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
    .check(
      z.refine(
        isDateRangeOrdered,
        { message: 'min must not be after max', path: ['min'] },
      ),
    ))();

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
    .check(
      z.refine(
        isSliderRangeValid,
        { message: 'min must be below max, with a finite span', path: ['max'] },
      ),
    ))();

const BASE_PRESENTATION_SCHEMAS = /* @__PURE__ */ Object.freeze([
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
    body: z
      .array(textSchema(CARD_LIMITS.maxApprovalBodyLineLength))
      .check(z.maxLength(CARD_LIMITS.maxApprovalBodyLines)),
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

function cardSnapshotSchema<Presentation extends z.ZodMiniType>(presentation: Presentation) {
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

// ---------------------------------------------------------------------------
// Values and responses

const TextValueSchema = /* @__PURE__ */ (() =>
  z.strictObject({ text: textSchema(CARD_LIMITS.maxTextAnswerLength) }))();
const OptionValueSchema = /* @__PURE__ */ (() =>
  z.strictObject({ optionId: ChatIdSchema }))();
const OptionsValueSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    optionIds: z.array(ChatIdSchema).check(z.maxLength(CARD_LIMITS.maxOptions)),
  }))();
const ConfirmValueSchema = /* @__PURE__ */ (() =>
  z.strictObject({ confirmed: z.boolean() }))();
const DateValueSchema = /* @__PURE__ */ (() =>
  z.strictObject({ date: CalendarDateSchema }))();
const SliderValueSchema = /* @__PURE__ */ (() =>
  z.strictObject({ value: z.number() }))();
const AcknowledgedValueSchema = /* @__PURE__ */ (() =>
  z.strictObject({ acknowledged: z.literal(true) }))();

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
 * How a card without `presentation` is answered (DESIGN §3.7, prompt-only
 * cards), by what it carries: `approval` → `{ confirmed }` (the approval's
 * yes/no, as a confirm card); else `report` → `{ acknowledged: true }` (a card
 * that only shows a report is read and acknowledged); else `plain`, a plain
 * prompt → `{ text }` (answered in words, as Papercusp's renderers answer it).
 */
export const PROMPT_ONLY_CARD_KINDS = /* @__PURE__ */ Object.freeze(['plain', 'approval', 'report'] as const);

/** One of {@link PROMPT_ONLY_CARD_KINDS}. */
export type PromptOnlyCardKind = (typeof PROMPT_ONLY_CARD_KINDS)[number];

/** The submit value of each prompt-only card kind. */
export type PromptOnlyCardValueByKind = {
  plain: CardValueByKind['text'];
  approval: CardValueByKind['confirm'];
  report: z.infer<typeof AcknowledgedValueSchema>;
};

/** Any prompt-only card's submit value. */
export type PromptOnlyCardValue = PromptOnlyCardValueByKind[PromptOnlyCardKind];

/**
 * Which prompt-only kind a card is, or `undefined` when it has a presentation
 * (or cannot be read). Reads only `presentation`, `approval` and `report`;
 * never throws.
 */
export function promptOnlyCardKind(card: {
  readonly presentation?: unknown;
  readonly approval?: unknown;
  readonly report?: unknown;
}): PromptOnlyCardKind | undefined {
  try {
    const { presentation, approval, report } = card;
    if (presentation !== undefined) return undefined;
    if (approval !== undefined) return 'approval';
    return report === undefined ? 'plain' : 'report';
  } catch {
    return undefined;
  }
}

/**
 * The submit value type of a card whose presentation type is `Presentation`
 * (possibly `undefined`: a prompt-only card), for a vocabulary whose values
 * are `ValueByKind`.
 */
export type CardAnswerValue<
  Presentation extends { readonly kind: string } | undefined,
  ValueByKind extends { readonly [Kind in NonNullable<Presentation>['kind']]: unknown },
> = ValueByKind[NonNullable<Presentation>['kind']] | (undefined extends Presentation ? PromptOnlyCardValue : never);

function cardResponseSchema<Value extends z.ZodMiniType>(value: Value) {
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

// The response before its value is judged against the card's kind. Its value is
// any value but a missing one: zod 4 refuses a missing `z.unknown()` key, zod
// 3.25 lets it through, so the rule is stated here (the data check has already
// refused a key holding `undefined`) and a submit without a value is
// `invalid-response` under both lines of the peer range.
const ResponseEnvelopeSchema = /* @__PURE__ */ (() =>
  cardResponseSchema(z.custom<unknown>((value) => value !== undefined, 'expected nonoptional')))();

// ---------------------------------------------------------------------------
// Refusals

/** Why {@link parseOpenCardSnapshot} or a codec's `parseCard` refused its input. */
export type OpenCardRefusalCode = 'invalid-card';

/**
 * Why {@link validateCardResponse} or a codec's `validateResponse` refused a response:
 * - `invalid-card`: the card given is not a valid card of the codec (a caller's mistake);
 * - `invalid-response`: not a strict `{ action, correlationId, value? }` response;
 * - `wrong-card`: the response answers another card (correlation ids differ);
 * - `invalid-time`: the `at` given is not an RFC 3339 timestamp with an offset;
 * - `expired`: `at` is at or after the card's deadline ({@link cardDeadline}:
 *   `expiresAt`, else `createdAt + timeoutMs`), whatever the action;
 * - `decline-not-allowed`: a decline on a card without `allowDecline: true`;
 * - `invalid-value`: the value does not have the kind's shape or exceeds a
 *   protocol bound (an unreal date, text past `CARD_LIMITS.maxTextAnswerLength`,
 *   a non-finite number), or a product kind's `validate` returned issues;
 * - `unknown-option`, `duplicate-option`: an option id not on the card, or twice;
 * - `too-few-options`, `too-many-options`: a checkbox selection outside
 *   `minSelected` (default 0) … `maxSelected` (default every option);
 * - `text-too-short`, `text-too-long`: outside the card's `minLength`/`maxLength`;
 * - `out-of-range`: a slider value or date outside the card's `min`/`max`;
 * - `off-step`: a slider value not on `min + k × step`.
 */
export type CardResponseRefusalCode =
  | 'invalid-card'
  | 'invalid-response'
  | 'wrong-card'
  | 'invalid-time'
  | 'expired'
  | 'decline-not-allowed'
  | 'invalid-value'
  | 'unknown-option'
  | 'duplicate-option'
  | 'too-few-options'
  | 'too-many-options'
  | 'text-too-short'
  | 'text-too-long'
  | 'out-of-range'
  | 'off-step';

type ResponseRefusal = ChatRefusal<CardResponseRefusalCode>;

function prefixIssues(prefix: readonly (string | number)[], issues: readonly ChatIssue[]): ChatIssue[] {
  return issues.map((issue) => ({ path: [...prefix, ...issue.path], message: issue.message }));
}

// Zod reads properties, so a getter would run (and could throw) inside a
// parser that promises not to. Before any schema sees the input, this accepts
// only what JSON could have produced: primitives, plain objects and dense
// arrays of own data properties, no forbidden keys, bounded nesting.
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

// A Proxy's traps run inside findNonData (`Array.isArray`, `getPrototypeOf`,
// `ownKeys`) and may throw: a value that cannot be read is not data.
function nonDataIssue(value: unknown): ChatIssue | undefined {
  try {
    return findNonData(value, [], 0);
  } catch {
    return { path: [], message: 'not JSON data (it cannot be read)' };
  }
}

function parseCardWith<Card>(
  schema: z.ZodMiniType<Card>,
  input: unknown,
): ParseResult<Card, OpenCardRefusalCode> {
  const nonData = nonDataIssue(input);
  if (nonData !== undefined) return refuse('invalid-card', 'the card is not JSON data', [nonData]);
  try {
    const parsed = schema.safeParse(input);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : refuse('invalid-card', 'the card does not match the v1 card schema', issuesOf(parsed.error));
  } catch {
    // A Proxy passes the data check (its traps forward) and throws in zod's reads.
    return refuse('invalid-card', 'the card cannot be read');
  }
}

// ---------------------------------------------------------------------------
// Per-kind checks of a submit value against its card

// A presentation as a kind check receives it: the discriminant plus fields.
type KindPresentation = { readonly kind: string } & Readonly<Record<string, unknown>>;

// How one kind judges a value that already has the kind's shape.
interface KindRule {
  readonly value: z.ZodMiniType;
  check(presentation: KindPresentation, value: unknown): ResponseRefusal | undefined;
}

function valueIssue(
  code: CardResponseRefusalCode,
  message: string,
  path: readonly (string | number)[],
): ResponseRefusal {
  return refuse(code, message, [{ path: ['value', ...path], message }]);
}

function checkOption(
  presentation: { readonly options: readonly CardOption[] },
  value: { readonly optionId: string },
): ResponseRefusal | undefined {
  return presentation.options.some((option) => option.id === value.optionId)
    ? undefined
    : valueIssue('unknown-option', `option ${quoteKey(value.optionId)} is not on the card`, ['optionId']);
}

// Floating steps (0.1) never divide exactly; a value is on the step when it is
// within a billionth of a step of a grid point, or within what the doubles
// involved can resolve when the grid index is huge.
function isOnStep(value: number, min: number, step: number): boolean {
  const index = (value - min) / step;
  return Math.abs(index - Math.round(index)) <= Math.max(1e-9, Math.abs(index) * 8 * Number.EPSILON);
}

const BASE_KIND_RULES: {
  readonly [Kind in CardKind]: {
    readonly value: (typeof CARD_VALUE_SCHEMAS)[Kind];
    check(
      presentation: Extract<CardPresentationV1, { kind: Kind }>,
      value: CardValueByKind[Kind],
    ): ResponseRefusal | undefined;
  };
} = {
  text: {
    value: TextValueSchema,
    check(presentation, value) {
      const minimum = presentation.minLength ?? 0;
      const maximum = presentation.maxLength ?? CARD_LIMITS.maxTextAnswerLength;
      if (value.text.length < minimum) {
        return valueIssue('text-too-short', `text must be at least ${minimum} characters`, ['text']);
      }
      if (value.text.length > maximum) {
        return valueIssue('text-too-long', `text must be at most ${maximum} characters`, ['text']);
      }
      return undefined;
    },
  },
  radio: { value: OptionValueSchema, check: checkOption },
  select: { value: OptionValueSchema, check: checkOption },
  checkbox: {
    value: OptionsValueSchema,
    check(presentation, value) {
      const known = new Set(presentation.options.map((option) => option.id));
      const seen = new Set<string>();
      for (const [index, optionId] of value.optionIds.entries()) {
        if (seen.has(optionId)) {
          return valueIssue('duplicate-option', `option ${quoteKey(optionId)} is selected twice`, ['optionIds', index]);
        }
        seen.add(optionId);
        if (!known.has(optionId)) {
          return valueIssue('unknown-option', `option ${quoteKey(optionId)} is not on the card`, ['optionIds', index]);
        }
      }
      const minimum = presentation.minSelected ?? 0;
      const maximum = presentation.maxSelected ?? presentation.options.length;
      if (seen.size < minimum) {
        return valueIssue('too-few-options', `select at least ${minimum} options`, ['optionIds']);
      }
      if (seen.size > maximum) {
        return valueIssue('too-many-options', `select at most ${maximum} options`, ['optionIds']);
      }
      return undefined;
    },
  },
  confirm: { value: ConfirmValueSchema, check: () => undefined },
  date: {
    value: DateValueSchema,
    check(presentation, value) {
      if (presentation.min !== undefined && value.date < presentation.min) {
        return valueIssue('out-of-range', `date must not be before ${presentation.min}`, ['date']);
      }
      if (presentation.max !== undefined && value.date > presentation.max) {
        return valueIssue('out-of-range', `date must not be after ${presentation.max}`, ['date']);
      }
      return undefined;
    },
  },
  slider: {
    value: SliderValueSchema,
    check(presentation, value) {
      if (value.value < presentation.min || value.value > presentation.max) {
        return valueIssue('out-of-range', `value must be within ${presentation.min}…${presentation.max}`, ['value']);
      }
      if (presentation.step !== undefined && !isOnStep(value.value, presentation.min, presentation.step)) {
        return valueIssue('off-step', `value must be ${presentation.min} plus a multiple of ${presentation.step}`, [
          'value',
        ]);
      }
      return undefined;
    },
  },
};

// A prompt-only card's answer rules: the value schemas alone say it all.
const PROMPT_ONLY_RULES: { readonly [Kind in PromptOnlyCardKind]: KindRule } = {
  plain: { value: TextValueSchema, check: () => undefined },
  approval: { value: ConfirmValueSchema, check: () => undefined },
  report: { value: AcknowledgedValueSchema, check: () => undefined },
};

/** When a response arrived, for judging lateness; see {@link validateCardResponse}. */
export interface CardResponseTiming {
  /** RFC 3339 with an offset: the instant the response arrived. Absent: lateness is not judged. */
  readonly at?: string | undefined;
}

function readTiming(options: unknown): { readonly at?: unknown } | undefined {
  if (options === undefined) return {};
  if (!isPlainObject(options)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(options, 'at');
  return descriptor === undefined ? {} : 'value' in descriptor ? { at: descriptor.value as unknown } : undefined;
}

function validateResponseWith(
  cardSchema: z.ZodMiniType<OpenCardSnapshotOf<KindPresentation>>,
  rules: ReadonlyMap<string, KindRule>,
  card: unknown,
  response: unknown,
  options: unknown,
): ParseResult<CardResponseOf<unknown>, CardResponseRefusalCode> {
  const parsedCard = parseCardWith(cardSchema, card);
  if (!parsedCard.ok) return refuse('invalid-card', parsedCard.message, parsedCard.issues);
  const timing = readTiming(options);
  if (timing === undefined || (timing.at !== undefined && !isZonedTimestamp(timing.at))) {
    return refuse('invalid-time', 'at: expected an RFC 3339 timestamp with an offset');
  }
  const nonData = nonDataIssue(response);
  if (nonData !== undefined) return refuse('invalid-response', 'the response is not JSON data', [nonData]);
  const envelope = ResponseEnvelopeSchema.safeParse(response);
  if (!envelope.success) {
    return refuse('invalid-response', 'not a card response', issuesOf(envelope.error));
  }
  const answer = envelope.data;
  const { correlationId, presentation } = parsedCard.value;
  if (answer.correlationId !== correlationId) {
    return refuse('wrong-card', 'the response answers another card', [
      { path: ['correlationId'], message: `expected ${quoteKey(correlationId)}` },
    ]);
  }
  if (timing.at !== undefined) {
    const deadline = cardDeadline(parsedCard.value);
    if (isPastDeadline(timing.at, deadline)) return refuse('expired', `the card expired at ${deadline}`);
  }
  if (answer.action === 'cancel') return { ok: true, value: { action: 'cancel', correlationId } };
  if (answer.action === 'decline') {
    if (parsedCard.value.allowDecline !== true) return refuse('decline-not-allowed', 'this card does not allow declining');
    const { reason } = answer;
    return { ok: true, value: reason === undefined ? { action: 'decline', correlationId } : { action: 'decline', correlationId, reason } };
  }
  const promptOnly = promptOnlyCardKind(parsedCard.value);
  const kind = presentation?.kind ?? `prompt-only ${promptOnly}`;
  const rule = promptOnly === undefined ? rules.get(kind) : PROMPT_ONLY_RULES[promptOnly];
  if (rule === undefined) return refuse('invalid-card', `no rule for card kind ${quoteKey(kind)}`);
  const value = rule.value.safeParse(answer.value);
  if (!value.success) {
    return refuse('invalid-value', `the value does not fit a ${kind} card`, prefixIssues(['value'], issuesOf(value.error)));
  }
  const refusal = presentation === undefined ? undefined : rule.check(presentation, value.data);
  return refusal ?? { ok: true, value: { action: 'submit', correlationId, value: value.data } };
}

// The card is read under parseCardWith's own guard; what throws past it is the
// response (a Proxy passes the data check, then throws in zod's reads) or a
// product's `validate` breaking its contract.
function validateResponseGuarded(
  cardSchema: z.ZodMiniType<OpenCardSnapshotOf<KindPresentation>>,
  rules: ReadonlyMap<string, KindRule>,
  card: unknown,
  response: unknown,
  options: unknown,
): ParseResult<CardResponseOf<unknown>, CardResponseRefusalCode> {
  try {
    return validateResponseWith(cardSchema, rules, card, response, options);
  } catch {
    return refuse('invalid-response', 'the response cannot be read');
  }
}

// ---------------------------------------------------------------------------
// Codecs

/**
 * A zod/mini `z.strictObject` of the fields a product kind adds to its
 * presentation, without `kind` (the codec adds it). Refinements on it are kept.
 */
export type CardKindPresentationSchema = z.ZodMiniObject<z.core.$ZodShape, z.core.$strict>;

/** A product card kind: its extra presentation fields, its submit value and an optional rule tying the two. */
export interface CardKindDefinition<
  Presentation extends CardKindPresentationSchema = CardKindPresentationSchema,
  Value extends z.ZodMiniType = z.ZodMiniType,
> {
  /** The presentation fields besides `kind`; must be a `z.strictObject`. */
  readonly presentation: Presentation;
  /** The submit value; a top-level object must be a `z.strictObject`. */
  readonly value: Value;
  /**
   * Judges a shape-valid value against the card's presentation (which also
   * carries `kind`). Issues refuse the response with `invalid-value`; their
   * paths are relative to `value`. Must not throw.
   */
  validate?(presentation: z.output<Presentation>, value: z.output<Value>): readonly ChatIssue[] | undefined;
}

/**
 * Returns `definition` unchanged; it exists so TypeScript infers the
 * presentation and value types of `validate`'s parameters from the two schemas
 * (inline definitions in `createCardCodec` must annotate them).
 */
export function defineCardKind<Presentation extends CardKindPresentationSchema, Value extends z.ZodMiniType>(
  definition: CardKindDefinition<Presentation, Value>,
): CardKindDefinition<Presentation, Value> {
  return definition;
}

/** Product kinds by name, as given to {@link createCardCodec}. */
export type CardKindDefinitions = Readonly<Record<string, CardKindDefinition>>;

type Flatten<T> = { [Key in keyof T]: T[Key] };

// zod types an empty strict object as Record<string, never>, whose index
// signature would swallow `kind`; it adds no fields.
type FieldsOf<Output> = string extends keyof Output ? Record<never, never> : Output;

/** The presentation union of the product kinds in `Kinds`. */
export type ProductCardPresentation<Kinds extends CardKindDefinitions> = {
  [Kind in keyof Kinds & string]: Flatten<{ kind: Kind } & FieldsOf<z.output<Kinds[Kind]['presentation']>>>;
}[keyof Kinds & string];

/** The submit value of each product kind in `Kinds`. */
export type ProductCardValueByKind<Kinds extends CardKindDefinitions> = {
  [Kind in keyof Kinds & string]: z.output<Kinds[Kind]['value']>;
};

/**
 * A card vocabulary: its kinds, its card and response schemas, and the two
 * operations. `parseCard` and `validateResponse` never throw (a product's own
 * `validate` aside); `validateResponse`'s value type follows the card's kind.
 */
export interface CardCodec<
  Presentation extends { readonly kind: string },
  ValueByKind extends { readonly [Kind in Presentation['kind']]: unknown },
> {
  /** Every kind the codec reads: the base {@link CARD_KINDS}, then the product kinds. */
  readonly kinds: readonly Presentation['kind'][];
  /** Schema of a card of this vocabulary. */
  readonly CardSchema: z.ZodMiniType<OpenCardSnapshotOf<Presentation>>;
  /** Schema of a response to a card of this vocabulary (shape only). */
  readonly ResponseSchema: z.ZodMiniType<CardResponseOf<ValueByKind[Presentation['kind']] | PromptOnlyCardValue>>;
  /** Parses a card; refuses with `invalid-card` and zod's issues as path + message. */
  parseCard(input: unknown): ParseResult<OpenCardSnapshotOf<Presentation>, OpenCardRefusalCode>;
  /** Checks that `response` answers `card` (late at `timing.at`?); see {@link CardResponseRefusalCode}. */
  validateResponse<Card extends OpenCardSnapshotOf<Presentation>>(
    card: Card,
    response: unknown,
    timing?: CardResponseTiming,
  ): ParseResult<CardResponseOf<CardAnswerValue<Card['presentation'], ValueByKind>>, CardResponseRefusalCode>;
}

function assembleCodec<
  Presentation extends KindPresentation,
  ValueByKind extends { readonly [Kind in Presentation['kind']]: unknown },
>(
  kinds: readonly Presentation['kind'][],
  cardSchema: z.ZodMiniType<OpenCardSnapshotOf<Presentation>>,
  responseSchema: z.ZodMiniType<CardResponseOf<ValueByKind[Presentation['kind']] | PromptOnlyCardValue>>,
  rules: ReadonlyMap<string, KindRule>,
): CardCodec<Presentation, ValueByKind> {
  return {
    kinds: Object.freeze([...kinds]),
    CardSchema: cardSchema,
    ResponseSchema: responseSchema,
    parseCard: (input) => parseCardWith(cardSchema, input),
    // The rules were registered per kind, so the value a rule accepted is the
    // value type of the card's kind; TypeScript cannot follow that through a Map.
    validateResponse: <Card extends OpenCardSnapshotOf<Presentation>>(
      card: Card,
      response: unknown,
      timing?: CardResponseTiming,
    ) =>
      validateResponseGuarded(cardSchema, rules, card, response, timing) as ParseResult<
        CardResponseOf<CardAnswerValue<Card['presentation'], ValueByKind>>,
        CardResponseRefusalCode
      >,
  };
}

const BASE_RULES: ReadonlyMap<string, KindRule> = /* @__PURE__ */ new Map(
  /* @__PURE__ */ CARD_KINDS.map((kind): [string, KindRule] => [kind, BASE_KIND_RULES[kind] as KindRule]),
);

/**
 * The codec of the base v1 vocabulary: `CardSchema` is {@link OpenCardSnapshotV1Schema},
 * `ResponseSchema` is {@link CardResponseSchema}, and its operations are
 * {@link parseOpenCardSnapshot} and {@link validateCardResponse}.
 */
export const baseCardCodec: CardCodec<CardPresentationV1, CardValueByKind> = /* @__PURE__ */ assembleCodec(
  CARD_KINDS,
  OpenCardSnapshotV1Schema,
  CardResponseSchema,
  BASE_RULES,
);

/**
 * Parses a v1 card. Never throws: anything that is not a strict v1 card (unknown
 * keys at any level, zone-less timestamps, `expiresAt` not after `createdAt`,
 * product kinds, getters, `__proto__` keys) is `invalid-card` with issues.
 */
export function parseOpenCardSnapshot(input: unknown): ParseResult<OpenCardSnapshotV1, OpenCardRefusalCode> {
  return baseCardCodec.parseCard(input);
}

/**
 * Checks that `response` is a person's valid answer to `card`: its shape, that
 * it names this card, that it is not late, that a decline is allowed
 * (`allowDecline: true`; absent means not allowed) and its `reason` short, and
 * that a submitted value fits the kind and the card's options and bounds (a
 * prompt-only card's value: see {@link promptOnlyCardKind}). `cancel` is
 * allowed unless late. Lateness is judged only when `timing.at` says when the
 * response arrived (this has no clock): at or after {@link cardDeadline} every
 * action is `expired`. Never throws; returns a fresh copy of the response.
 */
export function validateCardResponse<Card extends OpenCardSnapshotV1>(
  card: Card,
  response: unknown,
  timing?: CardResponseTiming,
): ParseResult<CardResponseOf<CardAnswerValue<Card['presentation'], CardValueByKind>>, CardResponseRefusalCode> {
  return baseCardCodec.validateResponse(card, response, timing);
}

function isZodSchema(value: unknown): value is z.ZodMiniType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

function isStrictObjectSchema(schema: z.ZodMiniType): schema is CardKindPresentationSchema {
  const definition = schema._zod.def;
  return definition.type === 'object' && 'catchall' in definition && isZodSchema(definition.catchall)
    ? definition.catchall._zod.def.type === 'never'
    : false;
}

function productRule(kind: string, definition: CardKindDefinition): KindRule {
  const { validate } = definition;
  return {
    value: definition.value,
    check(presentation, value) {
      const issues = validate?.call(definition, presentation, value);
      return issues === undefined || issues.length === 0
        ? undefined
        : refuse('invalid-value', `the value does not fit this ${kind} card`, prefixIssues(['value'], issues));
    },
  };
}

// zod 4's `safeExtend` is absent from zod 3.25, whose `extend` drops the
// object's refinements: the fields and refinements are carried over by hand,
// so a product presentation keeps its rules under both lines of the peer range.
function withKind(presentation: CardKindPresentationSchema, kind: string): z.ZodMiniObject {
  const refinements = (presentation._zod.def.checks ?? []) as Array<z.core.$ZodCheck<object>>;
  return z.strictObject({ ...presentation.shape, kind: z.literal(kind) }).check(...refinements);
}

function assertKindDefinition(kind: string, definition: unknown): asserts definition is CardKindDefinition {
  if (!KIND_NAME_PATTERN.test(kind) || kind.length > CARD_LIMITS.maxKindLength) {
    throw new TypeError(
      `card kind ${quoteKey(kind)} must be kebab-case, at most ${CARD_LIMITS.maxKindLength} characters`,
    );
  }
  if ((CARD_KINDS as readonly string[]).includes(kind)) {
    throw new TypeError(`card kind ${quoteKey(kind)} is a base kind and cannot be redefined`);
  }
  if (!isPlainObject(definition)) throw new TypeError(`card kind ${quoteKey(kind)} needs a definition object`);
  const { presentation, value, validate } = definition;
  if (!isZodSchema(presentation) || !isStrictObjectSchema(presentation)) {
    throw new TypeError(`card kind ${quoteKey(kind)}: presentation must be a z.strictObject`);
  }
  if (hasOwn(presentation.shape, 'kind')) {
    throw new TypeError(`card kind ${quoteKey(kind)}: presentation must not declare kind; the codec adds it`);
  }
  if (!isZodSchema(value) || (value._zod.def.type === 'object' && !isStrictObjectSchema(value))) {
    throw new TypeError(`card kind ${quoteKey(kind)}: value must be a zod schema, a z.strictObject for objects`);
  }
  if (validate !== undefined && typeof validate !== 'function') {
    throw new TypeError(`card kind ${quoteKey(kind)}: validate must be a function`);
  }
}

/**
 * Builds a card codec for the base kinds plus a product's `kinds`, typed end to
 * end: the card's presentation union gains `{ kind: name, ...presentation }` per
 * product kind and a submitted value's type follows the card's kind.
 * Throws `TypeError` (a programming error, at creation only) when a kind name is
 * not kebab-case, redefines a base kind, or its schemas are not strict, and
 * when the options cannot be read (a getter or a Proxy trap threw); never
 * anything else.
 */
export function createCardCodec<const Kinds extends CardKindDefinitions>(options: {
  readonly kinds: Kinds & { readonly [Kind in CardKind]?: never };
}): CardCodec<CardPresentationV1 | ProductCardPresentation<Kinds>, CardValueByKind & ProductCardValueByKind<Kinds>> {
  try {
    return buildCardCodec<Kinds>(options);
  } catch (error) {
    if (error instanceof TypeError) throw error;
    throw new TypeError('createCardCodec: the options cannot be read (a getter or a Proxy trap threw)');
  }
}

function buildCardCodec<const Kinds extends CardKindDefinitions>(options: {
  readonly kinds: Kinds & { readonly [Kind in CardKind]?: never };
}): CardCodec<CardPresentationV1 | ProductCardPresentation<Kinds>, CardValueByKind & ProductCardValueByKind<Kinds>> {
  if (!isPlainObject(options) || !isPlainObject(options.kinds)) {
    throw new TypeError('createCardCodec needs { kinds: { [name]: definition } }');
  }
  const rules = new Map(BASE_RULES);
  const presentations: z.ZodMiniObject[] = [...BASE_PRESENTATION_SCHEMAS];
  const values: z.ZodMiniType[] = [CardValueSchema];
  for (const [kind, definition] of Object.entries(options.kinds)) {
    assertKindDefinition(kind, definition);
    presentations.push(withKind(definition.presentation, kind));
    values.push(definition.value);
    rules.set(kind, productRule(kind, definition));
  }
  type Presentation = CardPresentationV1 | ProductCardPresentation<Kinds>;
  type ValueByKind = CardValueByKind & ProductCardValueByKind<Kinds>;
  // The schemas are assembled at run time from the definitions, so their static
  // type is the one the definitions promise rather than one zod can infer.
  const presentationSchema = discriminatedUnionSchema('kind', presentations as [z.ZodMiniObject, ...z.ZodMiniObject[]]);
  const cardSchema = cardSnapshotSchema(presentationSchema) as z.ZodMiniType as z.ZodMiniType<
    OpenCardSnapshotOf<Presentation>
  >;
  const responseSchema = cardResponseSchema(z.union(values)) as z.ZodMiniType as z.ZodMiniType<
    CardResponseOf<ValueByKind[Presentation['kind']] | PromptOnlyCardValue>
  >;
  const kinds = [...rules.keys()] as Presentation['kind'][];
  return assembleCodec<Presentation, ValueByKind>(kinds, cardSchema, responseSchema, rules);
}
