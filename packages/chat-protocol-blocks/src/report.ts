/**
 * `<report>` blocks: the tolerant parser that reads a model's JSON into a
 * normalized report block. The strict shape (`ReportBlockSchema`) and the
 * status tokens live in core, where a card's report body uses the same schema;
 * the package index re-exports them. No tag syntax (tags.ts), no rendering.
 */
import type { ReportBlock, ReportItem, ReportPlan } from '@papercusp/chat-protocol-core';
import { readBlockText } from './block-text.js';
import { asRecord, readList, readOwnValue } from './defensive-read.js';
import { BLOCK_LIMITS } from './limits.js';

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
 * core's `ReportBlockSchema`, and parsing it again returns an equal block.
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
