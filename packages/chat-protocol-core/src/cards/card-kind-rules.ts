/**
 * How each card kind judges a submit value that already has the kind's shape
 * against the card it answers (known option, within min/max, on the step), for
 * the base kinds and prompt-only cards. It owns no response envelope, timing or
 * card parsing: `validate-card-response.ts` runs these after those checks.
 */
import type * as z from 'zod/v4/mini';
import { CARD_KINDS, CARD_LIMITS, type CardKind, type CardOption, type CardPresentationV1 } from './card-schemas.js';
import {
  AcknowledgedValueSchema,
  ConfirmValueSchema,
  DateValueSchema,
  OptionValueSchema,
  OptionsValueSchema,
  SliderValueSchema,
  TextValueSchema,
  type CARD_VALUE_SCHEMAS,
  type CardValueByKind,
} from './card-responses.js';
import type { PromptOnlyCardKind } from './prompt-only-cards.js';
import { refuse, type ChatIssue, type ChatRefusal } from '../primitives/result.js';
import { quoteKey } from '../primitives/zod-issues.js';
import type { CardResponseRefusalCode } from './card-response-refusals.js';

/** A presentation as a kind check receives it: the discriminant plus fields. */
export type KindPresentation = { readonly kind: string } & Readonly<Record<string, unknown>>;

/** How one kind judges a value that already has the kind's shape: its value schema, then `check` against the card. */
export interface KindRule {
  readonly value: z.ZodMiniType;
  check(presentation: KindPresentation, value: unknown): ResponseRefusal | undefined;
}

// A refusal of a response to a card.
type ResponseRefusal = ChatRefusal<CardResponseRefusalCode>;

/** `issues` with `prefix` put before each path (fresh issues; the input is not mutated). */
export function prefixIssues(prefix: readonly (string | number)[], issues: readonly ChatIssue[]): ChatIssue[] {
  return issues.map((issue) => ({ path: [...prefix, ...issue.path], message: issue.message }));
}

function valueIssue(code: CardResponseRefusalCode, message: string, path: readonly (string | number)[]): ResponseRefusal {
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
    check(presentation: Extract<CardPresentationV1, { kind: Kind }>, value: CardValueByKind[Kind]): ResponseRefusal | undefined;
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
        return valueIssue('off-step', `value must be ${presentation.min} plus a multiple of ${presentation.step}`, ['value']);
      }
      return undefined;
    },
  },
};

/** A prompt-only card's answer rules: the value schemas alone say it all. */
export const PROMPT_ONLY_RULES: { readonly [Kind in PromptOnlyCardKind]: KindRule } = {
  plain: { value: TextValueSchema, check: () => undefined },
  approval: { value: ConfirmValueSchema, check: () => undefined },
  report: { value: AcknowledgedValueSchema, check: () => undefined },
};

/** The base kinds' rules by name: what every codec starts from before adding product kinds. */
export const BASE_RULES: ReadonlyMap<string, KindRule> = /* @__PURE__ */ new Map(
  /* @__PURE__ */ CARD_KINDS.map((kind): [string, KindRule] => [kind, BASE_KIND_RULES[kind] as KindRule]),
);
