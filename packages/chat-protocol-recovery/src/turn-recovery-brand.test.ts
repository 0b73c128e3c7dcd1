import { describe, expect, it } from 'vitest';
import { TurnRecovery } from './turn-recovery.js';

// The ESM and CJS builds in one process are checked by the facade's test/resolution.test.ts, hostile values by never-throws.test.ts.
describe('TurnRecovery.is: a brand check, since instanceof does not cross builds (DESIGN §2.8)', () => {
  const recovery = new TurnRecovery({ capabilities: {}, authorize: () => true } as never);

  it('is true for an instance, of any type parameters, and of a subclass', () => {
    class HostRecovery extends TurnRecovery<string, string> {}
    expect([TurnRecovery.is(recovery), TurnRecovery.is(new HostRecovery({} as never))]).toEqual([true, true]);
  });

  it('is true for an instance of another copy of the class, which carries the same registry brand', () => {
    const otherCopy = { [Symbol.for('@papercusp/chat-protocol-recovery.TurnRecovery')]: true };
    expect(TurnRecovery.is(otherCopy)).toBe(true);
  });

  it('is false for a lookalike: an object with the same methods, the class itself, a brand that is not true', () => {
    const lookalike = Object.fromEntries(Object.getOwnPropertyNames(TurnRecovery.prototype).map((name) => [name, () => undefined]));
    const wrongBrand = { [Symbol.for('@papercusp/chat-protocol-recovery.TurnRecovery')]: 'yes' };
    expect([lookalike, TurnRecovery, wrongBrand, null, undefined, 'TurnRecovery'].map((value) => TurnRecovery.is(value))).toEqual(
      Array.from({ length: 6 }, () => false),
    );
  });
});
