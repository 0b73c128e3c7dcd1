/**
 * Card codecs: a card vocabulary (the base kinds plus a product's kinds, typed
 * end to end) with its card and response schemas and its two operations, and
 * `baseCardCodec` for the base vocabulary. It owns the checks of a product's
 * kind definitions at creation; the shapes, the data check and the rules it
 * assembles live in their own modules.
 */
import * as z from 'zod/v4/mini';
import { discriminatedUnionSchema } from '../primitives/portable-zod.js';
import { hasOwn, isPlainObject } from '../primitives/primitives.js';
import {
  BASE_PRESENTATION_SCHEMAS,
  CARD_KINDS,
  CARD_LIMITS,
  OpenCardSnapshotV1Schema,
  cardSnapshotSchema,
  type CardKind,
  type CardPresentationV1,
  type OpenCardSnapshotOf,
} from './card-schemas.js';
import {
  CardResponseSchema,
  CardValueSchema,
  cardResponseSchema,
  type CardAnswerValue,
  type CardResponseOf,
  type CardValueByKind,
  type PromptOnlyCardValue,
} from './card-responses.js';
import { BASE_RULES, prefixIssues, type KindPresentation, type KindRule } from './card-kind-rules.js';
import { parseCardWith, type OpenCardRefusalCode } from './parse-card.js';
import type { CardResponseRefusalCode } from './card-response-refusals.js';
import { validateResponseGuarded, type CardResponseTiming } from './validate-card-response.js';
import { refuse, type ChatIssue, type ParseResult } from '../primitives/result.js';
import { quoteKey } from '../primitives/zod-issues.js';

const KIND_NAME_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

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

function assembleCodec<Presentation extends KindPresentation, ValueByKind extends { readonly [Kind in Presentation['kind']]: unknown }>(
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
    validateResponse: <Card extends OpenCardSnapshotOf<Presentation>>(card: Card, response: unknown, timing?: CardResponseTiming) =>
      validateResponseGuarded(cardSchema, rules, card, response, timing) as ParseResult<
        CardResponseOf<CardAnswerValue<Card['presentation'], ValueByKind>>,
        CardResponseRefusalCode
      >,
  };
}

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
    throw new TypeError(`card kind ${quoteKey(kind)} must be kebab-case, at most ${CARD_LIMITS.maxKindLength} characters`);
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
  const cardSchema = cardSnapshotSchema(presentationSchema) as z.ZodMiniType as z.ZodMiniType<OpenCardSnapshotOf<Presentation>>;
  const responseSchema = cardResponseSchema(z.union(values)) as z.ZodMiniType as z.ZodMiniType<
    CardResponseOf<ValueByKind[Presentation['kind']] | PromptOnlyCardValue>
  >;
  const kinds = [...rules.keys()] as Presentation['kind'][];
  return assembleCodec<Presentation, ValueByKind>(kinds, cardSchema, responseSchema, rules);
}
