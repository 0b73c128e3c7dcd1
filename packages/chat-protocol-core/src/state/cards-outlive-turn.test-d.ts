import { describe, expectTypeOf, it } from 'vitest';
import type { ApplyChatEventRefusalCode, ChatCardState, ChatEventV1Of } from '../index.js';

describe('cards that outlive their turn are typed (DESIGN §3.3, issue 13)', () => {
  it('types done.awaiting, the card state fields and the refusal', () => {
    expectTypeOf<ChatEventV1Of<'done'>['awaiting']>().toEqualTypeOf<string[] | undefined>();
    expectTypeOf<ChatCardState['awaiting']>().toEqualTypeOf<true | undefined>();
    expectTypeOf<ChatCardState['closedInTurn']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<'card-not-awaiting'>().toExtend<ApplyChatEventRefusalCode>();
  });
});
