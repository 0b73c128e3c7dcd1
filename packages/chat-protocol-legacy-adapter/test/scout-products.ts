/**
 * A host's registration of Scout's domain events (Papercusp/scout-chat
 * src/reducer.ts): the chat codec with their schemas and channels, and the
 * legacy type each one is lifted from.
 */
import { createChatCodec } from '@papercusp/chat-protocol-core';
import * as z from 'zod/v4/mini';

export const scoutCodec = createChatCodec({
  events: {
    // The product grid: opaque objects the app renders; a new list replaces the last.
    'scout.products': { schema: z.strictObject({ products: z.array(z.record(z.string(), z.unknown())) }), channel: 'state' },
    'scout.broaden': {
      schema: z.strictObject({
        options: z.array(
          z.strictObject({ label: z.string(), prompt: z.string(), resultCount: z.optional(z.int().check(z.nonnegative())) }),
        ),
      }),
      channel: 'state',
    },
    // An app side effect: performed once, never redone on replay.
    'scout.cart_mutate': { schema: z.record(z.string(), z.unknown()), channel: 'transient' },
  },
});

export const scoutProducts = {
  codec: scoutCodec,
  events: { products: 'scout.products', broaden: 'scout.broaden', cart_mutate: 'scout.cart_mutate' },
} as const;
