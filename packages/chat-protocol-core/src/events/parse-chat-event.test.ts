import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  EVENT_CHANNEL_TYPES,
  STATE_CHANNEL_TYPES,
  TRANSIENT_CHANNEL_TYPES,
  isChatEventType,
  isReplayableEvent,
  isStateChannelEvent,
  parseChatEvent,
  type ChatEvent,
  type ChatEventType,
  type LegacyChatEvent,
} from './parse-chat-event.js';
import { runs } from '../../../../test-support/property-runs.js';

const ALL_NAMES: readonly ChatEventType[] = [
  'session',
  'delta',
  'tool_call',
  'tool_result',
  'provenance',
  'card',
  'card_closed',
  'state',
  'done',
  'error',
  'navigate',
];

const card = { correlationId: 'card-1', prompt: 'Pick one', presentation: { kind: 'radio', options: [] }, createdAt: 1 };
const input = { query: 'shoes', nested: { depth: 1 } };
const usage = { totalTokens: 12, costUsd: 0.01 };
const snapshot = { cart: ['a'], total: 3 };

type Accepted = [rule: string, eventName: string, data: unknown, expected: LegacyChatEvent];

const accepted: Accepted[] = [
  ['session keeps a string sessionId', 'session', { sessionId: 's-1' }, { type: 'session', sessionId: 's-1' }],
  ['session accepts an empty sessionId (only the type is checked)', 'session', { sessionId: '' }, { type: 'session', sessionId: '' }],
  ['session drops fields it does not name', 'session', { sessionId: 's-1', user: 'u' }, { type: 'session', sessionId: 's-1' }],
  ['data may repeat the matching type', 'session', { type: 'session', sessionId: 's-1' }, { type: 'session', sessionId: 's-1' }],
  ['a non-string type in the data is ignored', 'session', { type: 5, sessionId: 's-1' }, { type: 'session', sessionId: 's-1' }],
  ['delta keeps text', 'delta', { text: 'Hello' }, { type: 'delta', text: 'Hello' }],
  ['delta accepts empty text', 'delta', { text: '' }, { type: 'delta', text: '' }],
  ['delta keeps a lone surrogate as given', 'delta', { text: '\ud800' }, { type: 'delta', text: '\ud800' }],
  ['tool_call needs only a name', 'tool_call', { name: 'search' }, { type: 'tool_call', name: 'search' }],
  [
    'tool_call keeps a string callId and any defined input',
    'tool_call',
    { name: 'search', callId: 'call-1', input },
    { type: 'tool_call', name: 'search', input, callId: 'call-1' },
  ],
  [
    'tool_call keeps input null (it is not undefined)',
    'tool_call',
    { name: 'search', input: null },
    { type: 'tool_call', name: 'search', input: null },
  ],
  ['tool_call keeps input false', 'tool_call', { name: 'search', input: false }, { type: 'tool_call', name: 'search', input: false }],
  [
    'tool_call keeps a string input',
    'tool_call',
    { name: 'search', input: '{"q":1}' },
    { type: 'tool_call', name: 'search', input: '{"q":1}' },
  ],
  ['tool_call drops input undefined', 'tool_call', { name: 'search', input: undefined }, { type: 'tool_call', name: 'search' }],
  ['tool_call drops a non-string callId', 'tool_call', { name: 'search', callId: 7 }, { type: 'tool_call', name: 'search' }],
  [
    'tool_call keeps an empty callId (it is a string)',
    'tool_call',
    { name: 'search', callId: '' },
    { type: 'tool_call', name: 'search', callId: '' },
  ],
  [
    'tool_call does not carry ok or summary',
    'tool_call',
    { name: 'search', ok: true, summary: 'done' },
    { type: 'tool_call', name: 'search' },
  ],
  ['tool_result needs only a name', 'tool_result', { name: 'search' }, { type: 'tool_result', name: 'search' }],
  [
    'tool_result keeps callId, ok and summary',
    'tool_result',
    { name: 'search', callId: 'call-1', ok: false, summary: '3 hits' },
    { type: 'tool_result', name: 'search', callId: 'call-1', ok: false, summary: '3 hits' },
  ],
  ['tool_result keeps ok true', 'tool_result', { name: 'search', ok: true }, { type: 'tool_result', name: 'search', ok: true }],
  [
    'tool_result drops a non-boolean ok (outcome not reported)',
    'tool_result',
    { name: 'search', ok: 'true' },
    { type: 'tool_result', name: 'search' },
  ],
  ['tool_result drops ok null', 'tool_result', { name: 'search', ok: null }, { type: 'tool_result', name: 'search' }],
  ['tool_result drops a non-string summary', 'tool_result', { name: 'search', summary: 3 }, { type: 'tool_result', name: 'search' }],
  ['tool_result does not carry input', 'tool_result', { name: 'search', input }, { type: 'tool_result', name: 'search' }],
  [
    'provenance needs engine and model',
    'provenance',
    { engine: 'loop', model: 'm-1' },
    { type: 'provenance', engine: 'loop', model: 'm-1' },
  ],
  [
    'provenance keeps a string accountRoute',
    'provenance',
    { engine: 'loop', model: 'm-1', accountRoute: 'team' },
    { type: 'provenance', engine: 'loop', model: 'm-1', accountRoute: 'team' },
  ],
  [
    'provenance keeps accountRoute null',
    'provenance',
    { engine: 'loop', model: 'm-1', accountRoute: null },
    { type: 'provenance', engine: 'loop', model: 'm-1', accountRoute: null },
  ],
  [
    'provenance drops any other accountRoute',
    'provenance',
    { engine: 'loop', model: 'm-1', accountRoute: 4 },
    { type: 'provenance', engine: 'loop', model: 'm-1' },
  ],
  ['provenance accepts empty strings', 'provenance', { engine: '', model: '' }, { type: 'provenance', engine: '', model: '' }],
  ['card passes the card object through', 'card', { card, extra: 1 }, { type: 'card', card }],
  ['card_closed keeps correlationId', 'card_closed', { correlationId: 'card-1' }, { type: 'card_closed', correlationId: 'card-1' }],
  [
    'card_closed does not carry the v1 resolution',
    'card_closed',
    { correlationId: 'card-1', resolution: 'submitted' },
    { type: 'card_closed', correlationId: 'card-1' },
  ],
  ['state keeps a number version and the snapshot as given', 'state', { version: 3, snapshot }, { type: 'state', version: 3, snapshot }],
  ['state reads a missing version as 0', 'state', { snapshot }, { type: 'state', version: 0, snapshot }],
  ['state reads a string version as 0', 'state', { version: '3', snapshot }, { type: 'state', version: 0, snapshot }],
  ['state keeps any number version, even a negative fraction', 'state', { version: -1.5 }, { type: 'state', version: -1.5 }],
  ['state keeps snapshot null', 'state', { version: 1, snapshot: null }, { type: 'state', version: 1, snapshot: null }],
  ['state omits an undefined snapshot', 'state', { version: 1 }, { type: 'state', version: 1 }],
  ['state with no data is version 0 without snapshot', 'state', undefined, { type: 'state', version: 0 }],
  ['done needs nothing', 'done', {}, { type: 'done' }],
  ['done keeps a string stopReason', 'done', { stopReason: 'complete' }, { type: 'done', stopReason: 'complete' }],
  ['done keeps a usage object', 'done', { stopReason: 'complete', usage }, { type: 'done', stopReason: 'complete', usage }],
  ['done drops a non-string stopReason', 'done', { stopReason: 1 }, { type: 'done' }],
  ['done drops a usage array', 'done', { usage: Object.assign([1, 2], { totalTokens: 3 }) }, { type: 'done' }],
  ['done drops usage null', 'done', { usage: null }, { type: 'done' }],
  ['done drops a usage number', 'done', { usage: 12 }, { type: 'done' }],
  ['done does not carry the v1 status', 'done', { status: 'completed' }, { type: 'done' }],
  ['error keeps a string message', 'error', { message: 'boom' }, { type: 'error', message: 'boom' }],
  ['error keeps an empty message', 'error', { message: '' }, { type: 'error', message: '' }],
  ['error without a message is never lost', 'error', {}, { type: 'error', message: 'stream error' }],
  ['error with a non-string message is never lost', 'error', { message: { text: 'x' } }, { type: 'error', message: 'stream error' }],
  ['error with null data is never lost', 'error', null, { type: 'error', message: 'stream error' }],
  ['error does not carry code or retryable', 'error', { message: 'boom', code: 'x', retryable: true }, { type: 'error', message: 'boom' }],
  ['navigate keeps href', 'navigate', { href: '/orders/1' }, { type: 'navigate', href: '/orders/1' }],
  // Legacy is unchanged: it does not apply the v1 safe-href rule; the host vets href.
  [
    'navigate keeps any string href as given',
    'navigate',
    { href: 'javascript:alert(1)' },
    { type: 'navigate', href: 'javascript:alert(1)' },
  ],
  [
    'an array as data reads as {}, even one carrying fields',
    'done',
    Object.assign([{ stopReason: 'x' }], { stopReason: 'x' }),
    { type: 'done' },
  ],
  ['a string as data reads as {}', 'error', 'boom', { type: 'error', message: 'stream error' }],
  ['a number as data reads as {}', 'state', 7, { type: 'state', version: 0 }],
  ['a function as data reads as {}', 'done', () => ({ stopReason: 'x' }), { type: 'done' }],
  [
    'a null-prototype object is read like any object',
    'delta',
    Object.assign(Object.create(null) as object, { text: 'x' }),
    { type: 'delta', text: 'x' },
  ],
];

describe('parseChatEvent: accepted frames', () => {
  it.each(accepted)('§3.8 %s', (_rule, eventName, data, expected) => {
    const result = parseChatEvent(eventName, data);
    expect(result).toEqual(expected);
    // toEqual ignores undefined-valued keys; this pins their absence too.
    expect(result).toStrictEqual(expected);
    expect(result).not.toBe(data);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });

  it('§3.8 every one of the eleven names has an accepted frame above', () => {
    expect(new Set(accepted.map(([, eventName]) => eventName))).toEqual(new Set(ALL_NAMES));
  });

  it('§3.8 card.card, input, usage and snapshot pass through as the same values', () => {
    expect(parseChatEvent('card', { card })).toEqual({ type: 'card', card });
    expect((parseChatEvent('card', { card }) as Extract<ChatEvent, { type: 'card' }>).card).toBe(card);
    expect((parseChatEvent('tool_call', { name: 't', input }) as Extract<ChatEvent, { type: 'tool_call' }>).input).toBe(input);
    expect((parseChatEvent('done', { usage }) as Extract<ChatEvent, { type: 'done' }>).usage).toBe(usage);
    expect((parseChatEvent('state', { snapshot }) as Extract<ChatEvent, { type: 'state' }>).snapshot).toBe(snapshot);
  });

  it('§3.8 the data is never mutated', () => {
    const data = { type: 'tool_result', name: 'search', ok: 'yes', extra: [1] };
    const before = structuredClone(data);
    expect(parseChatEvent('tool_result', data)).toEqual({ type: 'tool_result', name: 'search' });
    expect(data).toStrictEqual(before);
  });
});

type Refused = [rule: string, eventName: string, data: unknown];

const refusedNames: Refused[] = [
  ['retired token', 'token', { content: 'x', text: 'x' }],
  ['retired tool_start', 'tool_start', { tool: 'search', name: 'search' }],
  ['heartbeat', 'heartbeat', {}],
  ["a product's event", 'products', { items: [] }],
  ['the v1-only reasoning', 'reasoning', { text: 'x' }],
  ['an empty name', '', { text: 'x' }],
  ['__proto__ as a name', '__proto__', { text: 'x' }],
  ['toString as a name', 'toString', {}],
  ['constructor as a name', 'constructor', {}],
  ['hasOwnProperty as a name', 'hasOwnProperty', {}],
  ['a name in another case', 'Delta', { text: 'x' }],
  ['a name with spaces', ' delta', { text: 'x' }],
];

const refusedFrames: Refused[] = [
  ['a string type that differs from the name', 'delta', { type: 'token', text: 'x' }],
  ['a type differing only in case', 'error', { type: 'Error', message: 'x' }],
  ['an empty string type', 'done', { type: '' }],
  ['session without sessionId', 'session', {}],
  ['session with a numeric sessionId', 'session', { sessionId: 1 }],
  ['session with null data', 'session', null],
  ['delta without text', 'delta', {}],
  ['delta with the scout field content', 'delta', { content: 'x' }],
  ['delta with null text', 'delta', { text: null }],
  ['delta with an array as data, even one carrying text', 'delta', Object.assign(['x'], { text: 'x' })],
  ['tool_call without name', 'tool_call', { callId: 'c' }],
  ['tool_call with an empty name', 'tool_call', { name: '' }],
  ['tool_call with a non-string name', 'tool_call', { name: ['search'] }],
  ['tool_result with an empty name', 'tool_result', { name: '', ok: true }],
  ['tool_result without name', 'tool_result', { ok: true }],
  ['provenance without model', 'provenance', { engine: 'loop' }],
  ['provenance with a non-string engine', 'provenance', { engine: 1, model: 'm' }],
  ['card without card', 'card', { correlationId: 'c', prompt: 'p' }],
  ['card with a null card', 'card', { card: null }],
  ['card with an array card, even one carrying the fields', 'card', { card: Object.assign([card], { correlationId: 'c', prompt: 'p' }) }],
  ['card with a string card', 'card', { card: JSON.stringify(card) }],
  ['card without correlationId', 'card', { card: { prompt: 'p' } }],
  ['card without a string prompt', 'card', { card: { correlationId: 'c', prompt: 1 } }],
  ['card_closed without correlationId', 'card_closed', { resolution: 'submitted' }],
  ['navigate without href', 'navigate', {}],
  ['navigate with a non-string href', 'navigate', { href: { pathname: '/' } }],
];

describe('parseChatEvent: refusals', () => {
  it.each(refusedNames)('§3.8 an unknown or retired name gives null: %s', (_rule, eventName, data) => {
    expect(parseChatEvent(eventName, data)).toBe(null);
  });

  it.each(refusedFrames)('§3.8 a frame missing its required field gives null: %s', (_rule, eventName, data) => {
    expect(parseChatEvent(eventName, data)).toBe(null);
  });
});

describe('parseChatEvent: hostile data (§2.7)', () => {
  const throwing = (): never => {
    throw new Error('hostile');
  };

  it('a getter that throws gives null', () => {
    expect(
      parseChatEvent('delta', {
        get text(): string {
          return throwing();
        },
      }),
    ).toBe(null);
    expect(
      parseChatEvent('error', {
        get message(): string {
          return throwing();
        },
      }),
    ).toBe(null);
  });

  it('a getter that throws on the type gives null', () => {
    expect(
      parseChatEvent('done', {
        get type(): string {
          return throwing();
        },
      }),
    ).toBe(null);
  });

  it('a card whose getter throws gives null', () => {
    expect(
      parseChatEvent('card', {
        card: {
          correlationId: 'c',
          get prompt(): string {
            return throwing();
          },
        },
      }),
    ).toBe(null);
  });

  it('a Proxy whose traps throw gives null', () => {
    const hostile = new Proxy({}, { get: throwing, getOwnPropertyDescriptor: throwing, has: throwing });
    for (const eventName of ALL_NAMES) expect(parseChatEvent(eventName, hostile)).toBe(null);
  });

  it('a revoked Proxy gives null', () => {
    const { proxy, revoke } = Proxy.revocable({ text: 'x' }, {});
    revoke();
    expect(parseChatEvent('delta', proxy)).toBe(null);
    expect(parseChatEvent('done', { usage: proxy })).toBe(null);
  });

  it('a working Proxy is read through its own properties', () => {
    const proxy = new Proxy({ text: 'x' }, {});
    expect(parseChatEvent('delta', proxy)).toEqual({ type: 'delta', text: 'x' });
  });

  it('a field inherited from a polluted Object.prototype never counts', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype['text'] = 'injected';
    prototype['message'] = 'injected';
    try {
      expect(parseChatEvent('delta', {})).toBe(null);
      expect(parseChatEvent('error', {})).toEqual({ type: 'error', message: 'stream error' });
    } finally {
      delete prototype['text'];
      delete prototype['message'];
    }
  });

  it('a __proto__ own key (JSON.parse) neither pollutes nor leaks into the result', () => {
    const frames: [ChatEventType, string][] = [
      ['session', '{"__proto__":{"polluted":1},"sessionId":"s"}'],
      ['delta', '{"__proto__":{"polluted":1,"text":"x"},"text":"y"}'],
      ['tool_call', '{"name":"t","__proto__":{"polluted":1},"input":{"__proto__":{"polluted":1}}}'],
      ['tool_result', '{"__proto__":{"polluted":1,"ok":true},"name":"t"}'],
      ['provenance', '{"__proto__":{"polluted":1},"engine":"e","model":"m"}'],
      ['card', '{"card":{"__proto__":{"polluted":1},"correlationId":"c","prompt":"p"}}'],
      ['card_closed', '{"__proto__":{"polluted":1},"correlationId":"c"}'],
      ['state', '{"__proto__":{"polluted":1},"snapshot":{"__proto__":{"polluted":1}}}'],
      ['done', '{"__proto__":{"polluted":1},"usage":{"__proto__":{"polluted":1}}}'],
      ['error', '{"__proto__":{"polluted":1,"message":"m"}}'],
      ['navigate', '{"__proto__":{"polluted":1},"href":"/"}'],
    ];
    for (const [eventName, json] of frames) {
      const data: unknown = JSON.parse(json);
      const result = parseChatEvent(eventName, data);
      expect(result?.type).toBe(eventName);
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      expect(Object.keys(result ?? {})).not.toContain('__proto__');
      expect(({} as Record<string, unknown>)['polluted']).toBe(undefined);
    }
    expect(parseChatEvent('delta', JSON.parse('{"__proto__":{"text":"x"}}'))).toBe(null);
    expect(parseChatEvent('error', JSON.parse('{"__proto__":{"message":"m"}}'))).toEqual({ type: 'error', message: 'stream error' });
  });

  it('deep nesting is passed through without being walked', () => {
    let deep: unknown = { end: true };
    for (let depth = 0; depth < 100_000; depth += 1) deep = { next: deep };
    expect(parseChatEvent('state', { snapshot: deep })).toEqual({ type: 'state', version: 0, snapshot: deep });
  });
});

describe('channel lists', () => {
  it('§3.8 EVENT_CHANNEL_TYPES are session, delta, tool_call, tool_result, provenance, done, error', () => {
    expect(EVENT_CHANNEL_TYPES).toEqual(['session', 'delta', 'tool_call', 'tool_result', 'provenance', 'done', 'error']);
  });

  it('§3.8 STATE_CHANNEL_TYPES are card, card_closed, state', () => {
    expect(STATE_CHANNEL_TYPES).toEqual(['card', 'card_closed', 'state']);
  });

  it('§3.8 TRANSIENT_CHANNEL_TYPES are navigate', () => {
    expect(TRANSIENT_CHANNEL_TYPES).toEqual(['navigate']);
  });

  it('§3.8 the three lists partition the event types exactly', () => {
    const listed = [...EVENT_CHANNEL_TYPES, ...STATE_CHANNEL_TYPES, ...TRANSIENT_CHANNEL_TYPES];
    expect([...listed].sort()).toEqual([...ALL_NAMES].sort());
    expect(new Set(listed).size).toBe(listed.length);
    expectTypeOf<(typeof listed)[number]>().toEqualTypeOf<ChatEventType>();
    expectTypeOf<ChatEvent>().toEqualTypeOf<LegacyChatEvent>();
  });

  it.each(ALL_NAMES)('§3.8 channel of %s: state-channel and replayable flags', (type) => {
    const onState = (STATE_CHANNEL_TYPES as readonly string[]).includes(type);
    const onEvent = (EVENT_CHANNEL_TYPES as readonly string[]).includes(type);
    expect({ state: isStateChannelEvent(type), replayable: isReplayableEvent(type) }).toEqual({ state: onState, replayable: onEvent });
  });

  it('§3.8 only the event channel replays: state and transient types are not replayable', () => {
    expect(ALL_NAMES.filter((type) => isReplayableEvent(type))).toEqual([...EVENT_CHANNEL_TYPES]);
    expect(isReplayableEvent('navigate')).toBe(false);
    expect(isReplayableEvent('card')).toBe(false);
    expect(isStateChannelEvent('navigate')).toBe(false);
  });

  it('§3.8 the channel guards are false for names that are not event types', () => {
    for (const value of ['token', '__proto__', 'toString', '']) {
      expect(isStateChannelEvent(value as ChatEventType)).toBe(false);
      expect(isReplayableEvent(value as ChatEventType)).toBe(false);
    }
  });

  it.each(ALL_NAMES)('§3.8 isChatEventType accepts %s', (type) => {
    expect(isChatEventType(type)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['token', 'token'],
    ['tool_start', 'tool_start'],
    ['reasoning', 'reasoning'],
    ['empty string', ''],
    ['__proto__', '__proto__'],
    ['toString', 'toString'],
    ['constructor', 'constructor'],
    ['undefined', undefined],
    ['null', null],
    ['a number', 1],
    ['an object with a type', { type: 'delta' }],
    ['an array with a name', ['delta']],
    ['a boxed string', Object('delta')],
  ])('§3.8 isChatEventType refuses %s', (_label, value) => {
    expect(isChatEventType(value)).toBe(false);
  });
});

describe('parseChatEvent: properties (§2.1, §2.7)', () => {
  const FIELD_NAMES = [
    'type',
    'sessionId',
    'text',
    'name',
    'callId',
    'input',
    'ok',
    'summary',
    'engine',
    'model',
    'accountRoute',
    'card',
    'correlationId',
    'prompt',
    'version',
    'snapshot',
    'stopReason',
    'usage',
    'message',
    'href',
    '__proto__',
    'constructor',
  ] as const;

  const ALLOWED_KEYS: Record<ChatEventType, readonly string[]> = {
    session: ['type', 'sessionId'],
    delta: ['type', 'text'],
    tool_call: ['type', 'name', 'input', 'callId'],
    tool_result: ['type', 'name', 'callId', 'ok', 'summary'],
    provenance: ['type', 'engine', 'model', 'accountRoute'],
    card: ['type', 'card'],
    card_closed: ['type', 'correlationId'],
    state: ['type', 'version', 'snapshot'],
    done: ['type', 'stopReason', 'usage'],
    error: ['type', 'message'],
    navigate: ['type', 'href'],
  };

  const eventName = fc.oneof(
    fc.constantFrom(...ALL_NAMES),
    fc.constantFrom('token', 'tool_start', 'heartbeat', 'products', '', '__proto__', 'toString', 'constructor', 'reasoning'),
    fc.string(),
    fc.string({ unit: 'binary' }),
  );

  const anyValue = fc.oneof(
    fc.anything({ withNullPrototype: true, withObjectString: true, withBoxedValues: true, withSparseArray: true }),
    fc.string({ unit: 'binary' }),
    fc.jsonValue(),
  );

  // Values that reach the accept paths: the right field names with plausible or junk values.
  const fieldValue = fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.string({ unit: 'binary', maxLength: 4 }),
    fc.constant(''),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.double(),
    fc.record({ correlationId: fc.string(), prompt: fc.string() }),
    anyValue,
  );
  const frameData = fc.dictionary(fc.constantFrom(...FIELD_NAMES), fieldValue, { maxKeys: 6 });
  const withMatchingType = fc.tuple(fc.constantFrom(...ALL_NAMES), frameData);

  // JSON.parse keeps "__proto__" as an own key, with arbitrary members inside.
  const protoJson = fc
    .tuple(fc.jsonValue(), fc.dictionary(fc.constantFrom(...FIELD_NAMES), fc.jsonValue(), { maxKeys: 4 }))
    .map(([inner, outer]) => {
      const body = JSON.stringify(outer).slice(1, -1);
      return JSON.parse(`{"__proto__":${JSON.stringify(inner) ?? 'null'}${body === '' ? '' : `,${body}`}}`) as unknown;
    });

  const deep = fc.integer({ min: 1, max: 5_000 }).map((depth) => {
    let value: unknown = { text: 'leaf' };
    for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { snapshot: value, usage: value, card: value };
    return value;
  });

  const data = fc.oneof(anyValue, frameData, protoJson, deep);

  function checkInvariants(name: string, input: unknown, result: LegacyChatEvent | null): void {
    if (result === null) return;
    expect(result.type).toBe(name);
    expect(result).not.toBe(input);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    for (const key of Object.keys(result)) {
      expect(ALLOWED_KEYS[result.type]).toContain(key);
      expect((result as unknown as Record<string, unknown>)[key]).not.toBe(undefined);
    }
  }

  it('never throws, keeps type = name, emits no undefined key and no unknown key', () => {
    fc.assert(
      fc.property(eventName, data, (name, input) => {
        checkInvariants(name, input, parseChatEvent(name, input));
        expect(({} as Record<string, unknown>)['polluted']).toBe(undefined);
      }),
      { numRuns: runs(2_000) },
    );
  });

  it('frames under a real name: never throws, a disagreeing type is null, error/state/done are never lost otherwise', () => {
    fc.assert(
      fc.property(withMatchingType, fc.boolean(), ([name, fields], stampType) => {
        const input: unknown = stampType ? { ...fields, type: name } : fields;
        const result = parseChatEvent(name, input);
        checkInvariants(name, input, result);
        const declared = Object.prototype.hasOwnProperty.call(input, 'type') ? (input as { type: unknown }).type : undefined;
        const typeAgrees = typeof declared !== 'string' || declared === name;
        if (!typeAgrees) expect(result).toBe(null);
        // error, state and done have no required field: they are refused only for a disagreeing type.
        else if (name === 'error' || name === 'state' || name === 'done') expect(result).not.toBe(null);
      }),
      { numRuns: runs(2_000) },
    );
  });

  it('prototype pollution never happens through __proto__ frames', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALL_NAMES), fc.jsonValue(), (name, extra) => {
        const json = `{"__proto__":{"polluted":1,"type":"${name}"},"extra":${JSON.stringify(extra) ?? 'null'}}`;
        parseChatEvent(name, JSON.parse(json));
        expect(({} as Record<string, unknown>)['polluted']).toBe(undefined);
        expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
      }),
      { numRuns: runs(2_000) },
    );
  });
});
