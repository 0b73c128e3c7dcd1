/**
 * The hot-path validator of the v1 envelope: plain predicates over a parsed
 * JSON value, reporting the first problem with its path. It accepts and refuses
 * exactly what `ChatEventEnvelopeSchema` does (a property test holds it to that);
 * it exists because a general schema walk costs several times `JSON.parse`.
 * Its field tables are typed by the schemas' types, and the encoder's allowlist
 * is read off them, so a field cannot be added to one without the other.
 */
import type { CardApproval, CardKind, CardOption, CardPresentationV1, OpenCardSnapshotV1 } from '../../cards/card-schemas.js';
import { CARD_LIMITS, CARD_OPTION_STYLES, isCardDataSchemaJson } from '../../cards/card-schemas.js';
import { isReportExtensions, REPORT_LIMITS, type ReportBlock, type ReportItem, type ReportPlan } from '../../cards/report-block.js';
import {
  expiresAfterCreation,
  hasNoRepeats,
  hasUniqueIds,
  isCheckboxMaximumReachable,
  isCheckboxMinimumReachable,
  isDateRangeOrdered,
  isSliderRangeValid,
  isTextLengthRangeOrdered,
} from '../../cards/card-rules.js';
import { CARD_RESOLUTIONS, DONE_STATUSES, TOOL_RESULT_STATUSES, USER_INPUT_SOURCES } from '../../events/event-vocabulary.js';
import type { ChatEventTypeV1, ChatEventV1Of, ChatResultBlock, ChatSource, ChatUsage } from '../../events/events.js';
import { areFrameIds } from './frame-id-memo.js';
import { CHAT_LIMITS } from '../../primitives/limits.js';
import {
  hasOwn,
  isCalendarDate,
  isChatId,
  isCleanText,
  isCount,
  isSafeHref,
  isSafeJson,
  isScreenedSafeJson,
  isSeq,
  isWellFormedText,
  isZonedTimestamp,
} from '../../primitives/primitives.js';
import type { ChatIssue } from '../../primitives/result.js';

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
interface Rule<Optional extends boolean = boolean> {
  readonly check: Check;
  readonly optional: Optional;
}
/**
 * The rules of a strict object shaped like `Shape`: one per key, no more and no
 * fewer, required exactly where `Shape` requires the key. Tables are written
 * against the schemas' inferred types, so a field added to a schema and not
 * here (or the other way round) fails the type check.
 */
type FieldRules<Shape> = {
  readonly [Key in keyof Shape]-?: Rule<Record<never, never> extends Pick<Shape, Key> ? true : false>;
};
/**
 * Field rules of one strict object, also split once into parallel arrays of
 * required and optional keys and checks: the fast pass walks those by index.
 * `keys` lists every field in declaration order, which is the wire order.
 */
export interface Rules {
  readonly byKey: Readonly<Record<string, Rule>>;
  readonly keys: readonly string[];
  readonly requiredKeys: readonly string[];
  readonly requiredChecks: readonly Check[];
  readonly optionalKeys: readonly string[];
  readonly optionalChecks: readonly Check[];
}

function rules<Shape>(byKey: FieldRules<Shape>): Rules {
  const entries = Object.entries(byKey as Readonly<Record<string, Rule>>);
  const requiredEntries = entries.filter(([, rule]) => !rule.optional);
  const optionalEntries = entries.filter(([, rule]) => rule.optional);
  return {
    byKey: byKey as Readonly<Record<string, Rule>>,
    keys: Object.freeze(entries.map(([key]) => key)),
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
const required = (check: Check): Rule<false> => ({ check, optional: false });
const optional = (check: Check): Rule<true> => ({ check, optional: true });
/** A required key whose value the caller already dispatched on or checks itself (`type`, `kind`, `event`). */
const dispatched = /* @__PURE__ */ required(() => null);

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

/** The presentation of each base card kind, as the schema's type states it. */
type PresentationOf<Kind extends CardKind> = Extract<CardPresentationV1, { kind: Kind }>;

/**
 * Every strict object of the envelope the validator knows, by name: the
 * envelope frame, each event type, the card and its parts, each presentation
 * kind, each block kind and a source. `contract-fields.test.ts` compares their
 * keys with the schemas' and the test generators'.
 */
export interface RuleTables {
  readonly envelope: Rules;
  readonly events: { readonly [Type in ChatEventTypeV1]: Rules };
  readonly card: Rules;
  readonly cardSchemaReference: Rules;
  readonly cardApproval: Rules;
  readonly cardOption: Rules;
  readonly presentations: { readonly [Kind in CardKind]: Rules };
  readonly blocks: { readonly [Kind in ChatResultBlock['kind']]: Rules };
  readonly source: Rules;
  readonly usage: Rules;
}

/**
 * Builds the rule tables. With `screened`, the strings they see come from a
 * JSON text {@link isScreenedJsonText} passed, so none can hold a control
 * character and text checks only ask for well-formed Unicode; every other rule,
 * message and path is the same. The tables are built in a function called at
 * load and marked pure, so a bundle that never validates an envelope (a client
 * importing only isCleanText, say) drops them entirely.
 */
function buildRuleTables(screened: boolean): RuleTables {
  const isText = screened ? isWellFormedText : isCleanText;
  const oneOf = (values: readonly string[]): Check =>
    when((value) => typeof value === 'string' && values.includes(value), `expected one of ${values.join(', ')}`);

  const id = when(isChatId, 'expected an id: 1–256 printable ASCII characters without spaces');
  const name = when(
    (value) => typeof value === 'string' && value.length > 0 && value.length <= CHAT_LIMITS.maxNameLength && isText(value),
    'expected non-empty clean text of at most 256 characters',
  );
  const text = (max: number, min = 0): Check =>
    when(
      (value) => typeof value === 'string' && value.length <= max && value.length >= min && isText(value),
      `expected clean text of ${min}–${max} characters`,
    );
  const json = when(
    (value) => value !== undefined && (screened ? isScreenedSafeJson(value) : isSafeJson(value)),
    'expected bounded JSON data',
  );
  const boolean = when((value) => typeof value === 'boolean', 'expected a boolean');
  const count = when(isCount, 'expected a non-negative integer');
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
    (compiled: Rules): Check =>
    (value) =>
      checkStrict(value, compiled);

  const source = rules<ChatSource>({ ref: required(text(CHAT_LIMITS.maxRefLength, 1)), label: optional(name) });
  const sources = optional(arrayOf(CHAT_LIMITS.maxSources, strict(source)));
  const blocks = {
    text: rules<Extract<ChatResultBlock, { kind: 'text' }>>({
      kind: required(oneOf(['text'])),
      text: required(text(CHAT_LIMITS.maxTextLength)),
      sources,
    }),
    data: rules<Extract<ChatResultBlock, { kind: 'data' }>>({ kind: required(oneOf(['data'])), data: required(json), sources }),
  };
  const block: Check = (value) => {
    if (!isJsonObject(value)) return fail([], 'expected an object');
    if (value['kind'] === 'text') return checkStrict(value, blocks.text);
    if (value['kind'] === 'data') return checkStrict(value, blocks.data);
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
  const cardOption = rules<CardOption>({
    id: required(id),
    label: required(label),
    description: optional(text(CARD_LIMITS.maxDescriptionLength)),
    hint: optional(text(CARD_LIMITS.maxHintLength)),
    style: optional(oneOf(CARD_OPTION_STYLES)),
  });
  const options: Check = (value) =>
    arrayOf(CARD_LIMITS.maxOptions, strict(cardOption))(value) ??
    (Array.isArray(value) && value.length === 0
      ? fail([], 'expected at least 1 item')
      : hasUniqueIds(value as { id: unknown }[])
        ? null
        : fail([], 'option ids must be unique'));
  const presentations: RuleTables['presentations'] = {
    text: rules<PresentationOf<'text'>>({
      kind: dispatched,
      voiceAnswerable: optional(boolean),
      placeholder: optional(text(CARD_LIMITS.maxLabelLength)),
      multiline: optional(boolean),
      minLength: optional(integerUpTo(0, CARD_LIMITS.maxTextAnswerLength)),
      maxLength: optional(integerUpTo(1, CARD_LIMITS.maxTextAnswerLength)),
    }),
    radio: rules<PresentationOf<'radio'>>({ kind: dispatched, voiceAnswerable: optional(boolean), options: required(options) }),
    select: rules<PresentationOf<'select'>>({
      kind: dispatched,
      voiceAnswerable: optional(boolean),
      options: required(options),
      placeholder: optional(text(CARD_LIMITS.maxLabelLength)),
    }),
    checkbox: rules<PresentationOf<'checkbox'>>({
      kind: dispatched,
      voiceAnswerable: optional(boolean),
      options: required(options),
      minSelected: optional(count),
      maxSelected: optional(count),
    }),
    confirm: rules<PresentationOf<'confirm'>>({
      kind: dispatched,
      voiceAnswerable: optional(boolean),
      confirmLabel: optional(label),
      rejectLabel: optional(label),
    }),
    date: rules<PresentationOf<'date'>>({
      kind: dispatched,
      voiceAnswerable: optional(boolean),
      min: optional(calendarDate),
      max: optional(calendarDate),
    }),
    slider: rules<PresentationOf<'slider'>>({
      kind: dispatched,
      voiceAnswerable: optional(boolean),
      min: required(finiteNumber),
      max: required(finiteNumber),
      step: optional(when((value) => typeof value === 'number' && value > 0 && Number.isFinite(value), 'expected a positive number')),
      unit: optional(text(CARD_LIMITS.maxUnitLength, 1)),
    }),
  };
  const PRESENTATION_CHECKS: Readonly<Record<string, Check>> = {
    text: refined(strict(presentations.text), isTextLengthRangeOrdered, 'minLength', 'minLength must not exceed maxLength'),
    radio: strict(presentations.radio),
    select: strict(presentations.select),
    checkbox: refined(
      refined(
        strict(presentations.checkbox),
        isCheckboxMinimumReachable,
        'minSelected',
        'minSelected must not exceed maxSelected or the number of options',
      ),
      isCheckboxMaximumReachable,
      'maxSelected',
      'maxSelected must not exceed the number of options',
    ),
    confirm: strict(presentations.confirm),
    date: refined(strict(presentations.date), isDateRangeOrdered, 'min', 'min must not be after max'),
    slider: refined(strict(presentations.slider), isSliderRangeValid, 'max', 'min must be below max, with a finite span'),
  };
  const presentation: Check = (value) => {
    if (!isJsonObject(value)) return fail([], 'expected an object');
    const kind = value['kind'];
    const check = typeof kind === 'string' && hasOwn(PRESENTATION_CHECKS, kind) ? PRESENTATION_CHECKS[kind] : undefined;
    return check === undefined ? fail(['kind'], `expected one of ${Object.keys(PRESENTATION_CHECKS).join(', ')}`) : check(value);
  };
  const timestamp = when(isZonedTimestamp, 'expected an RFC 3339 date-time with Z or ±HH:MM');
  const cardSchemaReference = rules<NonNullable<OpenCardSnapshotV1['schema']>>({ id: required(id), revision: required(count) });
  // A card's report body, rule for rule as ReportBlockSchema states it (report-block.ts):
  // checked here like the rest of the card, so the client's path never reaches zod.
  const trimmed = (max: number): Check =>
    when(
      (value) => typeof value === 'string' && value.length > 0 && value.length <= max && value.trim() === value && isText(value),
      `expected trimmed, non-blank clean text of at most ${max} characters`,
    );
  const token = trimmed(REPORT_LIMITS.maxTokenLength);
  const reportText = trimmed(REPORT_LIMITS.maxTextLength);
  const reportItem = rules<ReportItem>({
    id: optional(token),
    text: required(reportText),
    status: optional(token),
    ref: optional(reportText),
  });
  const reportItems: Check = (value) =>
    arrayOf(REPORT_LIMITS.maxItemsPerPlan, strict(reportItem))(value) ??
    (Array.isArray(value) && value.length === 0 ? fail([], 'expected at least 1 item') : null);
  const reportPlan = rules<ReportPlan>({
    slug: optional(token),
    title: required(reportText),
    status: optional(token),
    summary: optional(reportText),
    items: optional(reportItems),
  });
  const report = rules<ReportBlock>({
    title: optional(reportText),
    plans: required(arrayOf(REPORT_LIMITS.maxPlans, strict(reportPlan))),
    extensions: optional(when(isReportExtensions, 'expected report extensions: a JSON object of 1 to 16 named values')),
  });
  const reportBlock: Check = (value) =>
    checkStrict(value, report) ??
    ((value as ReportBlock).plans.length === 0 && (value as ReportBlock).extensions === undefined
      ? fail(['plans'], 'must not be empty unless the report carries an extension')
      : null);
  const cardApproval = rules<CardApproval>({
    title: required(text(CARD_LIMITS.maxApprovalTextLength, 1)),
    question: required(text(CARD_LIMITS.maxApprovalTextLength, 1)),
    body: required(arrayOf(CARD_LIMITS.maxApprovalBodyLines, text(CARD_LIMITS.maxApprovalBodyLineLength))),
  });
  const card = rules<OpenCardSnapshotV1>({
    correlationId: required(id),
    createdAt: required(timestamp),
    expiresAt: optional(timestamp),
    schema: optional(strict(cardSchemaReference)),
    prompt: required(text(CARD_LIMITS.maxPromptLength, 1)),
    presentation: optional(presentation),
    fallbackText: optional(text(CARD_LIMITS.maxPromptLength)),
    details: optional(text(CARD_LIMITS.maxPromptLength)),
    allowDecline: optional(boolean),
    timeoutMs: optional(integerUpTo(1, CARD_LIMITS.maxTimeoutMs)),
    approval: optional(strict(cardApproval)),
    report: optional(reportBlock),
    dataSchemaJson: optional(
      when(isCardDataSchemaJson, `expected a JSON object of at most ${CARD_LIMITS.maxDataSchemaJsonLength} characters`),
    ),
  });
  const cardCheck = refined(strict(card), expiresAfterCreation, 'expiresAt', 'expiresAt must be after createdAt');

  const retryAfterMs = when(
    (value) => isCount(value) && value <= CHAT_LIMITS.maxRetryAfterMs,
    `expected an integer of 0–${CHAT_LIMITS.maxRetryAfterMs}`,
  );

  const awaiting: Check = (value) =>
    arrayOf(CHAT_LIMITS.maxAwaitingCards, id)(value) ??
    ((value as readonly unknown[]).length === 0
      ? fail([], 'expected at least 1 item')
      : hasNoRepeats(value as readonly unknown[])
        ? null
        : fail([], 'a correlation id may appear once'));
  const usage = rules<ChatUsage>({
    inputTokens: optional(count),
    outputTokens: optional(count),
    totalTokens: optional(count),
    costUsd: optional(
      when((value) => typeof value === 'number' && value >= 0 && Number.isFinite(value), 'expected a non-negative finite number'),
    ),
  });

  const events: RuleTables['events'] = {
    user_input: rules<ChatEventV1Of<'user_input'>>({
      type: dispatched,
      text: required(text(CHAT_LIMITS.maxTextLength, 1)),
      source: optional(oneOf(USER_INPUT_SOURCES)),
    }),
    delta: rules<ChatEventV1Of<'delta'>>({ type: dispatched, text: required(text(CHAT_LIMITS.maxTextLength)) }),
    reasoning: rules<ChatEventV1Of<'reasoning'>>({ type: dispatched, text: required(text(CHAT_LIMITS.maxTextLength)) }),
    tool_call: rules<ChatEventV1Of<'tool_call'>>({
      type: dispatched,
      callId: required(id),
      name: required(name),
      input: optional(json),
    }),
    tool_result: rules<ChatEventV1Of<'tool_result'>>({
      type: dispatched,
      callId: required(id),
      name: required(name),
      status: required(oneOf(TOOL_RESULT_STATUSES)),
      summary: optional(text(CHAT_LIMITS.maxSummaryLength)),
      blocks: optional(arrayOf(CHAT_LIMITS.maxBlocks, block)),
      error: optional(text(CHAT_LIMITS.maxSummaryLength)),
    }),
    provenance: rules<ChatEventV1Of<'provenance'>>({
      type: dispatched,
      engine: required(name),
      model: required(name),
      accountRoute: optional(nullableName),
    }),
    card: rules<ChatEventV1Of<'card'>>({ type: dispatched, card: required(cardCheck) }),
    card_closed: rules<ChatEventV1Of<'card_closed'>>({
      type: dispatched,
      correlationId: required(id),
      resolution: optional(oneOf(CARD_RESOLUTIONS)),
    }),
    state: rules<ChatEventV1Of<'state'>>({ type: dispatched, version: required(count), snapshot: required(json) }),
    navigate: rules<ChatEventV1Of<'navigate'>>({
      type: dispatched,
      href: required(when(isSafeHref, 'expected an app-relative path or an https: URL')),
    }),
    done: rules<ChatEventV1Of<'done'>>({
      type: dispatched,
      status: required(oneOf(DONE_STATUSES)),
      stopReason: optional(name),
      usage: optional(strict(usage)),
      awaiting: optional(awaiting),
    }),
    error: rules<ChatEventV1Of<'error'>>({
      type: dispatched,
      code: required(id),
      message: required(text(CHAT_LIMITS.maxSummaryLength, 1)),
      retryable: required(boolean),
      retryAfterMs: optional(retryAfterMs),
    }),
  };

  const envelope = rules<{ [Key in 'schemaVersion' | 'conversationId' | 'turnId' | 'eventId' | 'seq' | 'occurredAt' | 'event']: unknown }>({
    schemaVersion: dispatched,
    conversationId: required(id),
    turnId: required(id),
    eventId: required(id),
    seq: required(when(isSeq, 'expected a positive safe integer')),
    occurredAt: required(timestamp),
    event: dispatched,
  });

  return { envelope, events, card, cardSchemaReference, cardApproval, cardOption, presentations, blocks, source, usage };
}

/** The rule tables for any parsed JSON value. */
export const RULE_TABLES: RuleTables = /* @__PURE__ */ buildRuleTables(false);
// The same rules for values parsed from a screened text (see isScreenedJsonText).
const SCREENED_RULE_TABLES: RuleTables = /* @__PURE__ */ buildRuleTables(true);

/**
 * The fields of each event type in wire order, frozen: the keys of the event
 * rule tables, which `CHAT_EVENT_FIELDS` publishes as the encoder's allowlist.
 */
export const EVENT_FIELD_NAMES: { readonly [Type in ChatEventTypeV1]: readonly (keyof ChatEventV1Of<Type>)[] } = /* @__PURE__ */ (() =>
  Object.freeze(Object.fromEntries(Object.entries(RULE_TABLES.events).map(([type, eventRules]) => [type, eventRules.keys]))) as {
    readonly [Type in ChatEventTypeV1]: readonly (keyof ChatEventV1Of<Type>)[];
  })();

/**
 * The rules of a `card` event whose card is checked by `checkCard` instead of
 * the base v1 rules: how a product's card vocabulary (a card codec) reaches the
 * envelope. Build it once per vocabulary; it serves screened and unscreened
 * texts alike, since `checkCard` makes its own full checks.
 */
export function cardEventRules(checkCard: (card: unknown) => ChatIssue | null): Rules {
  return rules<{ type: 'card'; card: unknown }>({ type: dispatched, card: required(checkCard) });
}

/**
 * The rules of a product event (`{ type, data }`, strict) whose data is
 * bounded JSON that `checkData` accepts: how a product's registered events
 * (see `createChatCodec`) reach the envelope. Build it once per name.
 */
export function productEventRules(checkData: (data: unknown) => ChatIssue | null): Rules {
  const data: Check = (value) => (isSafeJson(value) ? checkData(value) : fail([], 'expected bounded JSON data'));
  return rules<{ type: string; data: unknown }>({ type: dispatched, data: required(data) });
}

/** Rules of the product events a reader registered, by name. */
export type ProductRules = ReadonlyMap<string, Rules>;

/**
 * Validates a value `JSON.parse` returned as a v1 envelope; null when it is one.
 * `cardRules` replaces the rules of `card` events (see {@link cardEventRules});
 * `productRules` adds product events (see {@link productEventRules}).
 * `screened` says the value was parsed from a text `isScreenedJsonText` passed,
 * whose strings then need no scan for control characters.
 *
 * Most envelopes are text deltas, so those are checked first by straight-line
 * predicate calls that the engine can inline; anything else, and any failure,
 * takes the rule-driven path, which also names the problem.
 */
export function validateEnvelope(value: unknown, cardRules?: Rules, screened = false, productRules?: ProductRules): EnvelopeProblem | null {
  const tables = screened ? SCREENED_RULE_TABLES : RULE_TABLES;
  const eventCardRules = cardRules ?? tables.events.card;
  if (isJsonObject(value) && isEnvelopeFrame(value)) {
    const event = value['event'];
    if (isJsonObject(event)) {
      const type = event['type'];
      if ((type === 'delta' || type === 'reasoning') && isPlainTextEvent(event, screened)) return null;
      if (type === 'tool_result' && isPlainToolResult(event, screened)) return null;
    }
    // The frame passed: only the event is left to check.
    return eventProblemAt(event, tables, eventCardRules, productRules);
  }
  return validateEnvelopeByRules(value, tables, eventCardRules, productRules);
}

/** A string of `min`–`max` code units that is clean text (well-formed only, for screened text). */
function isTextOf(value: unknown, min: number, max: number, screened: boolean): boolean {
  return (
    typeof value === 'string' && value.length >= min && value.length <= max && (screened ? isWellFormedText(value) : isCleanText(value))
  );
}

// The straight-line checks below hold the events most streams are made of to
// every rule of their tables, without the tables' generic walk. Each is true
// only when the event is valid; anything it was not written for (a data block,
// a field added later) makes it false and goes to the rule tables, which
// decide. So they can make a valid event cheaper, never an invalid one
// acceptable; contract-fields.test.ts checks they still take every generated one.

/** A `delta` or `reasoning` event (its `type` already read): `{ type, text }` with clean text. */
export function isPlainTextEvent(event: Record<string, unknown>, screened: boolean): boolean {
  return isTextOf(event['text'], 0, CHAT_LIMITS.maxTextLength, screened) && countKeys(event) === 2;
}

/** A `tool_result` event (its `type` already read) whose blocks are all text blocks. */
export function isPlainToolResult(event: Record<string, unknown>, screened: boolean): boolean {
  const { callId, name, status, summary, blocks, error } = event;
  let keys = 4;
  if (
    !isChatId(callId) ||
    !isTextOf(name, 1, CHAT_LIMITS.maxNameLength, screened) ||
    !(TOOL_RESULT_STATUSES as readonly unknown[]).includes(status)
  ) {
    return false;
  }
  if (summary !== undefined) {
    keys++;
    if (!isTextOf(summary, 0, CHAT_LIMITS.maxSummaryLength, screened)) return false;
  }
  if (error !== undefined) {
    keys++;
    if (!isTextOf(error, 0, CHAT_LIMITS.maxSummaryLength, screened)) return false;
  }
  if (blocks !== undefined) {
    keys++;
    if (!Array.isArray(blocks) || blocks.length > CHAT_LIMITS.maxBlocks) return false;
    for (let index = 0; index < blocks.length; index++) {
      if (!isPlainTextBlock(blocks[index], screened)) return false;
    }
  }
  return countKeys(event) === keys;
}

function isPlainTextBlock(block: unknown, screened: boolean): boolean {
  if (!isJsonObject(block) || block['kind'] !== 'text') return false;
  const { text, sources } = block;
  if (!isTextOf(text, 0, CHAT_LIMITS.maxTextLength, screened)) return false;
  if (sources === undefined) return countKeys(block) === 2;
  if (!Array.isArray(sources) || sources.length > CHAT_LIMITS.maxSources) return false;
  for (let index = 0; index < sources.length; index++) {
    const source: unknown = sources[index];
    if (!isJsonObject(source) || !isTextOf(source['ref'], 1, CHAT_LIMITS.maxRefLength, screened)) return false;
    const label = source['label'];
    if (label === undefined) {
      if (countKeys(source) !== 1) return false;
    } else if (!isTextOf(label, 1, CHAT_LIMITS.maxNameLength, screened) || countKeys(source) !== 2) {
      return false;
    }
  }
  return countKeys(block) === 3;
}

function isEnvelopeFrame(value: Record<string, unknown>): boolean {
  if (!areFrameIds(value['conversationId'], value['turnId'])) return false;
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

function validateEnvelopeByRules(
  value: unknown,
  tables: RuleTables,
  cardRules: Rules,
  productRules: ProductRules | undefined,
): EnvelopeProblem | null {
  if (!isJsonObject(value)) return { code: 'invalid-envelope', issue: fail([], 'expected an object') };
  if (value['schemaVersion'] !== 1) {
    return { code: 'unsupported-version', issue: fail(['schemaVersion'], 'expected schemaVersion 1') };
  }
  const envelopeIssue = checkStrict(value, tables.envelope);
  if (envelopeIssue !== null) return { code: 'invalid-envelope', issue: envelopeIssue };
  return eventProblemAt(value['event'], tables, cardRules, productRules);
}

/** The event's problem, with its path under `event`. */
function eventProblemAt(
  event: unknown,
  tables: RuleTables,
  cardRules: Rules,
  productRules: ProductRules | undefined,
): EnvelopeProblem | null {
  const problem = validateEventWith(event, tables, cardRules, productRules);
  return problem === null ? null : { code: problem.code, issue: under('event', problem.issue) };
}

/**
 * Validates a value as a v1 event; null when it is one. Paths are relative to
 * the event. `cardRules` and `productRules` as for {@link validateEnvelope}.
 */
export function validateEvent(
  event: unknown,
  cardRules: Rules = RULE_TABLES.events.card,
  productRules?: ProductRules,
): EnvelopeProblem | null {
  return validateEventWith(event, RULE_TABLES, cardRules, productRules);
}

function validateEventWith(
  event: unknown,
  tables: RuleTables,
  cardRules: Rules,
  productRules: ProductRules | undefined,
): EnvelopeProblem | null {
  if (!isJsonObject(event)) return { code: 'invalid-event', issue: fail([], 'expected an event object') };
  const type = event['type'];
  const eventRules =
    type === 'card'
      ? cardRules
      : typeof type === 'string' && hasOwn(tables.events, type)
        ? tables.events[type as ChatEventTypeV1]
        : typeof type === 'string'
          ? productRules?.get(type)
          : undefined;
  if (eventRules === undefined) return { code: 'unknown-event', issue: fail(['type'], 'unknown event type') };
  const issue = checkStrict(event, eventRules);
  if (issue !== null) return { code: 'invalid-event', issue };
  if (type === 'error' && event['retryable'] === false && event['retryAfterMs'] !== undefined) {
    return { code: 'invalid-event', issue: fail(['retryAfterMs'], 'retryAfterMs needs retryable: true') };
  }
  return null;
}
