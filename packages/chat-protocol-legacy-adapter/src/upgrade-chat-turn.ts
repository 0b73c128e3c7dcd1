/**
 * Papercusp's persisted transcript records (`ChatTurn`: role, text, epoch
 * millisecond `createdAt`, source, the tools of the turn with the cards asked
 * through them and the stored picks, report, provenance, error, product
 * fields) lifted to core's `ChatHistoryTurnV1`. It reads one record at a time
 * and re-checks the result with core's strict history parser; it does not
 * page, store or invent ids: a tool record without a call id needs the host's
 * mapping, and whatever it cannot place is refused, never dropped.
 */
import {
  isChatId,
  parseChatHistoryPage,
  parseOpenCardSnapshot,
  validateCardResponse,
  type CardValue,
  type ChatHistoryCard,
  type ChatHistoryTurnV1,
  type ChatIssue,
  type ChatRefusal,
  type ChatToolCallState,
  type OpenCardSnapshotV1,
} from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { epochToTimestamp, isObjectRecord, upgradeField } from './field-kind-conversions.js';
import { isLegacyCardRefusal, type LegacyCardRefusal } from './legacy-card.js';

/** Refusal codes of {@link upgradeLegacyChatTurn}. */
export type UpgradeLegacyChatTurnRefusalCode =
  | 'invalid-options'
  | 'invalid-json'
  | 'invalid-record'
  | 'unknown-field'
  | 'invalid-timestamp'
  | 'missing-call-identity'
  | 'unknown-status'
  | 'unsupported-card'
  | 'invalid-card'
  | 'unreadable-answer'
  | 'invalid-turn';

/** The result of {@link upgradeLegacyChatTurn}. */
export type UpgradeLegacyChatTurnResult =
  | { readonly ok: true; readonly value: ChatHistoryTurnV1 }
  | ChatRefusal<Exclude<UpgradeLegacyChatTurnRefusalCode, 'unsupported-card'>>
  | LegacyCardRefusal;

/** What the host tells {@link upgradeLegacyChatTurn}. */
export interface LegacyChatTurnOptions {
  /**
   * The record's fields that belong to the product, moved into the history
   * turn's `product` object as they are (default: Papercusp's `workRefs` and
   * `planSlug`). Any other field the record format does not define is refused.
   */
  readonly productFields?: readonly string[];
  /**
   * The stable call id of a tool record stored without one (`index` is its
   * position in the record's `tools`). Without it such a record is
   * `missing-call-identity`: ids are the host's, never made up here.
   */
  readonly callId?: (request: { readonly turnId: string; readonly index: number; readonly name: string }) => string | undefined;
}

/** The product fields Papercusp's hosts store on a `ChatTurn`. */
const PAPERCUSP_PRODUCT_FIELDS: readonly string[] = ['workRefs', 'planSlug'];
const RECORD_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'seq',
  'role',
  'text',
  'createdAt',
  'source',
  'tools',
  'report',
  'provenance',
  'error',
]);
const TOOL_FIELDS: ReadonlySet<string> = new Set(['callId', 'name', 'input', 'ok', 'summary', 'error', 'card', 'picks', 'declined']);

type Refusal = ChatRefusal<Exclude<UpgradeLegacyChatTurnRefusalCode, 'unsupported-card'>> | LegacyCardRefusal;

const at = (
  code: Exclude<UpgradeLegacyChatTurnRefusalCode, 'unsupported-card'>,
  path: readonly (string | number)[],
  message: string,
): Refusal => refuse(code, message, [{ path, message }]);

/**
 * Upgrades one persisted Papercusp `ChatTurn` record (a value or its JSON
 * text) to a `ChatHistoryTurnV1`:
 *
 * - `createdAt` epoch milliseconds become RFC 3339 in UTC
 *   (`1796029200000` → `2026-11-30T09:00:00Z`); anything else is
 *   `invalid-timestamp`.
 * - Each tool keeps its call and result: `ok` true/false is `succeeded` or
 *   `failed`; a tool with no `ok`, summary or error has no result yet (`null`);
 *   a summary or error without `ok` is `unknown-status`, never a made-up
 *   success. A tool without `callId` takes the host's `callId` mapping or is
 *   `missing-call-identity`.
 * - A card asked through a tool joins the turn's `cards` (its times converted
 *   as a card frame's are): stored `picks` (option ids, or `{ option_id }`
 *   objects) become the submitted answer (`optionId` for a radio or select,
 *   `optionIds` for a checkbox; anything else is `unreadable-answer`),
 *   `declined: true` a decline; a card with neither is closed without a
 *   reported resolution. The card is read by the card frame's rules (absent
 *   `allowDecline` is `true`, options stored as a JSON string decoded, the
 *   other loose shapes of the adapter README's card table); a card no rule can
 *   read is `unsupported-card` with the frame's `reason` and the path of the
 *   field in the record (`tools.0.card.presentation.options`), and a card the
 *   strict v1 parser then refuses is `invalid-card`.
 * - `error` (a message) makes the turn `failed` with code `stream-error`,
 *   not retryable, as a legacy error frame upgrades.
 * - The product's fields go into `product`; any other unknown field is
 *   `unknown-field`.
 *
 * The result is re-parsed with core's strict `parseChatHistoryPage`
 * (`invalid-turn` with its issues when it fails, e.g. `voice_tts` on a user
 * turn). Never throws.
 */
export function upgradeLegacyChatTurn(input: unknown, options: LegacyChatTurnOptions = {}): UpgradeLegacyChatTurnResult {
  const read = readOptions(options);
  if (read === undefined) return refuse('invalid-options', 'options: expected { productFields?: string[], callId?: function }');
  let record: unknown = input;
  if (typeof input === 'string') {
    try {
      record = JSON.parse(input);
    } catch {
      return refuse('invalid-json', 'not JSON');
    }
  }
  try {
    return upgradeRecord(record, read);
  } catch {
    return refuse('invalid-record', 'the record cannot be read');
  }
}

interface ReadOptions {
  readonly productFields: readonly string[];
  readonly callId: LegacyChatTurnOptions['callId'];
}

// Options are read once, guarded: a getter that throws or a wrong type is invalid-options.
function readOptions(options: unknown): ReadOptions | undefined {
  try {
    if (!isObjectRecord(options)) return undefined;
    const { productFields = PAPERCUSP_PRODUCT_FIELDS, callId } = options as LegacyChatTurnOptions;
    if (!Array.isArray(productFields) || !productFields.every((field) => typeof field === 'string')) return undefined;
    if (callId !== undefined && typeof callId !== 'function') return undefined;
    return { productFields: [...productFields], callId };
  } catch {
    return undefined;
  }
}

function upgradeRecord(record: unknown, options: ReadOptions): UpgradeLegacyChatTurnResult {
  if (!isObjectRecord(record)) return refuse('invalid-record', 'a ChatTurn record is an object');
  const { productFields } = options;
  const product: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    if (productFields.includes(key)) product[key] = record[key];
    else if (!RECORD_FIELDS.has(key)) return at('unknown-field', [key], `${key} is not a field of a ChatTurn record nor a product field`);
  }
  const { id, seq, role, text, createdAt, source, tools, report, provenance, error } = record;
  if (typeof id !== 'string') return at('invalid-record', ['id'], 'expected a string id');
  if (typeof role !== 'string') return at('invalid-record', ['role'], 'expected a string role');
  if (typeof text !== 'string') return at('invalid-record', ['text'], 'expected a string text');
  const timestamp = typeof createdAt === 'number' ? epochToTimestamp(createdAt) : undefined;
  if (typeof timestamp !== 'string')
    return at('invalid-timestamp', ['createdAt'], 'expected epoch milliseconds: an integer within years 0000–9999');
  if (error !== undefined && typeof error !== 'string') return at('invalid-record', ['error'], 'expected the error message as a string');

  const turn: Record<string, unknown> = { id, role, text, createdAt: timestamp };
  if (seq !== undefined) turn['seq'] = seq;
  if (source !== undefined) turn['source'] = source;
  if (tools !== undefined) {
    if (!Array.isArray(tools)) return at('invalid-record', ['tools'], 'expected an array of tool records');
    const calls: ChatToolCallState[] = [];
    const cards: ChatHistoryCard[] = [];
    for (const [index, tool] of tools.entries()) {
      const upgraded = upgradeTool(tool, index, id, options);
      if ('ok' in upgraded) return upgraded;
      calls.push(upgraded.call);
      if (upgraded.card !== undefined) cards.push(upgraded.card);
    }
    if (calls.length > 0) turn['tools'] = calls;
    if (cards.length > 0) turn['cards'] = cards;
  }
  if (report !== undefined) turn['report'] = report;
  if (provenance !== undefined) {
    turn['provenance'] =
      isObjectRecord(provenance) && provenance['accountRoute'] === undefined ? { ...provenance, accountRoute: null } : provenance;
  }
  if (error !== undefined) {
    turn['status'] = 'failed';
    turn['error'] = { code: 'stream-error', message: error === '' ? 'stream error' : error, retryable: false, retryAfterMs: null };
  }
  if (Object.keys(product).length > 0) turn['product'] = product;

  const checked = parseChatHistoryPage({ turns: [turn], hasMoreEarlier: false });
  if (!checked.ok) {
    const issues: ChatIssue[] = (checked.issues ?? []).map((issue) => ({ path: issue.path.slice(2), message: issue.message }));
    return refuse('invalid-turn', `the upgraded turn is not a valid ChatHistoryTurnV1: ${checked.message}`, issues);
  }
  return { ok: true, value: checked.value.turns[0] as ChatHistoryTurnV1 };
}

interface UpgradedTool {
  readonly call: ChatToolCallState;
  readonly card: ChatHistoryCard | undefined;
}

function upgradeTool(tool: unknown, index: number, turnId: string, options: ReadOptions): UpgradedTool | Refusal {
  const path = ['tools', index];
  if (!isObjectRecord(tool)) return at('invalid-record', path, 'a tool record is an object');
  const unknown = Object.keys(tool).find((key) => !TOOL_FIELDS.has(key));
  if (unknown !== undefined) return at('unknown-field', [...path, unknown], `${unknown} is not a field of a tool record`);
  const { name, input, ok, summary, error, card, picks, declined } = tool;
  if (typeof name !== 'string') return at('invalid-record', [...path, 'name'], 'expected a string name');
  const callId = typeof tool['callId'] === 'string' ? tool['callId'] : options.callId?.({ turnId, index, name });
  if (!isChatId(callId)) return at('missing-call-identity', [...path, 'callId'], `tool ${name} has no call id and the host gave none`);
  if (ok !== undefined && typeof ok !== 'boolean') return at('invalid-record', [...path, 'ok'], 'expected ok as a boolean');
  if (ok === undefined && (summary !== undefined || error !== undefined)) {
    return at('unknown-status', [...path, 'ok'], `tool ${name} reports a result without ok: its outcome is unknown`);
  }
  const result =
    ok === undefined
      ? null
      : {
          status: ok ? ('succeeded' as const) : ('failed' as const),
          ...(summary === undefined ? {} : { summary: summary as string }),
          ...(error === undefined ? {} : { error: error as string }),
        };
  const call = { callId, name, input: input === undefined ? null : input, result } as ChatToolCallState;
  if (card === undefined) {
    if (picks !== undefined || declined !== undefined)
      return at('invalid-record', [...path, 'card'], 'picks and declined answer a card: the tool has none');
    return { call, card: undefined };
  }
  const upgradedCard = upgradeField('card', card);
  if (isLegacyCardRefusal(upgradedCard)) {
    // The card frame's own refusal and reason, at the card's place in the record (its issues are `event.card.…`).
    const issues = (upgradedCard.issues ?? []).map((issue) => ({
      path: [...path, 'card', ...issue.path.slice(2)],
      message: issue.message,
    }));
    return { ...refuse('unsupported-card', `tool ${name}: ${upgradedCard.message}`, issues), reason: upgradedCard.reason };
  }
  const parsed = parseOpenCardSnapshot(upgradedCard);
  if (!parsed.ok) {
    return refuse(
      'invalid-card',
      `tool ${name}: ${parsed.message}`,
      (parsed.issues ?? []).map((issue) => ({ path: [...path, 'card', ...issue.path], message: issue.message })),
    );
  }
  if (declined !== undefined && typeof declined !== 'boolean')
    return at('invalid-record', [...path, 'declined'], 'expected declined as a boolean');
  if (declined === true) {
    if (picks !== undefined) return at('unreadable-answer', [...path, 'picks'], 'a declined card has no picks');
    return { call, card: { card: parsed.value, closed: true, resolution: 'declined' } };
  }
  if (picks === undefined) return { call, card: { card: parsed.value, closed: true, resolution: null } };
  const answer = answerOf(parsed.value, picks);
  if (answer === undefined)
    return at(
      'unreadable-answer',
      [...path, 'picks'],
      `the stored picks do not answer a ${parsed.value.presentation?.kind ?? 'prompt-only'} card`,
    );
  const valid = validateCardResponse(parsed.value, { action: 'submit', correlationId: parsed.value.correlationId, value: answer });
  if (!valid.ok)
    return at('unreadable-answer', [...path, 'picks'], `the stored picks do not answer the card: ${valid.code}: ${valid.message}`);
  return { call, card: { card: parsed.value, closed: true, resolution: 'submitted', answer } };
}

/** Stored picks as the card's submitted value: option ids, or `{ option_id }` objects. */
function answerOf(card: OpenCardSnapshotV1, picks: unknown): CardValue | undefined {
  if (!Array.isArray(picks)) return undefined;
  const ids: string[] = [];
  for (const pick of picks) {
    const optionId = typeof pick === 'string' ? pick : isObjectRecord(pick) ? pick['option_id'] : undefined;
    if (typeof optionId !== 'string') return undefined;
    ids.push(optionId);
  }
  // A prompt-only card has no options, so no stored picks answer it.
  const kind = card.presentation?.kind;
  if ((kind === 'radio' || kind === 'select') && ids.length === 1) return { optionId: ids[0] as string };
  if (kind === 'checkbox') return { optionIds: ids };
  return undefined;
}
