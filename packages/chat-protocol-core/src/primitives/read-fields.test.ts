import { describe, expect, it } from 'vitest';
import { everyTrapThrows, throwHostile } from '../../../../test-support/hostile-values.js';
import { readFields } from './read-fields.js';

interface Request {
  readonly caller?: unknown;
  readonly turnId?: unknown;
}

describe('readFields (issue 12 "Hostile input": a request is read once, a typed refusal instead of a throw)', () => {
  it('copies the named fields into a fresh object, leaving out those that read undefined and every other key', () => {
    const request = { caller: 'alice', turnId: undefined, extra: true };
    const copy = readFields<Request & { extra: boolean }, 'caller' | 'turnId'>(request, ['caller', 'turnId']);
    expect(copy).toEqual({ caller: 'alice' });
    expect(copy).not.toBe(request);
    expect(copy !== undefined && Object.keys(copy)).toEqual(['caller']);
    expect(request).toEqual({ caller: 'alice', turnId: undefined, extra: true });
  });

  it('reads inherited fields and getters, each exactly once', () => {
    let reads = 0;
    const request = Object.create(
      { caller: 'inherited' },
      {
        turnId: { enumerable: true, get: () => `turn_${++reads}` },
      },
    ) as Request;
    const copy = readFields(request, ['caller', 'turnId']);
    expect(copy).toEqual({ caller: 'inherited', turnId: 'turn_1' });
    expect(copy?.turnId).toBe('turn_1');
    expect(reads).toBe(1);
  });

  it('is undefined for a value that is not an object or cannot be read', () => {
    for (const value of [null, undefined, 'turn_1', 1, 10n, Symbol('request'), () => 1]) {
      expect(readFields(value as never, ['caller'])).toBeUndefined();
    }
    expect(readFields(everyTrapThrows as Request, ['caller'])).toBeUndefined();
    expect(readFields(Object.defineProperty({}, 'turnId', { get: throwHostile }) as Request, ['caller', 'turnId'])).toBeUndefined();
    const revocable = Proxy.revocable({}, {});
    revocable.revoke();
    expect(readFields(revocable.proxy as Request, ['caller'])).toBeUndefined();
  });

  it('copies a field named __proto__ as an own field, polluting nothing', () => {
    const request = JSON.parse('{"__proto__":{"polluted":true}}') as { ['__proto__']: unknown };
    const copy = readFields(request, ['__proto__']) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBeNull();
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});
