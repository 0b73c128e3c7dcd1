/**
 * The display text of a finished turn for channels that cannot render blocks:
 * what stays, what a removed tag leaves behind. The grammar (where tags start
 * and end, what is code) is split.ts's; nothing here reads a tag itself.
 */
import { splitTurnText } from './split.js';
import { CARRIAGE_RETURN, LINE_FEED, SPACE, TAB } from './tag-scan.js';

/**
 * What a run of whitespace beside a removed tag asks for: 3 a blank line (two
 * line feeds), 2 a line break, 1 a space (only spaces or tabs), 0 nothing.
 */
function separatorRank(whitespace: string): number {
  const first = whitespace.indexOf('\n');
  if (first === -1) return whitespace.length > 0 ? 1 : 0;
  return whitespace.indexOf('\n', first + 1) === -1 ? 2 : 3;
}

const isLayoutWhitespace = (code: number): boolean => code === SPACE || code === TAB || code === LINE_FEED || code === CARRIAGE_RETURN;

/**
 * The display text of a finished turn for channels that cannot render blocks:
 * text segments as they are (code included), an ask replaced by its question,
 * reports and invalid tags removed. A removed tag (or a row of them) takes the
 * spaces, tabs and line breaks on both sides with it and leaves the widest
 * separator any one of those whitespace runs asks for: a blank line for a run
 * with two line feeds, a line break for one, a space for only spaces or tabs,
 * nothing for none (line breaks are CRLF when that whitespace held a CRLF);
 * nothing at all at the start or end of the text. So a block on its own line
 * goes with its line. Text away from a removed tag is unchanged. Never throws;
 * a non-string reads as empty text.
 */
export function stripBlockTags(text: string): string {
  let output = '';
  // While a removal is unresolved: the widest separator asked for so far (-1: none pending), and whether to break lines with CRLF.
  let rank = -1;
  let crlf = false;
  const take = (whitespace: string): void => {
    rank = Math.max(rank, separatorRank(whitespace));
    crlf = crlf || whitespace.indexOf('\r\n') !== -1;
  };
  for (const segment of splitTurnText(text)) {
    let kept: string;
    if (segment.kind === 'text') kept = segment.text;
    else if (segment.kind === 'ask') kept = segment.block.question;
    else {
      if (rank === -1) {
        let start = output.length;
        while (start > 0 && isLayoutWhitespace(output.charCodeAt(start - 1))) start--;
        take(output.slice(start));
        output = output.slice(0, start);
      }
      continue;
    }
    if (rank !== -1) {
      let end = 0;
      while (end < kept.length && isLayoutWhitespace(kept.charCodeAt(end))) end++;
      take(kept.slice(0, end));
      kept = kept.slice(end);
      if (kept.length === 0) continue;
      const lineBreak = crlf ? '\r\n' : '\n';
      if (output.length > 0) output += ['', ' ', lineBreak, lineBreak + lineBreak][rank];
      rank = -1;
      crlf = false;
    }
    output += kept;
  }
  return output;
}
