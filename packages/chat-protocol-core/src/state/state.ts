/**
 * `ChatStateV1`: what a conversation looks like after its envelopes are applied,
 * as plain JSON. The idempotency memory (which event id took which seq, and a
 * digest of its content) is part of it, so a snapshot restored with
 * `parseChatState` continues exactly like the state that was never serialized.
 */
import * as z from 'zod/v4/mini';
import { integerSchema } from '../primitives/portable-zod.js';
import { OpenCardSnapshotV1Schema } from '../cards/card-schemas.js';
import { CARD_RESOLUTIONS, ChatResultBlockSchema, ChatUsageSchema, TOOL_RESULT_STATUSES, USER_INPUT_SOURCES } from '../events/events.js';
import { CHAT_LIMITS } from '../primitives/limits.js';
import { ChatIdSchema, CountSchema, isChatId, isPlainObject, isSafeJson, SafeJsonSchema, textSchema } from '../primitives/primitives.js';
import { isProductEventName, type ProductEventDataOf, type ProductEventNamesOn, type ProductEventOf } from '../events/product-events.js';
import { refuse, type ChatIssue, type ParseResult } from '../primitives/result.js';
import { issuesOf } from '../primitives/zod-issues.js';

/** Where a turn is: running, or one of the terminal outcomes of `done` and `error`. */
export const CHAT_TURN_STATUSES = ['running', 'completed', 'cancelled', 'interrupted', 'needs-reconciliation', 'failed'] as const;
/** A turn's status. */
export type ChatTurnStatus = (typeof CHAT_TURN_STATUSES)[number];

const nameSchema = () => textSchema(CHAT_LIMITS.maxNameLength, 1);
const unboundedText = () => textSchema(Number.MAX_SAFE_INTEGER);

/** One line per applied seq, in order: `<eventId> <16 hex digest>`, joined with `\n`. */
const EVENT_LOG_LINE = /^([\x21-\x7e]{1,256}) ([0-9a-f]{16})$/;

/** A tool call and, once reported, its result. */
export const ChatToolCallStateSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    callId: ChatIdSchema,
    name: nameSchema(),
    // A call without input and one whose input is `null` both read `null` here; the log keeps the difference.
    input: z.nullable(SafeJsonSchema),
    result: z.nullable(
      z.strictObject({
        status: z.enum(TOOL_RESULT_STATUSES),
        summary: z.optional(textSchema(CHAT_LIMITS.maxSummaryLength)),
        blocks: z.optional(z.array(ChatResultBlockSchema).check(z.maxLength(CHAT_LIMITS.maxBlocks))),
        error: z.optional(textSchema(CHAT_LIMITS.maxSummaryLength)),
      }),
    ),
  }))();
/** A tool call in a turn. */
export type ChatToolCallState = z.infer<typeof ChatToolCallStateSchema>;

/** The person's message that opened a turn: its `user_input` event without `type`. */
export const ChatUserInputStateSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    text: textSchema(CHAT_LIMITS.maxTextLength, 1),
    source: z.optional(z.enum(USER_INPUT_SOURCES)),
  }))();
/** The person's message in a turn. */
export type ChatUserInputState = z.infer<typeof ChatUserInputStateSchema>;

/** A turn's provenance, once reported. Internal: history reuses it. */
export const ChatProvenanceStateSchema = /* @__PURE__ */ (() =>
  z.strictObject({ engine: nameSchema(), model: nameSchema(), accountRoute: z.nullable(nameSchema()) }))();

/** The error that failed a turn. Internal: history reuses it. */
export const ChatErrorStateSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    code: ChatIdSchema,
    message: textSchema(CHAT_LIMITS.maxSummaryLength, 1),
    retryable: z.boolean(),
    retryAfterMs: z.nullable(CountSchema.check(z.maximum(CHAT_LIMITS.maxRetryAfterMs))),
  }))();

function cardStateSchema<Card extends z.ZodMiniType>(card: Card) {
  return z.strictObject({
    card,
    closed: z.boolean(),
    resolution: z.nullable(z.enum(CARD_RESOLUTIONS)),
    // Cards that outlive their turn (DESIGN §3.3): present only when they apply,
    // so the snapshot of a conversation without them is what it always was.
    awaiting: z.optional(z.literal(true)),
    closedInTurn: z.optional(ChatIdSchema),
  });
}

/**
 * A card asked in a turn and whether (and how) it closed. `awaiting: true`: the
 * turn ended with `done.awaiting` naming it and it is still open, waiting for a
 * later turn to close it. `closedInTurn`: the later turn whose `card_closed`
 * closed it (absent when its own turn did).
 */
export const ChatCardStateSchema = /* @__PURE__ */ (() => cardStateSchema(OpenCardSnapshotV1Schema))();
/** A card in a turn. */
export type ChatCardState = z.infer<typeof ChatCardStateSchema>;

// The fields a turn gains from product events, present only once it has some:
// a turn without them reads and serializes exactly as before.
const productEventNameSchema = () => z.string().check(z.refine(isProductEventName, 'expected a namespaced product event name'));
const PRODUCT_TURN_SHAPE = /* @__PURE__ */ (() => ({
  productEvents: z.optional(z.array(z.strictObject({ type: productEventNameSchema(), data: SafeJsonSchema })).check(z.minLength(1))),
  // Not `z.record`: a record parse copies keys by assignment, so an own
  // `__proto__` key would vanish before any check saw it.
  productState: z.optional(
    z.custom<Record<string, unknown>>(
      (value) =>
        isPlainObject(value) &&
        Object.keys(value).length > 0 &&
        Object.entries(value).every(([name, data]) => isProductEventName(name) && isSafeJson(data)),
      'expected the last data of each state-channel product event, by namespaced name',
    ),
  ),
}))();

function turnStateSchema<CardState extends z.ZodMiniType, Extra extends z.core.$ZodLooseShape = Record<never, never>>(
  cardState: CardState,
  extra?: Extra,
) {
  return z.strictObject({
    turnId: ChatIdSchema,
    status: z.enum(CHAT_TURN_STATUSES),
    lastSeq: integerSchema().check(z.positive()),
    text: unboundedText(),
    reasoning: unboundedText(),
    toolCalls: z.array(ChatToolCallStateSchema),
    cards: z.array(cardState),
    hostState: z.nullable(z.strictObject({ version: CountSchema, snapshot: SafeJsonSchema })),
    provenance: z.nullable(ChatProvenanceStateSchema),
    stopReason: z.nullable(nameSchema()),
    usage: z.nullable(ChatUsageSchema),
    error: z.nullable(ChatErrorStateSchema),
    // Present only when the turn was opened by a user_input, so states without one keep their JSON.
    userInput: z.optional(ChatUserInputStateSchema),
    ...(extra as Extra),
    eventLog: z.string(),
  });
}

/**
 * The schema of a conversation's state whose cards follow `card`: the base v1
 * card schema, or a product vocabulary's (see `createChatCodec`).
 */
export function chatStateSchema<Card extends z.ZodMiniType>(card: Card, withProductEvents = false) {
  return z.strictObject({
    schemaVersion: z.literal(1),
    conversationId: ChatIdSchema,
    turns: z.array(turnStateSchema(cardStateSchema(card), withProductEvents ? PRODUCT_TURN_SHAPE : {})),
  });
}

/** One turn. `eventLog` is the idempotency memory: line `n` is the event that took seq `n`. */
export const ChatTurnStateSchema = /* @__PURE__ */ (() => turnStateSchema(ChatCardStateSchema))();
/** One turn of a conversation. */
export type ChatTurnState = z.infer<typeof ChatTurnStateSchema>;

/** The state of one conversation. */
export const ChatStateV1Schema = /* @__PURE__ */ (() => chatStateSchema(OpenCardSnapshotV1Schema))();
/** The state of one conversation after its envelopes are applied. */
export type ChatStateV1 = z.infer<typeof ChatStateV1Schema>;

/**
 * What a turn holds of the product events `Events` once it received one:
 * `productEvents`, the `event`-channel events in the order applied, and
 * `productState`, the last data of each `state`-channel name. `transient`
 * events are in the turn's log only. Without product events, nothing.
 */
export type ChatProductTurnFieldsOf<Events> = [keyof Events] extends [never]
  ? unknown
  : {
      productEvents?: ProductEventOf<Pick<Events, ProductEventNamesOn<Events, 'event'>>>[];
      productState?: { [Name in ProductEventNamesOn<Events, 'state'>]?: ProductEventDataOf<Events[Name]> };
    };

/** A card of vocabulary `Card` in a turn. `ChatCardStateOf<OpenCardSnapshotV1>` is {@link ChatCardState}. */
export type ChatCardStateOf<Card> = Omit<ChatCardState, 'card'> & { card: Card };
/** A turn whose cards carry `Card`, with the product events `Events` (none by default). */
export type ChatTurnStateOf<Card, Events = Record<never, never>> = Omit<ChatTurnState, 'cards'> & {
  cards: ChatCardStateOf<Card>[];
} & ChatProductTurnFieldsOf<Events>;
/** A conversation's state whose cards carry `Card`, with the product events `Events` (see `createChatCodec`). */
export type ChatStateOf<Card, Events = Record<never, never>> = Omit<ChatStateV1, 'turns'> & {
  turns: ChatTurnStateOf<Card, Events>[];
};

/** An empty conversation. Throws `TypeError` when `conversationId` is not a v1 id. */
export function createChatState(conversationId: string): ChatStateV1 {
  if (!isChatId(conversationId)) {
    throw new TypeError('createChatState: conversationId must be 1–256 printable ASCII characters without spaces');
  }
  return { schemaVersion: 1, conversationId, turns: [] };
}

/**
 * A fresh JSON copy of `input`: its JSON text parsed, or a value read as its
 * JSON form; `invalid-json` when it is neither. Never throws. Internal: the
 * strict readers of snapshots and history pages share it.
 */
export function jsonCopyOf(input: unknown): ParseResult<unknown, 'invalid-json'> {
  try {
    return { ok: true, value: JSON.parse(typeof input === 'string' ? input : (JSON.stringify(input) ?? '')) as unknown };
  } catch {
    return refuse('invalid-json', 'not JSON, or not serializable as JSON');
  }
}

/** Refusal codes of {@link parseChatState}. */
export type ParseChatStateRefusalCode = 'invalid-json' | 'unsupported-version' | 'invalid-state';

/**
 * Strictly reads a serialized `ChatStateV1` (JSON text or a value). Beyond the
 * shape it checks that every turn's event log has exactly `lastSeq` lines and
 * that turn ids, event ids and tool call ids are unique. Never throws.
 */
export function parseChatState(input: unknown): ParseResult<ChatStateV1, ParseChatStateRefusalCode> {
  return parseStateWith(input, ChatStateV1Schema) as ParseResult<ChatStateV1, ParseChatStateRefusalCode>;
}

/**
 * {@link parseChatState} against the state schema of a card vocabulary;
 * `checkTurn` adds a reader's own checks of each turn (its product events).
 * The caller types the result.
 */
export function parseStateWith(
  input: unknown,
  schema: z.ZodMiniType,
  checkTurn?: (turn: ChatTurnState) => ChatIssue | null,
): ParseResult<unknown, ParseChatStateRefusalCode> {
  // The result is a fresh copy of the input, not the schema's output, so key
  // order (and with it the JSON text of everything applied later) is preserved.
  const copy = jsonCopyOf(input);
  if (!copy.ok) return copy;
  const { value } = copy;
  try {
    if (typeof value !== 'object' || value === null || (value as { schemaVersion?: unknown }).schemaVersion !== 1) {
      return refuse('unsupported-version', 'expected schemaVersion 1');
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      return refuse('invalid-state', 'not a valid ChatStateV1', issuesOf(parsed.error));
    }
    const problem = consistencyProblem(value as ChatStateV1, checkTurn);
    return problem === null ? { ok: true, value } : refuse('invalid-state', problem.message, [problem]);
  } catch {
    return refuse('invalid-state', 'the value cannot be read');
  }
}

// What the reducer writes together: `error` exactly when the turn failed;
// `stopReason` and `usage` only from a `done`.
function outcomeProblem(turn: ChatTurnState): { readonly field: string; readonly message: string } | null {
  if ((turn.status === 'failed') !== (turn.error !== null)) {
    return { field: 'error', message: 'a turn has an error exactly when its status is failed' };
  }
  const ended = turn.status !== 'running' && turn.status !== 'failed';
  if (!ended && turn.stopReason !== null) return { field: 'stopReason', message: 'only a turn ended by done has a stop reason' };
  if (!ended && turn.usage !== null) return { field: 'usage', message: 'only a turn ended by done has usage' };
  return null;
}

function consistencyProblem(state: ChatStateV1, checkTurn: ((turn: ChatTurnState) => ChatIssue | null) | undefined): ChatIssue | null {
  const turnIds = new Set<string>();
  const awaitingIds = new Set<string>();
  const turnIndexes = new Map(state.turns.map((turn, index) => [turn.turnId, index]));
  const eventIds = new Set<string>();
  for (const [turnIndex, turn] of state.turns.entries()) {
    const path = ['turns', turnIndex];
    if (turnIds.has(turn.turnId)) return { path: [...path, 'turnId'], message: 'duplicate turn id' };
    turnIds.add(turn.turnId);
    const lines = turn.eventLog.split('\n');
    if (lines.length !== turn.lastSeq) {
      return { path: [...path, 'eventLog'], message: `expected ${turn.lastSeq} lines, one per seq` };
    }
    for (const line of lines) {
      const match = EVENT_LOG_LINE.exec(line);
      if (match === null) return { path: [...path, 'eventLog'], message: 'malformed line' };
      const eventId = match[1] as string;
      if (eventIds.has(eventId)) return { path: [...path, 'eventLog'], message: `event id ${eventId} used twice` };
      eventIds.add(eventId);
    }
    const outcome = outcomeProblem(turn);
    if (outcome !== null) return { path: [...path, outcome.field], message: outcome.message };
    const callIds = new Set(turn.toolCalls.map((call) => call.callId));
    if (callIds.size !== turn.toolCalls.length) return { path: [...path, 'toolCalls'], message: 'duplicate call id' };
    const correlationIds = new Set(turn.cards.map((card) => card.card.correlationId));
    if (correlationIds.size !== turn.cards.length) return { path: [...path, 'cards'], message: 'duplicate card' };
    const openWithResolution = turn.cards.findIndex((entry) => !entry.closed && entry.resolution !== null);
    if (openWithResolution >= 0) {
      return { path: [...path, 'cards', openWithResolution, 'resolution'], message: 'an open card has no resolution' };
    }
    const outliving = outlivingCardProblem(turn, turnIndex, turnIndexes, awaitingIds);
    if (outliving !== null) return { path: [...path, 'cards', outliving.card, outliving.field], message: outliving.message };
    const turnProblem = checkTurn?.(turn) ?? null;
    if (turnProblem !== null) return { path: [...path, ...turnProblem.path], message: turnProblem.message };
  }
  return null;
}

// Cards that outlive their turn: `awaiting` only on an open card of a turn
// ended by `done`, one waiting card per correlation id in the conversation; `closedInTurn`
// only on a closed card, naming a later turn of the state.
function outlivingCardProblem(
  turn: ChatTurnState,
  turnIndex: number,
  turnIndexes: ReadonlyMap<string, number>,
  awaitingIds: Set<string>,
): { readonly card: number; readonly field: string; readonly message: string } | null {
  for (const [index, entry] of turn.cards.entries()) {
    if (entry.awaiting !== undefined) {
      // Only a done says a card waits: never a running turn, never one an error ended.
      if (entry.closed || turn.status === 'running' || turn.status === 'failed') {
        return { card: index, field: 'awaiting', message: 'only an open card of a turn ended by done awaits a later turn' };
      }
      if (awaitingIds.has(entry.card.correlationId)) {
        return { card: index, field: 'awaiting', message: `card ${entry.card.correlationId} already awaits in another turn` };
      }
      awaitingIds.add(entry.card.correlationId);
    }
    if (entry.closedInTurn !== undefined) {
      const closer = turnIndexes.get(entry.closedInTurn) ?? -1;
      if (!entry.closed || closer <= turnIndex) {
        return { card: index, field: 'closedInTurn', message: 'only a closed card names the later turn that closed it' };
      }
    }
  }
  return null;
}
