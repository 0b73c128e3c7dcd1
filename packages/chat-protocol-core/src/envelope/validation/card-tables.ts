/**
 * The card's rule tables, rule for rule as `OpenCardSnapshotV1Schema` states
 * them: the card and its schema reference, options, approval and report body,
 * and the seven presentation kinds with their cross-field rules (the same
 * functions the schema refines with, from `cards/card-rules.ts`). It owns no
 * card rule of its own and nothing outside the card.
 */
import type { CardApproval, CardKind, CardOption, CardPresentationV1, OpenCardSnapshotV1 } from '../../cards/card-schemas.js';
import { CARD_LIMITS, CARD_OPTION_STYLES, isCardDataSchemaJson } from '../../cards/card-schemas.js';
import { isReportExtensions, REPORT_LIMITS, type ReportBlock, type ReportItem, type ReportPlan } from '../../cards/report-block.js';
import {
  expiresAfterCreation,
  hasUniqueIds,
  isCheckboxMaximumReachable,
  isCheckboxMinimumReachable,
  isDateRangeOrdered,
  isSliderRangeValid,
  isTextLengthRangeOrdered,
} from '../../cards/card-rules.js';
import { hasOwn, isCalendarDate, isCount } from '../../primitives/primitives.js';
import type { Check, Rules } from './rules.js';
import { arrayOf, checkStrict, dispatched, fail, isJsonObject, oneOf, optional, required, rules, strict, when } from './rules.js';
import { boolean, count, id, textCheck, textRule, timestamp } from './value-checks.js';

/** The presentation of each base card kind, as the schema's type states it. */
type PresentationOf<Kind extends CardKind> = Extract<CardPresentationV1, { kind: Kind }>;

/** The card's strict objects by name, and the whole card's check. */
export interface CardTables {
  readonly card: Rules;
  readonly cardSchemaReference: Rules;
  readonly cardApproval: Rules;
  readonly cardOption: Rules;
  readonly presentations: { readonly [Kind in CardKind]: Rules };
  /** A whole card: its table, then `expiresAt` after `createdAt`. */
  readonly cardCheck: Check;
}

/** Builds the card's tables for one text mode (`screened`: see `value-checks.ts`). */
export function cardTables(screened: boolean): CardTables {
  const isText = textRule(screened);
  const text = textCheck(isText);
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
  const presentations: CardTables['presentations'] = {
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

  return { card, cardSchemaReference, cardApproval, cardOption, presentations, cardCheck };
}
