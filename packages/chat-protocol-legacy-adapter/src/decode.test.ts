import fc from 'fast-check';
import { CHAT_LIMITS, isSafeJson, parseChatEvent } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { dotted } from '../test/dotted-dialect.js';
import { anyFrameArb } from '../test/legacy-arbitraries.js';
import { decodeLegacyChatFrame, papercup, scout, type DecodeLegacyChatFrameRefusalCode, type LegacyDialect } from './index.js';
import { runs } from '../../../test-support/property-runs.js';

const json = (value: unknown) => JSON.stringify(value);

describe('decodeLegacyChatFrame reads each dialect into its typed events', () => {
  it.each([
    ['papercup delta', papercup, { event: 'delta', data: json({ text: '' }) }, { type: 'delta', text: '' }],
    [
      'papercup tool_call keeps input whatever it is, and callId only as a string',
      papercup,
      { event: 'tool_call', data: json({ name: 'search', input: 'free text', callId: 7 }) },
      { type: 'tool_call', name: 'search', input: 'free text' },
    ],
    [
      'papercup tool_result keeps ok only as a boolean',
      papercup,
      { event: 'tool_result', data: json({ name: 'search', ok: 'yes', summary: 'done' }) },
      { type: 'tool_result', name: 'search', summary: 'done' },
    ],
    ['papercup error without a message', papercup, { event: 'error', data: '{}' }, { type: 'error', message: 'stream error' }],
    [
      'issue 12: papercup plain-text error (Papercusp/agent-chat), the text its message',
      papercup,
      { event: 'error', data: 'boom' },
      { type: 'error', message: 'boom' },
    ],
    [
      'issue 12: papercup plain-text error with a control character, U+FFFD',
      papercup,
      { event: 'error', data: 'boom\u0007' },
      { type: 'error', message: 'boom\ufffd' },
    ],
    [
      'issue 12: an error’s unclean strings read as U+FFFD, not unsafe-json',
      scout,
      { data: json({ type: 'error', message: 'a\u0000', stderr: '\ud800' }) },
      { type: 'error', message: 'a\ufffd' },
    ],
    [
      'papercup error with the v1 extras',
      papercup,
      { event: 'error', data: json({ message: 'busy', code: 'rate-limited', retryable: true, retryAfterMs: 500 }) },
      { type: 'error', message: 'busy', code: 'rate-limited', retryable: true, retryAfterMs: 500 },
    ],
    ['papercup state without a numeric version', papercup, { event: 'state', data: json({ version: '3' }) }, { type: 'state', version: 0 }],
    [
      'papercup data that repeats its type',
      papercup,
      { event: 'delta', data: json({ type: 'delta', text: 'a' }) },
      { type: 'delta', text: 'a' },
    ],
    ['papercup data that is not an object reads as {}', papercup, { event: 'done', data: '[1,2]' }, { type: 'done' }],
    ['papercup heartbeat, data never read', papercup, { event: 'heartbeat', data: 'not json' }, { type: 'heartbeat' }],
    ['papercup session', papercup, { event: 'session', data: json({ sessionId: 's1' }) }, { type: 'session', sessionId: 's1' }],
    ['scout token', scout, { data: json({ type: 'token', content: 'Hi' }) }, { type: 'token', content: 'Hi' }],
    ['scout with SSE event message', scout, { event: 'message', data: json({ type: 'done' }) }, { type: 'done' }],
    [
      'scout with SSE event equal to the type',
      scout,
      { event: 'tool_start', data: json({ type: 'tool_start', tool: 'cart' }) },
      { type: 'tool_start', tool: 'cart' },
    ],
    ['dotted ping named by the SSE event, empty data', dotted, { event: 'ping', data: '' }, { type: 'ping' }],
    // Issue 12: the frames real producers (Papercusp/sse, scout-chat, chat-protocol) write.
    [
      'papercup heartbeat as @papercusp/sse writes it',
      papercup,
      { event: 'heartbeat', data: json({ tsMs: 1733040000000 }) },
      { type: 'heartbeat' },
    ],
    [
      'scout heartbeat as @papercusp/sse writes it, no type in the data',
      scout,
      { event: 'heartbeat', data: json({ tsMs: 1733040000000 }) },
      { type: 'heartbeat' },
    ],
    ['scout heartbeat named by the data', scout, { data: json({ type: 'heartbeat', tsMs: 1 }) }, { type: 'heartbeat' }],
    [
      'papercup session under the agent routes’ agentSessionId',
      papercup,
      { event: 'session', data: json({ agentSessionId: 's-1', created: true }) },
      { type: 'session', agentSessionId: 's-1' },
    ],
    ['papercup session without an id is still a session', papercup, { event: 'session', data: '{}' }, { type: 'session' }],
    [
      'scout session with a non-string id is still a session',
      scout,
      { data: json({ type: 'session', sessionId: 7 }) },
      { type: 'session' },
    ],
    [
      'scout error the SSE server writes for a failed setup, no type in the data',
      scout,
      { event: 'error', data: json({ phase: 'setup', message: 'catalog down' }) },
      { type: 'error', message: 'catalog down' },
    ],
    ['scout done the SSE server writes for a late join', scout, { event: 'done', data: json({ reason: 'completed' }) }, { type: 'done' }],
    ['scout done the SSE server writes without a payload', scout, { event: 'done', data: 'null' }, { type: 'done' }],
    [
      'scout error named by the SSE event and repeated in the data',
      scout,
      { event: 'error', data: json({ type: 'error', message: 'busy' }) },
      { type: 'error', message: 'busy' },
    ],
    [
      'papercup resync as @papercusp/sse writes it',
      papercup,
      { event: 'resync', data: json({ reason: 'gap', fromId: 3, floorId: 9, maxId: 20 }) },
      { type: 'resync', reason: 'gap', fromId: 3, floorId: 9, maxId: 20 },
    ],
    [
      'scout resync, no type in the data',
      scout,
      { event: 'resync', data: json({ reason: 'ahead', fromId: 40, floorId: 1, maxId: 12 }) },
      { type: 'resync', reason: 'ahead', fromId: 40, floorId: 1, maxId: 12 },
    ],
    [
      'scout state, a ChatEvent of the shared vocabulary',
      scout,
      { data: json({ type: 'state', version: 2, snapshot: { step: 'cart' } }) },
      { type: 'state', version: 2, snapshot: { step: 'cart' } },
    ],
    [
      'scout navigate, a ChatEvent of the shared vocabulary',
      scout,
      { data: json({ type: 'navigate', href: '/cart' }) },
      { type: 'navigate', href: '/cart' },
    ],
    ['dotted ping named by the data', dotted, { data: json({ kind: 'ping' }) }, { type: 'ping' }],
  ] as const)('%s', (_, dialect: LegacyDialect, frame, expected) => {
    expect(decodeLegacyChatFrame(frame, { dialect })).toEqual({ ok: true, value: expected });
  });

  it('passes a card through as the producer sent it, checking correlationId and prompt', () => {
    const card = { correlationId: 'c1', prompt: 'Sure?', createdAt: 1, presentation: { kind: 'confirm' }, extra: [1] };
    expect(decodeLegacyChatFrame({ event: 'card', data: json({ card }) }, { dialect: papercup })).toEqual({
      ok: true,
      value: { type: 'card', card },
    });
  });
});

describe('decodeLegacyChatFrame refusals', () => {
  const cases: readonly (readonly [string, LegacyDialect, unknown, DecodeLegacyChatFrameRefusalCode, string])[] = [
    ['no frame', papercup, 'delta', 'invalid-frame', 'expected a frame { event?, data, id? }'],
    ['data not text', papercup, { event: 'delta', data: { text: 'a' } }, 'invalid-frame', 'data: expected the SSE data text'],
    ['event not a string', papercup, { event: 1, data: '{}' }, 'invalid-frame', 'event: expected a string when present'],
    ['id not a string', papercup, { event: 'delta', data: '{}', id: 1 }, 'invalid-frame', 'id: expected a string when present'],
    [
      'a frame whose getter throws',
      papercup,
      Object.defineProperty({}, 'data', {
        get: () => {
          throw new Error('boom');
        },
        enumerable: true,
      }),
      'invalid-frame',
      'the frame cannot be read',
    ],
    [
      'data past the bound',
      papercup,
      { event: 'delta', data: `"${'a'.repeat(CHAT_LIMITS.maxEnvelopeLength)}"` },
      'too-large',
      `data longer than ${CHAT_LIMITS.maxEnvelopeLength} characters`,
    ],
    ['data not JSON', papercup, { event: 'delta', data: '{text:' }, 'invalid-json', 'data: not valid JSON'],
    [
      'data nested past maxJsonDepth',
      papercup,
      { event: 'tool_call', data: json({ name: 't', input: JSON.parse('['.repeat(40) + ']'.repeat(40)) }) },
      'unsafe-json',
      'data: JSON past the v1 bounds (forbidden keys, depth, control characters or overflowing numbers)',
    ],
    [
      'a __proto__ key',
      papercup,
      { event: 'tool_call', data: '{"name":"t","input":{"__proto__":{"admin":true}}}' },
      'unsafe-json',
      'data: JSON past the v1 bounds (forbidden keys, depth, control characters or overflowing numbers)',
    ],
    [
      'a control character',
      scout,
      { data: json({ type: 'token', content: 'a\u0000' }) },
      'unsafe-json',
      'data: JSON past the v1 bounds (forbidden keys, depth, control characters or overflowing numbers)',
    ],
    [
      'an overflowing number',
      papercup,
      { event: 'state', data: '{"version":1e999}' },
      'unsafe-json',
      'data: JSON past the v1 bounds (forbidden keys, depth, control characters or overflowing numbers)',
    ],
    [
      'a retired papercup name',
      papercup,
      { event: 'token', data: json({ content: 'a' }) },
      'unsupported-event',
      '"token" is not an event of this dialect',
    ],
    [
      'a papercup message without a type',
      papercup,
      { data: json({ text: 'a' }) },
      'unsupported-event',
      '"message" is not an event of this dialect',
    ],
    [
      'a scout product event',
      scout,
      { data: json({ type: 'products', items: [] }) },
      'unsupported-event',
      '"products" is not an event of this dialect',
    ],
    [
      'a scout frame named by a type the SSE name does not name on its own',
      scout,
      { event: 'products', data: json({ items: [] }) },
      'invalid-event',
      'data.type: expected the event type',
    ],
    [
      'scout data contradicting a name the server writes on its own',
      scout,
      { event: 'error', data: json({ type: 'token', content: 'a' }) },
      'invalid-event',
      'event: SSE event "error" contradicts type "token"',
    ],
    [
      'a prototype name as type',
      scout,
      { data: json({ type: 'toString' }) },
      'unsupported-event',
      '"toString" is not an event of this dialect',
    ],
    [
      'a raw-text delta (the agent-chat harness stream), not papercup JSON',
      papercup,
      { event: 'delta', data: 'Hello' },
      'invalid-json',
      'data: not valid JSON',
    ],
    [
      'a raw-text error on a scout stream (only papercup reads plain text)',
      scout,
      { event: 'error', data: 'boom' },
      'invalid-json',
      'data: not valid JSON',
    ],
    [
      'the sync vocabulary’s update',
      papercup,
      { event: 'update', data: json({ name: 'foo', data: { rows: [1] }, tsMs: 1 }) },
      'unsupported-event',
      '"update" is not an event of this dialect',
    ],
    [
      'the sync vocabulary’s invalidate',
      papercup,
      { event: 'invalidate', data: json({ name: 'bar' }) },
      'unsupported-event',
      '"invalidate" is not an event of this dialect',
    ],
    [
      'the state channel’s state-snapshot',
      papercup,
      { event: 'state-snapshot', data: json({ runId: 'r', version: 3, snapshot: { openCards: [] } }) },
      'unsupported-event',
      '"state-snapshot" is not an event of this dialect',
    ],
    ...['highlight', 'cart_mutate', 'open_drawer', 'prefill_form'].map(
      (type) =>
        [
          `the scout product event ${type}`,
          scout,
          { data: json({ type }) },
          'unsupported-event',
          `"${type}" is not an event of this dialect`,
        ] as const,
    ),
    ['papercup delta without text', papercup, { event: 'delta', data: json({ text: 1 }) }, 'invalid-event', 'data.text: expected a string'],
    [
      'papercup tool_call with an empty name',
      papercup,
      { event: 'tool_call', data: json({ name: '' }) },
      'invalid-event',
      'data.name: expected a non-empty string',
    ],
    [
      'papercup card without a prompt',
      papercup,
      { event: 'card', data: json({ card: { correlationId: 'c' } }) },
      'invalid-event',
      'data.card: expected a card with string correlationId and prompt',
    ],
    [
      'papercup data contradicting its event',
      papercup,
      { event: 'delta', data: json({ type: 'done', text: 'a' }) },
      'invalid-event',
      'data.type: "done" contradicts SSE event "delta"',
    ],
    ['scout data without a type', scout, { data: json({ content: 'a' }) }, 'invalid-event', 'data.type: expected the event type'],
    ['scout data that is not an object', scout, { data: '"token"' }, 'invalid-event', 'data.type: expected the event type'],
    [
      'scout SSE event contradicting the type',
      scout,
      { event: 'done', data: json({ type: 'token', content: 'a' }) },
      'invalid-event',
      'event: SSE event "done" contradicts type "token"',
    ],
    [
      'scout token without content',
      scout,
      { data: json({ type: 'token', text: 'a' }) },
      'invalid-event',
      'data.content: expected a string',
    ],
  ];

  it.each(cases)('%s', (_, dialect, frame, code, message) => {
    const result = decodeLegacyChatFrame(frame, { dialect });
    expect(result).toMatchObject({ ok: false, code, message });
  });

  it('names the field of an invalid event in its issues', () => {
    expect(decodeLegacyChatFrame({ data: json({ type: 'tool_start' }) }, { dialect: scout })).toEqual({
      ok: false,
      code: 'invalid-event',
      message: 'data.tool: expected a non-empty string',
      issues: [{ path: ['data', 'tool'], message: 'expected a non-empty string' }],
    });
  });

  it('never reads a field from a polluted Object.prototype', () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype['text'] = 'injected';
    try {
      expect(decodeLegacyChatFrame({ event: 'delta', data: '{}' }, { dialect: papercup })).toMatchObject({
        ok: false,
        code: 'invalid-event',
      });
    } finally {
      delete prototype['text'];
    }
  });

  it('refuses a dialect defineLegacyDialect did not make as invalid-options (issue 12: parsers never throw)', () => {
    const forged = { name: 'forged', definition: papercup.definition } as unknown as LegacyDialect;
    expect(decodeLegacyChatFrame({ event: 'delta', data: '{}' }, { dialect: forged })).toEqual({
      ok: false,
      code: 'invalid-options',
      message: 'options: expected { dialect } with a dialect made by defineLegacyDialect',
    });
  });
});

describe('the papercup dialect reads exactly what core’s legacy parseChatEvent reads, transport aside', () => {
  const nameArb = fc.constantFrom(
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
    'token',
    'message',
  );
  it('same verdict and same fields on every safe JSON frame (extras aside)', () => {
    fc.assert(
      fc.property(
        nameArb,
        fc.jsonValue(),
        fc.dictionary(
          fc.constantFrom(
            'type',
            'text',
            'name',
            'callId',
            'ok',
            'summary',
            'input',
            'engine',
            'model',
            'accountRoute',
            'card',
            'correlationId',
            'version',
            'snapshot',
            'stopReason',
            'usage',
            'message',
            'href',
            'sessionId',
          ),
          fc.oneof(fc.jsonValue(), fc.constantFrom(...['delta', 'x', '', null, true, { correlationId: 'c', prompt: 'p' }])),
        ),
        (name, raw, fields) => {
          for (const data of [raw, fields]) {
            const text = JSON.stringify(data);
            // Unsafe JSON aside: refused, or for an error read with U+FFFD where parseChatEvent keeps the text.
            if (!isSafeJson(JSON.parse(text))) continue;
            const decoded = decodeLegacyChatFrame({ event: name, data: text }, { dialect: papercup });
            const legacy = parseChatEvent(name, JSON.parse(text));
            // Transport aside: a session is transport whatever id it carries (issue 12), where parseChatEvent needs a sessionId.
            const parsed = JSON.parse(text) as unknown;
            const record = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? parsed : {};
            if (name === 'session') expect(decoded.ok).toBe(parseChatEvent(name, { ...record, sessionId: 's' }) !== null);
            if (legacy === null) {
              if (name !== 'session') expect(decoded.ok).toBe(false);
              continue;
            }
            if (!decoded.ok) throw new Error(`${name} ${text}: ${decoded.message}`);
            const picked = Object.fromEntries(Object.keys(legacy).map((key) => [key, (decoded.value as Record<string, unknown>)[key]]));
            expect(picked).toEqual(legacy);
          }
        },
      ),
      { numRuns: runs(1_000) },
    );
  });
});

describe('decodeLegacyChatFrame never throws', () => {
  it.each(([papercup, scout, dotted] as LegacyDialect[]).map((dialect) => ({ dialect })))(
    'on arbitrary frames, in $dialect.name',
    ({ dialect }) => {
      fc.assert(
        fc.property(anyFrameArb, (frame) => {
          const result = decodeLegacyChatFrame(frame, { dialect });
          expect(typeof result.ok).toBe('boolean');
        }),
        { numRuns: runs(1_000) },
      );
    },
  );
});
