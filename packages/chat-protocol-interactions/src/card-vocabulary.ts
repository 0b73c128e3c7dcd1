/**
 * The card vocabulary as the resolver sees it: the fields of a card it relies
 * on (correlation id, decline rule, schema binding, own deadline) and the
 * two codec functions it calls (core's `baseCardCodec` or a product codec).
 * It owns reading a vocabulary once at construction, not the card rules
 * themselves, which are core's.
 */
import type { CardResponseRefusalCode, ParseResult } from '@papercusp/chat-protocol-core';
import type { InteractionSchemaRef } from './records.js';

/**
 * What the resolver needs to know of a card. `createdAt`, `expiresAt` and
 * `timeoutMs` (v1 cards carry them) give the card its own deadline (core's
 * `cardDeadline`); answers are late from the earlier of that and the record's
 * `expiresAt`.
 */
export interface InteractionCard {
  readonly correlationId: string;
  readonly allowDecline?: boolean | undefined;
  readonly schema?: InteractionSchemaRef | undefined;
  readonly createdAt?: string | undefined;
  readonly expiresAt?: string | undefined;
  readonly timeoutMs?: number | undefined;
}

/** The part of a card codec the resolver uses; core's `baseCardCodec` and `createCardCodec(...)` fit. */
export interface InteractionCardVocabulary<Card> {
  parseCard(input: unknown): ParseResult<Card, string>;
  validateResponse(card: Card, response: unknown): ParseResult<unknown, CardResponseRefusalCode>;
}

/**
 * The vocabulary's two methods, read once here (a getter cannot answer
 * differently later) and called with the vocabulary as receiver; `undefined`
 * when either is not a function or cannot be read.
 */
export function readCardVocabulary<Card>(cards: InteractionCardVocabulary<Card>): InteractionCardVocabulary<Card> | undefined {
  try {
    const { parseCard, validateResponse } = cards;
    if (typeof parseCard !== 'function' || typeof validateResponse !== 'function') return undefined;
    return {
      parseCard: (input) => parseCard.call(cards, input),
      validateResponse: (card, response) => validateResponse.call(cards, card, response),
    };
  } catch {
    return undefined;
  }
}
