import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, TURN_ID_FIELD, createTurnId, isTurnId } from './turn-id.js';

describe('client turn ids (DESIGN §6, client side)', () => {
  it('mints turn_ and 32 hex digits from the injected random source', () => {
    const id = createTurnId({ getRandomValues: (bytes) => bytes.fill(0xab) });
    expect(id).toBe(`turn_${'ab'.repeat(16)}`);
    expect(isTurnId(id)).toBe(true);
  });

  it('uses Web Crypto by default: two ids differ', () => {
    const first = createTurnId();
    expect(isTurnId(first)).toBe(true);
    expect(createTurnId()).not.toBe(first);
  });

  it('throws TypeError when the runtime has no random source and none is given', () => {
    const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true });
    try {
      expect(() => createTurnId()).toThrow(TypeError);
    } finally {
      if (original !== undefined) Object.defineProperty(globalThis, 'crypto', original);
    }
  });

  it.each([['turn_' + 'A'.repeat(32)], ['turn_' + 'a'.repeat(31)], ['turn_1'], [42], [null], [` turn_${'a'.repeat(32)}`]])(
    'isTurnId refuses %s',
    (value) => {
      expect(isTurnId(value)).toBe(false);
    },
  );

  it('names the header and the body field the id travels in', () => {
    expect(IDEMPOTENCY_KEY_HEADER).toBe('Idempotency-Key');
    expect(TURN_ID_FIELD).toBe('turnId');
  });
});
