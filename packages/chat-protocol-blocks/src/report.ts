/**
 * `<report>` blocks: the tolerant parser that reads a model's JSON into a
 * normalized report block. The strict shape (`ReportBlockSchema`) and the
 * status tokens live in core, where a card's report body uses the same schema;
 * the package index re-exports them. No tag syntax (tag-readers.ts), no rendering.
 */
import { REPORT_LIMITS, type ReportBlock, type ReportItem, type ReportPlan } from '@papercusp/chat-protocol-core';
import { isReportExtensionName } from '@papercusp/chat-protocol-core/internal';
import { readBlockText } from './block-text.js';
import { asRecord, ownKeys, readJsonCopy, readList, readOwnValue } from './defensive-read.js';
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
 * Reads a report's extensions: given the input's `extensions` object (when it
 * is one) and the input itself, the extensions to keep, or `undefined` for none.
 */
type ReportExtensionsReader = (extensions: object | undefined, source: object) => Record<string, unknown> | undefined;

/**
 * The extensions a plain `parseReportBlock` keeps: every entry of `extensions`
 * with a valid name and a bounded JSON value, copied, up to `maxExtensions`.
 */
function readAnyExtensions(extensions: object | undefined): Record<string, unknown> | undefined {
  if (extensions === undefined) return undefined;
  const kept: Record<string, unknown> = {};
  let count = 0;
  for (const name of ownKeys(extensions)) {
    if (count === REPORT_LIMITS.maxExtensions) break;
    if (!isReportExtensionName(name)) continue;
    const value = readJsonCopy(readOwnValue(extensions, name));
    if (value === undefined) continue;
    kept[name] = value;
    count++;
  }
  return count === 0 ? undefined : kept;
}

/**
 * The report block reader both `parseReportBlock` and a product's
 * `createReportBlockReader` use; `readExtensions` decides which extensions
 * stay. `null` when neither a plan nor an extension is usable. Never throws.
 */
export function readReportBlock(input: unknown, readExtensions: ReportExtensionsReader): ReportBlock | null {
  try {
    const source = asRecord(input);
    if (source === undefined) return null;
    const plans = readList(readOwnValue(source, 'plans'), BLOCK_LIMITS.maxPlans, readPlan);
    const extensions = readExtensions(asRecord(readOwnValue(source, 'extensions')), source);
    if (plans.length === 0 && extensions === undefined) return null;
    const title = readBlockText(source, 'title', BLOCK_LIMITS.maxTextLength);
    return { ...(title === undefined ? {} : { title }), plans, ...(extensions === undefined ? {} : { extensions }) };
  } catch {
    // Every read above already contains its own failures; this is the last guard of the contract.
    return null;
  }
}

/**
 * Reads the parsed JSON of a `<report>` body into a normalized {@link ReportBlock},
 * or `null` when neither a plan nor an extension is usable.
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
 * items of each plan are read. Product `extensions` (DESIGN §4) are kept as
 * bounded JSON, copied and unread: an entry whose name is not a
 * name `isReportExtensionName` allows or whose value is not bounded JSON is dropped, at most
 * `REPORT_LIMITS.maxExtensions` are kept, and a report with an extension but no
 * plan keeps `plans: []` (a goal-only report); read them typed with
 * `createReportBlockReader`. Empty arrays are otherwise omitted and no key holds
 * `undefined`; keys come in the schema's order. A string input is not JSON-parsed
 * (it gives `null`): the tag readers parse the tag body. The result satisfies
 * core's `ReportBlockSchema`, and parsing it again returns an equal block.
 */
export function parseReportBlock(input: unknown): ReportBlock | null {
  return readReportBlock(input, readAnyExtensions);
}
