/**
 * Persisted history (DESIGN §3.9): the transcript a host stores and pages back
 * to a client that reconnects, one `ChatHistoryTurnV1` per message, content
 * only. It owns the shapes, their strict parser and the rules between turns;
 * it does not page, store, or render, and reads product fields only through
 * the product's own schema.
 */
import * as z from 'zod/v4/mini';
import { CardValueSchema } from '../cards/card-responses.js';
import { USER_INPUT_SOURCES } from '../events/event-vocabulary.js';
import { CHAT_LIMITS } from '../primitives/limits.js';
import { productSchemaCheck, standardValidateOf, type ProductEventDataSchema } from '../events/product-events.js';
import { ChatIdSchema, CountSchema, SafeJsonObjectSchema, textSchema, ZonedTimestampSchema } from '../primitives/primitives.js';
import { ReportBlockSchema } from '../cards/report-block.js';
import { refuse, type ChatIssue, type ParseResult } from '../primitives/result.js';
import {
  CHAT_TURN_STATUSES,
  ChatCardStateSchema,
  ChatErrorStateSchema,
  ChatProvenanceStateSchema,
  ChatToolCallStateSchema,
  jsonCopyOf,
} from './state.js';
import { issuesOf } from '../primitives/zod-issues.js';

/** Who wrote a history turn. */
export const CHAT_HISTORY_ROLES = ['user', 'assistant', 'system'] as const;
/** The role of a history turn. */
export type ChatHistoryRole = (typeof CHAT_HISTORY_ROLES)[number];

/**
 * How a history turn was written: the person's sources of `user_input`, and
 * `voice_tts` for an assistant answer that was spoken to the person.
 */
// Wrapped and marked pure: a bundler keeps a bare spread, which may run an iterator.
export const CHAT_HISTORY_SOURCES = /* @__PURE__ */ (() => [...USER_INPUT_SOURCES, 'voice_tts'] as const)();
/** The source of a history turn. */
export type ChatHistorySource = (typeof CHAT_HISTORY_SOURCES)[number];

/**
 * A card asked in a turn, how it closed and, when the host kept it, the
 * person's answer (the submitted value; only with resolution `submitted`).
 */
export const ChatHistoryCardSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    ...ChatCardStateSchema.shape,
    answer: z.optional(CardValueSchema),
  }))();
/** A card of a history turn. */
export type ChatHistoryCard = z.infer<typeof ChatHistoryCardSchema>;

/**
 * One message of a persisted transcript. `id` names the exchange it belongs
 * to (a v1 turn id for history derived from state, so a user message and its
 * answer share it and `role` tells them apart); `seq` is the host's ordering
 * number when it keeps one. Tools, cards, report, provenance, status and error
 * belong to assistant turns. `product` is a product's own JSON (Papercusp's
 * `workRefs`, `planSlug`), read through the product's schema (see
 * {@link parseChatHistoryPage}), never dropped.
 */
export const ChatHistoryTurnV1Schema = /* @__PURE__ */ (() =>
  z.strictObject({
    id: ChatIdSchema,
    seq: z.optional(CountSchema),
    role: z.enum(CHAT_HISTORY_ROLES),
    // As long as a turn's accumulated text can be: state text has no bound but the envelopes'.
    text: textSchema(Number.MAX_SAFE_INTEGER),
    createdAt: z.optional(ZonedTimestampSchema),
    source: z.optional(z.enum(CHAT_HISTORY_SOURCES)),
    tools: z.optional(z.array(ChatToolCallStateSchema)),
    cards: z.optional(z.array(ChatHistoryCardSchema)),
    report: z.optional(ReportBlockSchema),
    provenance: z.optional(ChatProvenanceStateSchema),
    status: z.optional(z.enum(CHAT_TURN_STATUSES)),
    error: z.optional(ChatErrorStateSchema),
    product: z.optional(SafeJsonObjectSchema),
  }))();
/** One message of a persisted transcript. */
export type ChatHistoryTurnV1 = z.infer<typeof ChatHistoryTurnV1Schema>;
/** A history turn whose `product` content is `Product` (see {@link parseChatHistoryPage}). */
export type ChatHistoryTurnOf<Product> = Omit<ChatHistoryTurnV1, 'product'> & { product?: Product };

/** One page of a transcript, oldest first; `hasMoreEarlier` says whether older turns exist. */
export const ChatHistoryPageV1Schema = /* @__PURE__ */ (() =>
  z.strictObject({
    turns: z.array(ChatHistoryTurnV1Schema),
    hasMoreEarlier: z.boolean(),
  }))();
/** One page of a persisted transcript. */
export type ChatHistoryPageV1 = z.infer<typeof ChatHistoryPageV1Schema>;
/** A page whose turns carry `Product` content. */
export type ChatHistoryPageOf<Product> = Omit<ChatHistoryPageV1, 'turns'> & { turns: ChatHistoryTurnOf<Product>[] };

/** Refusal codes of {@link parseChatHistoryPage}. */
export type ParseChatHistoryPageRefusalCode = 'invalid-json' | 'invalid-page' | 'invalid-product';

/**
 * What `parseChatHistoryPage` checks a turn's `product` with: a Standard
 * Schema (zod 3.25+ and 4, classic or mini, valibot, arktype, or a hand-written
 * `{ '~standard': { version: 1, vendor, validate } }`), judged synchronously,
 * the same kind of schema a product registers its events with.
 */
export type ChatHistoryProductSchema<Product> = ProductEventDataSchema<Product>;

/** Options of {@link parseChatHistoryPage}. */
export interface ParseChatHistoryPageOptions<Product> {
  /** The product's schema of `product` content; without it `product` is only checked to be bounded JSON. */
  readonly product?: ChatHistoryProductSchema<Product>;
}

// Fields only an answer (an assistant turn) carries.
const ASSISTANT_ONLY = ['tools', 'cards', 'report', 'provenance', 'status', 'error'] as const;

/**
 * Strictly reads a history page (JSON text or a value). Beyond the shapes it
 * checks the rules between fields: tools, cards, report, provenance, status
 * and error only on assistant turns, `voice_tts` only on them too; an `error`
 * exactly when the status is `failed`; no two turns with the same id and
 * role; seqs, where given, increasing (oldest first); call and card ids unique
 * in a turn; an answer only on a submitted card; `awaiting` only on an open
 * card of a turn not running or failed, and `closedInTurn` only on a closed
 * card, naming a turn other than its own and not earlier in the page (the
 * rules of cards that outlive their turn). With `options.product`, each
 * turn's `product` must pass the product's schema (`invalid-product`, with
 * the turn's path). The value returned is a fresh copy. Never throws.
 */
export function parseChatHistoryPage(input: unknown): ParseResult<ChatHistoryPageV1, ParseChatHistoryPageRefusalCode>;
export function parseChatHistoryPage<Product>(
  input: unknown,
  options: ParseChatHistoryPageOptions<Product>,
): ParseResult<ChatHistoryPageOf<Product>, ParseChatHistoryPageRefusalCode>;
export function parseChatHistoryPage(
  input: unknown,
  options: ParseChatHistoryPageOptions<unknown> = {},
): ParseResult<ChatHistoryPageV1, ParseChatHistoryPageRefusalCode> {
  const copy = jsonCopyOf(input);
  if (!copy.ok) return copy;
  const { value } = copy;
  try {
    const parsed = ChatHistoryPageV1Schema.safeParse(value);
    if (!parsed.success) return refuse('invalid-page', 'not a valid ChatHistoryPageV1', issuesOf(parsed.error));
    const page = value as ChatHistoryPageV1;
    const problem = pageProblem(page);
    if (problem !== null) return refuse('invalid-page', problem.message, [problem]);
    const product = options.product;
    if (product !== undefined) {
      const validate = standardValidateOf(product);
      if (validate === undefined) return refuse('invalid-product', 'options.product is not a Standard Schema');
      const check = productSchemaCheck(validate);
      for (const [index, turn] of page.turns.entries()) {
        if (turn.product === undefined) continue;
        if (check(turn.product) !== null) {
          const message = `turn ${index}: product content refused by the product's schema`;
          return refuse('invalid-product', message, [{ path: ['turns', index, 'product'], message }]);
        }
      }
    }
    return { ok: true, value: page };
  } catch {
    return refuse('invalid-page', 'the value cannot be read');
  }
}

function pageProblem(page: ChatHistoryPageV1): ChatIssue | null {
  const seen = new Set<string>();
  // Where each assistant turn sits in the page, so a card closed by a later turn names one after it.
  const answerIndexes = new Map<string, number>();
  for (const [index, turn] of page.turns.entries()) if (turn.role === 'assistant') answerIndexes.set(turn.id, index);
  let lastSeq = -1;
  for (const [index, turn] of page.turns.entries()) {
    const path = ['turns', index];
    const key = `${turn.role} ${turn.id}`;
    if (seen.has(key)) return { path: [...path, 'id'], message: `two ${turn.role} turns with id ${turn.id}` };
    seen.add(key);
    if (turn.seq !== undefined) {
      if (turn.seq <= lastSeq) return { path: [...path, 'seq'], message: 'seqs increase within a page: oldest first' };
      lastSeq = turn.seq;
    }
    const problem = turnProblem(turn) ?? outlivingCardProblem(turn, index, answerIndexes);
    if (problem !== null) return { path: [...path, ...problem.path], message: problem.message };
  }
  return null;
}

/**
 * Cards that outlived their turn, as the state holds them (DESIGN §3.3): a
 * card waits (`awaiting`) only while open, in a turn that ended by `done`; it
 * names the turn that closed it (`closedInTurn`) only once closed, and that
 * turn is a later one: never its own, never one earlier in the page (it may be
 * on a later page).
 */
function outlivingCardProblem(turn: ChatHistoryTurnV1, index: number, answerIndexes: ReadonlyMap<string, number>): ChatIssue | null {
  for (const [position, entry] of (turn.cards ?? []).entries()) {
    if (entry.awaiting !== undefined && (entry.closed || turn.status === 'running' || turn.status === 'failed')) {
      return { path: ['cards', position, 'awaiting'], message: 'only an open card of a turn ended by done awaits a later turn' };
    }
    if (
      entry.closedInTurn !== undefined &&
      (!entry.closed || entry.closedInTurn === turn.id || (answerIndexes.get(entry.closedInTurn) ?? index + 1) <= index)
    ) {
      return { path: ['cards', position, 'closedInTurn'], message: 'only a closed card names the later turn that closed it' };
    }
  }
  return null;
}

function turnProblem(turn: ChatHistoryTurnV1): ChatIssue | null {
  if (turn.role !== 'assistant') {
    const field = ASSISTANT_ONLY.find((name) => turn[name] !== undefined);
    if (field !== undefined) return { path: [field], message: `only an assistant turn has ${field}` };
    if (turn.source === 'voice_tts') return { path: ['source'], message: 'voice_tts is the assistant speaking' };
    if (turn.role === 'user' && turn.text.length === 0) return { path: ['text'], message: "a person's message is not empty" };
  }
  if ((turn.status === 'failed') !== (turn.error !== undefined)) {
    return { path: ['error'], message: 'a turn has an error exactly when its status is failed' };
  }
  const callIds = new Set((turn.tools ?? []).map((call) => call.callId));
  if (callIds.size !== (turn.tools ?? []).length) return { path: ['tools'], message: 'duplicate call id' };
  const cards = turn.cards ?? [];
  if (new Set(cards.map((entry) => entry.card.correlationId)).size !== cards.length) return { path: ['cards'], message: 'duplicate card' };
  for (const [index, entry] of cards.entries()) {
    if (!entry.closed && entry.resolution !== null)
      return { path: ['cards', index, 'resolution'], message: 'an open card has no resolution' };
    if (entry.answer !== undefined && entry.resolution !== 'submitted') {
      return { path: ['cards', index, 'answer'], message: 'only a submitted card has an answer' };
    }
  }
  // User text is bounded like the user_input it came from.
  if (turn.role === 'user' && turn.text.length > CHAT_LIMITS.maxTextLength) {
    return { path: ['text'], message: `a person's message is at most ${CHAT_LIMITS.maxTextLength} characters` };
  }
  return null;
}
