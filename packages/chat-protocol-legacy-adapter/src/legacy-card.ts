/**
 * Papercusp's cards across the legacy boundary (issue 13, DESIGN §3.7, §5):
 * every shape its shipped packages write upgrades field for field to a v1
 * card, the loose shapes real cards carry are normalized by the rules below
 * (the adapter README's table) or refused with a typed reason, and a v1 card
 * projects back down. It owns the card's legacy shapes only; v1 validity is
 * the strict parser's, and the times' conversion is the field kinds'.
 */
import { CARD_LIMITS, type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { isObjectRecord as isPlainObject, ownField } from './field-kind-conversions.js';

/**
 * Why a legacy card has no v1 form (the `reason` of an `unsupported-card`
 * refusal):
 * - `empty-prompt`: `prompt` is empty (v1 asks something; Papercusp's prompt is
 *   the one line every renderer shows);
 * - `options-unreadable`: `options` is a string that is not a JSON array;
 * - `option-without-id`: an option is not an object with a non-empty string `id`
 *   (its answer could not name it);
 * - `no-options`: a `radio`, `select` or `checkbox` card without options;
 * - `bound-not-a-number`: a numeric bound (`min`, `max`, `step`, `minLength`,
 *   `maxLength`, `minSelected`, `maxSelected`, `timeoutMs`) is a string that is
 *   not a number;
 * - `data-schema-unreadable`: `dataSchemaJson` is a string that is not a JSON object.
 */
export type LegacyCardRefusalReason =
  'empty-prompt' | 'options-unreadable' | 'option-without-id' | 'no-options' | 'bound-not-a-number' | 'data-schema-unreadable';

/** A legacy card the adapter refuses to guess at: the frame is `unsupported-card`, with why. */
export interface LegacyCardRefusal extends ChatRefusal<'unsupported-card'> {
  readonly reason: LegacyCardRefusalReason;
}

/** A legacy card as v1 holds it (times aside), or why it has none. */
export type LegacyCardUpgrade = { readonly ok: true; readonly card: Record<string, unknown> } | LegacyCardRefusal;

// The default bounds of a slider that gives none: those of an HTML range input,
// which is how a Papercusp renderer without bounds shows it.
const SLIDER_DEFAULT_MIN = 0;
const SLIDER_DEFAULT_MAX = 100;
const OPTION_KINDS: ReadonlySet<unknown> = new Set(['radio', 'select', 'checkbox']);
const NUMERIC_BOUNDS: Readonly<Record<string, readonly string[]>> = {
  slider: ['min', 'max', 'step'],
  text: ['minLength', 'maxLength'],
  checkbox: ['minSelected', 'maxSelected'],
};
// A JSON number written as a string: `"10"`, `"-2.5"`, `"1e3"`; never `""`, `" 1"`, `"0x10"` or `"Infinity"`.
const NUMERIC_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const ELLIPSIS = '…';

// The refusals made here, so one is told from a card's value by identity, never by its fields.
const REFUSALS = new WeakSet<object>();

function cardRefusal(reason: LegacyCardRefusalReason, path: readonly (string | number)[], message: string): LegacyCardRefusal {
  const refusal = {
    ...refuse('unsupported-card', `card.${path.join('.')}: ${message}`, [{ path: ['event', 'card', ...path], message }]),
    reason,
  };
  REFUSALS.add(refusal);
  return refusal;
}

/** True for a refusal {@link upgradeLegacyCard} returned (by identity: a card that looks like one is not). */
export function isLegacyCardRefusal(value: unknown): value is LegacyCardRefusal {
  return typeof value === 'object' && value !== null && REFUSALS.has(value);
}

/** A numeric string as its number; a number or absent value as it is; `undefined` for another string. */
function numberOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return NUMERIC_TEXT.test(value) && Number.isFinite(Number(value)) ? Number(value) : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A prompt cut to v1's bound, ending in an ellipsis, never inside a surrogate pair. */
function boundedPrompt(prompt: string): string {
  if (prompt.length <= CARD_LIMITS.maxPromptLength) return prompt;
  const cut = prompt.slice(0, CARD_LIMITS.maxPromptLength - ELLIPSIS.length);
  return `${/[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut}${ELLIPSIS}`;
}

function upgradeOptions(options: unknown): { readonly ok: true; readonly options: unknown } | LegacyCardRefusal {
  const decoded = typeof options === 'string' ? parseJson(options) : options;
  if (typeof options === 'string' && !Array.isArray(decoded)) {
    return cardRefusal('options-unreadable', ['presentation', 'options'], 'a string that is not a JSON array of options');
  }
  if (!Array.isArray(decoded)) return { ok: true, options: decoded };
  const upgraded: unknown[] = [];
  for (const [index, option] of decoded.entries()) {
    const id: unknown = isPlainObject(option) ? ownField(option, 'id') : undefined;
    if (!isPlainObject(option) || typeof id !== 'string' || id === '') {
      return cardRefusal('option-without-id', ['presentation', 'options', index], 'an option needs a non-empty string id');
    }
    const label = ownField(option, 'label');
    // An option without a label shows its id, as Papercusp's own `<ask>` reader does.
    upgraded.push(label === undefined || label === '' ? { ...option, label: id } : option);
  }
  return { ok: true, options: upgraded };
}

function upgradePresentation(
  presentation: Record<string, unknown>,
): { readonly ok: true; readonly presentation: Record<string, unknown> } | LegacyCardRefusal {
  const kind = ownField(presentation, 'kind');
  let upgraded: Record<string, unknown> = { ...presentation };
  if (ownField(presentation, 'options') !== undefined) {
    const options = upgradeOptions(ownField(presentation, 'options'));
    if (!options.ok) return options;
    upgraded = { ...upgraded, options: options.options };
  }
  const options = ownField(upgraded, 'options');
  if (OPTION_KINDS.has(kind) && (options === undefined || (Array.isArray(options) && options.length === 0))) {
    return cardRefusal('no-options', ['presentation', 'options'], `a ${String(kind)} card needs at least one option`);
  }
  for (const key of (typeof kind === 'string' && Object.prototype.hasOwnProperty.call(NUMERIC_BOUNDS, kind)
    ? NUMERIC_BOUNDS[kind]
    : undefined) ?? []) {
    const value = ownField(upgraded, key);
    if (value === undefined) continue;
    const number = numberOf(value);
    if (number === undefined) return cardRefusal('bound-not-a-number', ['presentation', key], 'a string that is not a number');
    upgraded = { ...upgraded, [key]: number };
  }
  if (kind === 'slider') {
    if (ownField(upgraded, 'min') === undefined) upgraded = { ...upgraded, min: SLIDER_DEFAULT_MIN };
    if (ownField(upgraded, 'max') === undefined) upgraded = { ...upgraded, max: SLIDER_DEFAULT_MAX };
  }
  return { ok: true, presentation: upgraded };
}

/**
 * A Papercusp card (times aside) as v1 holds it, by the adapter's documented
 * rules: an absent `allowDecline` is `true` (Papercusp allows a decline unless
 * the flag is `false`); options stored as a JSON string are decoded; an empty
 * or absent option label is the option's id; numeric bounds written as
 * numeric strings are numbers; a slider without bounds gets 0…100; a prompt
 * past `CARD_LIMITS.maxPromptLength` is cut there, ending in `…`; a
 * `dataSchemaJson` stored as a string is decoded. Every other field
 * (`approval`, `report`, option `hint`/`style`, `voiceAnswerable`, `timeoutMs`,
 * no `presentation`) is kept as it is, for the strict parser to judge. What
 * no rule can read is refused with its {@link LegacyCardRefusalReason}.
 * Never mutates `card`.
 */
export function upgradeLegacyCard(card: Record<string, unknown>): LegacyCardUpgrade {
  let upgraded: Record<string, unknown> = { ...card };
  const prompt = ownField(card, 'prompt');
  if (prompt === '') return cardRefusal('empty-prompt', ['prompt'], 'a card asks something: the prompt is empty');
  if (typeof prompt === 'string') upgraded = { ...upgraded, prompt: boundedPrompt(prompt) };
  if (ownField(card, 'allowDecline') === undefined) upgraded = { ...upgraded, allowDecline: true };
  const timeoutMs = ownField(card, 'timeoutMs');
  if (timeoutMs !== undefined) {
    const number = numberOf(timeoutMs);
    if (number === undefined) return cardRefusal('bound-not-a-number', ['timeoutMs'], 'a string that is not a number');
    upgraded = { ...upgraded, timeoutMs: number };
  }
  const dataSchemaJson = ownField(card, 'dataSchemaJson');
  if (typeof dataSchemaJson === 'string') {
    const decoded = parseJson(dataSchemaJson);
    if (!isPlainObject(decoded)) return cardRefusal('data-schema-unreadable', ['dataSchemaJson'], 'a string that is not a JSON object');
    upgraded = { ...upgraded, dataSchemaJson: decoded };
  }
  const presentation = ownField(card, 'presentation');
  if (isPlainObject(presentation)) {
    const read = upgradePresentation(presentation);
    if (!read.ok) return read;
    upgraded = { ...upgraded, presentation: read.presentation };
  }
  return { ok: true, card: upgraded };
}

/**
 * A v1 card (times aside) as a Papercusp reader takes it: every field as it
 * is, except `allowDecline`, which is always written (`true` or `false`):
 * Papercusp's server reads an absent flag as "decline allowed" but its Scout
 * renderer shows a decline only for `true`, so only an explicit flag means the
 * same to both. Never mutates `card`.
 */
export function encodeLegacyCard(card: Record<string, unknown>): Record<string, unknown> {
  return { ...card, allowDecline: ownField(card, 'allowDecline') === true };
}
