/**
 * Text the agent writes into v1 fields from values it does not control (a tool's output, a thrown message): made
 * clean and cut to the field's bound, so the host's strict check never refuses the step for it. It owns that repair
 * only; text the model streams is passed on unchanged and split, never repaired (see `splitText`).
 */

const ELLIPSIS = '…';
const REPLACEMENT = '\ufffd';
// The C0 controls core's `isCleanText` refuses (all but tab, LF and CR) and lone surrogates.
const UNCLEAN = /[\0-\x08\x0b\x0c\x0e-\x1f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * `text` as a clean v1 string of at most `max` UTF-16 code units: each control character core refuses and each lone
 * surrogate becomes U+FFFD, and a longer text is cut to end in an ellipsis, never inside a surrogate pair.
 */
export function boundedText(text: string, max: number): string {
  const clean = text.replace(UNCLEAN, REPLACEMENT);
  if (clean.length <= max) return clean;
  return `${cutAt(clean, max - ELLIPSIS.length)}${ELLIPSIS}`;
}

/**
 * `text` in pieces of at most `max` code units each (`max` at least 2), none splitting a surrogate pair, joined
 * back exactly; empty text has no piece.
 */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const piece = cutAt(rest, max);
    pieces.push(piece);
    rest = rest.slice(piece.length);
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}

function cutAt(text: string, length: number): string {
  const cut = text.slice(0, length);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
