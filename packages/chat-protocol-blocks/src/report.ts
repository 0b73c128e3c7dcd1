/**
 * `<report>` blocks: a two-tier plan → item status list an agent embeds in its
 * turn text. This module owns the normalized shape (schema and type), the known
 * status tokens renderers style, and the tolerant parser that reads a model's
 * JSON into that shape. It owns no tag syntax (tags.ts) and no rendering.
 */
import * as z from 'zod/v4/mini';
import { blockTextSchema, readBlockText } from './block-text.js';
import { asRecord, readList, readOwnValue } from './defensive-read.js';
import { BLOCK_LIMITS } from './limits.js';
import { exactOptional, strictExactObject } from './portable-schema.js';

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

const ReportItemSchema = /* @__PURE__ */ (() =>
  strictExactObject({
    id: exactOptional(blockTextSchema(BLOCK_LIMITS.maxTokenLength)),
    text: blockTextSchema(BLOCK_LIMITS.maxTextLength),
    status: exactOptional(blockTextSchema(BLOCK_LIMITS.maxTokenLength)),
    ref: exactOptional(blockTextSchema(BLOCK_LIMITS.maxTextLength)),
  }))();

const ReportPlanSchema = /* @__PURE__ */ (() =>
  strictExactObject({
    slug: exactOptional(blockTextSchema(BLOCK_LIMITS.maxTokenLength)),
    title: blockTextSchema(BLOCK_LIMITS.maxTextLength),
    status: exactOptional(blockTextSchema(BLOCK_LIMITS.maxTokenLength)),
    summary: exactOptional(blockTextSchema(BLOCK_LIMITS.maxTextLength)),
    items: exactOptional(
      z.array(ReportItemSchema).check(z.minLength(1), z.maxLength(BLOCK_LIMITS.maxItemsPerPlan)),
    ),
  }))();

/**
 * Schema of a normalized report block: strict at every level; every string
 * trimmed, non-blank, clean and within {@link BLOCK_LIMITS}; `plans` non-empty;
 * `items` non-empty when present; an optional key is absent, never `undefined`.
 * Exactly the values {@link parseReportBlock} returns unchanged.
 */
export const ReportBlockSchema = /* @__PURE__ */ (() =>
  strictExactObject({
    title: exactOptional(blockTextSchema(BLOCK_LIMITS.maxTextLength)),
    plans: z.array(ReportPlanSchema).check(z.minLength(1), z.maxLength(BLOCK_LIMITS.maxPlans)),
  }))();

/** A normalized `<report>` block. */
export type ReportBlock = z.infer<typeof ReportBlockSchema>;

/** One plan of a {@link ReportBlock}. */
export type ReportPlan = ReportBlock['plans'][number];

/** One item of a {@link ReportPlan}. */
export type ReportItem = NonNullable<ReportPlan['items']>[number];

function readItem(entry: unknown): ReportItem | undefined {
  const source = asRecord(entry);
  if (source === undefined) return undefined;
  const id = readBlockText(source, 'id', BLOCK_LIMITS.maxTokenLength);
  const text = readBlockText(source, 'text', BLOCK_LIMITS.maxTextLength) ?? id;
  if (text === undefined) return undefined;
  const status = readBlockText(source, 'status', BLOCK_LIMITS.maxTokenLength);
  const ref = readBlockText(source, 'ref', BLOCK_LIMITS.maxTextLength);
  return {
    ...(id === undefined ? {} : { id }),
    text,
    ...(status === undefined ? {} : { status }),
    ...(ref === undefined ? {} : { ref }),
  };
}

function readPlan(entry: unknown): ReportPlan | undefined {
  const source = asRecord(entry);
  if (source === undefined) return undefined;
  const slug = readBlockText(source, 'slug', BLOCK_LIMITS.maxTokenLength);
  const title = readBlockText(source, 'title', BLOCK_LIMITS.maxTextLength) ?? slug;
  if (title === undefined) return undefined;
  const status = readBlockText(source, 'status', BLOCK_LIMITS.maxTokenLength);
  const summary = readBlockText(source, 'summary', BLOCK_LIMITS.maxTextLength);
  const items = readList(readOwnValue(source, 'items'), BLOCK_LIMITS.maxItemsPerPlan, readItem);
  return {
    ...(slug === undefined ? {} : { slug }),
    title,
    ...(status === undefined ? {} : { status }),
    ...(summary === undefined ? {} : { summary }),
    ...(items.length === 0 ? {} : { items }),
  };
}

/**
 * Reads the parsed JSON of a `<report>` body into a normalized {@link ReportBlock},
 * or `null` when no plan is usable.
 *
 * Guarantees: never throws (getters, Proxies and cycles included) and never
 * mutates or retains `input`; reads only own data properties (a getter never
 * runs; `__proto__`, `constructor` and `prototype` keys are never read) and
 * builds the result from fresh literals, so no prototype is ever polluted.
 * Strings are trimmed; a string that is blank, not clean text, or past its
 * bound in {@link BLOCK_LIMITS} is absent (dropped, never truncated); a
 * non-string (a number included) where a string belongs is absent, and so is
 * an array where an object belongs or an object where an array belongs. A
 * plan's title falls back to its slug and an item's text to its id; an entry
 * with neither is dropped. Only the first `maxPlans` plans and `maxItemsPerPlan`
 * items of each plan are read. Empty arrays are omitted and no key holds
 * `undefined`; keys come in the schema's order. A string input is not JSON-parsed
 * (it gives `null`): the tag readers parse the tag body. The result satisfies
 * {@link ReportBlockSchema}, and parsing it again returns an equal block.
 */
export function parseReportBlock(input: unknown): ReportBlock | null {
  try {
    const source = asRecord(input);
    if (source === undefined) return null;
    const plans = readList(readOwnValue(source, 'plans'), BLOCK_LIMITS.maxPlans, readPlan);
    if (plans.length === 0) return null;
    const title = readBlockText(source, 'title', BLOCK_LIMITS.maxTextLength);
    return { ...(title === undefined ? {} : { title }), plans };
  } catch {
    // Every read above already contains its own failures; this is the last guard of the contract.
    return null;
  }
}
