import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopeArb } from '../../../../test-support/v1-arbitraries.js';
import { envelopeOf } from '../../test/envelopes.js';
import { encodeChatEnvelope } from './encode-chat-envelope.js';
import { CHAT_EVENT_FIELDS } from '../events/event-fields.js';
import { parseChatEnvelope } from './parse-chat-envelope.js';
import { runs } from '../../../../test-support/property-runs.js';

describe('encodeChatEnvelope copies only the allowed fields (DESIGN §3.4)', () => {
  it('drops fields a host forgot to strip, at the envelope and the event level', () => {
    const record = {
      ...envelopeOf({
        type: 'tool_call',
        callId: 'call_1',
        name: 'refund',
        input: { orderId: 'o1' },
        apiKey: 'sk-secret',
        internalCost: 3,
      }),
      schemaVersion: undefined,
      tenantId: 't-7',
      _rowVersion: 12,
    };
    const result = encodeChatEnvelope(record);
    expect(result).toEqual({
      ok: true,
      json: '{"schemaVersion":1,"conversationId":"conv_1","turnId":"turn_1","eventId":"evt_1","seq":1,"occurredAt":"2026-11-29T12:00:00.000Z","event":{"type":"tool_call","callId":"call_1","name":"refund","input":{"orderId":"o1"}}}',
      envelope: envelopeOf({ type: 'tool_call', callId: 'call_1', name: 'refund', input: { orderId: 'o1' } }),
    });
  });

  it('writes fields in the allowlist order whatever the record order', () => {
    const result = encodeChatEnvelope({
      event: { status: 'failed', name: 'n', callId: 'c', type: 'tool_result' },
      occurredAt: '2026-11-29T12:00:00Z',
      seq: 2,
      eventId: 'e',
      turnId: 't',
      conversationId: 'c',
    });
    expect(result.ok && result.json).toBe(
      '{"schemaVersion":1,"conversationId":"c","turnId":"t","eventId":"e","seq":2,"occurredAt":"2026-11-29T12:00:00Z","event":{"type":"tool_result","callId":"c","name":"n","status":"failed"}}',
    );
  });

  it('exports an allowlist that names exactly the fields of each event schema', () => {
    expect(CHAT_EVENT_FIELDS.delta).toEqual(['type', 'text']);
    expect(CHAT_EVENT_FIELDS.error).toEqual(['type', 'code', 'message', 'retryable', 'retryAfterMs']);
    expect(Object.isFrozen(CHAT_EVENT_FIELDS)).toBe(true);
  });

  it('does not drop unknown fields nested inside allowed values: they are refused', () => {
    const result = encodeChatEnvelope(
      envelopeOf({ type: 'tool_result', callId: 'c', name: 'n', status: 'succeeded', blocks: [{ kind: 'text', text: 't', secret: 1 }] }),
    );
    expect(result).toMatchObject({ ok: false, code: 'invalid-event', issues: [{ path: ['event', 'blocks', 0, 'secret'] }] });
  });

  it.each([
    ['schemaVersion 2', { ...envelopeOf({ type: 'delta', text: 'x' }), schemaVersion: 2 }, 'unsupported-version'],
    ['no event', { ...envelopeOf({ type: 'delta', text: 'x' }), event: undefined }, 'invalid-event'],
    ['an unknown event type', envelopeOf({ type: 'token', content: 'x' }), 'unknown-event'],
    ['a missing seq', { ...envelopeOf({ type: 'delta', text: 'x' }), seq: undefined }, 'invalid-envelope'],
    ['a zone-less timestamp', envelopeOf({ type: 'delta', text: 'x' }, { occurredAt: '2026-11-29T12:00:00' }), 'invalid-envelope'],
    ['a BigInt in the input', envelopeOf({ type: 'tool_call', callId: 'c', name: 'n', input: { amount: 10n } }), 'invalid-envelope'],
    ['an array record', [] as never, 'invalid-envelope'],
  ])('refuses a record with %s', (_name, record, code) => {
    const result = encodeChatEnvelope(record);
    expect(result.ok ? 'ok' : result.code).toBe(code);
  });

  it('never throws on a record with a throwing getter', () => {
    const record = { ...envelopeOf({ type: 'delta', text: 'x' }) };
    Object.defineProperty(record, 'seq', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(encodeChatEnvelope(record)).toEqual({ ok: false, code: 'invalid-envelope', message: 'the record cannot be read or serialized' });
  });
});

describe('round trip (issue 2 properties)', () => {
  it('parseChatEnvelope(encodeChatEnvelope(e).json) returns e for generated valid envelopes of every event type', () => {
    fc.assert(
      fc.property(envelopeArb, (envelope) => {
        const encoded = encodeChatEnvelope(envelope);
        expect(encoded.ok).toBe(true);
        if (!encoded.ok) return;
        expect(parseChatEnvelope(encoded.json)).toEqual({ ok: true, value: envelope });
      }),
      { numRuns: runs(1_000) },
    );
  });
});
