/**
 * The person-readable form of a capture report: a summary line, then one line
 * per violation with where it is (frame, seq, turn) and the rule it breaks.
 * Formatting only; the report itself is the contract.
 */
import type { ChatCaptureReport, ChatCaptureViolation } from './verify-chat-capture.js';

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * Formats a report for a terminal, one line each, ending with a newline.
 * `source` names the capture in the summary line (a path, `stdin`, a URL).
 * Throws `TypeError` when `report` is not a report `verifyChatCapture` could
 * have returned, or cannot be read; never anything else.
 */
export function formatChatCaptureReport(report: ChatCaptureReport, source: string): string {
  try {
    if (typeof source !== 'string') throw new TypeError('formatChatCaptureReport: source must be a string');
    return formatReport(report, source);
  } catch (error) {
    if (error instanceof TypeError) throw error;
    throw new TypeError('formatChatCaptureReport: the report cannot be read');
  }
}

function formatReport(report: ChatCaptureReport, source: string): string {
  const size = `${plural(report.frames, 'frame')}, ${plural(report.turns, 'turn')}`;
  const summary = report.ok
    ? `${source}: ok, ${size}, no violations`
    : `${source}: ${plural(report.violations.length, 'violation')} in ${size}`;
  return [summary, ...report.violations.map((violation) => `  ${placeOf(violation)}: ${violation.rule}: ${violation.message}`)]
    .map((line) => `${line}\n`)
    .join('');
}

function placeOf(violation: ChatCaptureViolation): string {
  const frame = violation.frame === undefined ? 'end of capture' : `frame ${violation.frame}`;
  return violation.seq === undefined ? frame : `${frame}, seq ${violation.seq} of ${violation.turnId ?? '?'}`;
}
