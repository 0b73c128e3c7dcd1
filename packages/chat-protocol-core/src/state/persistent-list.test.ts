import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyList, itemAt, lastItem, listOf, pushItem, setItem, toArray, type PersistentList } from './persistent-list.js';
import { runs } from '../../../../test-support/property-runs.js';

type Operation = { readonly kind: 'push'; readonly item: number } | { readonly kind: 'set'; readonly at: number; readonly item: number };

const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('push' as const), item: fc.integer() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('set' as const), at: fc.nat(), item: fc.integer() }) },
);

function apply(list: PersistentList<number>, model: number[], operation: Operation): PersistentList<number> {
  if (operation.kind === 'push') {
    model.push(operation.item);
    return pushItem(list, operation.item);
  }
  if (model.length === 0) return list;
  const at = operation.at % model.length;
  model[at] = operation.item;
  return setItem(list, at, operation.item);
}

describe('persistent list: the turn list without a copy per event (issue 12, DESIGN §3.5 cost)', () => {
  it('reads like an array after any sequence of pushes and sets, across trie levels', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1_200 }), fc.array(operationArb, { maxLength: 200 }), (prefix, operations) => {
        const model = Array.from({ length: prefix }, (_, index) => index);
        let list = listOf(model);
        for (const operation of operations) list = apply(list, model, operation);
        expect(list.size).toBe(model.length);
        expect(toArray(list)).toStrictEqual(model);
        for (const [index, item] of model.entries()) expect(itemAt(list, index)).toBe(item);
        expect(itemAt(list, -1)).toBeUndefined();
        expect(itemAt(list, model.length)).toBeUndefined();
        expect(lastItem(list)).toBe(model[model.length - 1]);
      }),
      { numRuns: runs(100) },
    );
  });

  it('every version stays as it was: later pushes and sets never change an earlier one', () => {
    fc.assert(
      fc.property(fc.array(operationArb, { maxLength: 300 }), (operations) => {
        const versions: { readonly list: PersistentList<number>; readonly items: readonly number[] }[] = [];
        const model: number[] = [];
        let list = emptyList<number>();
        for (const operation of operations) {
          list = apply(list, model, operation);
          versions.push({ list, items: model.slice() });
        }
        for (const version of versions) expect(toArray(version.list)).toStrictEqual(version.items);
      }),
      { numRuns: runs(200) },
    );
  });

  it('holds 40,000 items (three trie levels) and sets the first, a middle and the last', () => {
    const items = Array.from({ length: 40_000 }, (_, index) => index);
    const list = listOf(items);
    const changed = setItem(setItem(setItem(list, 0, -1), 20_000, -2), 39_999, -3);
    expect(toArray(list)).toStrictEqual(items);
    expect([itemAt(changed, 0), itemAt(changed, 20_000), itemAt(changed, 39_999), itemAt(changed, 1)]).toStrictEqual([-1, -2, -3, 1]);
    expect(toArray(changed).filter((item) => item < 0)).toStrictEqual([-1, -2, -3]);
  });
});
