/**
 * The hash the reducer's idempotency memory files event ids under: FNV-1a over
 * the id's character codes (bytes, for the ASCII ids v1 allows), with a
 * one-entry memo, since the reducer looks an id up and then records it, and
 * the second call reuses the hash. It owns no table: `event-memory.ts` does.
 */

// Invariant: when `hashedId` is defined, `hashOfHashedId` is the hash of
// `hashedId`, so the memo changes how fast a hash is found, never its value.
let hashedId: string | undefined;
let hashOfHashedId = 0;

/** The 32-bit hash of `eventId`: the same for equal strings whatever was hashed before. */
export function hashOfEventId(eventId: string): number {
  if (eventId === hashedId) return hashOfHashedId;
  let hash = 0x811c9dc5;
  for (let index = 0; index < eventId.length; index++) hash = Math.imul(hash ^ eventId.charCodeAt(index), 0x01000193);
  hashedId = eventId;
  hashOfHashedId = hash ^ (hash >>> 15);
  return hashOfHashedId;
}
