/**
 * The field kinds of a dialect: how each reads from legacy data (the tolerant
 * rules of the legacy `parseChatEvent`), and how its value crosses to v1 and
 * back. It owns value conversions only; which field maps where is the
 * dialect's, and v1 validity is the strict parser's, apart from the error
 * kinds that drop or cut what v1 cannot hold (an error is never lost).
 */
import { CHAT_LIMITS, ChatUsageSchema, isChatId, isCleanText } from '@papercusp/chat-protocol-core';
import type { LegacyFieldKind } from './define-legacy-dialect.js';
import { encodeLegacyCard, upgradeLegacyCard } from './legacy-card.js';

/** A required field without a usable value: the frame is `invalid-event`. */
export const INVALID: unique symbol = Symbol('invalid');

/** A v1 value the legacy form cannot carry: the event is `unsupported-event`. */
export interface NoLegacyForm {
  readonly noLegacyForm: string;
}

/** A non-array object: what a legacy field of object kind holds. */
export function isObjectRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An own property only: a polluted `Object.prototype` never supplies a field. */
export function ownField(record: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}

/**
 * Reads one legacy field value (`undefined` when absent) by its kind: the value
 * to keep, `undefined` to omit it, or {@link INVALID}.
 */
export function readField(kind: LegacyFieldKind, value: unknown): unknown {
  switch (kind) {
    case 'text':
      return typeof value === 'string' ? value : INVALID;
    case 'name':
      return typeof value === 'string' && value !== '' ? value : INVALID;
    case 'message':
      return typeof value === 'string' ? value : 'stream error';
    case 'version':
      return typeof value === 'number' ? value : 0;
    case 'card':
      return isObjectRecord(value) && typeof ownField(value, 'correlationId') === 'string' && typeof ownField(value, 'prompt') === 'string'
        ? value
        : INVALID;
    case 'string?':
    case 'id?':
    case 'call-id':
      return typeof value === 'string' ? value : undefined;
    case 'boolean?':
    case 'outcome':
      return typeof value === 'boolean' ? value : undefined;
    case 'number?':
    case 'retry-delay?':
      return typeof value === 'number' ? value : undefined;
    case 'nullable-string?':
      return typeof value === 'string' || value === null ? value : undefined;
    case 'object?':
    case 'usage?':
      return isObjectRecord(value) ? value : undefined;
    case 'json?':
      return value;
  }
}

/**
 * A present legacy value as its v1 value, or `undefined` for a value v1 cannot
 * hold in an optional kind: the field is then read as absent (its default, if
 * any, stands in), a deliberate loss, never a reason to refuse the frame. A
 * card upgrades by `upgradeLegacyCard`'s rules, or is its refusal.
 */
export function upgradeField(kind: LegacyFieldKind, value: unknown): unknown {
  switch (kind) {
    case 'outcome':
      return value === true ? 'succeeded' : 'failed';
    case 'message':
      return upgradeMessage(value as string);
    case 'id?':
      return isChatId(value) ? value : undefined;
    case 'retry-delay?':
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= CHAT_LIMITS.maxRetryAfterMs ? value : undefined;
    case 'card': {
      const upgraded = upgradeLegacyCard(value as Record<string, unknown>);
      return upgraded.ok ? mapCardTimes(upgraded.card, epochToTimestamp) : upgraded;
    }
    case 'usage?':
      return upgradeUsage(value as Record<string, unknown>);
    default:
      return value;
  }
}

// v1 usage's own field schemas judge each value, so this rule follows the contract.
const USAGE_FIELDS = ChatUsageSchema.shape as Readonly<Record<string, { safeParse(value: unknown): { readonly success: boolean } }>>;

/**
 * A legacy usage as v1 holds it (the `usage?` kind): its v1 keys with values
 * v1 accepts, in the order sent; other keys and values are dropped. A usage
 * that said something and kept nothing is `undefined` (left out); `{}` stays.
 */
export function upgradeUsage(usage: Readonly<Record<string, unknown>>): Record<string, unknown> | undefined {
  const entries = Object.entries(usage);
  const kept = entries.filter(
    ([key, value]) => ownField(USAGE_FIELDS, key) !== undefined && USAGE_FIELDS[key]?.safeParse(value).success === true,
  );
  if (kept.length === entries.length) return usage as Record<string, unknown>;
  return kept.length === 0 ? undefined : Object.fromEntries(kept);
}

/** A present v1 value as its legacy value, or why the legacy form cannot carry it. */
export function encodeField(kind: LegacyFieldKind, value: unknown): unknown {
  switch (kind) {
    case 'outcome':
      return value === 'succeeded' ? true : value === 'failed' ? false : noLegacyForm(`status ${String(value)} has no legacy ok`);
    case 'card': {
      const card = value as Record<string, unknown>;
      for (const key of CARD_TIMES) {
        const time = ownField(card, key);
        if (time !== undefined && timestampToEpoch(time as string) === undefined) {
          return noLegacyForm(`card.${key} is finer than a millisecond`);
        }
      }
      return mapCardTimes(encodeLegacyCard(card), (time) => (typeof time === 'string' ? timestampToEpoch(time) : time));
    }
    default:
      return value;
  }
}

// C0 controls other than tab, LF and CR, and lone surrogates: what v1 text refuses (core's isCleanText).
const UNCLEAN_CHARACTER = /[\0-\x08\x0b\x0c\x0e-\x1f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `text` with each character v1 text refuses replaced by U+FFFD, so it is clean text of the same length. */
export function replaceUncleanText(text: string): string {
  return isCleanText(text) ? text : text.replace(UNCLEAN_CHARACTER, '\ufffd');
}

/**
 * An error message as v1 holds it: cut to `CHAT_LIMITS.maxSummaryLength`
 * without splitting a surrogate pair, and `'stream error'` when empty. The
 * error itself is never lost. Decoded text is clean (decode refuses or
 * replaces what v1 text refuses), so the cut is the only change to its text.
 */
function upgradeMessage(message: string): string {
  if (message === '') return 'stream error';
  if (message.length <= CHAT_LIMITS.maxSummaryLength) return message;
  const cut = message.slice(0, CHAT_LIMITS.maxSummaryLength);
  // Clean text has no lone surrogate, so a high one at the end lost its pair to the cut.
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** True when {@link encodeField} found no legacy form. */
export function isNoLegacyForm(value: unknown): value is NoLegacyForm {
  return typeof value === 'object' && value !== null && Object.prototype.hasOwnProperty.call(value, 'noLegacyForm');
}

function noLegacyForm(reason: string): NoLegacyForm {
  return { noLegacyForm: reason };
}

const CARD_TIMES = ['createdAt', 'expiresAt'] as const;

function mapCardTimes(card: Record<string, unknown>, convert: (time: unknown) => unknown): Record<string, unknown> {
  let mapped = card;
  for (const key of CARD_TIMES) {
    const time = ownField(card, key);
    if (time === undefined) continue;
    const converted = convert(time);
    if (converted !== time) mapped = { ...mapped, [key]: converted };
  }
  return mapped;
}

// Years 0000–9999: the instants an RFC 3339 timestamp can name.
const FIRST_INSTANT = -62_167_219_200_000;
const LAST_INSTANT = 253_402_300_799_999;

/**
 * Epoch milliseconds as RFC 3339 in UTC, without a fraction when it is whole
 * seconds (`2026-11-30T09:00:00Z`). Anything else is returned as it is, for
 * the strict parser to refuse.
 */
export function epochToTimestamp(time: unknown): unknown {
  if (typeof time !== 'number' || !Number.isInteger(time) || time < FIRST_INSTANT || time > LAST_INSTANT) return time;
  const iso = new Date(time).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

const TIMESTAMP_PARTS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/**
 * A valid v1 timestamp as epoch milliseconds: the same instant, whatever its
 * offset. `undefined` when it has non-zero digits past the millisecond.
 */
function timestampToEpoch(time: string): number | undefined {
  const parts = TIMESTAMP_PARTS.exec(time);
  if (parts === null) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours, offsetMinutes] = parts;
  if (/[1-9]/.test(fraction.slice(3))) return undefined;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day));
  date.setUTCHours(Number(hour), Number(minute), Number(second), Number(fraction.slice(0, 3).padEnd(3, '0')));
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) * 60_000;
  return date.getTime() - offset;
}
