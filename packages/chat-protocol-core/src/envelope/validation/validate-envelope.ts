/**
 * The hot-path validator of the v1 envelope: plain predicates over a parsed
 * JSON value, reporting the first problem with its path. It accepts and refuses
 * exactly what `ChatEventEnvelopeSchema` does (a property test holds it to that);
 * it exists because a general schema walk costs several times `JSON.parse`.
 * It ties the parts together: the straight-line checks (`fast-paths.ts`) first,
 * then the rule tables (`rule-tables.ts`), which also name the problem; and the
 * rules a codec's card and product events add.
 */
import { hasOwn, isSafeJson } from '../../primitives/primitives.js';
import type { ChatEventTypeV1 } from '../../events/events.js';
import type { ChatIssue } from '../../primitives/result.js';
import { isEnvelopeFrame, isPlainTextEvent, isPlainToolResult } from './fast-paths.js';
import { RULE_TABLES, SCREENED_RULE_TABLES, type RuleTables } from './rule-tables.js';
import { checkStrict, dispatched, fail, isJsonObject, required, rules, under, type Check, type Rules } from './rules.js';

/** Why an envelope was refused, before it becomes a public refusal. */
export interface EnvelopeProblem {
  readonly code: 'unsupported-version' | 'invalid-envelope' | 'unknown-event' | 'invalid-event';
  readonly issue: ChatIssue;
}

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
