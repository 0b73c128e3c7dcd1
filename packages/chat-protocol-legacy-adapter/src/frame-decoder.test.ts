import fc from 'fast-check';
import { encodeChatSseFrame, parseChatEnvelope, type ChatEventEnvelope, type ChatEventV1 } from '@papercusp/chat-protocol-core';
import { describe, expect, it, vi } from 'vitest';
import { anyFrameArb, papercupFrameArb } from '../test/legacy-arbitraries.js';
import { readSse } from '../test/sse.js';
import { createChatFrameDecoder, papercup, scout, type ChatFrameDecoderContext, type LegacyDialect } from './index.js';
import { runs } from '../../../test-support/property-runs.js';

const json = (value: unknown) => JSON.stringify(value);
const context: ChatFrameDecoderContext = {
  conversationId: 'conv_1',
  turnId: 'turn_1',
  identify: ({ seq }) => ({ eventId: `legacy_${seq}`, occurredAt: '2026-11-30T09:00:00Z' }),
};
const v1Message = (seq: number, event: ChatEventV1, overrides: Partial<ChatEventEnvelope> = {}) =>
  readSse(
    encodeChatSseFrame({
      schemaVersion: 1,
      conversationId: 'conv_1',
      turnId: 'turn_1',
      eventId: `v1_${seq}`,
      seq,
      occurredAt: '2026-11-30T08:59:00Z',
      event,
      ...overrides,
    }),
  )[0];

describe('createChatFrameDecoder reads v1 envelopes and legacy frames on one connection (DESIGN §5)', () => {
  it('passes v1 envelopes through and numbers legacy frames after the last seq of the turn', () => {
    const decoder = createChatFrameDecoder({ dialect: papercup, context });
    expect(decoder.decode(v1Message(1, { type: 'delta', text: 'Hello' }))).toMatchObject({
      ok: true,
      kind: 'envelope',
      source: 'v1',
      envelope: { seq: 1, eventId: 'v1_1' },
    });
    expect(decoder.decode(v1Message(2, { type: 'delta', text: ' there' }))).toMatchObject({ source: 'v1', envelope: { seq: 2 } });
    expect(decoder.decode({ event: 'delta', data: json({ text: '!' }) })).toEqual({
      ok: true,
      kind: 'envelope',
      source: 'legacy',
      envelope: {
        schemaVersion: 1,
        conversationId: 'conv_1',
        turnId: 'turn_1',
        eventId: 'legacy_3',
        seq: 3,
        occurredAt: '2026-11-30T09:00:00Z',
        event: { type: 'delta', text: '!' },
      },
    });
    expect(decoder.decode({ event: 'heartbeat', data: '' })).toEqual({
      ok: true,
      kind: 'transport',
      transport: 'heartbeat',
      event: { type: 'heartbeat' },
    });
    expect(decoder.decode({ event: 'done', data: '{}' })).toMatchObject({
      source: 'legacy',
      envelope: { seq: 4, event: { type: 'done', status: 'completed' } },
    });
    expect(decoder.counts()).toEqual({ v1: 2, legacy: 2, transport: 1, unsupported: 0, refusals: {} });
  });

  it('issue 12: counts live heartbeats of both dialects as transport, never as refusals, and a resync as resync-required', () => {
    for (const dialect of [papercup, scout] as LegacyDialect[]) {
      const decoder = createChatFrameDecoder({ dialect, context });
      const heartbeat = { event: 'heartbeat', data: json({ tsMs: 1733040000000 }) };
      expect(decoder.decode(heartbeat)).toEqual({ ok: true, kind: 'transport', transport: 'heartbeat', event: { type: 'heartbeat' } });
      expect(decoder.decode(heartbeat)).toMatchObject({ ok: true, kind: 'transport' });
      expect(decoder.decode({ event: 'resync', data: json({ reason: 'ahead', fromId: 40, floorId: 1, maxId: 12 }) })).toMatchObject({
        ok: false,
        code: 'resync-required',
      });
      expect(
        decoder.decode({ event: 'error', data: json({ message: 'Rate limited', code: 'rate_limited', retryAfterMs: 30_000 }) }),
      ).toMatchObject({
        ok: true,
        source: 'legacy',
        envelope: { seq: 1, event: { type: 'error', code: 'rate_limited', message: 'Rate limited', retryable: false } },
      });
      expect([dialect.name, decoder.counts()]).toEqual([
        dialect.name,
        { v1: 0, legacy: 1, transport: 2, unsupported: 1, refusals: { 'resync-required': 1 } },
      ]);
    }
  });

  it('does not let a v1 envelope of another turn move the legacy numbering', () => {
    const decoder = createChatFrameDecoder({ dialect: papercup, context });
    expect(decoder.decode(v1Message(9, { type: 'delta', text: 'a' }, { turnId: 'turn_0' }))).toMatchObject({ source: 'v1' });
    expect(decoder.decode({ event: 'delta', data: json({ text: 'b' }) })).toMatchObject({ envelope: { turnId: 'turn_1', seq: 1 } });
  });

  it('hands the host the seq and the frame’s SSE id, and a refused frame never uses up a seq', () => {
    const identify = vi.fn(context.identify);
    const decoder = createChatFrameDecoder({ dialect: scout, context: { ...context, identify } });
    expect(decoder.decode({ data: json({ type: 'tool_start', tool: 'search' }), id: 'sc-1' })).toMatchObject({
      code: 'missing-call-identity',
    });
    expect(identify).toHaveBeenLastCalledWith({ seq: 1, id: 'sc-1' });
    expect(decoder.decode({ data: json({ type: 'token', content: 'a' }), id: 'sc-2' })).toMatchObject({
      envelope: { seq: 1, eventId: 'legacy_1' },
    });
    expect(identify).toHaveBeenLastCalledWith({ seq: 1, id: 'sc-2' });
  });

  it('issue 12: an error is never lost — a plain-text or unclean error is a legacy envelope, while a v1 envelope is read as sent', () => {
    const decoder = createChatFrameDecoder({ dialect: papercup, context });
    expect(decoder.decode({ event: 'error', data: 'agent exited' })).toMatchObject({
      ok: true,
      source: 'legacy',
      envelope: { seq: 1, event: { type: 'error', message: 'agent exited' } },
    });
    expect(decoder.decode({ event: 'error', data: json({ message: 'boom', stderr: '\u001b[31m' }) })).toMatchObject({
      ok: true,
      source: 'legacy',
      envelope: { seq: 2, event: { message: 'boom' } },
    });
    // A v1 envelope with unclean text is the strict parser's to refuse, never relaxed into a legacy error.
    const v1 = v1Message(3, { type: 'error', code: 'x', message: 'boom', retryable: false });
    expect(decoder.decode({ ...v1, data: v1?.data.replace('boom', 'boom\\u0000') })).toMatchObject({
      ok: false,
      code: 'invalid-event',
      message: 'event.message: expected clean text of 1–4096 characters',
    });
    expect(decoder.counts()).toEqual({ v1: 0, legacy: 2, transport: 0, unsupported: 1, refusals: { 'invalid-event': 1 } });
  });

  it('uses the host’s call-id mapping for tool frames without one', () => {
    const decoder = createChatFrameDecoder({ dialect: scout, context: { ...context, callId: ({ name, seq }) => `${name}#${seq}` } });
    expect(decoder.decode({ data: json({ type: 'tool_start', tool: 'search' }) })).toMatchObject({
      envelope: { event: { type: 'tool_call', callId: 'search#1', name: 'search' } },
    });
  });

  it('counts every malformed frame of either kind as unsupported, by code, and yields nothing from it', () => {
    const decoder = createChatFrameDecoder({ dialect: papercup, context });
    const refused = [
      [null, 'invalid-frame'],
      [{ event: 'delta', data: 1 }, 'invalid-frame'],
      [{ event: 'delta', data: '{' }, 'invalid-json'],
      [{ event: 'delta', data: '{"text":"\\u0000"}' }, 'unsafe-json'],
      [{ event: 'delta', data: '{}' }, 'invalid-event'],
      [{ event: 'token', data: '{}' }, 'unsupported-event'],
      [{ event: 'tool_result', data: json({ name: 't', callId: 'c1' }) }, 'unknown-status'],
      [{ event: 'tool_call', data: json({ name: 't' }) }, 'missing-call-identity'],
      [{ event: 'tool_call', data: json({ name: 't', callId: 'c 1' }) }, 'invalid-envelope'],
      [{ ...v1Message(1, { type: 'delta', text: 'a' }), event: 'done' }, 'event-mismatch'],
      [{ ...v1Message(1, { type: 'delta', text: 'a' }), id: 'turn_1:2' }, 'id-mismatch'],
      [{ event: 'delta', data: json({ schemaVersion: 2, text: 'a' }) }, 'unsupported-version'],
      [{ event: 'delta', data: json({ schemaVersion: 1, text: 'a' }) }, 'invalid-envelope'],
      [v1Message(1, { type: 'delta', text: 'a' }, { conversationId: 'conv_2' }), 'foreign-conversation'],
    ] as const;
    for (const [message, code] of refused) {
      const result = decoder.decode(message);
      expect(result).toMatchObject({ ok: false, code });
      expect(result).not.toHaveProperty('envelope');
    }
    expect(decoder.counts()).toEqual({
      v1: 0,
      legacy: 0,
      transport: 0,
      unsupported: refused.length,
      refusals: {
        'invalid-frame': 2,
        'invalid-json': 1,
        'unsafe-json': 1,
        'invalid-event': 1,
        'unsupported-event': 1,
        'unknown-status': 1,
        'missing-call-identity': 1,
        'invalid-envelope': 2,
        'event-mismatch': 1,
        'id-mismatch': 1,
        'unsupported-version': 1,
        'foreign-conversation': 1,
      },
    });
    // After all that, the next good frame is still seq 1.
    expect(decoder.decode({ event: 'delta', data: json({ text: 'ok' }) })).toMatchObject({ envelope: { seq: 1 } });
  });

  it('gives a snapshot of the counts that later frames do not change', () => {
    const decoder = createChatFrameDecoder({ dialect: papercup, context });
    const before = decoder.counts();
    decoder.decode({ event: 'token', data: '{}' });
    expect(before).toEqual({ v1: 0, legacy: 0, transport: 0, unsupported: 0, refusals: {} });
  });

  it('never throws; every message lands in exactly one count; legacy seqs run 1, 2, 3… and every envelope is strict v1', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(anyFrameArb, papercupFrameArb), { maxLength: 8 }), (messages) => {
        const decoder = createChatFrameDecoder({ dialect: papercup, context: { ...context, callId: ({ seq }) => `call_${seq}` } });
        const legacySeqs: number[] = [];
        for (const message of messages) {
          const result = decoder.decode(message);
          if (!result.ok || result.kind !== 'envelope') continue;
          expect(parseChatEnvelope(JSON.stringify(result.envelope))).toEqual({ ok: true, value: result.envelope });
          if (result.source === 'legacy') legacySeqs.push(result.envelope.seq);
        }
        const { v1, legacy, transport, unsupported, refusals } = decoder.counts();
        expect(v1 + legacy + transport + unsupported).toBe(messages.length);
        expect(Object.values(refusals).reduce((sum, count) => sum + count, 0)).toBe(unsupported);
        expect(legacySeqs).toEqual(legacySeqs.map((_, index) => index + 1));
      }),
      { numRuns: runs(1_000) },
    );
  });
});
