/**
 * The values of a generic AG-UI event that v1 bounds refuse but a turn needs, made to fit before the decoder reads
 * the event: a tool result's text (often a whole JSON document) is cut to a summary, and a run error's message is cut
 * to v1's bound, an empty one named, and a code that is not a v1 id left out (the decoder then names the error
 * `ag-ui-run-error`). Without it the decoder, which refuses what does not fit, would drop the tool's outcome or the
 * run's error. Every other event, and every other field, is left as it is.
 */
import { CHAT_LIMITS, isChatId } from '@papercusp/chat-protocol-core';
import { isRecord } from '../decoder/event-vocabulary.js';

const ELLIPSIS = '…';

/** `event` (already read as plain data) with a `TOOL_CALL_RESULT`'s text content and a `RUN_ERROR`'s message and code made to fit v1. */
export function fitEvent(event: unknown): unknown {
  if (!isRecord(event)) return event;
  if (event['type'] === 'TOOL_CALL_RESULT' && typeof event['content'] === 'string') {
    return { ...event, content: boundedText(event['content']) };
  }
  if (event['type'] === 'RUN_ERROR' && typeof event['message'] === 'string') {
    const { code, ...rest } = event;
    const message = event['message'] === '' ? 'the AG-UI run failed without a message' : boundedText(event['message']);
    return isChatId(code) ? { ...rest, code, message } : { ...rest, message };
  }
  return event;
}

/** `text` cut to v1's summary bound, ending in an ellipsis, never inside a surrogate pair. */
export function boundedText(text: string): string {
  if (text.length <= CHAT_LIMITS.maxSummaryLength) return text;
  const cut = text.slice(0, CHAT_LIMITS.maxSummaryLength - ELLIPSIS.length);
  return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}${ELLIPSIS}`;
}
