import { describe, expect, it } from 'vitest';
import { dotted } from '../test/dotted-dialect.js';
import { encodeLegacyChatFrame, papercup, scout, type EncodeLegacyChatFrameRefusalCode, type LegacyDialect } from './index.js';

const envelopeOf = (event: unknown) => ({
  schemaVersion: 1,
  conversationId: 'conv_1',
  turnId: 'turn_1',
  eventId: 'evt_3',
  seq: 3,
  occurredAt: '2026-11-30T09:00:00Z',
  event,
});
const CARD = {
  correlationId: 'card_1',
  createdAt: '2026-11-30T10:00:00.5+01:00',
  expiresAt: '2026-11-30T09:31:00.000000Z',
  prompt: 'Go?',
  presentation: { kind: 'confirm' },
  // Always written in legacy form (issue 13): only an explicit flag means the same to every Papercusp reader.
  allowDecline: false,
};

describe('encodeLegacyChatFrame projects a v1 envelope onto a legacy frame (DESIGN §5)', () => {
  it('writes papercup with the type as the SSE event and the cursor as its id', () => {
    expect(encodeLegacyChatFrame(envelopeOf({ type: 'delta', text: 'Hi' }), { dialect: papercup })).toEqual({
      ok: true,
      frame: { event: 'delta', data: '{"text":"Hi"}', id: 'turn_1:3' },
      sse: 'id: turn_1:3\nevent: delta\ndata: {"text":"Hi"}\n\n',
    });
  });

  it('writes scout with the type first in the data and no SSE event name', () => {
    expect(
      encodeLegacyChatFrame(envelopeOf({ type: 'tool_call', callId: 'c1', name: 'cart', input: { sku: 'X' } }), { dialect: scout }),
    ).toEqual({
      ok: true,
      frame: { data: '{"type":"tool_start","tool":"cart","callId":"c1","input":{"sku":"X"}}', id: 'turn_1:3' },
      sse: 'id: turn_1:3\ndata: {"type":"tool_start","tool":"cart","callId":"c1","input":{"sku":"X"}}\n\n',
    });
  });

  it('writes scout state and navigate as the shared ChatEvent vocabulary has them (issue 12: real producers’ frames)', () => {
    expect(encodeLegacyChatFrame(envelopeOf({ type: 'state', version: 2, snapshot: { step: 'cart' } }), { dialect: scout })).toMatchObject({
      ok: true,
      frame: { data: '{"type":"state","version":2,"snapshot":{"step":"cart"}}', id: 'turn_1:3' },
    });
    expect(encodeLegacyChatFrame(envelopeOf({ type: 'navigate', href: '/cart' }), { dialect: scout })).toMatchObject({
      ok: true,
      frame: { data: '{"type":"navigate","href":"/cart"}', id: 'turn_1:3' },
    });
  });

  it('writes ok for a succeeded or failed tool result', () => {
    const result = (status: string) => envelopeOf({ type: 'tool_result', callId: 'c1', name: 't', status, summary: 's' });
    expect(encodeLegacyChatFrame(result('succeeded'), { dialect: papercup })).toMatchObject({
      frame: { data: '{"name":"t","callId":"c1","ok":true,"summary":"s"}' },
    });
    expect(encodeLegacyChatFrame(result('failed'), { dialect: papercup })).toMatchObject({
      frame: { data: '{"name":"t","callId":"c1","ok":false,"summary":"s"}' },
    });
  });

  it('leaves out values equal to their default, and writes those that differ', () => {
    const error = (extra: object) => envelopeOf({ type: 'error', code: 'stream-error', message: 'Oops', retryable: false, ...extra });
    expect(encodeLegacyChatFrame(error({}), { dialect: papercup })).toMatchObject({ frame: { data: '{"message":"Oops"}' } });
    expect(encodeLegacyChatFrame(error({ code: 'rate-limited', retryable: true, retryAfterMs: 500 }), { dialect: papercup })).toMatchObject(
      {
        frame: { data: '{"message":"Oops","code":"rate-limited","retryable":true,"retryAfterMs":500}' },
      },
    );
    expect(encodeLegacyChatFrame(envelopeOf({ type: 'done', status: 'completed' }), { dialect: scout })).toMatchObject({
      frame: { data: '{"type":"done"}' },
    });
  });

  it('writes a card’s times as epoch milliseconds, the same instants whatever their offset', () => {
    expect(encodeLegacyChatFrame(envelopeOf({ type: 'card', card: CARD }), { dialect: papercup })).toMatchObject({
      frame: { data: JSON.stringify({ card: { ...CARD, createdAt: 1_796_029_200_500, expiresAt: 1_796_031_060_000 } }) },
    });
  });

  it('writes years 0000–0099 as themselves, not 1900–1999', () => {
    const card = { ...CARD, createdAt: '0042-01-01T00:00:00Z', expiresAt: undefined };
    expect(encodeLegacyChatFrame(envelopeOf({ type: 'card', card }), { dialect: papercup })).toMatchObject({
      frame: { data: JSON.stringify({ card: { ...card, createdAt: Date.parse('0042-01-01T00:00:00Z') } }) },
    });
  });

  const refusals: readonly (readonly [string, LegacyDialect, unknown, EncodeLegacyChatFrameRefusalCode, string])[] = [
    [
      'reasoning in papercup',
      papercup,
      envelopeOf({ type: 'reasoning', text: 'hm' }),
      'unsupported-event',
      'papercup has no legacy form of reasoning',
    ],
    [
      'reasoning in scout',
      scout,
      envelopeOf({ type: 'reasoning', text: 'hm' }),
      'unsupported-event',
      'scout has no legacy form of reasoning',
    ],
    [
      'a tool_result in scout',
      scout,
      envelopeOf({ type: 'tool_result', callId: 'c1', name: 't', status: 'succeeded' }),
      'unsupported-event',
      'scout has no legacy form of tool_result',
    ],
    [
      'provenance in scout',
      scout,
      envelopeOf({ type: 'provenance', engine: 'e', model: 'm' }),
      'unsupported-event',
      'scout has no legacy form of provenance',
    ],
    [
      'a cancelled done',
      papercup,
      envelopeOf({ type: 'done', status: 'cancelled' }),
      'unsupported-event',
      'papercup done stands for done.status "completed"',
    ],
    [
      'an interrupted done in scout',
      scout,
      envelopeOf({ type: 'done', status: 'interrupted' }),
      'unsupported-event',
      'scout done stands for done.status "completed"',
    ],
    [
      'a cancelled tool result',
      papercup,
      envelopeOf({ type: 'tool_result', callId: 'c1', name: 't', status: 'cancelled' }),
      'unsupported-event',
      'papercup tool_result: status cancelled has no legacy ok',
    ],
    [
      'a tool result needing reconciliation',
      papercup,
      envelopeOf({ type: 'tool_result', callId: 'c1', name: 't', status: 'needs-reconciliation' }),
      'unsupported-event',
      'papercup tool_result: status needs-reconciliation has no legacy ok',
    ],
    [
      'a card time finer than a millisecond',
      papercup,
      envelopeOf({ type: 'card', card: { ...CARD, createdAt: '2026-11-30T09:00:00.0001Z' } }),
      'unsupported-event',
      'papercup card: card.createdAt is finer than a millisecond',
    ],
    [
      'a field the legacy type has no place for',
      dotted,
      envelopeOf({ type: 'tool_result', callId: 'c1', name: 't', status: 'failed', summary: 's' }),
      'unsupported-event',
      'tool_result.summary has no place in dotted tool.result',
    ],
    ['an invalid envelope', papercup, envelopeOf({ type: 'delta', text: 'a', extra: 1 }), 'invalid-event', 'event.extra: unknown property'],
    ['an unversioned frame', papercup, { type: 'delta', text: 'a' }, 'unsupported-version', 'schemaVersion: expected schemaVersion 1'],
    ['a JSON string that is not JSON', papercup, '{', 'invalid-json', 'not valid JSON'],
  ];

  it.each(refusals)('refuses %s', (_, dialect, envelope, code, message) => {
    expect(encodeLegacyChatFrame(envelope, { dialect })).toMatchObject({ ok: false, code, message: expect.stringContaining(message) });
  });
});

describe('encodeLegacyChatFrame ids option (issue 13)', () => {
  const envelope = envelopeOf({ type: 'delta', text: 'Hi' });

  it("writes the seq as the SSE id with ids: 'seq'", () => {
    expect(encodeLegacyChatFrame(envelope, { dialect: papercup, ids: 'seq' })).toEqual({
      ok: true,
      frame: { event: 'delta', data: '{"text":"Hi"}', id: '3' },
      sse: 'id: 3\nevent: delta\ndata: {"text":"Hi"}\n\n',
    });
    expect(encodeLegacyChatFrame(envelope, { dialect: scout, ids: 'cursor' })).toMatchObject({ ok: true, frame: { id: 'turn_1:3' } });
  });

  it.each(['numeric', 'SEQ', 1, null, true])('refuses ids %j as invalid-options', (ids) => {
    expect(encodeLegacyChatFrame(envelope, { dialect: papercup, ids: ids as never })).toMatchObject({ ok: false, code: 'invalid-options' });
  });
});
