/**
 * The report block: a two-tier plan → item status list. One strict schema for
 * every place a report travels: a `<report>` tag in turn text (the blocks
 * package parses those tolerantly into this shape) and a card's report body.
 * It owns the normalized shape, its bounds and the status tokens renderers
 * style; no tag syntax, no tolerant reading, no rendering.
 */
import * as z from 'zod/v4/mini';
import { customCheck, exactOptional, strictExactObject } from './exact-object.js';
import { isCleanText } from './primitives.js';

/** Bounds of a report block. Frozen; sizes are UTF-16 code units, counted after trimming. */
export const REPORT_LIMITS = /* @__PURE__ */ Object.freeze({
  /** Plans in one report. */
  maxPlans: 100,
  /** Items in one plan. */
  maxItemsPerPlan: 200,
  /** Slugs, item ids and statuses: short tokens. */
  maxTokenLength: 256,
  /** Titles, summaries, item text and refs. */
  maxTextLength: 4_096,
});

/** The type of {@link REPORT_LIMITS}. */
export type ReportLimits = typeof REPORT_LIMITS;

/**
 * The statuses renderers know how to style. A status stays a free string: a
 * block with another status is valid and keeps it; a renderer shows it plainly.
 */
export const REPORT_STATUS_TOKENS = /* @__PURE__ */ Object.freeze([
  'todo',
  'wip',
  'blocked',
  'done',
  'dropped',
  'passed',
  'failing',
  'needs-human',
] as const);

/** One of {@link REPORT_STATUS_TOKENS}. */
export type ReportStatusToken = (typeof REPORT_STATUS_TOKENS)[number];

/**
 * Schema of a trimmed string of at most `max` code units: not blank, no
 * leading or trailing whitespace, clean text ({@link isCleanText}). Every
 * string of a report block, and of the blocks package's other blocks, is one.
 */
export function trimmedTextSchema(max: number) {
  return z.string().check(
    customCheck((value: string, report) => {
      const trimmed = value.trim();
      if (trimmed.length === 0) {
        report({ message: 'must not be blank' });
      } else if (trimmed !== value) {
        report({ message: 'must not start or end with whitespace' });
      }
      if (!isCleanText(value)) report({ message: 'must not contain control characters or lone surrogates' });
    }),
    z.maxLength(max),
  );
}

const ReportItemSchema = /* @__PURE__ */ (() =>
  strictExactObject({
    id: exactOptional(trimmedTextSchema(REPORT_LIMITS.maxTokenLength)),
    text: trimmedTextSchema(REPORT_LIMITS.maxTextLength),
    status: exactOptional(trimmedTextSchema(REPORT_LIMITS.maxTokenLength)),
    ref: exactOptional(trimmedTextSchema(REPORT_LIMITS.maxTextLength)),
  }))();

const ReportPlanSchema = /* @__PURE__ */ (() =>
  strictExactObject({
    slug: exactOptional(trimmedTextSchema(REPORT_LIMITS.maxTokenLength)),
    title: trimmedTextSchema(REPORT_LIMITS.maxTextLength),
    status: exactOptional(trimmedTextSchema(REPORT_LIMITS.maxTokenLength)),
    summary: exactOptional(trimmedTextSchema(REPORT_LIMITS.maxTextLength)),
    items: exactOptional(
      z.array(ReportItemSchema).check(z.minLength(1), z.maxLength(REPORT_LIMITS.maxItemsPerPlan)),
    ),
  }))();

/**
 * Schema of a normalized report block: strict at every level; every string
 * trimmed, non-blank, clean and within {@link REPORT_LIMITS}; `plans`
 * non-empty; `items` non-empty when present; an optional key is absent, never
 * `undefined`. Exactly the values the blocks package's `parseReportBlock`
 * returns unchanged.
 */
export const ReportBlockSchema = /* @__PURE__ */ (() =>
  strictExactObject({
    title: exactOptional(trimmedTextSchema(REPORT_LIMITS.maxTextLength)),
    plans: z.array(ReportPlanSchema).check(z.minLength(1), z.maxLength(REPORT_LIMITS.maxPlans)),
  }))();

/** A normalized report block. */
export type ReportBlock = z.infer<typeof ReportBlockSchema>;

/** One plan of a {@link ReportBlock}. */
export type ReportPlan = ReportBlock['plans'][number];

/** One item of a {@link ReportPlan}. */
export type ReportItem = NonNullable<ReportPlan['items']>[number];
