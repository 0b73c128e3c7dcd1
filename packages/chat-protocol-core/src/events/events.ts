/**
 * The v1 event union: one strict zod/mini schema per `event.type`, and the
 * channel of each type. It owns shapes only; ordering, identity and turn rules
 * live in the reducer. The per-type field allowlist is in `event-fields.ts`,
 * read off the hot-path validator's rule tables, which are typed by these
 * schemas' types (see "Adding a field" in the README).
 */
import * as z from 'zod/v4/mini';
import { discriminatedUnionSchema } from '../primitives/portable-zod.js';
import { OpenCardSnapshotV1Schema } from '../cards/card-schemas.js';
import { hasNoRepeats } from '../cards/card-rules.js';
import { CARD_RESOLUTIONS, DONE_STATUSES, TOOL_RESULT_STATUSES, USER_INPUT_SOURCES } from './event-vocabulary.js';
import { CHAT_LIMITS } from '../primitives/limits.js';
import { ChatIdSchema, CountSchema, SafeHrefSchema, SafeJsonSchema, textSchema } from '../primitives/primitives.js';

export { CARD_RESOLUTIONS, DONE_STATUSES, TOOL_RESULT_STATUSES, USER_INPUT_SOURCES };

const nameSchema = () => textSchema(CHAT_LIMITS.maxNameLength, 1);

/** A reference a grounded block cites: opaque to the protocol, resolved by the host. */
export const ChatSourceSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    ref: textSchema(CHAT_LIMITS.maxRefLength, 1),
    label: z.optional(nameSchema()),
  }))();
/** A source cited by a result block. */
export type ChatSource = z.infer<typeof ChatSourceSchema>;

const sourcesSchema = () => z.optional(z.array(ChatSourceSchema).check(z.maxLength(CHAT_LIMITS.maxSources)));

/** A grounded result block: text or JSON data, each with optional sources. */
export const ChatResultBlockSchema = /* @__PURE__ */ (() =>
  discriminatedUnionSchema('kind', [
    z.strictObject({ kind: z.literal('text'), text: textSchema(CHAT_LIMITS.maxTextLength), sources: sourcesSchema() }),
    z.strictObject({ kind: z.literal('data'), data: SafeJsonSchema, sources: sourcesSchema() }),
  ]))();
/** A grounded result block. */
export type ChatResultBlock = z.infer<typeof ChatResultBlockSchema>;

/**
 * `user_input`: the person's message that opened the turn. Never empty (a send
 * with no text is not a message), bounded like `delta` text; `source` says how
 * it was written. The reducer takes it only as a turn's first event.
 */
export const UserInputEventSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.literal('user_input'),
    text: textSchema(CHAT_LIMITS.maxTextLength, 1),
    source: z.optional(z.enum(USER_INPUT_SOURCES)),
  }))();
/** `delta`: assistant text, possibly empty. */
export const DeltaEventSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.literal('delta'),
    text: textSchema(CHAT_LIMITS.maxTextLength),
  }))();
/** `reasoning`: reasoning text, exposed by hosts only when asked. */
export const ReasoningEventSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.literal('reasoning'),
    text: textSchema(CHAT_LIMITS.maxTextLength),
  }))();
/** `tool_call`: the model calls a tool under a stable call id. */
export const ToolCallEventSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.literal('tool_call'),
    callId: ChatIdSchema,
    name: nameSchema(),
    // Any bounded JSON value: real producers send objects, strings and arrays.
    input: z.optional(SafeJsonSchema),
  }))();
/** `tool_result`: the outcome of a call, with grounded blocks. */
export const ToolResultEventSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.literal('tool_result'),
    callId: ChatIdSchema,
    name: nameSchema(),
    status: z.enum(TOOL_RESULT_STATUSES),
    summary: z.optional(textSchema(CHAT_LIMITS.maxSummaryLength)),
    blocks: z.optional(z.array(ChatResultBlockSchema).check(z.maxLength(CHAT_LIMITS.maxBlocks))),
    error: z.optional(textSchema(CHAT_LIMITS.maxSummaryLength)),
  }))();
/** `provenance`: which engine and model produced the turn. */
export const ProvenanceEventSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.literal('provenance'),
    engine: nameSchema(),
    model: nameSchema(),
    accountRoute: z.optional(z.nullable(nameSchema())),
  }))();
/** `card`: the model asks the user. */
export const CardEventSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.literal('card'),
    card: OpenCardSnapshotV1Schema,
  }))();
/** `card_closed`: a card left the open set; an absent resolution means not reported. */
export const CardClosedEventSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.literal('card_closed'),
    correlationId: ChatIdSchema,
    resolution: z.optional(z.enum(CARD_RESOLUTIONS)),
  }))();
/** `state`: host state; last write wins and versions increase. */
export const StateEventSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.literal('state'),
    version: CountSchema,
    snapshot: SafeJsonSchema,
  }))();
/** `navigate`: a transient request to show an app path or https: URL. */
export const NavigateEventSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    type: z.literal('navigate'),
    href: SafeHrefSchema,
  }))();
/**
 * What a turn used, as `done` reports it: token counts (non-negative safe
 * integers) and a cost in US dollars (non-negative, finite). Strict: a key
 * outside these four is refused, so every reader sums the same fields.
 */
export const ChatUsageSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    inputTokens: z.optional(CountSchema),
    outputTokens: z.optional(CountSchema),
    totalTokens: z.optional(CountSchema),
    costUsd: z.optional(z.number().check(z.nonnegative())),
  }))();
/** What a turn used. */
export type ChatUsage = z.infer<typeof ChatUsageSchema>;

/**
 * `done`: the turn ended; terminal. `awaiting` lists the turn's open cards it
 * leaves waiting for the person (an AG-UI interrupt, an `<ask>` answered
 * later): each stays open past the turn and a later turn of the conversation
 * closes it with `card_closed`. At least one id, no id twice.
 */
export const DoneEventSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      type: z.literal('done'),
      status: z.enum(DONE_STATUSES),
      stopReason: z.optional(nameSchema()),
      usage: z.optional(ChatUsageSchema),
      awaiting: z.optional(z.array(ChatIdSchema).check(z.minLength(1), z.maxLength(CHAT_LIMITS.maxAwaitingCards))),
    })
    .check(
      z.refine((event) => event.awaiting === undefined || hasNoRepeats(event.awaiting), {
        message: 'a correlation id may appear once',
        path: ['awaiting'],
      }),
    ))();
/** `error`: the turn failed; terminal. Retrying is allowed only when `retryable` says so. */
export const ErrorEventSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      type: z.literal('error'),
      code: ChatIdSchema,
      message: textSchema(CHAT_LIMITS.maxSummaryLength, 1),
      retryable: z.boolean(),
      // A count, so `-0` is refused as the hot path refuses it (JSON writes it as `0`).
      retryAfterMs: z.optional(CountSchema.check(z.maximum(CHAT_LIMITS.maxRetryAfterMs))),
    })
    .check(
      z.refine((event) => event.retryable || event.retryAfterMs === undefined, {
        message: 'retryAfterMs needs retryable: true',
        path: ['retryAfterMs'],
      }),
    ))();

/** The v1 event union, discriminated on `type`. */
export const ChatEventV1Schema = /* @__PURE__ */ (() =>
  discriminatedUnionSchema('type', [
    UserInputEventSchema,
    DeltaEventSchema,
    ReasoningEventSchema,
    ToolCallEventSchema,
    ToolResultEventSchema,
    ProvenanceEventSchema,
    CardEventSchema,
    CardClosedEventSchema,
    StateEventSchema,
    NavigateEventSchema,
    DoneEventSchema,
    ErrorEventSchema,
  ]))();
/** One v1 event. */
export type ChatEventV1 = z.infer<typeof ChatEventV1Schema>;
/** The `type` of a v1 event. */
export type ChatEventTypeV1 = ChatEventV1['type'];
/** The v1 event of a given type. */
export type ChatEventV1Of<Type extends ChatEventTypeV1> = Extract<ChatEventV1, { type: Type }>;

/** How a UI treats an event type on replay. */
export type ChatChannel = 'event' | 'state' | 'transient';

/**
 * `event` types append to history, `state` types are last-write-wins, and
 * `transient` (`navigate`) is a one-off request. In v1 every envelope is still
 * in the per-turn log and replays; the channel only tells a UI what to redo.
 */
export function channelOf(type: ChatEventTypeV1): ChatChannel {
  switch (type) {
    case 'card':
    case 'card_closed':
    case 'state':
      return 'state';
    case 'navigate':
      return 'transient';
    default:
      return 'event';
  }
}
