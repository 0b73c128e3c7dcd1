/**
 * Reading v1 envelopes from the wire. Strict: unknown properties, unversioned
 * frames and values past `CHAT_LIMITS` are refused with a typed code. It never
 * throws and never returns a value the caller shares with anyone else.
 */
import type { ChatEventEnvelope } from './envelope.js';
import { CHAT_LIMITS } from '../primitives/limits.js';
import { isScreenedJsonText } from '../primitives/primitives.js';
import { refuse, type ChatRefusal, type ParseResult } from '../primitives/result.js';
import type { Rules } from './validation/rules.js';
import { validateEnvelope, type ProductRules } from './validation/validate-envelope.js';

/** Refusal codes of {@link parseChatEnvelope}. */
export type ParseChatEnvelopeRefusalCode =
  'invalid-json' | 'too-large' | 'unsupported-version' | 'invalid-envelope' | 'unknown-event' | 'invalid-event';

/** Result of {@link parseChatEnvelope}. */
export type ParseChatEnvelopeResult = ParseResult<ChatEventEnvelope, ParseChatEnvelopeRefusalCode>;

/**
 * Parses a v1 envelope from a JSON string or a value.
 *
 * A string is read with `JSON.parse`; any other value is read as its JSON form
 * (`parseChatEnvelope(value)` ≡ `parseChatEnvelope(JSON.stringify(value))`), so
 * the returned envelope is always a fresh plain object. Never throws.
 * Codes: `invalid-json` (not JSON, or not serializable), `too-large` (past
 * `CHAT_LIMITS.maxEnvelopeLength`), `unsupported-version` (unversioned or another
 * version), `invalid-envelope`, `unknown-event`, `invalid-event`.
 */
export function parseChatEnvelope(input: unknown): ParseChatEnvelopeResult {
  return parseEnvelopeWith(input, undefined) as ParseChatEnvelopeResult;
}

/**
 * {@link parseChatEnvelope} with the `card` event rules of a card vocabulary
 * (undefined: the base v1 cards) and a reader's product events (undefined:
 * none). The caller types the result.
 */
export function parseEnvelopeWith(
  input: unknown,
  cardRules: Rules | undefined,
  productRules?: ProductRules,
): ParseResult<unknown, ParseChatEnvelopeRefusalCode> {
  let value: unknown;
  if (typeof input === 'string') {
    // The hot path, kept free of intermediate result objects.
    if (input.length > CHAT_LIMITS.maxEnvelopeLength) return tooLarge();
    try {
      value = JSON.parse(input);
    } catch {
      return refuse('invalid-json', 'not valid JSON');
    }
  } else {
    const json = jsonFormOf(input);
    if (json === undefined) return refuse('invalid-json', 'the value has no JSON form');
    return parseEnvelopeWith(json, cardRules, productRules);
  }
  // One search of the text for the escapes that alone can put a control
  // character in a string saves scanning every string for one.
  const problem = validateEnvelope(value, cardRules, isScreenedJsonText(input), productRules);
  if (problem !== null) return refuse(problem.code, describeIssue(problem.issue.path, problem.issue.message), [problem.issue]);
  return { ok: true, value };
}

function tooLarge(): ChatRefusal<'too-large'> {
  return refuse('too-large', `longer than ${CHAT_LIMITS.maxEnvelopeLength} characters`);
}

/** `JSON.stringify(value)`, or undefined when the value has none or cannot be read (cycles, BigInt, throwing getters). */
function jsonFormOf(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** Formats an issue as one line: `event.text: expected …`. */
export function describeIssue(path: readonly (string | number)[], message: string): string {
  return path.length === 0 ? message : `${path.join('.')}: ${message}`;
}
