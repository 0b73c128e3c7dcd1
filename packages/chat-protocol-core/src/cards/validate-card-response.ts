/**
 * Judging a person's response against the card it answers: the card is read,
 * the instant is checked, the response must be JSON data of the envelope's
 * shape, name this card, be on time and allowed, and its value must pass the
 * kind's rule (`card-kind-rules.ts`). It owns no clock and no authority: the
 * caller says when the response arrived and who may answer.
 */
import type * as z from 'zod/v4/mini';
import { cardDeadline, isPastDeadline } from './card-rules.js';
import type { OpenCardSnapshotOf, OpenCardSnapshotV1 } from './card-schemas.js';
import { OpenCardSnapshotV1Schema } from './card-schemas.js';
import { ResponseEnvelopeSchema, type CardAnswerValue, type CardResponseOf, type CardValueByKind } from './card-responses.js';
import { BASE_RULES, PROMPT_ONLY_RULES, prefixIssues, type KindPresentation, type KindRule } from './card-kind-rules.js';
import { nonDataIssue } from '../primitives/json-data.js';
import { parseCardWith } from './parse-card.js';
import { isPlainObject, isZonedTimestamp } from '../primitives/primitives.js';
import { promptOnlyCardKind } from './prompt-only-cards.js';
import { refuse, type ParseResult } from '../primitives/result.js';
import type { CardResponseRefusalCode } from './card-response-refusals.js';
import { issuesOf, quoteKey } from '../primitives/zod-issues.js';

/** When a response arrived, for judging lateness; see {@link validateCardResponse}. */
export interface CardResponseTiming {
  /** RFC 3339 with an offset: the instant the response arrived. Absent: lateness is not judged. */
  readonly at?: string | undefined;
}

function readTiming(options: unknown): { readonly at?: unknown } | undefined {
  if (options === undefined) return {};
  if (!isPlainObject(options)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(options, 'at');
  return descriptor === undefined ? {} : 'value' in descriptor ? { at: descriptor.value as unknown } : undefined;
}

function validateResponseWith(
  cardSchema: z.ZodMiniType<OpenCardSnapshotOf<KindPresentation>>,
  rules: ReadonlyMap<string, KindRule>,
  card: unknown,
  response: unknown,
  options: unknown,
): ParseResult<CardResponseOf<unknown>, CardResponseRefusalCode> {
  const parsedCard = parseCardWith(cardSchema, card);
  if (!parsedCard.ok) return refuse('invalid-card', parsedCard.message, parsedCard.issues);
  const timing = readTiming(options);
  if (timing === undefined || (timing.at !== undefined && !isZonedTimestamp(timing.at))) {
    return refuse('invalid-time', 'at: expected an RFC 3339 timestamp with an offset');
  }
  const nonData = nonDataIssue(response);
  if (nonData !== undefined) return refuse('invalid-response', 'the response is not JSON data', [nonData]);
  const envelope = ResponseEnvelopeSchema.safeParse(response);
  if (!envelope.success) {
    return refuse('invalid-response', 'not a card response', issuesOf(envelope.error));
  }
  const answer = envelope.data;
  const { correlationId, presentation } = parsedCard.value;
  if (answer.correlationId !== correlationId) {
    return refuse('wrong-card', 'the response answers another card', [
      { path: ['correlationId'], message: `expected ${quoteKey(correlationId)}` },
    ]);
  }
  if (timing.at !== undefined) {
    const deadline = cardDeadline(parsedCard.value);
    if (isPastDeadline(timing.at, deadline)) return refuse('expired', `the card expired at ${deadline}`);
  }
  if (answer.action === 'cancel') return { ok: true, value: { action: 'cancel', correlationId } };
  if (answer.action === 'decline') {
    if (parsedCard.value.allowDecline !== true) return refuse('decline-not-allowed', 'this card does not allow declining');
    const { reason } = answer;
    return { ok: true, value: reason === undefined ? { action: 'decline', correlationId } : { action: 'decline', correlationId, reason } };
  }
  const promptOnly = promptOnlyCardKind(parsedCard.value);
  const kind = presentation?.kind ?? `prompt-only ${promptOnly}`;
  const rule = promptOnly === undefined ? rules.get(kind) : PROMPT_ONLY_RULES[promptOnly];
  if (rule === undefined) return refuse('invalid-card', `no rule for card kind ${quoteKey(kind)}`);
  const value = rule.value.safeParse(answer.value);
  if (!value.success) {
    return refuse('invalid-value', `the value does not fit a ${kind} card`, prefixIssues(['value'], issuesOf(value.error)));
  }
  const refusal = presentation === undefined ? undefined : rule.check(presentation, value.data);
  return refusal ?? { ok: true, value: { action: 'submit', correlationId, value: value.data } };
}

/**
 * Judges `response` against `card` with a vocabulary's card schema and kind
 * rules; never throws. The card is read under parseCardWith's own guard; what
 * throws past it is the response (a Proxy passes the data check, then throws
 * in zod's reads) or a product's `validate` breaking its contract.
 */
export function validateResponseGuarded(
  cardSchema: z.ZodMiniType<OpenCardSnapshotOf<KindPresentation>>,
  rules: ReadonlyMap<string, KindRule>,
  card: unknown,
  response: unknown,
  options: unknown,
): ParseResult<CardResponseOf<unknown>, CardResponseRefusalCode> {
  try {
    return validateResponseWith(cardSchema, rules, card, response, options);
  } catch {
    return refuse('invalid-response', 'the response cannot be read');
  }
}

/**
 * Checks that `response` is a person's valid answer to `card`: its shape, that
 * it names this card, that it is not late, that a decline is allowed
 * (`allowDecline: true`; absent means not allowed) and its `reason` short, and
 * that a submitted value fits the kind and the card's options and bounds (a
 * prompt-only card's value: see {@link promptOnlyCardKind}). `cancel` is
 * allowed unless late. Lateness is judged only when `timing.at` says when the
 * response arrived (this has no clock): at or after {@link cardDeadline} every
 * action is `expired`. Never throws; returns a fresh copy of the response.
 */
export function validateCardResponse<Card extends OpenCardSnapshotV1>(
  card: Card,
  response: unknown,
  timing?: CardResponseTiming,
): ParseResult<CardResponseOf<CardAnswerValue<Card['presentation'], CardValueByKind>>, CardResponseRefusalCode> {
  // The base rules were registered per kind, so the value a rule accepted is the
  // value type of the card's kind; TypeScript cannot follow that through a Map.
  return validateResponseGuarded(OpenCardSnapshotV1Schema, BASE_RULES, card, response, timing) as ParseResult<
    CardResponseOf<CardAnswerValue<Card['presentation'], CardValueByKind>>,
    CardResponseRefusalCode
  >;
}
