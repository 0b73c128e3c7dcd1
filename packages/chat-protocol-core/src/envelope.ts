/**
 * The v1 envelope: the frame every v1 event travels in, with host-allocated
 * identity, a per-turn contiguous seq and a zoned timestamp. This file holds the
 * schema and types; `validate-envelope.ts` is the hot-path check proven equal to it.
 */
import * as z from 'zod/mini';
import { ChatEventV1Schema } from './events.js';
import { ChatIdSchema, SeqSchema, ZonedTimestampSchema } from './primitives.js';

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
