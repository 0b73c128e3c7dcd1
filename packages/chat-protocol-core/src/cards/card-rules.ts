/**
 * The cross-field rules of v1 cards as plain predicates, shared by the zod
 * schemas in `card-schemas.ts` and the envelope's hot-path validator, so the two can
 * never disagree about them. No zod here: browser clients bundle this file.
 */
import { isZonedTimestamp } from '../primitives/primitives.js';
import { compareChatTimestamps, compareInstants, splitInstant } from '../primitives/timestamps.js';

/** `expiresAt`, when present, is a later instant than `createdAt` (field shapes are judged elsewhere). */
export function expiresAfterCreation(card: { readonly createdAt: unknown; readonly expiresAt?: unknown }): boolean {
  const { createdAt, expiresAt } = card;
  if (!isZonedTimestamp(createdAt) || !isZonedTimestamp(expiresAt)) return true; // judged by the field schemas
  return compareInstants(expiresAt, createdAt) > 0;
}

/** No two options share an id. */
export function hasUniqueIds(options: readonly { readonly id: unknown }[]): boolean {
  return new Set(options.map((option) => option.id)).size === options.length;
}

/** No value appears twice (a `done.awaiting` list of correlation ids). */
export function hasNoRepeats(values: readonly unknown[]): boolean {
  return new Set(values).size === values.length;
}

/** A text card's `minLength` does not exceed its `maxLength`. */
export function isTextLengthRangeOrdered(presentation: {
  readonly minLength?: number | undefined;
  readonly maxLength?: number | undefined;
}): boolean {
  const { minLength, maxLength } = presentation;
  return minLength === undefined || maxLength === undefined || minLength <= maxLength;
}

interface CheckboxBounds {
  readonly options: readonly unknown[];
  readonly minSelected?: number | undefined;
  readonly maxSelected?: number | undefined;
}

/** A checkbox card's `minSelected` fits under `maxSelected` (or the option count). */
export function isCheckboxMinimumReachable(presentation: CheckboxBounds): boolean {
  const { minSelected, maxSelected, options } = presentation;
  return minSelected === undefined || minSelected <= (maxSelected ?? options.length);
}

/** A checkbox card's `maxSelected` does not exceed the option count. */
export function isCheckboxMaximumReachable(presentation: CheckboxBounds): boolean {
  return presentation.maxSelected === undefined || presentation.maxSelected <= presentation.options.length;
}

/** A date card's `min` is not after its `max` (both `YYYY-MM-DD`, so strings order as dates). */
export function isDateRangeOrdered(presentation: { readonly min?: string | undefined; readonly max?: string | undefined }): boolean {
  const { min, max } = presentation;
  return min === undefined || max === undefined || min <= max;
}

/** A slider's `min` is below its `max` with a finite span. */
export function isSliderRangeValid(presentation: { readonly min: number; readonly max: number }): boolean {
  return presentation.min < presentation.max && Number.isFinite(presentation.max - presentation.min);
}

// The largest instant a v1 timestamp can name (four-digit years).
const LAST_INSTANT = '9999-12-31T23:59:59.999999999Z';

/**
 * The instant a card stops taking answers (DESIGN §3.7): its `expiresAt` when
 * present, else `createdAt + timeoutMs` (in UTC, keeping `createdAt`'s
 * sub-millisecond digits, so it is exact), else `undefined` (no deadline).
 * The one definition of a card's deadline: `validateCardResponse` and the
 * interaction resolver both judge lateness through it. A deadline past year
 * 9999 is the last instant v1 can write. Never throws: a card whose fields are
 * not v1 timestamps and a positive integer `timeoutMs` (or cannot be read) has
 * no deadline.
 */
export function cardDeadline(card: {
  readonly createdAt: string;
  readonly expiresAt?: string | undefined;
  readonly timeoutMs?: number | undefined;
}): string | undefined {
  try {
    const { createdAt, expiresAt, timeoutMs } = card;
    if (expiresAt !== undefined) return isZonedTimestamp(expiresAt) ? expiresAt : undefined;
    if (!Number.isSafeInteger(timeoutMs) || (timeoutMs as number) <= 0 || !isZonedTimestamp(createdAt)) return undefined;
    const [seconds, fraction] = splitInstant(createdAt);
    const milliseconds = seconds + Number(fraction.slice(0, 3)) + (timeoutMs as number);
    if (milliseconds > Date.parse(LAST_INSTANT)) return LAST_INSTANT;
    const rest = fraction.slice(3).replace(/0+$/, '');
    const iso = new Date(milliseconds).toISOString();
    return rest === '' ? iso : `${iso.slice(0, -1)}${rest}Z`;
  } catch {
    return undefined;
  }
}

/**
 * True when `at` has reached `deadline` (answers from that instant on are
 * late). Both are v1 timestamps; `false` when either is not. Never throws.
 */
export function isPastDeadline(at: string, deadline: string | undefined): boolean {
  return deadline !== undefined && compareChatTimestamps(at, deadline) >= 0;
}
