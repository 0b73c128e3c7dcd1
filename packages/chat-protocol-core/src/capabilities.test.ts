import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  CHAT_CAPABILITY_NAMES,
  LIGHTWEIGHT_CHAT_CAPABILITIES,
  parseChatCapabilities,
  requireChatCapabilities,
  type ChatCapabilities,
  type ChatCapabilityName,
} from './capabilities.js';
import { runs } from '../../../test-support/property-runs.js';

const MALFORMED = 'capability declaration is malformed';

const NONE: ChatCapabilities = {
  connectionReplay: false,
  persistedHistory: false,
  persistedDecisions: false,
  completedToolCheckpoints: false,
  interruptedTurnRecovery: false,
};
const ALL: ChatCapabilities = {
  connectionReplay: true,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
};

function only(name: ChatCapabilityName): ChatCapabilities {
  return { ...NONE, [name]: true };
}

function missingMessage(names: readonly string[]): string {
  return `missing capabilities: ${names.join(', ')}`;
}

describe('CHAT_CAPABILITY_NAMES', () => {
  it('§3.6 names exactly the five flags, in canonical order', () => {
    expect(CHAT_CAPABILITY_NAMES).toEqual([
      'connectionReplay',
      'persistedHistory',
      'persistedDecisions',
      'completedToolCheckpoints',
      'interruptedTurnRecovery',
    ]);
    expectTypeOf<keyof ChatCapabilities>().toEqualTypeOf<ChatCapabilityName>();
  });
});

describe('parseChatCapabilities', () => {
  it('§3.6 accepts a total record of five booleans and returns a fresh copy', () => {
    const input = { ...ALL, persistedDecisions: false };
    const result = parseChatCapabilities(input);
    expect(result).toEqual({ ok: true, value: { ...ALL, persistedDecisions: false } });
    expect(result.ok && result.value).not.toBe(input);
  });

  it('§3.6 accepts a null-prototype record (plain data without Object.prototype)', () => {
    const input: Record<string, boolean> = Object.create(null) as Record<string, boolean>;
    for (const name of CHAT_CAPABILITY_NAMES) input[name] = true;
    expect(parseChatCapabilities(input)).toEqual({ ok: true, value: ALL });
  });

  class Declaration {
    connectionReplay = true;
    persistedHistory = true;
    persistedDecisions = true;
    completedToolCheckpoints = true;
    interruptedTurnRecovery = true;
  }

  const notAnObject = { path: [], message: 'capabilities must be a plain object' };
  const malformed: [string, unknown, { path: string[]; message: string }[]][] = [
    ['undefined', undefined, [notAnObject]],
    ['null', null, [notAnObject]],
    ['a boolean', true, [notAnObject]],
    ['a string', 'connectionReplay', [notAnObject]],
    ['an array', [true, true, true, true, true], [notAnObject]],
    ['a class instance', new Declaration(), [notAnObject]],
    ['a Date', new Date(0), [notAnObject]],
    [
      'an empty object (a host declares every flag)',
      {},
      CHAT_CAPABILITY_NAMES.map((name) => ({ path: [name], message: 'capability flag is missing' })),
    ],
    [
      'a missing flag',
      { ...LIGHTWEIGHT_CHAT_CAPABILITIES, interruptedTurnRecovery: undefined },
      [{ path: ['interruptedTurnRecovery'], message: 'capability flag must be a boolean' }],
    ],
    [
      'an absent flag',
      (({ persistedHistory: _omitted, ...rest }) => rest)(ALL),
      [{ path: ['persistedHistory'], message: 'capability flag is missing' }],
    ],
    [
      'a string "true"',
      { ...NONE, connectionReplay: 'true' },
      [{ path: ['connectionReplay'], message: 'capability flag must be a boolean' }],
    ],
    ['the number 1', { ...NONE, persistedDecisions: 1 }, [{ path: ['persistedDecisions'], message: 'capability flag must be a boolean' }]],
    [
      'null as a flag',
      { ...NONE, completedToolCheckpoints: null },
      [{ path: ['completedToolCheckpoints'], message: 'capability flag must be a boolean' }],
    ],
    ['an unknown key', { ...ALL, restartRecovery: true }, [{ path: ['restartRecovery'], message: 'unknown capability flag' }]],
    [
      'a __proto__ own key (from JSON.parse)',
      JSON.parse(`{"__proto__":{"interruptedTurnRecovery":true},${JSON.stringify(NONE).slice(1)}`),
      [{ path: ['__proto__'], message: 'unknown capability flag' }],
    ],
    ['a constructor key', { ...NONE, constructor: true }, [{ path: ['constructor'], message: 'unknown capability flag' }]],
    [
      'several problems at once',
      { connectionReplay: 'yes', persistedHistory: true, extra: 1 },
      [
        { path: ['connectionReplay'], message: 'capability flag must be a boolean' },
        { path: ['persistedDecisions'], message: 'capability flag is missing' },
        { path: ['completedToolCheckpoints'], message: 'capability flag is missing' },
        { path: ['interruptedTurnRecovery'], message: 'capability flag is missing' },
        { path: ['extra'], message: 'unknown capability flag' },
      ],
    ],
  ];

  it.each(malformed)('§3.6 refuses a malformed declaration with invalid-capabilities: %s', (_label, input, issues) => {
    expect(parseChatCapabilities(input)).toEqual({ ok: false, code: 'invalid-capabilities', message: MALFORMED, issues });
  });

  it('§2.7 an inherited flag never counts, even from a polluted Object.prototype', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype['interruptedTurnRecovery'] = true;
    try {
      const { interruptedTurnRecovery: _omitted, ...rest } = ALL;
      expect(parseChatCapabilities(rest)).toEqual({
        ok: false,
        code: 'invalid-capabilities',
        message: MALFORMED,
        issues: [{ path: ['interruptedTurnRecovery'], message: 'capability flag is missing' }],
      });
    } finally {
      delete prototype['interruptedTurnRecovery'];
    }
  });

  const unreadable = {
    ok: false,
    code: 'invalid-capabilities',
    message: MALFORMED,
    issues: [{ path: [], message: 'capabilities could not be read' }],
  };

  it('§2.1 a throwing getter is refused, not thrown', () => {
    const input = {
      ...NONE,
      get connectionReplay(): boolean {
        throw new Error('getter');
      },
    };
    expect(parseChatCapabilities(input)).toEqual(unreadable);
  });

  it('§2.1 a Proxy whose traps throw is refused, not thrown', () => {
    const input = new Proxy(
      { ...ALL },
      {
        ownKeys: () => {
          throw new Error('trap');
        },
      },
    );
    expect(parseChatCapabilities(input)).toEqual(unreadable);
  });
});

describe('LIGHTWEIGHT_CHAT_CAPABILITIES', () => {
  it('§3.6 declares connection replay and nothing else, and is frozen', () => {
    expect(LIGHTWEIGHT_CHAT_CAPABILITIES).toEqual({ ...NONE, connectionReplay: true });
    expect(Object.isFrozen(LIGHTWEIGHT_CHAT_CAPABILITIES)).toBe(true);
  });

  it('§3.6/§6.10 the lightweight profile gives connection replay', () => {
    expect(requireChatCapabilities(LIGHTWEIGHT_CHAT_CAPABILITIES, ['connectionReplay'])).toEqual({ ok: true });
  });

  it('§3.6/§6.10 the lightweight profile refuses restart recovery', () => {
    expect(requireChatCapabilities(LIGHTWEIGHT_CHAT_CAPABILITIES, ['connectionReplay', 'interruptedTurnRecovery'])).toEqual({
      ok: false,
      code: 'unsupported-capability',
      message: missingMessage(['interruptedTurnRecovery']),
      missing: ['interruptedTurnRecovery'],
    });
  });
});

describe('requireChatCapabilities', () => {
  const pairs = CHAT_CAPABILITY_NAMES.flatMap((declaredName) =>
    CHAT_CAPABILITY_NAMES.map((requiredName) => [declaredName, requiredName] as const),
  );

  it.each(pairs)('§3.6 no flag implies another: only %s declared, %s required', (declaredName, requiredName) => {
    const expected =
      declaredName === requiredName
        ? { ok: true }
        : { ok: false, code: 'unsupported-capability', message: missingMessage([requiredName]), missing: [requiredName] };
    expect(requireChatCapabilities(only(declaredName), [requiredName])).toEqual(expected);
  });

  it('§3.6 no flag implies another: a single flag satisfies exactly the requirement sets within it', () => {
    for (const declaredName of CHAT_CAPABILITY_NAMES) {
      for (let mask = 0; mask < 1 << CHAT_CAPABILITY_NAMES.length; mask += 1) {
        const required = CHAT_CAPABILITY_NAMES.filter((_name, index) => (mask & (1 << index)) !== 0);
        const missing = required.filter((name) => name !== declaredName);
        const expected =
          missing.length === 0 ? { ok: true } : { ok: false, code: 'unsupported-capability', message: missingMessage(missing), missing };
        expect(requireChatCapabilities(only(declaredName), required)).toEqual(expected);
      }
    }
  });

  it('§3.6 persisted history never implies restart recovery', () => {
    const declared = { ...ALL, interruptedTurnRecovery: false };
    expect(requireChatCapabilities(declared, ['persistedHistory', 'interruptedTurnRecovery'])).toEqual({
      ok: false,
      code: 'unsupported-capability',
      message: missingMessage(['interruptedTurnRecovery']),
      missing: ['interruptedTurnRecovery'],
    });
    expect(requireChatCapabilities(only('persistedHistory'), ['interruptedTurnRecovery'])).toEqual({
      ok: false,
      code: 'unsupported-capability',
      message: missingMessage(['interruptedTurnRecovery']),
      missing: ['interruptedTurnRecovery'],
    });
  });

  it('§3.6 nothing required is always met by a valid declaration', () => {
    expect(requireChatCapabilities(NONE, [])).toEqual({ ok: true });
  });

  it('§3.6 missing is reported in canonical order without duplicates', () => {
    expect(
      requireChatCapabilities(NONE, ['interruptedTurnRecovery', 'connectionReplay', 'interruptedTurnRecovery', 'persistedHistory']),
    ).toEqual({
      ok: false,
      code: 'unsupported-capability',
      message: missingMessage(['connectionReplay', 'persistedHistory', 'interruptedTurnRecovery']),
      missing: ['connectionReplay', 'persistedHistory', 'interruptedTurnRecovery'],
    });
  });

  it('§3.6 a malformed declaration is invalid-capabilities, even when nothing is required', () => {
    expect(requireChatCapabilities({ connectionReplay: true }, [])).toEqual({
      ok: false,
      code: 'invalid-capabilities',
      message: MALFORMED,
      issues: CHAT_CAPABILITY_NAMES.slice(1).map((name) => ({ path: [name], message: 'capability flag is missing' })),
    });
    expect(requireChatCapabilities('all', ['connectionReplay'])).toEqual({
      ok: false,
      code: 'invalid-capabilities',
      message: MALFORMED,
      issues: [{ path: [], message: 'capabilities must be a plain object' }],
    });
  });

  it('§3.6 an unknown required name (untyped caller) can never be met: it is missing, after the known ones', () => {
    const required = ['restartRecovery', 'interruptedTurnRecovery', '__proto__', 'restartRecovery', 'toString'];
    expect(requireChatCapabilities(ALL, required as unknown as ChatCapabilityName[])).toEqual({
      ok: false,
      code: 'unsupported-capability',
      message: '3 required name(s) are not capabilities',
      missing: ['restartRecovery', '__proto__', 'toString'],
    });
    expect(requireChatCapabilities(NONE, required as unknown as ChatCapabilityName[])).toEqual({
      ok: false,
      code: 'unsupported-capability',
      message: `${missingMessage(['interruptedTurnRecovery'])}; 3 required name(s) are not capabilities`,
      missing: ['interruptedTurnRecovery', 'restartRecovery', '__proto__', 'toString'],
    });
  });

  it('§3.6 a required value that is not an array (untyped caller) is read as one required name', () => {
    const asName = (value: unknown) => value as readonly ChatCapabilityName[];
    expect(requireChatCapabilities(LIGHTWEIGHT_CHAT_CAPABILITIES, asName('connectionReplay'))).toEqual({ ok: true });
    expect(requireChatCapabilities(LIGHTWEIGHT_CHAT_CAPABILITIES, asName('persistedHistory'))).toEqual({
      ok: false,
      code: 'unsupported-capability',
      message: missingMessage(['persistedHistory']),
      missing: ['persistedHistory'],
    });
    expect(requireChatCapabilities(ALL, asName(undefined))).toEqual({
      ok: false,
      code: 'unsupported-capability',
      message: '1 required name(s) are not capabilities',
      missing: [undefined],
    });
  });

  it('§2.1 an unreadable required list (throwing Proxy) is one requirement nobody meets', () => {
    const required = new Proxy(['connectionReplay'], {
      get: () => {
        throw new Error('trap');
      },
    });
    const result = requireChatCapabilities(ALL, required as readonly ChatCapabilityName[]);
    expect(result.ok === false && result.code === 'unsupported-capability' && (result.missing[0] as unknown) === required).toBe(true);
    expect(result.ok === false && result.code === 'unsupported-capability' && { ...result, missing: result.missing.length }).toEqual({
      ok: false,
      code: 'unsupported-capability',
      message: '1 required name(s) are not capabilities',
      missing: 1,
    });
  });

  const validDeclaration = fc.record({
    connectionReplay: fc.boolean(),
    persistedHistory: fc.boolean(),
    persistedDecisions: fc.boolean(),
    completedToolCheckpoints: fc.boolean(),
    interruptedTurnRecovery: fc.boolean(),
  });
  const requiredNames = fc.array(fc.constantFrom(...CHAT_CAPABILITY_NAMES), { maxLength: 8 });

  it('§3.6 property: ok exactly when every required flag is declared true; else missing is exact', () => {
    fc.assert(
      fc.property(validDeclaration, requiredNames, (declared, required) => {
        const missing = CHAT_CAPABILITY_NAMES.filter((name) => required.includes(name) && !declared[name]);
        const expected =
          missing.length === 0 ? { ok: true } : { ok: false, code: 'unsupported-capability', message: missingMessage(missing), missing };
        expect(requireChatCapabilities(declared, required)).toEqual(expected);
      }),
      { numRuns: runs(2_000) },
    );
  });

  const capabilityKey = fc.oneof(
    fc.constantFrom<string>(...CHAT_CAPABILITY_NAMES, '__proto__', 'constructor', 'prototype', 'toString'),
    fc.string({ maxLength: 6 }),
  );
  const hostileDeclaration = fc.oneof(
    fc.anything(),
    fc.jsonValue(),
    validDeclaration,
    fc.dictionary(capabilityKey, fc.oneof(fc.boolean(), fc.anything()), { maxKeys: 8 }),
    // JSON.parse keeps a "__proto__" key as an own property: the shape a network payload can take.
    fc.tuple(validDeclaration, fc.jsonValue(), fc.boolean()).map(([declaration, extra, first]) => {
      const body = JSON.stringify(declaration).slice(1, -1);
      const proto = `"__proto__":${JSON.stringify(extra) ?? 'null'}`;
      return JSON.parse(first ? `{${proto},${body}}` : `{${body},${proto}}`) as unknown;
    }),
  );
  const hostileRequired = fc.oneof(requiredNames, fc.array(fc.oneof(capabilityKey, fc.anything()), { maxLength: 6 }), fc.anything());

  it('§2.1/§2.7 property: never throws and never pollutes Object.prototype, whatever the input', () => {
    fc.assert(
      fc.property(hostileDeclaration, hostileRequired, (declared, required) => {
        const result = requireChatCapabilities(declared, required as readonly ChatCapabilityName[]);
        const parsed = parseChatCapabilities(declared);
        if (!parsed.ok) {
          expect(result).toEqual(parsed);
        } else if (result.ok) {
          for (const name of CHAT_CAPABILITY_NAMES) {
            if (Array.isArray(required) && required.includes(name)) expect(parsed.value[name]).toBe(true);
          }
        } else {
          expect(result.code).toBe('unsupported-capability');
          expect(result.ok === false && 'missing' in result && result.missing.length > 0).toBe(true);
        }
        expect(({} as Record<string, unknown>)['interruptedTurnRecovery']).toBe(undefined);
      }),
      { numRuns: runs(2_000) },
    );
  });
});
