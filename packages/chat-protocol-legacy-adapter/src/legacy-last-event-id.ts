/**
 * Reading the resume point an un-migrated Papercusp SSE client sends back: the
 * highest numeric SSE id it saw (`Math.max(last, Number(id))`), as the
 * `Last-Event-ID` header or the `lastEventId` of its resume body. It owns only
 * that number; the turn it belongs to is the host's route's to know.
 */
import { parseChatCursor } from '@papercusp/chat-protocol-core';

/**
 * Reads a legacy numeric `Last-Event-ID`: the seq after which a host replays a
 * turn projected with `encodeLegacyChatFrame(envelope, { dialect, ids: 'seq' })`.
 * Accepts a canonical decimal string (the header: `"0"`, `"17"`) or a number
 * (the resume body's `lastEventId`), either a non-negative safe integer; `0`
 * means nothing was seen yet. Everything else is `null`, never a guess: a
 * header Papercusp's own server would read loosely (`"1e3"`, `"01"`,
 * `" 5"`, `"0x10"`, `"-1"`, `"1.5"`, past `Number.MAX_SAFE_INTEGER`), a v1
 * cursor (`turn_1:3`: use `parseChatCursor`), `NaN` (what such a client holds
 * after reading a cursor id), `-0`, and any other value. Never throws.
 */
export function parseLegacyLastEventId(value: unknown): number | null {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0) ? value : null;
  }
  // A colon would let core read a cursor's tail (`turn_1:3`) as the number.
  if (typeof value !== 'string' || value.includes(':')) return null;
  // The seq of a v1 cursor follows the same rule: one canonical number text, read by core.
  return parseChatCursor(`legacy:${value}`)?.seq ?? null;
}
