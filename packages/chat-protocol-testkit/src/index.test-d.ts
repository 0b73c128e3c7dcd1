import type { TurnRecoveryAdapter, TurnStore } from '@papercusp/chat-protocol-recovery';
import { describe, expectTypeOf, it } from 'vitest';
import { createFakeDatabase, createFakeTurnStore, type FakeDatabase, type FakeFaultKind, type FakeTurnStore } from './index.js';

describe('public types', () => {
  it('the fake turn store is a recovery store with the admission seam, typed by its result', () => {
    const store = createFakeTurnStore<{ receiptId: string }>(createFakeDatabase());
    expectTypeOf(store).toEqualTypeOf<FakeTurnStore<{ receiptId: string }>>();
    expectTypeOf(store).toMatchTypeOf<Required<TurnStore<{ receiptId: string }, string>>>();
    expectTypeOf(store.adapter()).toEqualTypeOf<TurnRecoveryAdapter<{ receiptId: string }, string>>();
  });

  it('faults are a closed vocabulary; tables are typed by their rows', () => {
    expectTypeOf<FakeFaultKind>().toEqualTypeOf<'fail-before-commit' | 'lose-acknowledgement' | 'delay'>();
    expectTypeOf<FakeDatabase['table']>().returns.toEqualTypeOf<Map<string, unknown>>();
    expectTypeOf(createFakeDatabase().table<number>('counters')).toEqualTypeOf<Map<string, number>>();
  });
});
