/**
 * Tag readers: the first valid `<report>` or `<ask>` block in a text, read by
 * the same grammar as the splitter (split.ts), so a tag in Markdown code is
 * never a block here either. They own no grammar of their own.
 */
import type { ReportBlock } from '@papercusp/chat-protocol-core';
import type { AskBlock } from './ask.js';
import { splitTurnText } from './split.js';

/**
 * The block of the first complete, valid `<report>` tag in `text` (the text read
 * as finished), or `null` when there is none. Invalid and unclosed report tags
 * are skipped, and so are tags inside fenced or inline code. Never throws; a
 * non-string gives `null`. `parseReportTag(serializeReportTag(block))` deep-equals `block`.
 */
export function parseReportTag(text: string): ReportBlock | null {
  if (typeof text !== 'string') return null;
  for (const segment of splitTurnText(text)) {
    if (segment.kind === 'report') return segment.block;
  }
  return null;
}

/**
 * The block of the first complete, valid `<ask>` tag in `text` (the text read as
 * finished), or `null` when there is none. Invalid and unclosed ask tags are
 * skipped, and so are tags inside fenced or inline code. Never throws; a
 * non-string gives `null`. `parseAskTag(serializeAskTag(block))` deep-equals `block`.
 */
export function parseAskTag(text: string): AskBlock | null {
  if (typeof text !== 'string') return null;
  for (const segment of splitTurnText(text)) {
    if (segment.kind === 'ask') return segment.block;
  }
  return null;
}
