/**
 * The turn-text grammar: where `<report>` and `<ask>` tags start and end in
 * assistant text, what is Markdown code (and so never a tag), and how a text
 * that is still streaming reads, whole or delta by delta. What a block contains
 * is the block parsers' business (report.ts, ask.ts); nothing here renders.
 */
import type { ReportBlock } from '@papercusp/chat-protocol-core';
import { parseAskBlock, type AskBlock } from './ask.js';
import { readOption } from './defensive-read.js';
import { BLOCK_LIMITS } from './limits.js';
import { parseReportBlock } from './report.js';
import {
  BACKTICK,
  CARRIAGE_RETURN,
  LESS_THAN,
  LINE_FEED,
  PARTIAL_OPENER,
  SPACE,
  TAB,
  TILDE,
  findCloserEnd,
  readOpener,
} from './tag-scan.js';

/*
 * Grammar (fixtures/blocks/corpus.json holds one case per rule):
 *
 * Tags
 * - An opener is exactly `<report>` or `<ask>`; the name is ASCII
 *   case-insensitive (`<REPORT>`, `<Ask>`). Nothing may sit inside the brackets:
 *   `<report >`, `<report id="1">`, `<reporting>` and `< ask>` are text.
 * - The body runs to the first closer of the same name (`</report>`, `</ASK>`,
 *   exact apart from case). Nothing inside a body is interpreted: an `<ask>`
 *   or `<report>` in a body is body text, so tags never nest. A closer with no
 *   open tag is text.
 * - The body, trimmed (`String.prototype.trim`), is read with `JSON.parse` and
 *   then `parseReportBlock` / `parseAskBlock`. A body longer than
 *   `BLOCK_LIMITS.maxTagBodyLength` code units (before trimming) is refused without
 *   being parsed. Bad JSON, an empty body, a body past the bound, or JSON the
 *   block parser turns into `null` make an `invalid` segment.
 * - `raw` is the tag as written: opener, body and closer, case and whitespace
 *   kept. `tag` is the lowercase name.
 *
 * Code (tags in code are text). Lines end at LF (a CR before it is part of
 * the line); a line start is the start of the text or the position after an LF.
 * - Fenced code: at a line start, after at most three spaces, a run of three or
 *   more backticks or tildes opens a fence; the rest of that line is its info
 *   string. A backtick fence whose info string holds a backtick is not a fence
 *   (CommonMark): that line reads as inline code instead. The fence closes at a
 *   line that starts (after at most three spaces) with a run of the same
 *   character at least as long, followed only by spaces, tabs or a CR. An
 *   unclosed fence runs to the end of the text. Fences are recognized only at
 *   a line start: not inside block quotes or list items, and a line indented
 *   by four spaces or a tab is not a fence.
 * - Inline code: elsewhere outside fences, a run of N backticks opens a code
 *   span that closes at the next run of exactly N backticks on the same line.
 *   Unlike CommonMark, a span never crosses a line break, and an unclosed span
 *   runs to the end of its line (CommonMark would reread its backticks as
 *   literal text, which needs lookahead to the end of the paragraph; this rule
 *   needs none, so a streaming reader never has to revise what it decided).
 * - Backslash escapes mean nothing here, in prose or code.
 *
 * Streaming
 * - Whether a character is prose, code or inside a tag depends only on the text
 *   before it. So while streaming only two things wait: a partial opener at the
 *   very end (`<`, `<r`, `<REP`, `<ask`), held back and not shown, and an open
 *   tag whose closer has not arrived, shown as `{ kind: 'pending', tag }`.
 * - Once the text is finished, a partial opener at the end is text and an
 *   unclosed tag is `invalid` with `raw` running to the end of the text.
 * - Segments come in text order; adjacent text is one segment; an empty text
 *   segment is never emitted.
 */

/** The two tag names, lowercase as segments report them whatever the case in the text. */
export type BlockTagName = 'report' | 'ask';

/**
 * One piece of a turn text, in order:
 * - `text`: prose or code to show as it is;
 * - `report` / `ask`: a complete, valid block and the tag as written;
 * - `invalid`: a tag that is malformed, or unclosed once the text is finished;
 *   renderers skip it (and may count it);
 * - `pending`: while streaming, a tag whose closer has not arrived yet; its text
 *   is never shown.
 */
export type TurnTextSegment<Report = ReportBlock> =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'report'; readonly block: Report; readonly raw: string }
  | { readonly kind: 'ask'; readonly block: AskBlock; readonly raw: string }
  | { readonly kind: 'invalid'; readonly tag: BlockTagName; readonly raw: string }
  | { readonly kind: 'pending'; readonly tag: BlockTagName };

/** Options of {@link createTurnTextSplitter}, and of {@link splitTurnText} with {@link SplitTurnTextOptions}. */
export interface TurnTextSplitterOptions<Report = ReportBlock> {
  /**
   * Reads a `<report>` body (its parsed JSON) in place of `parseReportBlock`:
   * a product's `createReportBlockReader`, so a goal-only report written as a
   * top-level key is a `report` segment typed with the product's extensions.
   * `null` makes the tag `invalid`. Default: `parseReportBlock`.
   */
  readonly reportReader?: { readonly parse: (input: unknown) => Report | null };
}

/** Options of {@link splitTurnText}. */
export interface SplitTurnTextOptions<Report = ReportBlock> extends TurnTextSplitterOptions<Report> {
  /** The text is what has arrived so far of a turn still streaming. Default `false`: the text is finished. */
  readonly streaming?: boolean;
}

/** The incremental splitter returned by {@link createTurnTextSplitter}. */
export interface TurnTextSplitter<Report = ReportBlock> {
  /** Reads the next delta; returns the segments that became final with it (possibly none). They are never retracted. */
  push(delta: string): TurnTextSegment<Report>[];
  /**
   * What is not final yet, as `splitTurnText(textSoFar, { streaming: true })` shows it
   * after the final segments: `[]`, or one `pending` segment while a tag is open. Reads nothing.
   */
  peek(): TurnTextSegment<Report>[];
  /** Finishes the text: returns the remaining segments as if not streaming, and resets the splitter for a new text. */
  end(): TurnTextSegment<Report>[];
}

const PROSE = 0;
const INLINE_CODE = 1;
const FENCED_CODE = 2;
const TAG = 3;

// Tag names match ASCII case-insensitively: without the `u` flag, `i` never
// folds a non-ASCII character (the Kelvin sign, a long s) onto an ASCII letter.
// One sticky pattern at a `<`: a whole opener (it ends in `>`), or the start of
// one cut by the end of the text (it ends in a letter, or is the `<` alone).
const OPENER = /<(?:report>|ask>|(?:r(?:e(?:p(?:o(?:r(?:t)?)?)?)?)?|a(?:s(?:k)?)?)?$)/iy;
const CLOSERS: Readonly<Record<BlockTagName, RegExp>> = { report: /<\/report>/gi, ask: /<\/ask>/gi };
const openerLengthOf = (tag: BlockTagName): number => tag.length + 2;
const closerLengthOf = (tag: BlockTagName): number => tag.length + 3;

interface ScanState {
  mode: number;
  /** Spaces seen since the line started while nothing else was (0–3); -1 past the line's start. */
  lineIndent: number;
  /** Char code of the backtick or tilde run being counted, or 0. */
  runCode: number;
  runLength: number;
  /** The run began at a line start (after at most three spaces): it may open or close a fence. */
  runAtLineStart: boolean;
  /** Length of the run that opened the current inline code span. */
  spanLength: number;
  /** Length of a line-start run of three or more backticks that becomes a fence unless its line holds another backtick; 0 when none. */
  fenceCandidateLength: number;
  fenceCode: number;
  fenceLength: number;
  /** In fenced code: this line started with a closing run and only whitespace has followed. */
  closingFence: boolean;
  tag: BlockTagName;
  /** The raw text of the open tag received in earlier chunks. */
  tagPieces: string[];
  /** How far back from the end of the open tag so far its last `<` is (only that `<` can start a closer cut by a chunk boundary). */
  tagLessThanDistance: number;
  /** A partial opener held back at the end of the last chunk. */
  held: string;
  /** Reads a report tag's parsed body into its block, or `null`: `parseReportBlock` unless the caller gave a reader. */
  readonly readReport: (value: unknown) => unknown;
}

/** Any distance past a closer's length: what the distance of a `<` far back is kept at. */
const FAR = 64;

function createScanState(readReport: (value: unknown) => unknown): ScanState {
  return {
    readReport,
    mode: PROSE,
    lineIndent: 0,
    runCode: 0,
    runLength: 0,
    runAtLineStart: false,
    spanLength: 0,
    fenceCandidateLength: 0,
    fenceCode: 0,
    fenceLength: 0,
    closingFence: false,
    tag: 'report',
    tagPieces: [],
    tagLessThanDistance: FAR,
    held: '',
  };
}

/**
 * The JSON value of a complete tag's body (`raw` from its opener through its
 * closer), trimmed and parsed; `undefined` when `raw` does not end with the
 * tag's closer, the body is past `BLOCK_LIMITS.maxTagBodyLength` (not parsed)
 * or is not JSON. Never throws.
 */
function readTagBody(tag: BlockTagName, raw: string): unknown {
  const openerLength = openerLengthOf(tag);
  const bodyLength = raw.length - openerLength - closerLengthOf(tag);
  if (bodyLength < 0 || bodyLength > BLOCK_LIMITS.maxTagBodyLength) return undefined;
  if (findCloserEnd(CLOSERS[tag], raw, openerLength + bodyLength) !== raw.length) return undefined;
  // JSON.parse refuses by exception.
  try {
    return JSON.parse(raw.slice(openerLength, openerLength + bodyLength).trim()) as unknown;
  } catch {
    return undefined;
  }
}

// Segments as the scanner builds them: a report's block is whatever the state's report reader returned.
type ScannedSegment = TurnTextSegment<unknown>;

/** The segment for a complete tag: its block when the body reads as one, else `invalid`. */
function readTag(state: ScanState, tag: BlockTagName, raw: string): ScannedSegment {
  // Never throws: a block parser (a product's reader included) that threw on some hostile value must not take the splitter down with it.
  try {
    const value = readTagBody(tag, raw);
    const block = value === undefined ? null : tag === 'report' ? state.readReport(value) : parseAskBlock(value);
    // The parser matches the tag, so kind and block agree.
    if (block !== null && block !== undefined) return { kind: tag, block, raw } as ScannedSegment;
  } catch {
    // Read as invalid below.
  }
  return { kind: 'invalid', tag, raw };
}

/** A run of backticks or tildes ended just before the current character: what it opens or closes. */
function endRun(state: ScanState): void {
  const { runCode, runLength, runAtLineStart } = state;
  state.runCode = 0;
  if (state.mode === PROSE) {
    if (runCode === TILDE) {
      // Tilde runs are only counted at a line start.
      if (runLength >= 3) {
        state.mode = FENCED_CODE;
        state.fenceCode = TILDE;
        state.fenceLength = runLength;
        state.closingFence = false;
      }
    } else {
      state.mode = INLINE_CODE;
      state.spanLength = runLength;
      state.fenceCandidateLength = runAtLineStart && runLength >= 3 ? runLength : 0;
    }
  } else if (state.mode === INLINE_CODE) {
    // Any backtick after the opening run: its line is not a fence opener.
    state.fenceCandidateLength = 0;
    if (runLength === state.spanLength) state.mode = PROSE;
  } else if (runAtLineStart && runCode === state.fenceCode && runLength >= state.fenceLength) {
    state.closingFence = true;
  }
}

/** A line feed outside a tag: inline code ends, a fence opener line opens its fence, a closing line closes it. */
function endLine(state: ScanState): void {
  if (state.mode === INLINE_CODE) {
    if (state.fenceCandidateLength > 0) {
      state.mode = FENCED_CODE;
      state.fenceCode = BACKTICK;
      state.fenceLength = state.fenceCandidateLength;
      state.closingFence = false;
      state.fenceCandidateLength = 0;
    } else {
      state.mode = PROSE;
    }
  } else if (state.mode === FENCED_CODE && state.closingFence) {
    state.mode = PROSE;
    state.closingFence = false;
  }
  state.lineIndent = 0;
}

// What can matter in each mode, as characters and as a pattern. A long text is
// searched with the pattern: a regular expression reads text several times
// faster than a loop over characters, and cached `indexOf` searches, faster
// still at first, turned slow on megabyte texts once V8 optimized the scanner.
// A delta-sized rest is read character by character: a call costs far less.
const PATTERNS: readonly RegExp[] = [/[<`\n]/g, /[`\n]/g, /\n/g];
const SHORT_REST = 64;

/**
 * Index of the first character at or after `from` that can matter in `mode`
 * (prose: `<`, backtick, line feed; inline code: backtick, line feed; fenced
 * code: line feed), or the text's length.
 */
function nextMatch(mode: number, text: string, from: number): number {
  if (text.length - from > SHORT_REST) {
    // `test` leaves `lastIndex` just past the match and allocates no match array.
    const pattern = PATTERNS[mode] as RegExp;
    pattern.lastIndex = from;
    return pattern.test(text) ? pattern.lastIndex - 1 : text.length;
  }
  for (let index = from; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === LINE_FEED || (code === BACKTICK && mode !== FENCED_CODE) || (code === LESS_THAN && mode === PROSE)) {
      return index;
    }
  }
  return text.length;
}

/** Appends `text[start, end)` as a text segment unless it is empty. */
function pushText(out: ScannedSegment[], text: string, start: number, end: number): void {
  if (end > start) out.push({ kind: 'text', text: text.slice(start, end) });
}

/** Keeps a piece of an open tag, and where its last `<` is, so a closer cut by the next chunk boundary is still found. */
function keepTagPiece(state: ScanState, piece: string): void {
  state.tagPieces.push(piece);
  const lessThan = piece.lastIndexOf('<');
  state.tagLessThanDistance = lessThan === -1 ? Math.min(FAR, state.tagLessThanDistance + piece.length) : piece.length - lessThan;
}

/**
 * The end of an open tag so far that could hold the start of a closer cut by a
 * chunk boundary: from its last `<` when that is closer to the end than a
 * closer's length, else empty. Usually empty, so usually nothing is copied.
 */
function tagTailOf(state: ScanState): string {
  const distance = state.tagLessThanDistance;
  if (distance >= closerLengthOf(state.tag)) return '';
  const pieces = state.tagPieces;
  let tail = '';
  for (let index = pieces.length - 1; index >= 0 && tail.length < distance; index--) tail = pieces[index] + tail;
  return tail.slice(tail.length - distance);
}

/**
 * Reads `delta` after what the state has read, appending the segments that
 * became final to `out`. When `final`, the text ends here: nothing is held back
 * (an open tag stays open for the caller to finish). Each character is examined
 * a bounded number of times: only a held partial opener (at most 7 characters)
 * and a closer's worth of an open tag's tail are read again.
 */
function scan(state: ScanState, delta: string, final: boolean, out: ScannedSegment[]): void {
  const text = state.held.length > 0 ? state.held + delta : delta;
  state.held = '';
  const length = text.length;
  let index = 0;
  let textStart = 0;
  // Where the open tag starts in `text`, or -1 when it started in an earlier chunk.
  let tagStart = -1;

  if (state.mode === TAG) {
    const tail = tagTailOf(state);
    const end = findCloserEnd(CLOSERS[state.tag], tail + text, 0);
    if (end === -1) {
      keepTagPiece(state, text);
      return;
    }
    const closerEnd = end - tail.length;
    state.tagPieces.push(text.slice(0, closerEnd));
    out.push(readTag(state, state.tag, state.tagPieces.join('')));
    state.tagPieces = [];
    state.tagLessThanDistance = FAR;
    state.mode = PROSE;
    state.lineIndent = -1;
    index = closerEnd;
    textStart = closerEnd;
  }

  while (index < length) {
    if (state.runCode !== 0) {
      const runCode = state.runCode;
      while (index < length && text.charCodeAt(index) === runCode) {
        state.runLength++;
        index++;
      }
      if (index === length) break;
      endRun(state);
      continue;
    }
    const mode = state.mode;
    if (mode === TAG) {
      const end = findCloserEnd(CLOSERS[state.tag], text, index);
      if (end === -1) {
        keepTagPiece(state, text.slice(tagStart));
        return;
      }
      out.push(readTag(state, state.tag, text.slice(tagStart, end)));
      state.mode = PROSE;
      index = end;
      textStart = end;
      tagStart = -1;
      continue;
    }
    let code = text.charCodeAt(index);
    if (state.lineIndent >= 0) {
      if (code === SPACE) {
        state.lineIndent = state.lineIndent === 3 ? -1 : state.lineIndent + 1;
        index++;
        continue;
      }
      state.lineIndent = -1;
      // At a line start only prose or a fence of the same character can be here (a line feed ends inline code).
      if ((code === BACKTICK || code === TILDE) && (mode === PROSE || state.fenceCode === code)) {
        state.runCode = code;
        state.runLength = 1;
        state.runAtLineStart = true;
        index++;
        continue;
      }
    }
    if (mode === PROSE) {
      // Skip plain prose to the next character that can matter.
      index = nextMatch(PROSE, text, index);
      if (index === length) break;
      code = text.charCodeAt(index);
      if (code === LESS_THAN) {
        const end = readOpener(OPENER, text, index);
        if (end >= 0) {
          pushText(out, text, textStart, index);
          state.mode = TAG;
          state.tag = end - index === 8 ? 'report' : 'ask';
          tagStart = index;
          textStart = index;
          index = end;
          continue;
        }
        if (end === PARTIAL_OPENER && !final) {
          state.held = text.slice(index);
          pushText(out, text, textStart, index);
          return;
        }
        index++;
        continue;
      }
    } else if (mode === INLINE_CODE) {
      index = nextMatch(INLINE_CODE, text, index);
      if (index === length) break;
      code = text.charCodeAt(index);
    } else if (state.closingFence) {
      if (code !== LINE_FEED && code !== SPACE && code !== TAB && code !== CARRIAGE_RETURN) state.closingFence = false;
      if (code !== LINE_FEED) {
        index++;
        continue;
      }
    } else {
      index = nextMatch(FENCED_CODE, text, index);
      if (index === length) break;
      code = LINE_FEED;
    }
    if (code === LINE_FEED) {
      endLine(state);
      index++;
      continue;
    }
    // A backtick in prose or inline code starts a run.
    state.runCode = BACKTICK;
    state.runLength = 1;
    state.runAtLineStart = false;
    index++;
  }

  if (state.mode === TAG) {
    keepTagPiece(state, tagStart === -1 ? text : text.slice(tagStart));
    return;
  }
  pushText(out, text, textStart, length);
}

/** What is not final while streaming: the open tag, as `pending`. */
const pendingOf = (state: ScanState): ScannedSegment[] => (state.mode === TAG ? [{ kind: 'pending', tag: state.tag }] : []);

/** Ends the text: an open tag is `invalid` with everything from its opener; the state is fresh again. */
function finishOpenTag(state: ScanState, out: ScannedSegment[]): void {
  if (state.mode === TAG) out.push({ kind: 'invalid', tag: state.tag, raw: state.tagPieces.join('') });
}

/**
 * Splits a turn text into ordered segments: prose and code as `text`, complete
 * tags as `report` / `ask` (or `invalid` when malformed). With
 * `{ streaming: true }` the text is a prefix of a turn still arriving: a partial
 * opener at the very end is held back and an open tag is `pending`; otherwise an
 * unclosed tag is `invalid` and a partial opener is text. With a
 * `reportReader` (a product's `createReportBlockReader`), report bodies are read
 * by it, so its report segments carry its typed blocks; without one, by
 * `parseReportBlock`. Nothing else changes: the grammar, and every other segment.
 *
 * Never throws (a non-string reads as empty text, options that are not an
 * object with an own `streaming: true` read as not streaming, a `reportReader`
 * without an own `parse` function is not used, and a reader that throws makes
 * its tag `invalid`); linear in the text's length
 * plus the cost of parsing each tag body. Equals the concatenation of a
 * {@link createTurnTextSplitter}'s outputs for any cut of the same text into deltas.
 */
export function splitTurnText<Report = ReportBlock>(text: string, options?: SplitTurnTextOptions<Report>): TurnTextSegment<Report>[] {
  const state = createScanState(reportReaderOf(options));
  const out: ScannedSegment[] = [];
  const streaming = isStreaming(options);
  scan(state, typeof text === 'string' ? text : '', !streaming, out);
  if (!streaming) finishOpenTag(state, out);
  else out.push(...pendingOf(state));
  // Report blocks are what the caller's reader returns: `Report`.
  return out as TurnTextSegment<Report>[];
}

// Options come from the caller: a getter or a Proxy trap never runs or throws here.
function isStreaming(options: unknown): boolean {
  return readOption(options, 'streaming') === true;
}

/** The report reader the options name (an object with an own `parse` function), else `parseReportBlock`; read without running a getter. */
function reportReaderOf(options: unknown): (value: unknown) => unknown {
  const reader = readOption(options, 'reportReader');
  const parse = readOption(reader, 'parse');
  return typeof parse === 'function' ? (value) => (parse as (input: unknown) => unknown).call(reader, value) : parseReportBlock;
}

/**
 * Creates the incremental form of {@link splitTurnText} for text arriving in
 * deltas. For every way of cutting a text into deltas, the outputs of all
 * `push` calls followed by `end()`, adjacent text merged, equal
 * `splitTurnText(wholeText)`; followed by `peek()` instead of `end()`, they equal
 * `splitTurnText(textSoFar, { streaming: true })`. Total work is linear in the
 * text: what became final is never read again; only a partial opener (at most
 * seven characters) and an open tag are carried between deltas. Never throws;
 * a non-string delta reads as empty. A `reportReader` reads report bodies as in
 * {@link splitTurnText}, and the equalities above hold with the same reader.
 */
export function createTurnTextSplitter<Report = ReportBlock>(options?: TurnTextSplitterOptions<Report>): TurnTextSplitter<Report> {
  const readReport = reportReaderOf(options);
  let state = createScanState(readReport);
  return {
    push(delta) {
      if (typeof delta !== 'string' || delta.length === 0) return [];
      // The two common deltas, read without entering the scanner: mid-line prose
      // holding nothing that can matter, and a piece of a tag body without a `<`.
      // Each gives exactly what scan would.
      if (state.mode === PROSE) {
        if (
          state.lineIndent < 0 &&
          state.runCode === 0 &&
          state.held.length === 0 &&
          delta.indexOf('<') === -1 &&
          delta.indexOf('`') === -1 &&
          delta.indexOf('\n') === -1
        ) {
          return [{ kind: 'text', text: delta }];
        }
      } else if (state.mode === TAG && state.tagLessThanDistance >= closerLengthOf(state.tag) && delta.indexOf('<') === -1) {
        // The last `<` only moves further back: the distance stays past a closer's length.
        state.tagPieces.push(delta);
        return [];
      }
      const out: ScannedSegment[] = [];
      scan(state, delta, false, out);
      return out as TurnTextSegment<Report>[];
    },
    peek() {
      return pendingOf(state) as TurnTextSegment<Report>[];
    },
    end() {
      const out: ScannedSegment[] = [];
      scan(state, '', true, out);
      finishOpenTag(state, out);
      state = createScanState(readReport);
      return out as TurnTextSegment<Report>[];
    },
  };
}
