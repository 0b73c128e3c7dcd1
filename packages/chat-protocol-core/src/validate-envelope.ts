/**
 * The hot-path validator of the v1 envelope: plain predicates over a parsed
 * JSON value, reporting the first problem with its path. It accepts and refuses
 * exactly what `ChatEventEnvelopeSchema` does (a property test holds it to that);
 * it exists because a general schema walk costs several times `JSON.parse`.
 */
import {
  expiresAfterCreation,
  hasUniqueIds,
  isCheckboxMaximumReachable,
  isCheckboxMinimumReachable,
  isDateRangeOrdered,
  isSliderRangeValid,
  isTextLengthRangeOrdered,
} from './card-rules.js';
import { CARD_LIMITS } from './cards.js';
import { CARD_RESOLUTIONS, DONE_STATUSES, TOOL_RESULT_STATUSES, type ChatEventTypeV1 } from './events.js';
import { CHAT_LIMITS } from './limits.js';
import {
  hasOwn,
  isBoundedText,
  isCalendarDate,
  isChatId,
  isCount,
  isName,
  isSafeHref,
  isSafeJson,
  isSafeJsonObject,
  isSeq,
  isZonedTimestamp,
} from './primitives.js';
import type { ChatIssue } from './result.js';

/** Why an envelope was refused, before it becomes a public refusal. */
export interface EnvelopeProblem {
  readonly code: 'unsupported-version' | 'invalid-envelope' | 'unknown-event' | 'invalid-event';
  readonly issue: ChatIssue;
}

type Path = readonly (string | number)[];
/**
 * Returns null when the value is acceptable, else the problem with its path
 * relative to the value; paths are built only on failure, never on the hot path.
 */
type Check = (value: unknown) => ChatIssue | null;
interface Rule {
  readonly check: Check;
  readonly optional: boolean;
}
/**
 * Field rules of one strict object, also split once into parallel arrays of
 * required and optional keys and checks: the fast pass walks those by index.
 */
export interface Rules {
  readonly byKey: Readonly<Record<string, Rule>>;
  readonly requiredKeys: readonly string[];
  readonly requiredChecks: readonly Check[];
  readonly optionalKeys: readonly string[];
  readonly optionalChecks: readonly Check[];
}

function rules(byKey: Readonly<Record<string, Rule>>): Rules {
  const entries = Object.entries(byKey);
  const requiredEntries = entries.filter(([, rule]) => !rule.optional);
  const optionalEntries = entries.filter(([, rule]) => rule.optional);
  return {
    byKey,
    requiredKeys: requiredEntries.map(([key]) => key),
    requiredChecks: requiredEntries.map(([, rule]) => rule.check),
    optionalKeys: optionalEntries.map(([key]) => key),
    optionalChecks: optionalEntries.map(([, rule]) => rule.check),
  };
}

/**
 * An object as `JSON.parse` makes them: every value this module sees comes
 * from `JSON.parse` (parseChatEnvelope reads other input as its JSON form), so
 * checking for arrays is enough; no prototype lookup on the hot path.
 */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const fail = (path: Path, message: string): ChatIssue => ({ path, message });
const under = (key: string | number, issue: ChatIssue): ChatIssue => ({ path: [key, ...issue.path], message: issue.message });
const when =
  (predicate: (value: unknown) => boolean, message: string): Check =>
  (value) =>
    predicate(value) ? null : fail([], message);
const required = (check: Check): Rule => ({ check, optional: false });
const optional = (check: Check): Rule => ({ check, optional: true });

/**
 * Checks a plain object against `rules`: no unknown keys, every required key
 * present. The first pass only counts and tests (no allocation); the second,
 * which names the problem, runs only when the first found one.
 */
function checkStrict(value: unknown, rules: Rules): ChatIssue | null {
  if (!isJsonObject(value)) return fail([], 'expected an object');
  const { requiredKeys, requiredChecks, optionalKeys, optionalChecks } = rules;
  let expected = requiredKeys.length;
  let valid = true;
  for (let index = 0; index < requiredKeys.length; index++) {
    const field = value[requiredKeys[index] as string];
    if (field === undefined || (requiredChecks[index] as Check)(field) !== null) valid = false;
  }
  for (let index = 0; index < optionalKeys.length; index++) {
    const field = value[optionalKeys[index] as string];
    if (field !== undefined) {
      expected++;
      if ((optionalChecks[index] as Check)(field) !== null) valid = false;
    }
  }
  const keys = countKeys(value);
  return valid && keys === expected ? null : explain(value, rules);
}

function explain(value: Record<string, unknown>, rules: Rules): ChatIssue {
  const { byKey } = rules;
  for (const key in value) {
    const rule = hasOwn(byKey, key) ? byKey[key] : undefined;
    if (rule === undefined) return fail([key], 'unknown property');
    const problem = rule.check(value[key]);
    if (problem !== null) return under(key, problem);
  }
  for (const key of rules.requiredKeys) {
    if (!hasOwn(value, key)) return fail([key], 'required');
  }
  // Reached only if a key is present through the prototype chain, not as an own property.
  return fail([], 'unexpected inherited property');
}

// The rule tables are built in one function called once at load and marked
// pure, so a bundle that never validates an envelope (a client importing only
// isCleanText, say) drops them entirely.
function buildRuleTables() {
  /** A required key whose value the caller already dispatched on or checks itself (`type`, `kind`, `event`). */
  const dispatched = required(() => null);
  const oneOf = (values: readonly string[]): Check =>
    when((value) => typeof value === 'string' && values.includes(value), `expected one of ${values.join(', ')}`);

  const id = when(isChatId, 'expected an id: 1–256 printable ASCII characters without spaces');
  const name = when(isName, 'expected non-empty clean text of at most 256 characters');
  const text = (max: number, min = 0): Check =>
    when(
      (value) => isBoundedText(value, max) && value.length >= min,
      `expected clean text of ${min}–${max} characters`,
    );
  const json = when((value) => value !== undefined && isSafeJson(value), 'expected bounded JSON data');
  const jsonObject = when(isSafeJsonObject, 'expected a bounded JSON object');
  const boolean = when((value) => typeof value === 'boolean', 'expected a boolean');
  const nullableName: Check = (value) => (value === null ? null : name(value));
  const arrayOf =
    (max: number, item: Check): Check =>
    (value) => {
      if (!Array.isArray(value)) return fail([], 'expected an array');
      if (value.length > max) return fail([], `expected at most ${max} items`);
      for (let index = 0; index < value.length; index++) {
        const problem = item(value[index]);
        if (problem !== null) return under(index, problem);
      }
      return null;
    };

  const strict =
    (fields: Readonly<Record<string, Rule>>): Check => {
      const compiled = rules(fields);
      return (value) => checkStrict(value, compiled);
    };

  const sources = optional(
    arrayOf(
      CHAT_LIMITS.maxSources,
      strict({ ref: required(text(CHAT_LIMITS.maxRefLength, 1)), label: optional(name) }),
    ),
  );
  const textBlockRules = rules({
    kind: required(oneOf(['text'])),
    text: required(text(CHAT_LIMITS.maxTextLength)),
    sources,
  });
  const dataBlockRules = rules({ kind: required(oneOf(['data'])), data: required(json), sources });
  const block: Check = (value) => {
    if (!isJsonObject(value)) return fail([], 'expected an object');
    if (value['kind'] === 'text') return checkStrict(value, textBlockRules);
    if (value['kind'] === 'data') return checkStrict(value, dataBlockRules);
    return fail(['kind'], 'expected one of text, data');
  };

  // Cards, rule for rule as OpenCardSnapshotV1Schema states them; the cross-field
  // rules are the same functions the schema refines with.
  const refined =
    <Shape>(check: Check, holds: (value: Shape) => boolean, path: string, message: string): Check =>
    (value) =>
      check(value) ?? (holds(value as Shape) ? null : fail([path], message));
  const finiteNumber = when((value) => typeof value === 'number' && Number.isFinite(value), 'expected a finite number');
  const integerUpTo = (min: number, max: number): Check =>
    when((value) => isCount(value) && value >= min && value <= max, `expected an integer of ${min}–${max}`);
  const label = text(CARD_LIMITS.maxLabelLength, 1);
  const calendarDate = when(isCalendarDate, 'expected a YYYY-MM-DD calendar date');
  const options: Check = (value) =>
    arrayOf(CARD_LIMITS.maxOptions, strict({ id: required(id), label: required(label), description: optional(text(CARD_LIMITS.maxDescriptionLength)) }))(value) ??
    (Array.isArray(value) && value.length === 0
      ? fail([], 'expected at least 1 item')
      : hasUniqueIds(value as { id: unknown }[])
        ? null
        : fail([], 'option ids must be unique'));
  const PRESENTATION_RULES: Readonly<Record<string, Check>> = {
    text: refined(
      strict({
        kind: dispatched,
        placeholder: optional(text(CARD_LIMITS.maxLabelLength)),
        multiline: optional(boolean),
        minLength: optional(integerUpTo(0, CARD_LIMITS.maxTextAnswerLength)),
        maxLength: optional(integerUpTo(1, CARD_LIMITS.maxTextAnswerLength)),
      }),
      isTextLengthRangeOrdered,
      'minLength',
      'minLength must not exceed maxLength',
    ),
    radio: strict({ kind: dispatched, options: required(options) }),
    select: strict({ kind: dispatched, options: required(options) }),
    checkbox: refined(
      refined(
        strict({
          kind: dispatched,
          options: required(options),
          minSelected: optional(when(isCount, 'expected a non-negative integer')),
          maxSelected: optional(when(isCount, 'expected a non-negative integer')),
        }),
        isCheckboxMinimumReachable,
        'minSelected',
        'minSelected must not exceed maxSelected or the number of options',
      ),
      isCheckboxMaximumReachable,
      'maxSelected',
      'maxSelected must not exceed the number of options',
    ),
    confirm: strict({ kind: dispatched, confirmLabel: optional(label), rejectLabel: optional(label) }),
    date: refined(
      strict({ kind: dispatched, min: optional(calendarDate), max: optional(calendarDate) }),
      isDateRangeOrdered,
      'min',
      'min must not be after max',
    ),
    slider: refined(
      strict({
        kind: dispatched,
        min: required(finiteNumber),
        max: required(finiteNumber),
        step: optional(when((value) => typeof value === 'number' && value > 0 && Number.isFinite(value), 'expected a positive number')),
        unit: optional(text(CARD_LIMITS.maxUnitLength, 1)),
      }),
      isSliderRangeValid,
      'max',
      'min must be below max, with a finite span',
    ),
  };
  const presentation: Check = (value) => {
    if (!isJsonObject(value)) return fail([], 'expected an object');
    const kind = value['kind'];
    const check = typeof kind === 'string' && hasOwn(PRESENTATION_RULES, kind) ? PRESENTATION_RULES[kind] : undefined;
    return check === undefined ? fail(['kind'], `expected one of ${Object.keys(PRESENTATION_RULES).join(', ')}`) : check(value);
  };
  const timestamp = when(isZonedTimestamp, 'expected an RFC 3339 date-time with Z or ±HH:MM');
  const card = refined(
    strict({
      correlationId: required(id),
      createdAt: required(timestamp),
      expiresAt: optional(timestamp),
      schema: optional(strict({ id: required(id), revision: required(when(isCount, 'expected a non-negative integer')) })),
      prompt: required(text(CARD_LIMITS.maxPromptLength, 1)),
      presentation: required(presentation),
      fallbackText: optional(text(CARD_LIMITS.maxPromptLength)),
      details: optional(text(CARD_LIMITS.maxPromptLength)),
      allowDecline: optional(boolean),
      timeoutMs: optional(integerUpTo(1, CARD_LIMITS.maxTimeoutMs)),
    }),
    expiresAfterCreation,
    'expiresAt',
    'expiresAt must be after createdAt',
  );

  const retryAfterMs = when(
    (value) => isCount(value) && value <= CHAT_LIMITS.maxRetryAfterMs,
    `expected an integer of 0–${CHAT_LIMITS.maxRetryAfterMs}`,
  );

  const EVENT_RULES: { readonly [Type in ChatEventTypeV1]: Rules } = {
    delta: rules({ type: dispatched, text: required(text(CHAT_LIMITS.maxTextLength)) }),
    reasoning: rules({ type: dispatched, text: required(text(CHAT_LIMITS.maxTextLength)) }),
    tool_call: rules({ type: dispatched, callId: required(id), name: required(name), input: optional(jsonObject) }),
    tool_result: rules({
      type: dispatched,
      callId: required(id),
      name: required(name),
      status: required(oneOf(TOOL_RESULT_STATUSES)),
      summary: optional(text(CHAT_LIMITS.maxSummaryLength)),
      blocks: optional(arrayOf(CHAT_LIMITS.maxBlocks, block)),
      error: optional(text(CHAT_LIMITS.maxSummaryLength)),
    }),
    provenance: rules({ type: dispatched, engine: required(name), model: required(name), accountRoute: optional(nullableName) }),
    card: rules({ type: dispatched, card: required(card) }),
    card_closed: rules({ type: dispatched, correlationId: required(id), resolution: optional(oneOf(CARD_RESOLUTIONS)) }),
    state: rules({ type: dispatched, version: required(when(isCount, 'expected a non-negative integer')), snapshot: required(json) }),
    navigate: rules({
      type: dispatched,
      href: required(when(isSafeHref, 'expected an app-relative path or an https: URL')),
    }),
    done: rules({
      type: dispatched,
      status: required(oneOf(DONE_STATUSES)),
      stopReason: optional(name),
      usage: optional(jsonObject),
    }),
    error: rules({
      type: dispatched,
      code: required(id),
      message: required(text(CHAT_LIMITS.maxSummaryLength, 1)),
      retryable: required(boolean),
      retryAfterMs: optional(retryAfterMs),
    }),
  };

  const ENVELOPE_RULES = rules({
    schemaVersion: dispatched,
    conversationId: required(id),
    turnId: required(id),
    eventId: required(id),
    seq: required(when(isSeq, 'expected a positive safe integer')),
    occurredAt: required(timestamp),
    event: dispatched,
  });

  return { dispatched, EVENT_RULES, ENVELOPE_RULES };
}

const RULES = /* @__PURE__ */ buildRuleTables();

/**
 * The rules of a `card` event whose card is checked by `checkCard` instead of
 * the base v1 rules: how a product's card vocabulary (a card codec) reaches the
 * envelope. Build it once per vocabulary.
 */
export function cardEventRules(checkCard: (card: unknown) => ChatIssue | null): Rules {
  return rules({ type: RULES.dispatched, card: required(checkCard) });
}

/**
 * Validates a value `JSON.parse` returned as a v1 envelope; null when it is one.
 * `cardRules` replaces the rules of `card` events (see {@link cardEventRules}).
 *
 * Most envelopes are text deltas, so those are checked first by straight-line
 * predicate calls that the engine can inline; anything else, and any failure,
 * takes the rule-driven path, which also names the problem.
 */
export function validateEnvelope(value: unknown, cardRules: Rules = RULES.EVENT_RULES.card): EnvelopeProblem | null {
  if (isJsonObject(value) && isEnvelopeFrame(value)) {
    const event = value['event'];
    if (isJsonObject(event)) {
      const type = event['type'];
      if ((type === 'delta' || type === 'reasoning') && isBoundedText(event['text'], CHAT_LIMITS.maxTextLength) && countKeys(event) === 2) {
        return null;
      }
    }
    // The frame passed: only the event is left to check.
    return eventProblemAt(event, cardRules);
  }
  return validateEnvelopeByRules(value, cardRules);
}

// The conversation and turn ids of the last frame that passed: a stream repeats
// them in every envelope, and comparing with a known-valid string is cheaper
// than checking it again. Only valid ids are ever stored here.
let lastConversationId = '';
let lastTurnId = '';

function isEnvelopeFrame(value: Record<string, unknown>): boolean {
  const conversationId = value['conversationId'];
  const turnId = value['turnId'];
  if (
    !(conversationId === lastConversationId || isChatId(conversationId)) ||
    !(turnId === lastTurnId || isChatId(turnId))
  ) {
    return false;
  }
  lastConversationId = conversationId;
  lastTurnId = turnId;
  return (
    value['schemaVersion'] === 1 &&
    isChatId(value['eventId']) &&
    isSeq(value['seq']) &&
    isZonedTimestamp(value['occurredAt']) &&
    countKeys(value) === 7
  );
}

function countKeys(value: object): number {
  let keys = 0;
  for (const _key in value) keys++;
  return keys;
}

function validateEnvelopeByRules(value: unknown, cardRules: Rules): EnvelopeProblem | null {
  if (!isJsonObject(value)) return { code: 'invalid-envelope', issue: fail([], 'expected an object') };
  if (value['schemaVersion'] !== 1) {
    return { code: 'unsupported-version', issue: fail(['schemaVersion'], 'expected schemaVersion 1') };
  }
  const envelopeIssue = checkStrict(value, RULES.ENVELOPE_RULES);
  if (envelopeIssue !== null) return { code: 'invalid-envelope', issue: envelopeIssue };
  return eventProblemAt(value['event'], cardRules);
}

/** The event's problem, with its path under `event`. */
function eventProblemAt(event: unknown, cardRules: Rules): EnvelopeProblem | null {
  const problem = validateEvent(event, cardRules);
  return problem === null ? null : { code: problem.code, issue: under('event', problem.issue) };
}

/** Validates a `JSON.parse` value as a v1 event; null when it is one. Paths are relative to the event. */
export function validateEvent(event: unknown, cardRules: Rules = RULES.EVENT_RULES.card): EnvelopeProblem | null {
  if (!isJsonObject(event)) return { code: 'invalid-event', issue: fail([], 'expected an event object') };
  const type = event['type'];
  const eventRules =
    type === 'card'
      ? cardRules
      : typeof type === 'string' && hasOwn(RULES.EVENT_RULES, type)
        ? RULES.EVENT_RULES[type as ChatEventTypeV1]
        : undefined;
  if (eventRules === undefined) return { code: 'unknown-event', issue: fail(['type'], 'unknown event type') };
  const issue = checkStrict(event, eventRules);
  if (issue !== null) return { code: 'invalid-event', issue };
  if (type === 'error' && event['retryable'] === false && event['retryAfterMs'] !== undefined) {
    return { code: 'invalid-event', issue: fail(['retryAfterMs'], 'retryAfterMs needs retryable: true') };
  }
  return null;
}
