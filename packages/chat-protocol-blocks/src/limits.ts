/**
 * The bounds of `<report>` and `<ask>` blocks. The schemas refuse a block past
 * a bound; the tolerant parsers read no further than a bound and drop a string
 * past one, so a hostile block costs bounded work and yields bounded output.
 */
import { REPORT_LIMITS } from '@papercusp/chat-protocol-core';

/** Bounds of report and ask blocks. Frozen; sizes are UTF-16 code units, counted after trimming unless said otherwise. The report bounds are core's `REPORT_LIMITS`. */
// Inside a pure IIFE: bundlers keep a call whose arguments read another module's properties (a read may run a getter).
export const BLOCK_LIMITS = /* @__PURE__ */ (() =>
  Object.freeze({
    /** Plans in one report. The parser reads only the first `maxPlans` entries of `plans`. */
    maxPlans: REPORT_LIMITS.maxPlans,
    /** Items in one plan. The parser reads only the first `maxItemsPerPlan` entries of `items`. */
    maxItemsPerPlan: REPORT_LIMITS.maxItemsPerPlan,
    /** Options in one ask. The parser reads only the first `maxOptions` entries of `options`. */
    maxOptions: 64,
    /** References in one ask. The parser reads only the first `maxRefs` entries of `refs`. */
    maxRefs: 64,
    /** Slugs, item ids, option ids and statuses: short tokens. A longer one is dropped by the parser. */
    maxTokenLength: REPORT_LIMITS.maxTokenLength,
    /** Titles, summaries, item text, questions, labels, descriptions and refs. A longer one is dropped by the parser. */
    maxTextLength: REPORT_LIMITS.maxTextLength,
    /** The JSON body of one tag, before trimming; a longer body is `invalid` without being parsed. */
    maxTagBodyLength: 262_144,
  }))();

/** The type of {@link BLOCK_LIMITS}. */
export type BlockLimits = typeof BLOCK_LIMITS;
