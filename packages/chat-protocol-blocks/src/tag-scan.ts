/**
 * The scanning every tag grammar in this package shares: the character codes it
 * dispatches on, reading an opener at a `<` (whole, or cut by the end of what
 * has arrived, to hold back), and finding a closer from a given position. What
 * counts as code, what a tag means and what is shown belong to the grammars
 * (split.ts for `<report>`/`<ask>`, say-projection.ts for `<say>`).
 */

export const TAB = 9;
export const LINE_FEED = 10;
export const CARRIAGE_RETURN = 13;
export const SPACE = 32;
export const LESS_THAN = 60;
const GREATER_THAN = 62;
export const BACKTICK = 96;
export const TILDE = 126;

/** {@link readOpener}: no opener starts at this `<`. */
export const NO_OPENER = -1;
/** {@link readOpener}: the text ends inside an opener that starts at this `<` (`<`, `<rep`): hold it back while streaming. */
export const PARTIAL_OPENER = -2;

/**
 * Reads the opener at `index` with `pattern`, a sticky, case-insensitive
 * pattern whose alternatives are the whole openers (each ending in `>`) and
 * their starts anchored at the end of the text (`…|(?:r(?:e…)?)?$`). Returns
 * the index just past a whole opener, {@link PARTIAL_OPENER} or
 * {@link NO_OPENER}. Reads at most an opener's length.
 */
export function readOpener(pattern: RegExp, text: string, index: number): number {
  pattern.lastIndex = index;
  if (!pattern.test(text)) return NO_OPENER;
  const end = pattern.lastIndex;
  return text.charCodeAt(end - 1) === GREATER_THAN ? end : PARTIAL_OPENER;
}

/** Index just past the first match of `closer` (a global pattern) in `text` at or after `from`, or -1. */
export function findCloserEnd(closer: RegExp, text: string, from: number): number {
  closer.lastIndex = from;
  return closer.test(text) ? closer.lastIndex : -1;
}
