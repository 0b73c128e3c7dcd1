import { CARD_KINDS, createCardCodec, defineCardKind, type OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';

type CardKindOf = (typeof CARD_KINDS)[number] | 'rating';
import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/v4/mini';
import {
  InteractionResolver,
  standardSchemaValidator,
  type InteractionStore,
  type InteractionTerminalStatus,
  type SubmitInteractionRefusalCode,
  type TerminalInteractionV1,
} from './index.js';

declare const store: InteractionStore<OpenCardSnapshotV1, { readonly sessionId: string }>;

describe('InteractionResolver types', () => {
  it('is generic in the host’s caller and the card vocabulary', async () => {
    const resolver = new InteractionResolver({ store, validate: standardSchemaValidator(() => undefined) });
    expectTypeOf(resolver).toEqualTypeOf<InteractionResolver<{ readonly sessionId: string }, OpenCardSnapshotV1>>();
    const result = await resolver.submit({ caller: { sessionId: 's' }, conversationId: 'c', correlationId: 'k', value: 1 });
    if (result.ok && result.outcome !== 'needs-reconciliation') {
      expectTypeOf(result.outcome).toEqualTypeOf<InteractionTerminalStatus>();
      expectTypeOf(result.record).toEqualTypeOf<TerminalInteractionV1<OpenCardSnapshotV1>>();
    }
    if (!result.ok) {
      expectTypeOf(result.code).toEqualTypeOf<SubmitInteractionRefusalCode>();
      if (result.code === 'already-closed') expectTypeOf(result.status).toEqualTypeOf<'submitted' | 'declined' | 'cancelled'>();
    }
  });

  it('takes a product codec for product card kinds', () => {
    const cards = createCardCodec({
      kinds: {
        rating: defineCardKind({ presentation: z.strictObject({ stars: z.number() }), value: z.strictObject({ stars: z.number() }) }),
      },
    });
    type ProductCard = Extract<ReturnType<typeof cards.parseCard>, { ok: true }>['value'];
    expectTypeOf<NonNullable<ProductCard['presentation']>['kind']>().toEqualTypeOf<CardKindOf>();
    const productStore = {} as InteractionStore<ProductCard, string>;
    const resolver = new InteractionResolver({ store: productStore, validate: standardSchemaValidator(() => undefined), cards });
    expectTypeOf(resolver).toEqualTypeOf<InteractionResolver<string, ProductCard>>();
  });
});
