/**
 * Content digests for the reducer's idempotency memory: a 64-bit
 * non-cryptographic hash of an envelope's content (its timestamp and its event
 * fields in allowlist order, nested object keys sorted), so equal content gives
 * an equal digest whatever the key order. It detects a host resending different
 * content under the same id or seq; it is not a defence against forgery.
 * While it reads the event's strings it notes whether one holds a character
 * the clean-text rule must look at again, so the reducer's check of a delta's
 * text costs no second scan of it.
 */
import { canonicalJson } from '../primitives/canonical-json.js';
import type { ChatEventEnvelope } from '../envelope/envelope.js';
import { CHAT_EVENT_FIELDS } from '../events/event-fields.js';
import { hasOwn } from '../primitives/primitives.js';
import { PRODUCT_EVENT_FIELDS } from '../events/product-events.js';

// Two 32-bit multiply-xorshift lanes mixed at the end (the cyrb53 construction,
// kept at the full 64 bits). The lanes live here, not in a string being built:
// the reducer digests every envelope, and the concatenation and JSON text a
// built-up string needs cost more than the hashing itself. Invariant: `mix`
// sets both lanes before feeding anything, and every digest is read out in the
// same synchronous call, so no call sees another's lanes.
let first = 0;
let second = 0;
// Whether a string fed since `mix` began the event held a C0 control other than
// tab, LF and CR, or a surrogate: the characters `isCleanText` reads again.
let unusual = false;

// Strings are fed with their length first, so no two sequences of fields feed
// the same codes (`"ab","c"` and `"a","bc"` differ). The loop works on locals:
// module variables would be read and written back at every character.
function feedString(text: string): void {
  let lane1 = Math.imul(first ^ (0x10000 + text.length), 2654435761);
  let lane2 = Math.imul(second ^ (0x10000 + text.length), 1597334677);
  let seen = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 ? code !== 0x09 && code !== 0x0a && code !== 0x0d : (code & 0xf800) === 0xd800) seen = true;
    lane1 = Math.imul(lane1 ^ code, 2654435761);
    lane2 = Math.imul(lane2 ^ code, 1597334677);
  }
  first = lane1;
  second = lane2;
  if (seen) unusual = true;
}

function feedValue(value: unknown): void {
  if (typeof value === 'string') feedString(value);
  else feedString(canonicalJson(value));
}

/**
 * The digest of what an envelope says (its timestamp and event, not its ids or
 * seq): 16 lower-case hex characters, the one a state's `eventLog` line holds.
 * Equal content gives an equal digest whatever its key order, so a client can
 * tell an identical redelivery from a conflicting one without keeping the
 * frame. Takes a parsed envelope; on other values it may throw what
 * `canonicalJson` throws.
 */
export function digestEnvelope(envelope: ChatEventEnvelope): string {
  mix(envelope);
  return hex16(first, second);
}

/**
 * The same digest as {@link digestEnvelope}, as its two 32-bit halves (first
 * eight hex digits, then the last eight) written into `target[0]` and
 * `target[1]`: what the reducer's memory stores, without building the text.
 * Returns whether a string of the event (a field's name or value, not the
 * timestamp) holds a C0 control character other than tab, LF and CR, or a
 * surrogate: false means every such string passes `isCleanText`.
 */
export function digestEnvelopeInto(envelope: ChatEventEnvelope, target: Int32Array): boolean {
  mix(envelope);
  target[0] = first;
  target[1] = second;
  return unusual;
}

/** The text form of a digest given as its two 32-bit halves (see {@link digestEnvelopeInto}). */
export function formatDigest(high: number, low: number): string {
  return hex16(high, low);
}

/**
 * {@link digestEnvelopeInto} of a `delta` or `reasoning` envelope given as its
 * timestamp, type and text, values the caller read once: the same digest and
 * the same answer (its fields are `type` and `text`, in that order), so what is
 * checked and digested is what the caller applies, whatever a getter would
 * answer on a second read.
 */
export function digestTextEventInto(occurredAt: string, type: 'delta' | 'reasoning', text: string, target: Int32Array): boolean {
  begin(occurredAt);
  feedString('type');
  feedString(type);
  feedString('text');
  feedString(text);
  end();
  target[0] = first;
  target[1] = second;
  return unusual;
}

// The lanes' seeds and the timestamp, before the event's fields; `unusual` then covers the fields only.
function begin(occurredAt: string): void {
  first = 0xdeadbeef;
  second = 0x41c6ce57;
  feedString(occurredAt);
  unusual = false;
}

// The final mix of the two lanes.
function end(): void {
  first = Math.imul(first ^ (first >>> 16), 2246822507);
  first ^= Math.imul(second ^ (second >>> 13), 3266489909);
  second = Math.imul(second ^ (second >>> 16), 2246822507);
  second ^= Math.imul(first ^ (first >>> 13), 3266489909);
}

function mix(envelope: ChatEventEnvelope): void {
  begin(envelope.occurredAt);
  const event = envelope.event as Readonly<Record<string, unknown>>;
  const type = envelope.event.type;
  // A product event (see createChatCodec) has the fields every product event has.
  const fields: readonly string[] = hasOwn(CHAT_EVENT_FIELDS, type) ? CHAT_EVENT_FIELDS[type] : PRODUCT_EVENT_FIELDS;
  for (const field of fields) {
    const value = event[field];
    if (value !== undefined) {
      feedString(field);
      feedValue(value);
    }
  }
  end();
}

// Each half as eight lower-case hex digits, zero-padded; `>>> 0` reads it unsigned.
function hex16(high: number, low: number): string {
  return (high >>> 0).toString(16).padStart(8, '0') + (low >>> 0).toString(16).padStart(8, '0');
}
