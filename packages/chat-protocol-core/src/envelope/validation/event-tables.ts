/**
 * The event rule tables, one per v1 event type, with the parts events carry:
 * result blocks and their sources, and usage. Rule for rule as the schemas of
 * `events/events.ts` state them, typed by those schemas' types, so a field
 * added to one and not the other fails the type check. The card event's card
 * is checked by the card's tables, passed in; no envelope frame rule lives here.
 */
import { hasNoRepeats } from '../../cards/card-rules.js';
import { CARD_RESOLUTIONS, DONE_STATUSES, TOOL_RESULT_STATUSES, USER_INPUT_SOURCES } from '../../events/event-vocabulary.js';
import type { ChatEventTypeV1, ChatEventV1Of, ChatResultBlock, ChatSource, ChatUsage } from '../../events/events.js';
import { CHAT_LIMITS } from '../../primitives/limits.js';
import { isCount, isSafeHref } from '../../primitives/primitives.js';
import type { Check, Rules } from './rules.js';
import { arrayOf, checkStrict, dispatched, fail, isJsonObject, oneOf, optional, required, rules, strict, when } from './rules.js';
import { boolean, count, id, jsonCheck, nameCheck, textCheck, textRule } from './value-checks.js';

/** The event types' strict objects by name, and those of the parts they carry. */
export interface EventTables {
  readonly events: { readonly [Type in ChatEventTypeV1]: Rules };
  readonly blocks: { readonly [Kind in ChatResultBlock['kind']]: Rules };
  readonly source: Rules;
  readonly usage: Rules;
}

/** Builds the event tables for one text mode (`screened`: see `value-checks.ts`); `cardCheck` judges a `card` event's card. */
export function eventTables(screened: boolean, cardCheck: Check): EventTables {
  const isText = textRule(screened);
  const name = nameCheck(isText);
  const text = textCheck(isText);
  const json = jsonCheck(screened);
  const nullableName: Check = (value) => (value === null ? null : name(value));
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

  const events: EventTables['events'] = {
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

  return { events, blocks, source, usage };
}
