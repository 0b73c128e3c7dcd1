/**
 * The hash the reducer's idempotency memory files event ids under: FNV-1a over
 * the id's character codes (bytes, for the ASCII ids v1 allows), with a
 * one-entry memo, since the reducer checks an id, looks it up and then records
 * it, and the later calls reuse the hash. The check is the v1 id rule read in
 * the same loop, so a checked id costs no second scan. It owns no table:
 * `event-memory.ts` does.
 */
import { CHAT_LIMITS } from '../primitives/limits.js';

// Invariant: when `hashedId` is defined, `hashOfHashedId` is the hash of
// `hashedId` and `hashedIdIsChatId` whether it is a v1 id, so the memo changes
// how fast an answer is found, never its value.
let hashedId: string | undefined;
let hashOfHashedId = 0;
let hashedIdIsChatId = false;

function hash(eventId: string): void {
  let value = 0x811c9dc5;
  let printable = true;
  for (let index = 0; index < eventId.length; index++) {
    const code = eventId.charCodeAt(index);
    // Printable ASCII without the space: the one test `isChatId` makes of each character.
    if (code < 0x21 || code > 0x7e) printable = false;
    value = Math.imul(value ^ code, 0x01000193);
  }
  hashedId = eventId;
  hashOfHashedId = value ^ (value >>> 15);
  hashedIdIsChatId = printable && eventId.length > 0 && eventId.length <= CHAT_LIMITS.maxIdLength;
}

/** The 32-bit hash of `eventId`: the same for equal strings whatever was hashed before. */
export function hashOfEventId(eventId: string): number {
  if (eventId !== hashedId) hash(eventId);
  return hashOfHashedId;
}

/** `isChatId(value)`, answered while hashing it for the memory's later look-up. Never throws. */
export function isChatIdHashed(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > CHAT_LIMITS.maxIdLength) return false;
  if (value !== hashedId) hash(value);
  return hashedIdIsChatId;
}
