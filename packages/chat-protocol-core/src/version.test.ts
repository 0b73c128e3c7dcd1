import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAT_PROTOCOL_VERSION, negotiateChatVersion } from './version.js';
import { runs } from '../../../test-support/property-runs.js';

const REFUSAL_MESSAGE = 'requested protocol version is not 0 or 1';

describe('negotiateChatVersion', () => {
  it('§3.1: the current protocol version is 1', () => {
    expect(CHAT_PROTOCOL_VERSION).toBe(1);
  });

  it.each<[string, unknown, 0 | 1]>([
    ['number 0', 0, 0],
    ['number 1', 1, 1],
    ['header string "0"', '0', 0],
    ['header string "1"', '1', 1],
    // -0 === 0 in JavaScript, so it is the explicit version 0; the result carries +0.
    ['negative zero (it is the number 0)', -0, 0],
  ])('§3.1 accepts exactly the explicit versions: %s', (_label, requested, version) => {
    const result = negotiateChatVersion(requested);
    expect(result).toEqual({ ok: true, version });
    expect(result.ok && Object.is(result.version, version)).toBe(true);
  });

  const symbol = Symbol('1');
  const refused: [string, unknown][] = [
    ['missing: undefined', undefined],
    ['missing: null', null],
    ['missing: empty string', ''],
    ['future: 2', 2],
    ['future: "2"', '2'],
    ['invalid: 1.5', 1.5],
    ['invalid: "1.0"', '1.0'],
    ['invalid: "01"', '01'],
    ['invalid: " 1"', ' 1'],
    ['invalid: "1 "', '1 '],
    ['invalid: "-0"', '-0'],
    ['invalid: "+1"', '+1'],
    ['invalid: "0x1"', '0x1'],
    ['invalid: -1', -1],
    ['invalid: NaN', Number.NaN],
    ['invalid: Infinity', Number.POSITIVE_INFINITY],
    ['invalid: -Infinity', Number.NEGATIVE_INFINITY],
    ['invalid: 1 + Number.EPSILON', 1 + Number.EPSILON],
    ['invalid: true', true],
    ['invalid: false', false],
    ['invalid: {}', {}],
    ['invalid: []', []],
    ['invalid: [1]', [1]],
    ['invalid: ["1"]', ['1']],
    ['invalid: { version: 1 }', { version: 1 }],
    ['invalid: boxed Number(1)', Object(1)],
    ['invalid: boxed String("1")', Object('1')],
    ['invalid: object whose valueOf is 1', { valueOf: () => 1, toString: () => '1' }],
    ['invalid: 1n (bigint)', 1n],
    ['invalid: 0n (bigint)', 0n],
    ['invalid: Symbol', symbol],
    ['invalid: function', () => 1],
  ];

  it.each(refused)('§3.1 refuses missing, future and invalid versions with unsupported-version: %s', (_label, requested) => {
    const result = negotiateChatVersion(requested);
    expect(result).toEqual({ ok: false, code: 'unsupported-version', message: REFUSAL_MESSAGE, requested });
    expect(!result.ok && result.requested).toBe(requested);
  });

  it('§2.1 never throws, even for a Proxy whose every trap throws', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
        getPrototypeOf: () => {
          throw new Error('trap');
        },
      },
    );
    const result = negotiateChatVersion(hostile);
    // The matcher itself would trip the traps, so compare the refusal with the proxy swapped out.
    expect(result.ok === false && result.requested === hostile).toBe(true);
    expect({ ...result, requested: 'the proxy' }).toEqual({
      ok: false,
      code: 'unsupported-version',
      message: REFUSAL_MESSAGE,
      requested: 'the proxy',
    });
  });

  it('§2.1/§3.1 property: never throws and accepts only 0, 1, "0" and "1"', () => {
    const accepted = new Map<unknown, 0 | 1>([
      [0, 0],
      [1, 1],
      ['0', 0],
      ['1', 1],
    ]);
    const candidate = fc.oneof(
      fc.constantFrom<unknown>(0, 1, '0', '1', -0, 2, '2', '', null, undefined),
      fc.anything(),
      fc.double(),
      fc.integer({ min: -3, max: 3 }),
      fc.string({ maxLength: 4 }),
      fc.stringMatching(/^[ +\-0-9.]{0,4}$/),
      fc.bigInt(),
      fc.boolean(),
    );
    fc.assert(
      fc.property(candidate, (requested) => {
        const result = negotiateChatVersion(requested);
        const version = accepted.get(requested);
        if (version === undefined) {
          expect(result).toEqual({ ok: false, code: 'unsupported-version', message: REFUSAL_MESSAGE, requested });
        } else {
          expect(result).toEqual({ ok: true, version });
        }
      }),
      { numRuns: runs(2_000) },
    );
  });
});
