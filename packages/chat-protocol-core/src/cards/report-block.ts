/**
 * The report block: a two-tier plan → item status list. One strict schema for
 * every place a report travels: a `<report>` tag in turn text (the blocks
 * package parses those tolerantly into this shape) and a card's report body.
 * It owns the normalized shape, its bounds and the status tokens renderers
 * style; no tag syntax, no tolerant reading, no rendering.
 */
import * as z from 'zod/v4/mini';
import { customCheck, exactOptional, strictExactObject } from '../primitives/exact-object.js';
import { isCleanText, isSafeJsonObject } from '../primitives/primitives.js';

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
  /** Product extensions on one report (`extensions` keys). */
  maxExtensions: 16,
});

/** The shape of a report extension's name (the JSON Schema states it as `propertyNames`). */
export const EXTENSION_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/**
 * Whether `name` can name a report extension: a letter, then letters, digits,
 * `_` or `-`, at most 64 characters (`goalReport`, `scout-cart`), and not
 * `constructor` or `prototype` (`__proto__` never matches). Never throws.
 */
export function isReportExtensionName(name: unknown): boolean {
  return typeof name === 'string' && EXTENSION_NAME.test(name) && name !== 'constructor' && name !== 'prototype';
}

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
    items: exactOptional(z.array(ReportItemSchema).check(z.minLength(1), z.maxLength(REPORT_LIMITS.maxItemsPerPlan))),
  }))();

/**
 * Whether `value` is a report's product extensions: a JSON object of 1 to
 * `maxExtensions` keys, each named as {@link isReportExtensionName} allows,
 * each value bounded JSON (`isSafeJson`). The one rule, for the schema below
 * and the envelope's hot-path validator.
 */
export function isReportExtensions(value: unknown): value is Readonly<Record<string, unknown>> {
  if (!isSafeJsonObject(value)) return false;
  const names = Object.keys(value);
  return names.length > 0 && names.length <= REPORT_LIMITS.maxExtensions && names.every(isReportExtensionName);
}

/**
 * Schema of a report's product extensions ({@link isReportExtensions}). What a
 * value means is its product's: the blocks package's `createReportBlockReader`
 * reads one through the product's schema.
 */
export const ReportExtensionsSchema = /* @__PURE__ */ (() =>
  z.custom<Readonly<Record<string, unknown>>>(isReportExtensions, 'not report extensions: a JSON object of 1 to 16 named values'))();

/**
 * Schema of a normalized report block: strict at every level; every string
 * trimmed, non-blank, clean and within {@link REPORT_LIMITS}; `items`
 * non-empty when present; an optional key is absent, never
 * `undefined`. `plans` may be empty only in a report that carries product
 * `extensions` (a goal-only report: Papercusp's `goalReport` with no plans).
 * Exactly the values the blocks package's `parseReportBlock` returns unchanged.
 */
export const ReportBlockSchema = /* @__PURE__ */ (() =>
  strictExactObject({
    title: exactOptional(trimmedTextSchema(REPORT_LIMITS.maxTextLength)),
    plans: z.array(ReportPlanSchema).check(z.maxLength(REPORT_LIMITS.maxPlans)),
    extensions: exactOptional(ReportExtensionsSchema),
  }).check(
    customCheck((block: { readonly plans: readonly unknown[]; readonly extensions?: unknown }, report) => {
      if (Array.isArray(block.plans) && block.plans.length === 0 && block.extensions === undefined) {
        report({ message: 'must not be empty unless the report carries an extension', path: ['plans'] });
      }
    }),
  ))();

/** A normalized report block. */
export type ReportBlock = z.infer<typeof ReportBlockSchema>;

/** One plan of a {@link ReportBlock}. */
export type ReportPlan = ReportBlock['plans'][number];

/** One item of a {@link ReportPlan}. */
export type ReportItem = NonNullable<ReportPlan['items']>[number];
