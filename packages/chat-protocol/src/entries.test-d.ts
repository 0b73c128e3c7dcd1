import type * as blocks from '@papercusp/chat-protocol-blocks';
import type * as core from '@papercusp/chat-protocol-core';
import type * as interactions from '@papercusp/chat-protocol-interactions';
import type * as legacyAdapter from '@papercusp/chat-protocol-legacy-adapter';
import type * as recovery from '@papercusp/chat-protocol-recovery';
import type * as testkit from '@papercusp/chat-protocol-testkit';
import { describe, expectTypeOf, it } from 'vitest';
import type * as facadeBlocks from './blocks.js';
import type * as facadeRoot from './index.js';
import type * as facadeInteractions from './interactions.js';
import type * as facadeLegacy from './legacy.js';
import type * as facadeRecovery from './recovery.js';
import type * as facadeTestkit from './testkit.js';

interface Receipt {
  readonly receiptId: string;
}

// Type-only exports are invisible at runtime, so the runtime pin cannot see them: these check them.
describe('facade types are the mirrored packages’ types', () => {
  it('every entry has the same runtime export types as its package', () => {
    expectTypeOf<typeof facadeRoot>().toEqualTypeOf<typeof core>();
    expectTypeOf<typeof facadeBlocks>().toEqualTypeOf<typeof blocks>();
    expectTypeOf<typeof facadeRecovery>().toEqualTypeOf<typeof recovery>();
    expectTypeOf<typeof facadeInteractions>().toEqualTypeOf<typeof interactions>();
    expectTypeOf<typeof facadeLegacy>().toEqualTypeOf<typeof legacyAdapter>();
    expectTypeOf<typeof facadeTestkit>().toEqualTypeOf<typeof testkit>();
  });

  it('root: the envelope, state and parse results of core', () => {
    expectTypeOf<facadeRoot.ChatEventEnvelope>().toEqualTypeOf<core.ChatEventEnvelope>();
    expectTypeOf<facadeRoot.ChatStateV1>().toEqualTypeOf<core.ChatStateV1>();
    expectTypeOf<ReturnType<typeof facadeRoot.parseChatEnvelope>>().toEqualTypeOf<ReturnType<typeof core.parseChatEnvelope>>();
    expectTypeOf<ReturnType<typeof facadeRoot.applyChatEvent>>().toEqualTypeOf<ReturnType<typeof core.applyChatEvent>>();
  });

  it('/blocks: block and segment types', () => {
    expectTypeOf<facadeBlocks.AskBlock>().toEqualTypeOf<blocks.AskBlock>();
    expectTypeOf<facadeBlocks.ReportBlock>().toEqualTypeOf<blocks.ReportBlock>();
    expectTypeOf<facadeBlocks.TurnTextSegment>().toEqualTypeOf<blocks.TurnTextSegment>();
  });

  it('/recovery: TurnRecovery keeps its generics, and its result types are the same', () => {
    expectTypeOf<facadeRecovery.TurnRecovery<Receipt, string>>().toEqualTypeOf<recovery.TurnRecovery<Receipt, string>>();
    expectTypeOf<facadeRecovery.DispatchEffectResult<Receipt>>().toEqualTypeOf<recovery.DispatchEffectResult<Receipt>>();
    expectTypeOf<facadeRecovery.TurnStore<Receipt, string>>().toEqualTypeOf<recovery.TurnStore<Receipt, string>>();
    expectTypeOf<facadeRecovery.DeliveryState>().toEqualTypeOf<recovery.DeliveryState>();
  });

  it('/interactions: the resolver and the store contract a host implements', () => {
    expectTypeOf<facadeInteractions.InteractionResolver<string>>().toEqualTypeOf<interactions.InteractionResolver<string>>();
    expectTypeOf<facadeInteractions.InteractionStore<core.OpenCardSnapshotV1, string>>().toEqualTypeOf<
      interactions.InteractionStore<core.OpenCardSnapshotV1, string>
    >();
  });

  it('/legacy: dialects and decode results', () => {
    expectTypeOf<facadeLegacy.LegacyDialect>().toEqualTypeOf<legacyAdapter.LegacyDialect>();
    expectTypeOf<ReturnType<typeof facadeLegacy.decodeLegacyChatFrame>>().toEqualTypeOf<
      ReturnType<typeof legacyAdapter.decodeLegacyChatFrame>
    >();
  });

  it('/testkit: the fake database and stores', () => {
    expectTypeOf<facadeTestkit.FakeDatabase>().toEqualTypeOf<testkit.FakeDatabase>();
    expectTypeOf<ReturnType<typeof facadeTestkit.createFakeTurnStore>>().toEqualTypeOf<ReturnType<typeof testkit.createFakeTurnStore>>();
  });
});
