/**
 * The v1 envelope: the frame every v1 event travels in, with host-allocated
 * identity, a per-turn contiguous seq and a zoned timestamp. This file holds the
 * schema and types; `validate-envelope.ts` is the hot-path check proven equal to it.
 */
import * as z from 'zod/v4/mini';
import { ChatEventV1Schema, type ChatEventV1 } from '../events/events.js';
import { ChatIdSchema, SeqSchema, ZonedTimestampSchema } from '../primitives/primitives.js';
import type { ProductEventOf } from '../events/product-events.js';

/** Schema of the v1 envelope; strict at every level. */
export const ChatEventEnvelopeSchema = /* @__PURE__ */ (() =>
  z.strictObject({
    schemaVersion: z.literal(1),
    conversationId: ChatIdSchema,
    turnId: ChatIdSchema,
    eventId: ChatIdSchema,
    seq: SeqSchema,
    occurredAt: ZonedTimestampSchema,
    event: ChatEventV1Schema,
  }))();

/** One v1 event in its envelope. */
export type ChatEventEnvelope = z.infer<typeof ChatEventEnvelopeSchema>;

/**
 * A v1 event whose `card` events carry `Card`, plus the product events
 * `Events` (none by default): the event union of a product's vocabulary.
 */
export type ChatEventOf<Card, Events = Record<never, never>> =
  Exclude<ChatEventV1, { type: 'card' }> | { type: 'card'; card: Card } | ProductEventOf<Events>;

/**
 * A v1 envelope whose `card` events carry `Card`, and whose events may be the
 * product events `Events` (see `createChatCodec`).
 * `ChatEventEnvelopeOf<OpenCardSnapshotV1>` is {@link ChatEventEnvelope}.
 */
export type ChatEventEnvelopeOf<Card, Events = Record<never, never>> = Omit<ChatEventEnvelope, 'event'> & {
  event: ChatEventOf<Card, Events>;
};
