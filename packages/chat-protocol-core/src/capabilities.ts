/**
 * Capability declarations: the five independent booleans a host declares about
 * what it can recover, and the check a client runs against a requirement list.
 * It owns the flag names, the strict declaration schema and the missing-flag
 * verdict. It refuses to infer: no flag implies another, and a malformed
 * declaration is refused, never read as "everything off".
 */
import * as z from 'zod/v4/mini';
import { hasOwn, isPlainObject } from './primitives/primitives.js';
import { refuse, type ChatIssue, type ChatRefusal, type ParseResult } from './primitives/result.js';

/** The capability flags, in their canonical order (the order `missing` is reported in). */
export const CHAT_CAPABILITY_NAMES = [
  'connectionReplay',
  'persistedHistory',
  'persistedDecisions',
  'completedToolCheckpoints',
  'interruptedTurnRecovery',
] as const;

/** One capability flag name. */
export type ChatCapabilityName = (typeof CHAT_CAPABILITY_NAMES)[number];

/**
 * Schema of a capability declaration: a total record of the five flags, each a
 * boolean, with no other key. Prefer {@link parseChatCapabilities}, which also
 * ignores inherited properties and survives hostile objects.
 */
export const ChatCapabilitiesSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    connectionReplay: z.boolean(),
    persistedHistory: z.boolean(),
    persistedDecisions: z.boolean(),
    completedToolCheckpoints: z.boolean(),
    interruptedTurnRecovery: z.boolean(),
  }))();

/** A host's capability declaration: every flag stated, none implied by another. */
export type ChatCapabilities = z.infer<typeof ChatCapabilitiesSchema>;

/**
 * The lightweight profile: connection replay only. It lets a client resume a
 * dropped connection and refuses restart recovery, persisted history and
 * persisted decisions. Frozen.
 */
export const LIGHTWEIGHT_CHAT_CAPABILITIES: Readonly<ChatCapabilities> = /* @__PURE__ */ Object.freeze({
  connectionReplay: true,
  persistedHistory: false,
  persistedDecisions: false,
  completedToolCheckpoints: false,
  interruptedTurnRecovery: false,
});

/** Refusal codes of {@link parseChatCapabilities}. */
export type ParseChatCapabilitiesRefusalCode = 'invalid-capabilities';

/** The result of {@link parseChatCapabilities}. */
export type ParseChatCapabilitiesResult = ParseResult<ChatCapabilities, ParseChatCapabilitiesRefusalCode>;

/** Refusal codes of {@link requireChatCapabilities}. */
export type RequireChatCapabilitiesRefusalCode = 'unsupported-capability' | 'invalid-capabilities';

/** The refusal of {@link requireChatCapabilities} when a required flag is not declared `true`. */
export interface UnsupportedCapabilityRefusal extends ChatRefusal<'unsupported-capability'> {
  /** Required flags not declared `true`, in {@link CHAT_CAPABILITY_NAMES} order, without duplicates. */
  readonly missing: readonly ChatCapabilityName[];
}

/** The result of {@link requireChatCapabilities}. */
export type RequireChatCapabilitiesResult = { readonly ok: true } | UnsupportedCapabilityRefusal | ChatRefusal<'invalid-capabilities'>;

const KNOWN_NAMES: ReadonlySet<unknown> = /* @__PURE__ */ new Set<unknown>(CHAT_CAPABILITY_NAMES);
const MALFORMED_MESSAGE = 'capability declaration is malformed';

/**
 * Reads a capability declaration.
 *
 * Guarantees: accepts only a plain object whose own enumerable keys are exactly
 * the five flags, each a boolean; inherited properties never count (a polluted
 * `Object.prototype` cannot supply a flag). Anything else — a missing flag, a
 * non-boolean, an unknown key (including a `__proto__` own key), a non-object,
 * an array, a class instance, a throwing getter or Proxy — is
 * `invalid-capabilities` with one issue per problem. The value is a fresh
 * object. Never throws.
 */
export function parseChatCapabilities(input: unknown): ParseChatCapabilitiesResult {
  try {
    if (!isPlainObject(input)) {
      return refuse('invalid-capabilities', MALFORMED_MESSAGE, [{ path: [], message: 'capabilities must be a plain object' }]);
    }
    // Copy own enumerable keys onto a null-prototype record so the schema never
    // sees inherited values; a `__proto__` own key stays an ordinary key here.
    const own: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(input)) own[key] = input[key];
    const parsed = ChatCapabilitiesSchema.safeParse(own);
    if (parsed.success) return { ok: true, value: parsed.data };
    return refuse('invalid-capabilities', MALFORMED_MESSAGE, describeIssues(own));
  } catch {
    return refuse('invalid-capabilities', MALFORMED_MESSAGE, [{ path: [], message: 'capabilities could not be read' }]);
  }
}

// Issues are stated from the copied record rather than from zod's generic
// messages, so a caller reads "missing" apart from "not a boolean".
function describeIssues(own: Record<string, unknown>): ChatIssue[] {
  const issues: ChatIssue[] = [];
  for (const name of CHAT_CAPABILITY_NAMES) {
    if (!hasOwn(own, name)) {
      issues.push({ path: [name], message: 'capability flag is missing' });
    } else if (typeof own[name] !== 'boolean') {
      issues.push({ path: [name], message: 'capability flag must be a boolean' });
    }
  }
  for (const key of Object.keys(own)) {
    if (!KNOWN_NAMES.has(key)) issues.push({ path: [key], message: 'unknown capability flag' });
  }
  return issues;
}

/**
 * Checks a host's declaration against the flags a client needs.
 *
 * Guarantees: `{ ok: true }` only when the declaration is valid and every
 * required flag is declared `true`; no flag implies another (persisted history
 * never implies `interruptedTurnRecovery`). A malformed declaration is
 * `invalid-capabilities` whatever is required. Otherwise `unsupported-capability`
 * lists the unmet flags in {@link CHAT_CAPABILITY_NAMES} order without
 * duplicates. For untyped callers: a name that is not a capability can never be
 * met and is listed after the known ones, as given; a `required` that is not an
 * array is read as a single required name. Never throws.
 */
export function requireChatCapabilities(declared: unknown, required: readonly ChatCapabilityName[]): RequireChatCapabilitiesResult {
  const parsed = parseChatCapabilities(declared);
  if (!parsed.ok) return parsed;
  const capabilities = parsed.value;
  const requiredNames = readRequiredNames(required);
  const missing: ChatCapabilityName[] = CHAT_CAPABILITY_NAMES.filter((name) => requiredNames.has(name) && !capabilities[name]);
  let unknownCount = 0;
  for (const name of requiredNames) {
    if (!KNOWN_NAMES.has(name)) {
      // An unknown name cannot be typed as a capability name; it is reported
      // as given so a JavaScript caller sees its own mistake.
      missing.push(name as ChatCapabilityName);
      unknownCount += 1;
    }
  }
  if (missing.length === 0) return { ok: true };
  const knownMissing = missing.slice(0, missing.length - unknownCount);
  const parts: string[] = [];
  if (knownMissing.length > 0) parts.push(`missing capabilities: ${knownMissing.join(', ')}`);
  if (unknownCount > 0) parts.push(`${unknownCount} required name(s) are not capabilities`);
  return { ok: false, code: 'unsupported-capability', message: parts.join('; '), missing };
}

// The required names as a deduplicated set in first-seen order. A list that
// cannot be read is itself one requirement nobody can meet.
function readRequiredNames(required: unknown): ReadonlySet<unknown> {
  try {
    return new Set<unknown>(Array.isArray(required) ? required : [required]);
  } catch {
    return new Set<unknown>([required]);
  }
}
