/**
 * A product's vocabulary on the wire: envelope and state parsers, an encoder
 * and a reducer whose `card` events follow a card codec (`createCardCodec`)
 * and whose union holds the product's own events (`scout.products`, each with
 * its schema and channel). Every other rule is the base contract's,
 * unchanged; the base functions keep refusing product kinds and events
 * (`unknown-event`), so a reader opts in to a vocabulary.
 */
import { applyChatEventWith, type ApplyChatEventResult, type ReducerVocabulary } from './state/apply-chat-event.js';
import type { CardPresentationV1, OpenCardSnapshotOf } from './cards/card-schemas.js';
import type { CardCodec } from './cards/card-codec.js';
import { encodeEnvelopeWith, type ChatEnvelopeRecord, type EncodeChatEnvelopeRefusalCode } from './envelope/encode-chat-envelope.js';
import type { ChatEventEnvelope, ChatEventEnvelopeOf } from './envelope/envelope.js';
import { CHAT_EVENT_FIELDS, isChatEventTypeV1 } from './events/event-fields.js';
import { channelOf, type ChatChannel, type ChatEventTypeV1 } from './events/events.js';
import { parseEnvelopeWith, type ParseChatEnvelopeRefusalCode } from './envelope/parse-chat-envelope.js';
import { OpenCardSnapshotV1Schema } from './cards/card-schemas.js';
import {
  compileProductEvents,
  PRODUCT_EVENT_FIELDS,
  type CompiledProductEvent,
  type ProductEventDefinitions,
} from './events/product-events.js';
import type { ChatIssue, ChatRefusal, ParseResult } from './primitives/result.js';
import {
  chatStateSchema,
  parseStateWith,
  type ChatStateOf,
  type ChatStateV1,
  type ChatTurnState,
  type ParseChatStateRefusalCode,
} from './state/state.js';
import { encodeSseFrameWith, parseSseMessageWith, type ChatSseMessage, type ParseChatSseMessageRefusalCode } from './sse/sse.js';
import type { Rules } from './envelope/validation/rules.js';
import { cardEventRules, productEventRules } from './envelope/validation/validate-envelope.js';

/** The channel a codec gives `Type`: a product event's declared one, a base type's own. */
export type ChatChannelOfType<Events, Type> = Type extends keyof Events
  ? Events[Type] extends { readonly channel: infer Channel extends ChatChannel }
    ? Channel
    : ChatChannel
  : ChatChannel;

/** Every event type a codec reads: the base v1 types and its product event names. */
export type ChatEventTypeOf<Events> = ChatEventTypeV1 | (keyof Events & string);

/** Result of a codec's `encodeChatEnvelope`: the JSON text and the envelope it denotes. */
export type EncodeChatEnvelopeResultOf<Card, Events> =
  | { readonly ok: true; readonly json: string; readonly envelope: ChatEventEnvelopeOf<Card, Events> }
  | ChatRefusal<EncodeChatEnvelopeRefusalCode>;

/** Envelope and state functions for the card vocabulary `Card` and the product events `Events`. */
export interface ChatCodec<Card, Events = Record<never, never>> {
  /** `parseChatEnvelope` whose `card` events carry `Card` and which reads `Events`; same refusal codes. */
  parseChatEnvelope(input: unknown): ParseResult<ChatEventEnvelopeOf<Card, Events>, ParseChatEnvelopeRefusalCode>;
  /** `parseChatState` whose cards are `Card` and whose turns may hold `Events`; same codes and checks, plus each product event's. */
  parseChatState(input: unknown): ParseResult<ChatStateOf<Card, Events>, ParseChatStateRefusalCode>;
  /** `applyChatEvent` that also applies `Events` by their channels; same rules and refusal codes. */
  applyChatEvent(
    state: ChatStateOf<Card, Events>,
    envelope: ChatEventEnvelopeOf<Card, Events>,
  ): ApplyChatEventResult<ChatStateOf<Card, Events>>;
  /** `encodeChatEnvelope` with this vocabulary's allowlist ({@link eventFields}) and parser. */
  encodeChatEnvelope(record: ChatEnvelopeRecord): EncodeChatEnvelopeResultOf<Card, Events>;
  /** `encodeChatSseFrame` through this codec's encoder; throws `TypeError` on an invalid envelope, like it. */
  encodeChatSseFrame(envelope: ChatEventEnvelopeOf<Card, Events>): string;
  /** `parseChatSseMessage` through this codec's parser; same refusal codes. */
  parseChatSseMessage(message: ChatSseMessage): ParseResult<ChatEventEnvelopeOf<Card, Events>, ParseChatSseMessageRefusalCode>;
  /** `channelOf`, which also knows each product event's declared channel. */
  channelOf<Type extends ChatEventTypeOf<Events>>(type: Type): ChatChannelOfType<Events, Type>;
  /** The allowlist of every type this codec reads: the base `CHAT_EVENT_FIELDS`, and `type`, `data` for each product event. */
  readonly eventFields: { readonly [Type in ChatEventTypeOf<Events>]: readonly string[] };
}

/** What {@link createChatCodec} takes: a card vocabulary, product events, or both. */
export interface ChatCodecOptions<Presentation extends { readonly kind: string }, Events extends ProductEventDefinitions> {
  /** The card vocabulary (`createCardCodec`); the base v1 cards when absent. */
  readonly cards?: CardCodec<Presentation, { readonly [Kind in Presentation['kind']]: unknown }>;
  /** Product events by namespaced name (`scout.products`), each `{ schema, channel }`. */
  readonly events?: Events;
}

/**
 * Builds the envelope and state functions of a product's vocabulary: its card
 * kinds and its own events.
 *
 * ```ts
 * const cards = createCardCodec({ kinds: { rating: defineCardKind({ presentation, value }) } });
 * const chat = createChatCodec({
 *   cards,
 *   events: { 'scout.products': { schema: ProductsSchema, channel: 'state' } },
 * });
 * const parsed = chat.parseChatEnvelope(text); // a `rating` card and `scout.products` are accepted here
 * ```
 *
 * Beside the parsers, the reducer and the encoder, the codec frames SSE
 * (`encodeChatSseFrame`, `parseChatSseMessage`) with the same vocabulary.
 *
 * A product event is `{ type: name, data }`, strict. Its name is namespaced
 * (lower-case segments joined by dots), so it never clashes with a base type;
 * its `data` is bounded JSON (`isSafeJson`) that the product's schema (any
 * Standard Schema: zod, valibot, arktype) accepts synchronously, kept as sent.
 * Its channel says where the reducer keeps it: `event` appends it to the
 * turn's `productEvents`, `state` makes it the value of its name in the turn's
 * `productState` (last write wins), `transient` keeps it in the log only. Like
 * every event it takes a seq, is in the idempotency memory, and replays.
 *
 * Throws `TypeError` (a programming error, at creation only) when
 * `options.cards` is not a card codec, a product event name is not
 * namespaced, a channel is not `event`/`state`/`transient`, a schema is not a
 * Standard Schema, or the options cannot be read; never anything else. The
 * functions it returns never throw.
 */
export function createChatCodec<
  Presentation extends { readonly kind: string } = CardPresentationV1,
  const Events extends ProductEventDefinitions = Record<never, never>,
>(options: ChatCodecOptions<Presentation, Events>): ChatCodec<OpenCardSnapshotOf<Presentation>, Events> {
  type Card = OpenCardSnapshotOf<Presentation>;
  const { cards, products } = readOptions(options);
  const cardRules =
    cards === undefined
      ? undefined
      : cardEventRules((card) => {
          const parsed = cards.parseCard(card);
          return parsed.ok ? null : (parsed.issues?.[0] ?? { path: [], message: parsed.message });
        });
  const productRules = new Map<string, Rules>();
  const channels = new Map<string, ChatChannel>();
  const fields: Record<string, readonly string[]> = { ...CHAT_EVENT_FIELDS };
  for (const [name, product] of products) {
    productRules.set(name, productEventRules(product.check));
    channels.set(name, product.channel);
    fields[name] = PRODUCT_EVENT_FIELDS;
  }
  const eventFields = Object.freeze(fields) as ChatCodec<Card, Events>['eventFields'];
  const vocabulary: ReducerVocabulary = { cardRules, productRules, channels };
  const stateSchema = chatStateSchema(cards?.CardSchema ?? OpenCardSnapshotV1Schema, products.size > 0);
  const checkTurn = (turn: ChatTurnState) => productTurnProblem(turn, products);
  const parse = (input: unknown) => parseEnvelopeWith(input, cardRules, productRules);
  const fieldsOf = (type: unknown) =>
    typeof type === 'string' && Object.prototype.hasOwnProperty.call(eventFields, type)
      ? eventFields[type as ChatEventTypeOf<Events>]
      : undefined;
  const encode = (record: ChatEnvelopeRecord) => encodeEnvelopeWith(record, fieldsOf, parse) as EncodeChatEnvelopeResultOf<Card, Events>;
  return {
    parseChatEnvelope: (input) => parse(input) as ParseResult<ChatEventEnvelopeOf<Card, Events>, ParseChatEnvelopeRefusalCode>,
    parseChatState: (input) =>
      parseStateWith(input, stateSchema, checkTurn) as ParseResult<ChatStateOf<Card, Events>, ParseChatStateRefusalCode>,
    applyChatEvent: (state, envelope) =>
      applyChatEventWith(
        state as unknown as ChatStateV1,
        envelope as unknown as ChatEventEnvelope,
        vocabulary,
      ) as unknown as ApplyChatEventResult<ChatStateOf<Card, Events>>,
    encodeChatEnvelope: encode,
    encodeChatSseFrame: (envelope) => encodeSseFrameWith(envelope, encode),
    parseChatSseMessage: (message) =>
      parseSseMessageWith(message, parse) as ParseResult<ChatEventEnvelopeOf<Card, Events>, ParseChatSseMessageRefusalCode>,
    channelOf: <Type extends ChatEventTypeOf<Events>>(type: Type) =>
      (isChatEventTypeV1(type) ? channelOf(type) : (channels.get(type) ?? 'event')) as ChatChannelOfType<Events, Type>,
    eventFields,
  };
}

// A stored turn's product events are held to their registrations: the name on
// its channel, the data to its schema, as the parser holds the envelopes.
function productTurnProblem(turn: ChatTurnState, products: ReadonlyMap<string, CompiledProductEvent>): ChatIssue | null {
  const { productEvents, productState } = turn as ChatTurnState & {
    readonly productEvents?: readonly { readonly type: string; readonly data: unknown }[];
    readonly productState?: Readonly<Record<string, unknown>>;
  };
  for (const [index, entry] of (productEvents ?? []).entries()) {
    const problem = productProblem(products, entry.type, 'event', entry.data);
    if (problem !== null) return { path: ['productEvents', index, ...problem.path], message: problem.message };
  }
  for (const [name, data] of Object.entries(productState ?? {})) {
    const problem = productProblem(products, name, 'state', data);
    if (problem !== null) return { path: ['productState', name, ...problem.path], message: problem.message };
  }
  return null;
}

function productProblem(
  products: ReadonlyMap<string, CompiledProductEvent>,
  name: string,
  channel: ChatChannel,
  data: unknown,
): ChatIssue | null {
  const product = products.get(name);
  if (product === undefined || product.channel !== channel) {
    return { path: channel === 'event' ? ['type'] : [], message: `${name} is not a registered ${channel}-channel product event` };
  }
  const problem = product.check(data);
  return problem === null ? null : { path: channel === 'event' ? ['data', ...problem.path] : problem.path, message: problem.message };
}

// Programming errors at creation, reported as the one kind of throw the contract allows.
function readOptions<Presentation extends { readonly kind: string }>(
  options: ChatCodecOptions<Presentation, ProductEventDefinitions>,
): {
  readonly cards: CardCodec<Presentation, { readonly [Kind in Presentation['kind']]: unknown }> | undefined;
  readonly products: ReadonlyMap<string, CompiledProductEvent>;
} {
  let cards: CardCodec<Presentation, { readonly [Kind in Presentation['kind']]: unknown }> | undefined;
  let events: unknown;
  let isCodec: boolean;
  try {
    cards = options.cards;
    events = options.events;
    isCodec = cards === undefined || (typeof cards === 'object' && cards !== null && isCardCodec(cards));
  } catch {
    throw new TypeError('createChatCodec needs { cards?, events? } (the options cannot be read)');
  }
  if (!isCodec) throw new TypeError('createChatCodec needs { cards: a card codec from createCardCodec or baseCardCodec }');
  if (events === undefined) return { cards, products: new Map() };
  try {
    return { cards, products: compileProductEvents(events) };
  } catch (error) {
    if (error instanceof TypeError) throw error;
    throw new TypeError('createChatCodec: the events cannot be read (a getter or a Proxy trap threw)');
  }
}

function isCardCodec(cards: object): boolean {
  const { parseCard, CardSchema: cardSchema } = cards as { readonly parseCard?: unknown; readonly CardSchema?: unknown };
  return typeof parseCard === 'function' && typeof cardSchema === 'object' && cardSchema !== null && '_zod' in cardSchema;
}
