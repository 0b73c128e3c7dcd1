import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopeArb, mutate, mutationArb } from '../../../../test-support/v1-arbitraries.js';
import { envelopeOf, VALID_EVENTS } from '../../test/envelopes.js';
import { CHAT_LIMITS } from '../primitives/limits.js';
import { parseChatEnvelope } from './parse-chat-envelope.js';
import { runs } from '../../../../test-support/property-runs.js';

const codeOf = (input: unknown) => {
  const result = parseChatEnvelope(input);
  return result.ok ? 'ok' : result.code;
};

describe('parseChatEnvelope: every event type is accepted in a valid form (DESIGN §3.3)', () => {
  it.each(VALID_EVENTS.map((event) => [`${event.type} ${JSON.stringify(event).slice(0, 60)}`, event]))('%s', (_name, event) => {
    const envelope = envelopeOf(event);
    expect(parseChatEnvelope(JSON.stringify(envelope))).toEqual({ ok: true, value: envelope });
    expect(parseChatEnvelope(envelope)).toEqual({ ok: true, value: envelope });
  });

  it('returns a fresh object, not the input', () => {
    const envelope = envelopeOf({ type: 'delta', text: 'x' });
    const result = parseChatEnvelope(envelope);
    expect(result.ok && result.value).not.toBe(envelope);
  });
});

describe('parseChatEnvelope: each event type refused with a missing or wrong field', () => {
  const cases: [string, Record<string, unknown>, (string | number)[]][] = [
    ['delta without text', { type: 'delta' }, ['event', 'text']],
    ['delta with numeric text', { type: 'delta', text: 42 }, ['event', 'text']],
    ['delta with text past the bound', { type: 'delta', text: 'x'.repeat(CHAT_LIMITS.maxTextLength + 1) }, ['event', 'text']],
    ['delta with a NUL character', { type: 'delta', text: 'a\u0000b' }, ['event', 'text']],
    ['delta with a lone high surrogate', { type: 'delta', text: 'a\ud83d' }, ['event', 'text']],
    ['delta with a lone low surrogate', { type: 'delta', text: '\ude00b' }, ['event', 'text']],
    ['reasoning without text', { type: 'reasoning' }, ['event', 'text']],
    ['user_input with empty text (a person never sends nothing)', { type: 'user_input', text: '' }, ['event', 'text']],
    ['user_input with text past the bound', { type: 'user_input', text: 't'.repeat(CHAT_LIMITS.maxTextLength + 1) }, ['event', 'text']],
    [
      'user_input with source voice_tts (that is the assistant speaking)',
      { type: 'user_input', text: 'hi', source: 'voice_tts' },
      ['event', 'source'],
    ],
    ['user_input with an unknown key', { type: 'user_input', text: 'hi', role: 'user' }, ['event', 'role']],
    ['tool_call without callId', { type: 'tool_call', name: 'search' }, ['event', 'callId']],
    ['tool_call with an empty name', { type: 'tool_call', callId: 'c', name: '' }, ['event', 'name']],
    ['tool_call with a callId containing a space', { type: 'tool_call', callId: 'c 1', name: 'n' }, ['event', 'callId']],
    [
      'tool_call with a __proto__ key in input',
      { type: 'tool_call', callId: 'c', name: 'n', input: JSON.parse('{"__proto__":{"x":1}}') },
      ['event', 'input'],
    ],
    [
      'tool_call with a constructor key in input',
      { type: 'tool_call', callId: 'c', name: 'n', input: { a: { constructor: 1 } } },
      ['event', 'input'],
    ],
    ['tool_result without status', { type: 'tool_result', callId: 'c', name: 'n' }, ['event', 'status']],
    ['tool_result with status ok', { type: 'tool_result', callId: 'c', name: 'n', status: 'ok' }, ['event', 'status']],
    [
      'tool_result with a summary past the bound',
      { type: 'tool_result', callId: 'c', name: 'n', status: 'failed', summary: 's'.repeat(CHAT_LIMITS.maxSummaryLength + 1) },
      ['event', 'summary'],
    ],
    [
      'tool_result with a block of unknown kind',
      { type: 'tool_result', callId: 'c', name: 'n', status: 'succeeded', blocks: [{ kind: 'html', html: '<b>' }] },
      ['event', 'blocks', 0, 'kind'],
    ],
    [
      'tool_result with a source without ref',
      {
        type: 'tool_result',
        callId: 'c',
        name: 'n',
        status: 'succeeded',
        blocks: [{ kind: 'text', text: 't', sources: [{ label: 'x' }] }],
      },
      ['event', 'blocks', 0, 'sources', 0, 'ref'],
    ],
    [
      'tool_result with an unknown key in a source',
      {
        type: 'tool_result',
        callId: 'c',
        name: 'n',
        status: 'succeeded',
        blocks: [{ kind: 'text', text: 't', sources: [{ ref: 'r', href: 'javascript:x' }] }],
      },
      ['event', 'blocks', 0, 'sources', 0, 'href'],
    ],
    [
      'tool_result with too many blocks',
      {
        type: 'tool_result',
        callId: 'c',
        name: 'n',
        status: 'succeeded',
        blocks: Array.from({ length: CHAT_LIMITS.maxBlocks + 1 }, () => ({ kind: 'text', text: '' })),
      },
      ['event', 'blocks'],
    ],
    ['provenance without model', { type: 'provenance', engine: 'e' }, ['event', 'model']],
    ['provenance with numeric accountRoute', { type: 'provenance', engine: 'e', model: 'm', accountRoute: 1 }, ['event', 'accountRoute']],
    ['card without card', { type: 'card' }, ['event', 'card']],
    ['card_closed without correlationId', { type: 'card_closed' }, ['event', 'correlationId']],
    ['card_closed with resolution answered', { type: 'card_closed', correlationId: 'c', resolution: 'answered' }, ['event', 'resolution']],
    ['state with a negative version', { type: 'state', version: -1, snapshot: {} }, ['event', 'version']],
    ['state with a fractional version', { type: 'state', version: 1.5, snapshot: {} }, ['event', 'version']],
    ['state without snapshot', { type: 'state', version: 1 }, ['event', 'snapshot']],
    ['navigate to javascript:', { type: 'navigate', href: 'javascript:alert(1)' }, ['event', 'href']],
    ['navigate to http:', { type: 'navigate', href: 'http://example.com/' }, ['event', 'href']],
    ['navigate to a protocol-relative URL', { type: 'navigate', href: '//evil.example/x' }, ['event', 'href']],
    ['navigate to a backslash path', { type: 'navigate', href: '/\\evil.example' }, ['event', 'href']],
    ['navigate to a relative path', { type: 'navigate', href: 'orders/42' }, ['event', 'href']],
    ['navigate to an https: URL with credentials', { type: 'navigate', href: 'https://user@evil.example/' }, ['event', 'href']],
    ['navigate to a data: URL', { type: 'navigate', href: 'data:text/html,<b>' }, ['event', 'href']],
    ['navigate with a space in the path', { type: 'navigate', href: '/a b' }, ['event', 'href']],
    ['done without status', { type: 'done' }, ['event', 'status']],
    ['done with status failed', { type: 'done', status: 'failed' }, ['event', 'status']],
    ['done with array usage', { type: 'done', status: 'completed', usage: [] }, ['event', 'usage']],
    [
      'done with usage totalTokens "ten" (issue 13)',
      { type: 'done', status: 'completed', usage: { totalTokens: 'ten' } },
      ['event', 'usage', 'totalTokens'],
    ],
    [
      'done with an unknown usage key (issue 13)',
      { type: 'done', status: 'completed', usage: { totalTokens: 3, cacheTokens: 1 } },
      ['event', 'usage', 'cacheTokens'],
    ],
    [
      'done with negative inputTokens (issue 13)',
      { type: 'done', status: 'completed', usage: { inputTokens: -1 } },
      ['event', 'usage', 'inputTokens'],
    ],
    [
      'done with fractional outputTokens (issue 13)',
      { type: 'done', status: 'completed', usage: { outputTokens: 1.5 } },
      ['event', 'usage', 'outputTokens'],
    ],
    [
      'done with totalTokens past a safe integer (issue 13)',
      { type: 'done', status: 'completed', usage: { totalTokens: 2 ** 53 } },
      ['event', 'usage', 'totalTokens'],
    ],
    [
      'done with a negative costUsd (issue 13)',
      { type: 'done', status: 'completed', usage: { costUsd: -0.01 } },
      ['event', 'usage', 'costUsd'],
    ],
    [
      'done with a string costUsd (issue 13)',
      { type: 'done', status: 'completed', usage: { costUsd: '0.01' } },
      ['event', 'usage', 'costUsd'],
    ],
    ['error without retryable', { type: 'error', code: 'x', message: 'm' }, ['event', 'retryable']],
    ['error with an empty message', { type: 'error', code: 'x', message: '', retryable: false }, ['event', 'message']],
    [
      'error with retryAfterMs but not retryable',
      { type: 'error', code: 'x', message: 'm', retryable: false, retryAfterMs: 10 },
      ['event', 'retryAfterMs'],
    ],
    [
      'error with retryAfterMs past a day',
      { type: 'error', code: 'x', message: 'm', retryable: true, retryAfterMs: CHAT_LIMITS.maxRetryAfterMs + 1 },
      ['event', 'retryAfterMs'],
    ],
  ];
  it.each(cases)('%s → invalid-event at the field', (_name, event, path) => {
    const result = parseChatEnvelope(JSON.stringify(envelopeOf(event)));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.code).toBe('invalid-event');
    expect(result.issues?.[0]?.path).toEqual(path);
  });

  it.each([
    ['an object', { query: 'boots', limit: 3 }],
    ['a string', 'search boots'],
    ['an array', ['boots', 3]],
    ['a number', 42],
    ['null', null],
    ['a boolean', false],
  ])('issue 13: tool_call.input may be any bounded JSON value: %s is kept as sent', (_name, input) => {
    const result = parseChatEnvelope(JSON.stringify(envelopeOf({ type: 'tool_call', callId: 'c', name: 'n', input })));
    expect(result).toEqual({ ok: true, value: envelopeOf({ type: 'tool_call', callId: 'c', name: 'n', input }) });
  });

  it('issue 13: done.usage is typed: every field, each at its bound, is accepted as sent', () => {
    const usage = { inputTokens: 0, outputTokens: 20, totalTokens: Number.MAX_SAFE_INTEGER, costUsd: 0.0125 };
    const result = parseChatEnvelope(JSON.stringify(envelopeOf({ type: 'done', status: 'completed', usage })));
    expect(result).toEqual({ ok: true, value: envelopeOf({ type: 'done', status: 'completed', usage }) });
    expect(codeOf(envelopeOf({ type: 'done', status: 'completed', usage: {} }))).toBe('ok');
  });

  it('an unknown event type is unknown-event', () => {
    expect(codeOf(envelopeOf({ type: 'token', content: 'x' }))).toBe('unknown-event');
    expect(codeOf(envelopeOf({ type: '__proto__' }))).toBe('unknown-event');
    expect(codeOf(envelopeOf({ type: 'toString' }))).toBe('unknown-event');
    expect(codeOf(envelopeOf({ text: 'no type' }))).toBe('unknown-event');
  });

  it('an event that is not an object is invalid-event', () => {
    expect(codeOf(envelopeOf('delta' as unknown as Record<string, unknown>))).toBe('invalid-event');
    expect(codeOf(envelopeOf([] as unknown as Record<string, unknown>))).toBe('invalid-event');
  });
});

describe('parseChatEnvelope: the envelope (DESIGN §3.2)', () => {
  it('refuses unknown properties on the envelope as invalid-envelope', () => {
    const result = parseChatEnvelope(envelopeOf({ type: 'delta', text: 'x' }, { userId: 'u1' }));
    expect(result).toEqual({
      ok: false,
      code: 'invalid-envelope',
      message: 'userId: unknown property',
      issues: [{ path: ['userId'], message: 'unknown property' }],
    });
  });

  it('refuses unknown properties on the event as invalid-event', () => {
    const result = parseChatEnvelope(envelopeOf({ type: 'delta', text: 'x', secret: 'leak' }));
    expect(result).toEqual({
      ok: false,
      code: 'invalid-event',
      message: 'event.secret: unknown property',
      issues: [{ path: ['event', 'secret'], message: 'unknown property' }],
    });
  });

  it('refuses a __proto__ key on the envelope without polluting anything', () => {
    const text = JSON.stringify(envelopeOf({ type: 'delta', text: 'x' })).replace('{', '{"__proto__":{"polluted":true},');
    expect(codeOf(text)).toBe('invalid-envelope');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each([
    ['missing', undefined],
    ['0', 0],
    ['2', 2],
    ['"1"', '1'],
    ['null', null],
  ])('an envelope with schemaVersion %s is unsupported-version', (_name, schemaVersion) => {
    expect(codeOf(envelopeOf({ type: 'delta', text: 'x' }, { schemaVersion }))).toBe('unsupported-version');
  });

  it('an unversioned legacy frame is unsupported-version', () => {
    expect(codeOf('{"type":"delta","text":"hi"}')).toBe('unsupported-version');
    expect(codeOf({ sessionId: 's1' })).toBe('unsupported-version');
  });

  it.each([
    ['conversationId empty', { conversationId: '' }],
    ['conversationId too long', { conversationId: 'c'.repeat(CHAT_LIMITS.maxIdLength + 1) }],
    ['turnId with a space', { turnId: 'turn 1' }],
    ['turnId with a non-ASCII character', { turnId: 'tür' }],
    ['eventId with a newline', { eventId: 'evt\n1' }],
    ['eventId missing', { eventId: undefined }],
    ['seq 0', { seq: 0 }],
    ['seq negative', { seq: -1 }],
    ['seq fractional', { seq: 1.5 }],
    ['seq unsafe', { seq: Number.MAX_SAFE_INTEGER + 1 }],
    ['seq as a string', { seq: '1' }],
    ['occurredAt without a zone', { occurredAt: '2026-11-29T12:00:00' }],
    ['occurredAt with -00:00 (offset unknown)', { occurredAt: '2026-11-29T12:00:00-00:00' }],
    ['occurredAt as a date only', { occurredAt: '2026-11-29' }],
    ['occurredAt on February 30', { occurredAt: '2026-02-30T12:00:00Z' }],
    ['occurredAt on February 29 of a common year', { occurredAt: '2026-02-29T12:00:00Z' }],
    ['occurredAt at hour 24', { occurredAt: '2026-11-29T24:00:00Z' }],
    ['occurredAt with a space separator', { occurredAt: '2026-11-29 12:00:00Z' }],
    ['occurredAt as epoch milliseconds', { occurredAt: 1764417600000 }],
    ['event missing', { event: undefined }],
  ])('%s is invalid-envelope', (_name, overrides) => {
    expect(codeOf(envelopeOf({ type: 'delta', text: 'x' }, overrides))).toBe('invalid-envelope');
  });

  it.each([
    ['Z with fraction', '2026-11-29T12:00:00.123456789Z'],
    ['a positive offset', '2026-11-29T12:00:00+05:30'],
    ['a negative offset', '2024-02-29T23:59:59-08:00'],
  ])('accepts occurredAt with %s', (_name, occurredAt) => {
    expect(codeOf(envelopeOf({ type: 'delta', text: 'x' }, { occurredAt }))).toBe('ok');
  });

  it('accepts ids of exactly 256 printable characters and with colons', () => {
    expect(codeOf(envelopeOf({ type: 'delta', text: 'x' }, { turnId: 't:'.repeat(128) }))).toBe('ok');
  });
});

describe('parseChatEnvelope: hostile and malformed input', () => {
  it.each([
    ['not JSON', '{"schemaVersion":1,'],
    ['empty string', ''],
    ['a BigInt', 10n],
    [
      'a cycle',
      (() => {
        const cycle: Record<string, unknown> = {};
        cycle['self'] = cycle;
        return cycle;
      })(),
    ],
    [
      'a throwing getter',
      {
        get schemaVersion(): number {
          throw new Error('boom');
        },
      },
    ],
    ['undefined', undefined],
  ])('%s is invalid-json', (_name, input) => {
    expect(codeOf(input)).toBe('invalid-json');
  });

  it('a string longer than maxEnvelopeLength is too-large before any parse', () => {
    expect(codeOf(' '.repeat(CHAT_LIMITS.maxEnvelopeLength + 1))).toBe('too-large');
  });

  it('JSON nested deeper than maxJsonDepth in a payload is invalid-event', () => {
    let snapshot: unknown = 1;
    for (let depth = 0; depth <= CHAT_LIMITS.maxJsonDepth; depth++) snapshot = [snapshot];
    expect(codeOf(envelopeOf({ type: 'state', version: 1, snapshot }))).toBe('invalid-event');
    expect(codeOf(envelopeOf({ type: 'state', version: 1, snapshot: (snapshot as unknown[])[0] }))).toBe('ok');
  });

  it('deep nesting near the size limit neither throws nor hangs', () => {
    const depth = 400_000;
    expect(codeOf(`${'['.repeat(depth)}${']'.repeat(depth)}`)).toBe('invalid-envelope');
  });

  it.each([null, 1, 'x', true, [], [1]])('a JSON %j that is not an object is invalid-envelope', (value) => {
    expect(codeOf(JSON.stringify(value))).toBe('invalid-envelope');
  });
});

describe('parseChatEnvelope never throws (issue 2 properties: 2,000 runs each, 20,000 in the soak)', () => {
  const hostileStringArb = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.string({ unit: fc.constantFrom('\ud800', '\udfff', '\u0000', '{', '[', '"', ':', ',', '}', ']', '\\', 'u') }),
    fc.json(),
    fc.jsonValue().map((value) => JSON.stringify(value).replace('{', '{"__proto__":{"polluted":1},')),
    fc.nat({ max: 2_000 }).map((depth) => '{"a":'.repeat(depth)),
  );

  it.each([
    ['3 MB of text', 'x'.repeat(3_000_000), 'too-large'],
    ['a JSON string of 600,000 lone surrogates', `"${'\ud800'.repeat(600_000)}"`, 'invalid-envelope'],
    ['100,000 unclosed objects', '{"a":'.repeat(100_000), 'invalid-json'],
    [
      'a 1 MB delta text full of lone surrogates',
      JSON.stringify({
        schemaVersion: 1,
        conversationId: 'c',
        turnId: 't',
        eventId: 'e',
        seq: 1,
        occurredAt: '2026-11-29T12:00:00Z',
        event: { type: 'delta', text: '\ud800'.repeat(170_000) },
      }),
      'invalid-event',
    ],
  ])('refuses %s with a typed code', (_name, text, code) => {
    expect(codeOf(text)).toBe(code);
  });

  it('for arbitrary strings', () => {
    fc.assert(
      fc.property(hostileStringArb, (text) => {
        const result = parseChatEnvelope(text);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: runs(2_000) },
    );
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('for arbitrary values, including near-valid envelopes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything({ withNullPrototype: true, withBigInt: true, withMap: true, withTypedArray: true }),
          envelopeArb.chain((envelope) => mutationArb.map((mutation) => mutate(envelope, mutation))),
        ),
        (value) => {
          const result = parseChatEnvelope(value);
          expect(typeof result.ok).toBe('boolean');
        },
      ),
      { numRuns: runs(2_000) },
    );
  });
});
