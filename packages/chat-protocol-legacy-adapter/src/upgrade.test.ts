import fc from 'fast-check';
import { parseChatEnvelope } from '@papercusp/chat-protocol-core';
import { describe, expect, it, vi } from 'vitest';
import { dotted } from '../test/dotted-dialect.js';
import { anyFrameArb } from '../test/legacy-arbitraries.js';
import { papercup, scout, upgradeLegacyChatFrame, type LegacyCallIdMapping, type LegacyDialect } from './index.js';
import { runs } from '../../../test-support/property-runs.js';

const json = (value: unknown) => JSON.stringify(value);
const IDENTITY = {
  conversationId: 'conv_1',
  turnId: 'turn_1',
  eventId: 'evt_7',
  seq: 7,
  occurredAt: '2026-11-30T09:00:00+01:00',
} as const;
const envelopeOf = (event: unknown) => ({ schemaVersion: 1, ...IDENTITY, event });
const upgrade = (dialect: LegacyDialect, frame: unknown, callId?: LegacyCallIdMapping) =>
  upgradeLegacyChatFrame(frame, { ...IDENTITY, dialect, callId });

describe('upgradeLegacyChatFrame lifts a frame into a v1 envelope with the host’s identities (DESIGN §5)', () => {
  it('takes conversation, turn, event id, seq and time from the context', () => {
    expect(upgrade(papercup, { event: 'delta', data: json({ text: 'Hi' }) })).toEqual({
      ok: true,
      kind: 'envelope',
      envelope: envelopeOf({ type: 'delta', text: 'Hi' }),
      event: { type: 'delta', text: 'Hi' },
    });
  });

  it('maps scout token/content to delta/text and tool_start/tool to tool_call/name', () => {
    expect(upgrade(scout, { data: json({ type: 'token', content: 'Hi' }) })).toMatchObject({
      envelope: envelopeOf({ type: 'delta', text: 'Hi' }),
    });
    expect(upgrade(scout, { data: json({ type: 'tool_start', tool: 'cart', callId: 'c1' }) })).toMatchObject({
      envelope: envelopeOf({ type: 'tool_call', callId: 'c1', name: 'cart' }),
    });
  });

  it('reads a tool result outcome: ok true is succeeded, ok false is failed', () => {
    for (const [ok, status] of [
      [true, 'succeeded'],
      [false, 'failed'],
    ] as const) {
      expect(upgrade(papercup, { event: 'tool_result', data: json({ name: 't', callId: 'c1', ok }) })).toMatchObject({
        envelope: envelopeOf({ type: 'tool_result', callId: 'c1', name: 't', status }),
      });
    }
  });

  it('refuses a tool result whose outcome is absent or not a boolean: unknown-status, never a fabricated success', () => {
    for (const data of [
      { name: 't', callId: 'c1' },
      { name: 't', callId: 'c1', ok: 'true' },
      { name: 't', callId: 'c1', ok: null },
    ]) {
      expect(upgrade(papercup, { event: 'tool_result', data: json(data) })).toEqual({
        ok: false,
        code: 'unknown-status',
        message: 'ok: the outcome is not reported, and v1 never assumes one',
      });
    }
    expect(upgrade(dotted, { data: json({ kind: 'tool.result', toolCallId: 'c1', toolName: 't' }) })).toMatchObject({
      code: 'unknown-status',
    });
  });

  it('refuses a tool event without a call id when the host gave no mapping: missing-call-identity', () => {
    expect(upgrade(scout, { data: json({ type: 'tool_start', tool: 'search' }) })).toEqual({
      ok: false,
      code: 'missing-call-identity',
      message: 'callId: the frame has no call id and the host mapped none',
    });
    expect(upgrade(papercup, { event: 'tool_result', data: json({ name: 't', ok: true }) }, () => undefined)).toMatchObject({
      code: 'missing-call-identity',
    });
  });

  it('asks the host mapping for the call id only when the frame has none', () => {
    const mapping = vi.fn<LegacyCallIdMapping>(() => 'call_from_host');
    expect(upgrade(scout, { data: json({ type: 'tool_start', tool: 'search' }) }, mapping)).toMatchObject({
      envelope: envelopeOf({ type: 'tool_call', callId: 'call_from_host', name: 'search' }),
    });
    expect(mapping).toHaveBeenCalledExactlyOnceWith({ type: 'tool_call', name: 'search', seq: 7 });
    mapping.mockClear();
    expect(upgrade(papercup, { event: 'tool_result', data: json({ name: 't', callId: 'own', ok: false }) }, mapping)).toMatchObject({
      envelope: envelopeOf({ type: 'tool_result', callId: 'own', name: 't', status: 'failed' }),
    });
    expect(mapping).not.toHaveBeenCalled();
  });

  it('yields no envelope for session and heartbeat frames: transport only, never persisted', () => {
    expect(upgrade(papercup, { event: 'session', data: json({ sessionId: 's1' }) })).toEqual({
      ok: true,
      kind: 'transport',
      transport: 'session',
      event: { type: 'session', sessionId: 's1' },
    });
    expect(upgrade(papercup, { event: 'heartbeat', data: '' })).toEqual({
      ok: true,
      kind: 'transport',
      transport: 'heartbeat',
      event: { type: 'heartbeat' },
    });
    expect(upgrade(scout, { data: json({ type: 'session', sessionId: 's1' }) })).toMatchObject({ kind: 'transport', transport: 'session' });
    expect(upgrade(dotted, { event: 'ping', data: '' })).toMatchObject({ kind: 'transport', transport: 'heartbeat' });
  });

  it('fills the values a legacy type stands for: done is completed, an error without code or retry permission is a non-retryable stream-error', () => {
    expect(upgrade(scout, { data: json({ type: 'done' }) })).toMatchObject({ envelope: envelopeOf({ type: 'done', status: 'completed' }) });
    expect(upgrade(papercup, { event: 'error', data: json({ message: 'Upstream timed out' }) })).toMatchObject({
      envelope: envelopeOf({ type: 'error', code: 'stream-error', message: 'Upstream timed out', retryable: false }),
    });
    // An error is never lost: without a usable message it is still a (non-retryable) error.
    for (const data of [{ type: 'error' }, { type: 'error', message: '' }, { type: 'error', message: 42 }]) {
      expect(upgrade(scout, { data: json(data) })).toMatchObject({
        envelope: envelopeOf({ type: 'error', code: 'stream-error', message: 'stream error', retryable: false }),
      });
    }
  });

  it('issue 12: an error is never lost — a retry delay without retry permission is dropped, the error upgrades as non-retryable', () => {
    const rateLimited = { message: 'Rate limited, try again shortly', code: 'rate_limited', retryAfterMs: 30_000 };
    const expected = envelopeOf({ type: 'error', code: 'rate_limited', message: 'Rate limited, try again shortly', retryable: false });
    expect(upgrade(papercup, { event: 'error', data: json(rateLimited) })).toEqual({
      ok: true,
      kind: 'envelope',
      envelope: expected,
      event: { type: 'error', ...rateLimited },
    });
    expect(upgrade(scout, { data: json({ type: 'error', ...rateLimited }) })).toMatchObject({ ok: true, envelope: expected });
    // An explicit refusal of permission drops it the same way; a stated permission keeps the delay.
    expect(upgrade(papercup, { event: 'error', data: json({ ...rateLimited, retryable: false }) })).toMatchObject({
      ok: true,
      envelope: expected,
    });
    expect(upgrade(papercup, { event: 'error', data: json({ ...rateLimited, retryable: true }) })).toMatchObject({
      ok: true,
      envelope: envelopeOf({
        type: 'error',
        code: 'rate_limited',
        message: 'Rate limited, try again shortly',
        retryable: true,
        retryAfterMs: 30_000,
      }),
    });
  });

  const error = (fields: Record<string, unknown>) =>
    envelopeOf({ type: 'error', code: 'stream-error', message: 'm', retryable: false, ...fields });
  const liftedEvent = (result: ReturnType<typeof upgrade>) => (result.ok && result.kind === 'envelope' ? result.envelope : result);

  it.each([
    ['a code with a space', { code: 'rate limited' }, error({})],
    ['a code past 256 characters', { code: 'c'.repeat(257) }, error({})],
    ['an empty code', { code: '' }, error({})],
    ['a code with a character past ASCII', { code: 'überlastet' }, error({})],
    ['a code that is not a string', { code: 429 }, error({})],
    ['a code of exactly 256 printable characters, kept', { code: 'c'.repeat(256) }, error({ code: 'c'.repeat(256) })],
    ['a message past 4,096 characters, cut there', { message: 'x'.repeat(5000) }, error({ message: 'x'.repeat(4096) })],
    [
      'a message whose surrogate pair straddles the bound, cut before the pair',
      { message: `${'x'.repeat(4095)}😀` },
      error({ message: 'x'.repeat(4095) }),
    ],
    [
      'a message ending in a pair at exactly the bound, kept',
      { message: `${'x'.repeat(4094)}😀` },
      error({ message: `${'x'.repeat(4094)}😀` }),
    ],
    ['an empty message', { message: '' }, error({ message: 'stream error' })],
    [
      'control characters in the message, each U+FFFD (tab and newline kept)',
      { message: 'a\u0000b\u001b[31mc\td\ne' },
      error({ message: 'a\ufffdb\ufffd[31mc\td\ne' }),
    ],
    ['lone surrogates in the message, each U+FFFD', { message: '\ud800a\udc00😀' }, error({ message: '\ufffda\ufffd😀' })],
    ['control characters in a field v1 drops (a process’s stderr colour codes)', { stderr: '\u001b[31mfatal\u001b[0m' }, error({})],
    ['a fractional retry delay, with permission', { retryable: true, retryAfterMs: 1500.5 }, error({ retryable: true })],
    ['a negative retry delay, with permission', { retryable: true, retryAfterMs: -1 }, error({ retryable: true })],
    ['a retry delay past one day, with permission', { retryable: true, retryAfterMs: 86_400_001 }, error({ retryable: true })],
    ['a retry delay that is not a number', { retryable: true, retryAfterMs: '30000' }, error({ retryable: true })],
    [
      'a retry delay of exactly one day, kept',
      { retryable: true, retryAfterMs: 86_400_000 },
      error({ retryable: true, retryAfterMs: 86_400_000 }),
    ],
    ['a retry delay of zero, kept', { retryable: true, retryAfterMs: 0 }, error({ retryable: true, retryAfterMs: 0 })],
    ['a fractional retry delay without permission', { retryAfterMs: 0.5 }, error({})],
  ])('issue 12: an error is never lost — %s (both dialects)', (_, fields, expected) => {
    const data = { message: 'm', ...fields };
    expect(liftedEvent(upgrade(papercup, { event: 'error', data: json(data) }))).toEqual(expected);
    expect(liftedEvent(upgrade(scout, { data: json({ type: 'error', ...data }) }))).toEqual(expected);
    expect(liftedEvent(upgrade(scout, { event: 'error', data: json(data) }))).toEqual(expected);
  });

  it('issue 12: an error is never lost — only bounds of text are relaxed: a hostile key or depth in an error is still unsafe-json, and other types refuse unclean text', () => {
    const unsafe = {
      ok: false,
      code: 'unsafe-json',
      message: 'data: JSON past the v1 bounds (forbidden keys, depth, control characters or overflowing numbers)',
    };
    expect(upgrade(papercup, { event: 'error', data: '{"message":"m","\\u0001":1}' })).toEqual(unsafe);
    expect(upgrade(papercup, { event: 'error', data: '{"message":"m\\u0001","__proto__":{}}' })).toEqual(unsafe);
    expect(
      upgrade(scout, { data: json({ type: 'error', message: 'm\u0001', detail: JSON.parse('['.repeat(40) + ']'.repeat(40)) }) }),
    ).toEqual(unsafe);
    expect(upgrade(papercup, { event: 'delta', data: json({ text: 'a\u0000' }) })).toEqual(unsafe);
    // An unclean frame of a type the dialect lacks, or one that names no type, is unsafe-json as before, not a lesser refusal.
    expect(upgrade(scout, { data: json({ type: 'products', note: 'a\u0000' }) })).toEqual(unsafe);
    expect(upgrade(scout, { data: json({ message: 'a\u0000' }) })).toEqual(unsafe);
  });

  it('issue 12: an error is never lost — papercup’s plain-text error (Papercusp/agent-chat) is an error with that text as its message', () => {
    expect(upgrade(papercup, { event: 'error', data: 'agent exited with code 1\nsee the server log' })).toEqual({
      ok: true,
      kind: 'envelope',
      envelope: error({ message: 'agent exited with code 1\nsee the server log' }),
      event: { type: 'error', message: 'agent exited with code 1\nsee the server log' },
    });
    expect(liftedEvent(upgrade(papercup, { event: 'error', data: '' }))).toEqual(error({ message: 'stream error' }));
    expect(liftedEvent(upgrade(papercup, { event: 'error', data: '{broken' }))).toEqual(error({ message: '{broken' }));
    expect(liftedEvent(upgrade(papercup, { event: 'error', data: `bell\u0007 ${'x'.repeat(5000)}` }))).toEqual(
      error({ message: `bell\ufffd ${'x'.repeat(4090)}` }),
    );
    // Text that happens to be JSON is read as JSON, as every papercup frame is: not an object, so no message.
    expect(liftedEvent(upgrade(papercup, { event: 'error', data: '429' }))).toEqual(error({ message: 'stream error' }));
    // Only the error: other plain-text frames, and scout's, stay refused; too-large stays too-large.
    expect(upgrade(papercup, { event: 'delta', data: 'Hello' })).toEqual({
      ok: false,
      code: 'invalid-json',
      message: 'data: not valid JSON',
    });
    expect(upgrade(scout, { event: 'error', data: 'boom' })).toEqual({ ok: false, code: 'invalid-json', message: 'data: not valid JSON' });
    expect(upgrade(papercup, { event: 'error', data: 'x'.repeat(1_048_577) })).toMatchObject({ ok: false, code: 'too-large' });
  });

  it('issue 12: the error frames @papercusp/sse writes itself upgrade in both dialects, their extra fields dropped', () => {
    const setup = { phase: 'setup', message: 'catalog unavailable' };
    const expected = envelopeOf({ type: 'error', code: 'stream-error', message: 'catalog unavailable', retryable: false });
    expect(upgrade(papercup, { event: 'error', data: json(setup) })).toMatchObject({ ok: true, envelope: expected });
    expect(upgrade(scout, { event: 'error', data: json(setup) })).toMatchObject({ ok: true, envelope: expected });
    expect(upgrade(papercup, { event: 'error', data: json({ message: 'connection refused', stderr: 'oops' }) })).toMatchObject({
      ok: true,
      envelope: envelopeOf({ type: 'error', code: 'stream-error', message: 'connection refused', retryable: false }),
    });
  });

  it('issue 12: heartbeats are transport in every form real producers send, in both dialects', () => {
    const heartbeat = { ok: true, kind: 'transport', transport: 'heartbeat', event: { type: 'heartbeat' } };
    for (const data of [json({ tsMs: 1733040000000 }), '{}', '']) {
      expect(upgrade(papercup, { event: 'heartbeat', data })).toEqual(heartbeat);
      expect(upgrade(scout, { event: 'heartbeat', data })).toEqual(heartbeat);
    }
    expect(upgrade(scout, { data: json({ type: 'heartbeat', tsMs: 1 }) })).toEqual(heartbeat);
  });

  it('issue 12: a session is transport whatever id it carries', () => {
    expect(upgrade(papercup, { event: 'session', data: json({ agentSessionId: 's-1', created: true }) })).toEqual({
      ok: true,
      kind: 'transport',
      transport: 'session',
      event: { type: 'session', agentSessionId: 's-1' },
    });
    expect(upgrade(scout, { data: json({ type: 'session' }) })).toEqual({
      ok: true,
      kind: 'transport',
      transport: 'session',
      event: { type: 'session' },
    });
  });

  it('issue 12: the SSE server’s resync control frame is refused as resync-required, in both dialects', () => {
    const data = json({ reason: 'gap', fromId: 3, floorId: 9, maxId: 20 });
    const refusal = {
      ok: false,
      code: 'resync-required',
      message: "the server could not resume this stream (gap): discard the turn's state and read it again",
    };
    expect(upgrade(papercup, { event: 'resync', data })).toEqual(refusal);
    expect(upgrade(scout, { event: 'resync', data })).toEqual(refusal);
    expect(upgrade(papercup, { event: 'resync', data: '{}' })).toEqual({
      ok: false,
      code: 'resync-required',
      message: "the server could not resume this stream: discard the turn's state and read it again",
    });
  });

  it('issue 12: scout state and navigate, events of the shared ChatEvent vocabulary, upgrade', () => {
    expect(upgrade(scout, { data: json({ type: 'state', version: 2, snapshot: { step: 'cart' } }) })).toMatchObject({
      ok: true,
      envelope: envelopeOf({ type: 'state', version: 2, snapshot: { step: 'cart' } }),
    });
    expect(upgrade(scout, { data: json({ type: 'navigate', href: '/cart' }) })).toMatchObject({
      ok: true,
      envelope: envelopeOf({ type: 'navigate', href: '/cart' }),
    });
  });

  it('issue 12: a done the SSE server writes (late join, no payload) is a completed done, its reason dropped', () => {
    const envelope = (result: ReturnType<typeof upgrade>) => (result.ok && result.kind === 'envelope' ? result.envelope : result);
    const done = envelopeOf({ type: 'done', status: 'completed' });
    expect(envelope(upgrade(scout, { event: 'done', data: json({ reason: 'late-join-terminal' }) }))).toEqual(done);
    expect(envelope(upgrade(papercup, { event: 'done', data: json({ reason: 'completed' }) }))).toEqual(done);
    expect(envelope(upgrade(papercup, { event: 'done', data: 'null' }))).toEqual(done);
  });

  it('issue 12: the agent routes’ done keeps its cost in usage.costUsd and drops fullText (the deltas again); usage’s own cost wins', () => {
    const envelope = (result: ReturnType<typeof upgrade>) => (result.ok && result.kind === 'envelope' ? result.envelope : result);
    expect(envelope(upgrade(papercup, { event: 'done', data: json({ costUsd: 0.01, fullText: 'hi there' }) }))).toEqual(
      envelopeOf({ type: 'done', status: 'completed', usage: { costUsd: 0.01 } }),
    );
    expect(envelope(upgrade(papercup, { event: 'done', data: json({ usage: { inputTokens: 5 }, costUsd: 0.01 }) }))).toEqual(
      envelopeOf({ type: 'done', status: 'completed', usage: { inputTokens: 5, costUsd: 0.01 } }),
    );
    expect(envelope(upgrade(papercup, { event: 'done', data: json({ usage: { costUsd: 0.5 }, costUsd: 0.01 }) }))).toEqual(
      envelopeOf({ type: 'done', status: 'completed', usage: { costUsd: 0.5 } }),
    );
  });

  it.each([
    ['unknown keys are dropped', papercup, { usage: { totalTokens: 12, prompt_tokens: 5, model: 'm' } }, { totalTokens: 12 }],
    ['a value v1 does not hold is dropped', papercup, { usage: { totalTokens: 'ten', outputTokens: 3 } }, { outputTokens: 3 }],
    ['a usage that kept nothing is left out', scout, { usage: { prompt_tokens: 5, completion_tokens: 7 } }, undefined],
    ['an empty usage stays empty', scout, { usage: {} }, {}],
    ['a negative top-level cost is dropped', papercup, { costUsd: -1 }, undefined],
    ['a top-level cost joins what the usage kept', papercup, { usage: { cached: 4 }, costUsd: 0.25 }, { costUsd: 0.25 }],
    [
      'Papercusp’s shipped usage is kept as sent',
      scout,
      { usage: { totalTokens: 40, costUsd: 0.002 } },
      { totalTokens: 40, costUsd: 0.002 },
    ],
  ] as const)('issue 13: a legacy usage keeps what v1 holds and the done is never refused: %s', (_name, dialect, data, usage) => {
    const frame = dialect === papercup ? { event: 'done', data: json(data) } : { data: json({ type: 'done', ...data }) };
    const result = upgrade(dialect, frame);
    expect(result.ok && result.kind === 'envelope' ? result.envelope : result).toEqual(
      envelopeOf(usage === undefined ? { type: 'done', status: 'completed' } : { type: 'done', status: 'completed', usage }),
    );
  });

  // The card shapes Papercusp ships, and the loose ones, are pinned in legacy-card.test.ts (issue 13).
  const CARD = { correlationId: 'card_1', createdAt: 1796029200000, prompt: 'Pick one', allowDecline: false };
  it('a card without createdAt is refused as invalid-envelope, naming the field', () => {
    const card = { correlationId: 'card_1', prompt: 'Pick one', presentation: { kind: 'text' } };
    expect(upgrade(scout, { data: json({ type: 'card', card }) })).toMatchObject({
      ok: false,
      code: 'invalid-envelope',
      message: 'event.card.createdAt: required',
    });
  });

  it.each([
    ['date bounds as ISO strings', { ...CARD, presentation: { kind: 'date', min: '2026-01-01', max: '2026-12-31' } }],
    [
      'timeoutMs and fallbackText',
      { ...CARD, presentation: { kind: 'text', placeholder: 'x', multiline: true }, fallbackText: 'f', timeoutMs: 60_000 },
    ],
    ['a select card', { ...CARD, presentation: { kind: 'select', options: [{ id: 'a', label: 'A' }] } }],
    ['an option description', { ...CARD, presentation: { kind: 'checkbox', options: [{ id: 'a', label: 'A', description: 'd' }] } }],
    ['a card that allows a decline', { ...CARD, presentation: { kind: 'confirm' }, allowDecline: true }],
  ])('upgrades the card shape field for field: %s', (_, card) => {
    const upgraded = upgrade(papercup, { event: 'card', data: json({ card }) });
    expect(upgraded.ok && upgraded.kind === 'envelope' ? upgraded.envelope : upgraded).toEqual(
      envelopeOf({ type: 'card', card: { ...card, createdAt: '2026-11-30T09:00:00Z' } }),
    );
  });

  it('converts a legacy card’s epoch-millisecond times to RFC 3339 in UTC', () => {
    const card = {
      correlationId: 'c1',
      createdAt: 1_796_029_200_123,
      expiresAt: 1_796_031_060_000,
      prompt: 'OK?',
      presentation: { kind: 'confirm' },
    };
    expect(upgrade(papercup, { event: 'card', data: json({ card }) })).toMatchObject({
      envelope: envelopeOf({ type: 'card', card: { ...card, createdAt: '2026-11-30T09:00:00.123Z', expiresAt: '2026-11-30T09:31:00Z' } }),
    });
  });

  it('refuses with invalid-envelope, naming the field, what the strict v1 encoder refuses', () => {
    // A card time out of the RFC 3339 range stays a number, which v1 refuses.
    const card = { correlationId: 'c1', createdAt: 8.64e15, prompt: 'OK?', presentation: { kind: 'confirm' } };
    expect(upgrade(papercup, { event: 'card', data: json({ card }) })).toMatchObject({
      ok: false,
      code: 'invalid-envelope',
      issues: [{ path: ['event', 'card', 'createdAt'] }],
    });
    expect(
      upgrade(papercup, {
        event: 'card',
        data: json({ card: { correlationId: 'c1', prompt: 'OK?', createdAt: 0, presentation: { kind: 'poll' } } }),
      }),
    ).toMatchObject({
      code: 'invalid-envelope',
      issues: [{ path: ['event', 'card', 'presentation', 'kind'] }],
    });
    expect(upgrade(papercup, { event: 'tool_call', data: json({ name: 't', callId: 'c 1' }) })).toMatchObject({
      code: 'invalid-envelope',
      issues: [{ path: ['event', 'callId'] }],
    });
    expect(upgradeLegacyChatFrame({ event: 'delta', data: json({ text: 'a' }) }, { ...IDENTITY, seq: 0, dialect: papercup })).toMatchObject(
      {
        code: 'invalid-envelope',
        issues: [{ path: ['seq'] }],
      },
    );
    expect(
      upgradeLegacyChatFrame(
        { event: 'delta', data: json({ text: 'a' }) },
        { ...IDENTITY, occurredAt: '2026-11-30T09:00:00', dialect: papercup },
      ),
    ).toMatchObject({
      code: 'invalid-envelope',
      issues: [{ path: ['occurredAt'] }],
    });
  });

  it('passes decode refusals through', () => {
    expect(upgrade(scout, { data: json({ type: 'cart_mutate', sku: 'X' }) })).toMatchObject({ code: 'unsupported-event' });
    expect(upgrade(papercup, { event: 'delta', data: 'nope' })).toMatchObject({ code: 'invalid-json' });
  });

  it.each(([papercup, scout, dotted] as LegacyDialect[]).map((dialect) => ({ dialect })))(
    'never throws, and every envelope it returns passes the strict v1 parser, in $dialect.name',
    ({ dialect }) => {
      fc.assert(
        fc.property(anyFrameArb, (frame) => {
          const result = upgrade(dialect, frame, ({ seq }) => `call_${seq}`);
          if (result.ok && result.kind === 'envelope')
            expect(parseChatEnvelope(JSON.stringify(result.envelope))).toEqual({ ok: true, value: result.envelope });
        }),
        { numRuns: runs(1_000) },
      );
    },
  );
});
