import { describe, expect, it } from 'vitest';
import { everyTrapThrows } from '../../../../test-support/hostile-values.js';
import { hasBrand } from './brand.js';

const brand = Symbol.for('@papercusp/test.Brand');

describe('hasBrand: a brand check that holds across copies of a class (DESIGN §2.8)', () => {
  it('is true when the brand property is true, own or inherited (a class puts it on its prototype)', () => {
    class Branded {
      get [brand](): true {
        return true;
      }
    }
    expect([hasBrand({ [brand]: true }, brand), hasBrand(new Branded(), brand), hasBrand(Object.create(Branded.prototype), brand)]).toEqual(
      [true, true, true],
    );
  });

  it('is false for any other value of the brand, another brand, a non-object, and a value whose read throws', () => {
    const values = [
      { [brand]: 'true' },
      { [brand]: 1 },
      { [Symbol('@papercusp/test.Brand')]: true },
      null,
      undefined,
      true,
      'brand',
      everyTrapThrows,
    ];
    expect(values.map((value) => hasBrand(value, brand))).toEqual(values.map(() => false));
  });
});
