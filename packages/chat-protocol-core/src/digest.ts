/**
 * Content digests for the reducer's idempotency memory: a canonical text of an
 * envelope's content (event fields in allowlist order, nested keys sorted) and a
 * 64-bit non-cryptographic hash of it. It detects a host resending different
 * content under the same id or seq; it is not a defence against forgery.
 */
import type { ChatEventEnvelope } from './envelope.js';
import { CHAT_EVENT_FIELDS } from './events.js';
import { isPlainObject } from './primitives.js';

/** JSON text with object keys sorted at every level: equal data gives equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The digest of what an envelope says (its timestamp and event), independent of
 * key order: 16 lower-case hex characters.
 */
export function digestEnvelope(envelope: ChatEventEnvelope): string {
  const event = envelope.event as Readonly<Record<string, unknown>>;
  let text = envelope.occurredAt;
  for (const field of CHAT_EVENT_FIELDS[envelope.event.type] as readonly string[]) {
    const value = event[field];
    if (value !== undefined) {
      text += `\n${field}=${typeof value === 'object' && value !== null ? canonicalJson(value) : JSON.stringify(value)}`;
    }
  }
  return hash64(text);
}

// Two 32-bit multiply-xorshift lanes mixed at the end (the cyrb53 construction,
// kept at the full 64 bits).
function hash64(text: string): string {
  let first = 0xdeadbeef;
  let second = 0x41c6ce57;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 2654435761);
    second = Math.imul(second ^ code, 1597334677);
  }
  first = Math.imul(first ^ (first >>> 16), 2246822507);
  first ^= Math.imul(second ^ (second >>> 13), 3266489909);
  second = Math.imul(second ^ (second >>> 16), 2246822507);
  second ^= Math.imul(first ^ (first >>> 13), 3266489909);
  return hex8(first) + hex8(second);
}

// Byte-to-hex lookup: `toString(16).padStart(…)` costs more than the whole hash.
const HEX_BYTES: readonly string[] = /* @__PURE__ */ Array.from({ length: 256 }, (_, byte) =>
  byte.toString(16).padStart(2, '0'),
);

function hex8(value: number): string {
  return (
    (HEX_BYTES[(value >>> 24) & 255] as string) +
    (HEX_BYTES[(value >>> 16) & 255] as string) +
    (HEX_BYTES[(value >>> 8) & 255] as string) +
    (HEX_BYTES[value & 255] as string)
  );
}
