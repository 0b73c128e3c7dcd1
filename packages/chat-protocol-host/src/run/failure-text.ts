/**
 * The words a run writes for a failure it did not author: a thrown error's
 * message as a `tool_result` summary or an `error` message, cut to core's
 * bound and kept to clean text, so a hostile or oversized error can never make
 * an invalid frame. It owns that reading only; never the stack.
 */
import { CHAT_LIMITS, isCleanText } from '@papercusp/chat-protocol-core';

// The message of what was thrown, or undefined when it has none it can read (a Proxy, a throwing getter).
function messageOf(error: unknown): string | undefined {
  try {
    const message: unknown = error instanceof Error ? error.message : error;
    return typeof message === 'string' ? message : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `prefix` and the thrown error's message, cut to `CHAT_LIMITS.maxSummaryLength` code units (never inside a
 * surrogate pair); `fallback` when the error has no readable message or it is not clean text. Never throws.
 */
export function failureText(error: unknown, prefix: string, fallback: string): string {
  const message = messageOf(error)?.trim();
  if (message === undefined || message.length === 0) return fallback;
  let text = `${prefix}${message}`.slice(0, CHAT_LIMITS.maxSummaryLength);
  // A cut between a high and a low surrogate leaves a lone one: drop it.
  if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1);
  return isCleanText(text) ? text : fallback;
}
