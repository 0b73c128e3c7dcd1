import { describe, expect, it } from 'vitest';
import { InteractionResolver } from './resolver.js';

// The ESM and CJS builds in one process are checked by the facade's test/resolution.test.ts, hostile values by never-throws.test.ts.
describe('InteractionResolver.is: a brand check, since instanceof does not cross builds (DESIGN §2.8)', () => {
  const options = {
    store: { read: async () => ({ record: null }), transact: async () => ({ committed: false }) },
    validate: () => ({ ok: true }),
  };
  const resolver = new InteractionResolver(options as never);

  it('is true for an instance, of any type parameters, and of a subclass', () => {
    class HostResolver extends InteractionResolver<string> {}
    expect([InteractionResolver.is(resolver), InteractionResolver.is(new HostResolver(options as never))]).toEqual([true, true]);
  });

  it('is true for an instance of another copy of the class, which carries the same registry brand', () => {
    const otherCopy = { [Symbol.for('@papercusp/chat-protocol-interactions.InteractionResolver')]: true };
    expect(InteractionResolver.is(otherCopy)).toBe(true);
  });

  it('is false for a lookalike: an object with the same methods, the class itself, a brand that is not true', () => {
    const lookalike = Object.fromEntries(Object.getOwnPropertyNames(InteractionResolver.prototype).map((name) => [name, () => undefined]));
    const wrongBrand = { [Symbol.for('@papercusp/chat-protocol-interactions.InteractionResolver')]: 'yes' };
    expect(
      [lookalike, InteractionResolver, wrongBrand, null, undefined, 'InteractionResolver'].map((value) => InteractionResolver.is(value)),
    ).toEqual(Array.from({ length: 6 }, () => false));
  });
});
