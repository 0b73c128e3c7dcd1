/**
 * A product's card vocabulary on the wire: envelope and state parsers whose
 * `card` events and cards follow a card codec (`createCardCodec`) instead of the
 * base v1 kinds. Every other rule is the base contract's, unchanged; the base
 * parsers keep refusing product kinds, so a reader opts in to a vocabulary.
 */
import type { CardCodec, OpenCardSnapshotOf } from './cards.js';
import type { ChatEventEnvelopeOf } from './envelope.js';
import { parseEnvelopeWith, type ParseChatEnvelopeRefusalCode } from './parse-chat-envelope.js';
import type { ParseResult } from './result.js';
import { chatStateSchema, parseStateWith, type ChatStateOf, type ParseChatStateRefusalCode } from './state.js';
import { cardEventRules } from './validate-envelope.js';

/** Envelope and state parsers for the card vocabulary `Card`. */
export interface ChatCodec<Card> {
  /** `parseChatEnvelope` whose `card` events carry `Card`; same refusal codes. */
  parseChatEnvelope(input: unknown): ParseResult<ChatEventEnvelopeOf<Card>, ParseChatEnvelopeRefusalCode>;
  /** `parseChatState` whose cards are `Card`; same refusal codes and consistency checks. */
  parseChatState(input: unknown): ParseResult<ChatStateOf<Card>, ParseChatStateRefusalCode>;
}

/**
 * Builds the envelope and state parsers of a card vocabulary. States it parses
 * and envelopes it accepts go to `applyChatEvent` as they are:
 *
 * ```ts
 * const cards = createCardCodec({ kinds: { rating: defineCardKind({ presentation, value }) } });
 * const chat = createChatCodec({ cards });
 * const parsed = chat.parseChatEnvelope(text); // a `rating` card is accepted here
 * ```
 *
 * Throws `TypeError` (a programming error, at creation only) when `options.cards`
 * is not a card codec or cannot be read; never anything else. The parsers it
 * returns never throw.
 */
export function createChatCodec<Presentation extends { readonly kind: string }>(options: {
  readonly cards: CardCodec<Presentation, { readonly [Kind in Presentation['kind']]: unknown }>;
}): ChatCodec<OpenCardSnapshotOf<Presentation>> {
  const cards = readCardCodec(options);
  const rules = cardEventRules((card) => {
    const parsed = cards.parseCard(card);
    return parsed.ok ? null : (parsed.issues?.[0] ?? { path: [], message: parsed.message });
  });
  const stateSchema = chatStateSchema(cards.CardSchema);
  return {
    parseChatEnvelope: (input) =>
      parseEnvelopeWith(input, rules) as ParseResult<
        ChatEventEnvelopeOf<OpenCardSnapshotOf<Presentation>>,
        ParseChatEnvelopeRefusalCode
      >,
    parseChatState: (input) =>
      parseStateWith(input, stateSchema) as ParseResult<ChatStateOf<OpenCardSnapshotOf<Presentation>>, ParseChatStateRefusalCode>,
  };
}

// A programming error at creation, reported as the one kind of throw the contract allows.
function readCardCodec<Presentation extends { readonly kind: string }>(options: {
  readonly cards: CardCodec<Presentation, { readonly [Kind in Presentation['kind']]: unknown }>;
}): CardCodec<Presentation, { readonly [Kind in Presentation['kind']]: unknown }> {
  let cards: CardCodec<Presentation, { readonly [Kind in Presentation['kind']]: unknown }>;
  let isCodec: boolean;
  try {
    cards = options.cards;
    const { parseCard, CardSchema: cardSchema } = cards;
    isCodec = typeof parseCard === 'function' && typeof cardSchema === 'object' && cardSchema !== null && '_zod' in cardSchema;
  } catch {
    throw new TypeError('createChatCodec needs { cards: a card codec } (the options cannot be read)');
  }
  if (!isCodec) throw new TypeError('createChatCodec needs { cards: a card codec from createCardCodec or baseCardCodec }');
  return cards;
}
