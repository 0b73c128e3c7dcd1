/**
 * The `<say>` projection: what the person should see or hear of a turn from a
 * converse backend that wraps it in `<say>…</say>` and writes control tags
 * (`<continue/>`, `<set_mode …/>`, `<sleep …>`) around it. The behaviour is the
 * shipped `SayStreamProjector`/`projectSayText` one, on the scanning split.ts
 * uses (tag-scan.ts). What a control tag asks the host to do is not read here.
 */
import { readOption } from './defensive-read.js';
import { LESS_THAN, NO_OPENER, PARTIAL_OPENER, findCloserEnd, readOpener } from './tag-scan.js';

/*
 * Rules (src/say-projection.test.ts holds the shipped package's cases as a table):
 * - Tagged mode: the projection is the body of the first `<say>` (exactly
 *   `<say>`, ASCII case-insensitive) up to the first `</say>` after it. Text
 *   before the opener and everything from the closer on (control tags, later
 *   `<say>` tags) is not shown. No opener: nothing is shown.
 * - A partial closer at the end of the body (`<`, `</`, `</s`, `</sa`, `</say`,
 *   any case) is held back, also once the text is finished: an interrupted turn
 *   never shows the start of a closer.
 * - Plain-text mode (`allowPlainText`): once the text, leading whitespace
 *   skipped, is no longer a prefix of a control opener (`<say>`, `<continue>`,
 *   …), it is tagged when it starts with a control tag (`<name>`, `<name `,
 *   `<name/`) and plain otherwise; plain text is shown exactly as written,
 *   leading whitespace included. Until then nothing is shown.
 * - Markdown code means nothing here: `<say>` is the outermost envelope, code
 *   lives inside it (split.ts reads the projected text for blocks and code).
 */

/** Options of {@link projectSayText} and {@link createSayProjector}. */
export interface SayProjectionOptions {
  /**
   * Show a text that does not start with a control tag as it is (history rows
   * and backends that already write display text). Default `true` for
   * {@link projectSayText}, `false` for {@link createSayProjector}: the shipped defaults.
   */
  readonly allowPlainText?: boolean;
}

/** The incremental projection returned by {@link createSayProjector}. */
export interface SayProjector {
  /** Reads the next delta; returns the text that became visible with it (possibly `''`). It is never retracted. */
  push(delta: string): string;
  /**
   * Finishes the text and resets the projector for a new one. Returns what is
   * left to show: always `''`, since a held partial closer or an undecided
   * start is not shown in a finished text either (the one-shot form agrees).
   */
  end(): string;
}

// The control tags Papercusp's converse backend writes; a text starting with one is tagged.
const CONTROL_TAG_NAMES = [
  'say',
  'set_mode',
  'sleep',
  'spawn',
  'handoff',
  'handoff_to_mug',
  'handoff_to_queen',
  'delegate_deep',
  'report',
  'continue',
];
// One past the longest control opener (`<handoff_to_queen>`): a start this long is never a prefix of one.
const HEAD_LENGTH = 19;
// Tag names match ASCII case-insensitively (without the `u` flag, `i` folds no non-ASCII letter onto ASCII).
const SAY_OPENER = /<(?:say>|(?:s(?:a(?:y)?)?)?$)/iy;
const SAY_CLOSER = /<\/say>/gi;
const SAY_CLOSER_START = /<(?:\/(?:s(?:a(?:y)?)?)?)?$/iy;
const CLOSER_LENGTH = 6;
const NOT_WHITESPACE = /\S/g;

const UNDECIDED = 0;
const SEEKING = 1;
const BODY = 2;
const DONE = 3;
const PLAIN = 4;

/** The projection state between deltas. Exported for the counted-steps test; not part of the package's API. */
export interface SayScanState {
  phase: number;
  /** A partial opener (seeking) or partial closer (in the body) held back from the last delta. */
  held: string;
  /** Undecided: every delta so far, to show (plain) or read (tagged) once decided. */
  undecided: string[];
  /** Undecided: the first characters after leading whitespace, at most {@link HEAD_LENGTH}; `''` while only whitespace has come. */
  head: string;
  /** Characters handed to a search so far: the counted steps of the linear-work test. */
  examined: number;
}

/** A fresh state; `plain` allows plain text. */
export function createSayScanState(plain: boolean): SayScanState {
  return { phase: plain ? UNDECIDED : SEEKING, held: '', undecided: [], head: '', examined: 0 };
}

const asciiLowercase = (text: string): string => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/** Undecided while the start is a prefix of a control opener; then tagged when it starts with a control tag, else plain. */
function decide(head: string): number {
  const start = asciiLowercase(head);
  let tagged = false;
  for (const name of CONTROL_TAG_NAMES) {
    if (`<${name}>`.startsWith(start)) return UNDECIDED;
    const after = start.charAt(name.length + 1);
    if (start.startsWith(`<${name}`) && (after === '>' || after === ' ' || after === '/')) tagged = true;
  }
  return tagged ? SEEKING : PLAIN;
}

/** Length of the partial closer ending `text` at or after `from`, or 0. Reads at most a closer's length. */
function heldCloserLength(text: string, from: number): number {
  for (let start = Math.max(from, text.length - CLOSER_LENGTH + 1); start < text.length; start++) {
    if (text.charCodeAt(start) === LESS_THAN && readOpener(SAY_CLOSER_START, text, start) === PARTIAL_OPENER) return text.length - start;
  }
  return 0;
}

/** Tagged mode: reads `text` (the held characters and the new delta) for the opener, then the body up to the closer. */
function scanTagged(state: SayScanState, text: string): string {
  state.examined += text.length;
  state.held = '';
  let index = 0;
  if (state.phase === SEEKING) {
    for (;;) {
      const lessThan = text.indexOf('<', index);
      if (lessThan === -1) return '';
      const end = readOpener(SAY_OPENER, text, lessThan);
      if (end !== NO_OPENER && end !== PARTIAL_OPENER) {
        state.phase = BODY;
        index = end;
        break;
      }
      if (end === PARTIAL_OPENER) {
        state.held = text.slice(lessThan);
        return '';
      }
      index = lessThan + 1;
    }
  }
  const closerEnd = findCloserEnd(SAY_CLOSER, text, index);
  if (closerEnd !== -1) {
    state.phase = DONE;
    return text.slice(index, closerEnd - CLOSER_LENGTH);
  }
  const held = heldCloserLength(text, index);
  state.held = text.slice(text.length - held);
  return text.slice(index, text.length - held);
}

/**
 * Reads `delta` after what `state` has read; returns the text that became
 * visible. Each character is handed to a search at most twice (once while
 * undecided, once when the start turns out tagged) plus the held characters
 * (at most five) once per delta.
 */
export function scanSay(state: SayScanState, delta: string): string {
  if (delta.length === 0) return '';
  switch (state.phase) {
    case DONE:
      return '';
    case PLAIN:
      return delta;
    case SEEKING:
    case BODY:
      return scanTagged(state, state.held + delta);
  }
  state.undecided.push(delta);
  state.examined += delta.length;
  if (state.head.length === 0) {
    NOT_WHITESPACE.lastIndex = 0;
    if (!NOT_WHITESPACE.test(delta)) return '';
    const start = NOT_WHITESPACE.lastIndex - 1;
    state.head = delta.slice(start, start + HEAD_LENGTH);
  } else if (state.head.length < HEAD_LENGTH) {
    state.head = (state.head + delta.slice(0, HEAD_LENGTH)).slice(0, HEAD_LENGTH);
  }
  const phase = decide(state.head);
  if (phase === UNDECIDED) return '';
  const text = state.undecided.join('');
  state.undecided = [];
  state.head = '';
  state.phase = phase;
  return phase === PLAIN ? text : scanTagged(state, text);
}

// Options come from the caller: a getter or a Proxy trap never runs or throws here.
function allowsPlainText(options: unknown, fallback: boolean): boolean {
  const value = readOption(options, 'allowPlainText');
  return typeof value === 'boolean' ? value : fallback;
}

/**
 * The visible text of a whole turn (or of what has arrived of one): the first
 * `<say>` body, control tags and everything outside it dropped, a partial
 * closer at the end held back; with plain text allowed (the default here, as
 * shipped, for history rows written before the envelope) a text that does not
 * start with a control tag is shown as it is. Equals the concatenation of a
 * {@link createSayProjector}'s outputs, with the same `allowPlainText`, for any
 * cut of the text into deltas. Never throws (a non-string reads as empty text;
 * options count only as an own data property `allowPlainText` that is a
 * boolean); linear in the text's length.
 */
export function projectSayText(text: string, options?: SayProjectionOptions): string {
  if (typeof text !== 'string') return '';
  return scanSay(createSayScanState(allowsPlainText(options, true)), text);
}

/**
 * Creates the incremental `<say>` projection for text arriving in deltas
 * (the shipped `SayStreamProjector`): `push` returns only the newly visible
 * text, so a renderer appends it. Tagged-only unless `allowPlainText: true`
 * (the shipped default). For every way of cutting a text into deltas the
 * outputs joined equal {@link projectSayText} of the whole text with the same
 * option; nothing is retracted; total work is linear in the text (only a
 * partial tag, at most five characters, is read again, and a start still
 * undecided between plain and tagged is read once more when decided). Never
 * throws; a non-string delta reads as empty.
 */
export function createSayProjector(options?: SayProjectionOptions): SayProjector {
  const plain = allowsPlainText(options, false);
  let state = createSayScanState(plain);
  return {
    push(delta) {
      return typeof delta === 'string' ? scanSay(state, delta) : '';
    },
    end() {
      state = createSayScanState(plain);
      return '';
    },
  };
}
