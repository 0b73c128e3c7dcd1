import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopeArb } from '../../../../test-support/v1-arbitraries.js';
import { envelopeOf } from '../../test/envelopes.js';
import { CHAT_SSE_HEARTBEAT, encodeChatSseFrame, formatChatCursor, parseChatCursor, parseChatSseMessage } from './sse.js';
import { runs } from '../../../../test-support/property-runs.js';

const DELTA = envelopeOf({ type: 'delta', text: 'line one\nline two' }, { turnId: 'turn:7', seq: 3 });

describe('SSE framing (DESIGN §3.4)', () => {
  it('writes id, event and one data line', () => {
    expect(encodeChatSseFrame(DELTA)).toBe(
      'id: turn:7:3\nevent: delta\ndata: {"schemaVersion":1,"conversationId":"conv_1","turnId":"turn:7","eventId":"evt_1","seq":3,"occurredAt":"2026-11-29T12:00:00.000Z","event":{"type":"delta","text":"line one\\nline two"}}\n\n',
    );
  });

  it('throws a TypeError naming the problem for an invalid envelope', () => {
    expect(() => encodeChatSseFrame(envelopeOf({ type: 'delta', text: 'x' }, { seq: 0 }))).toThrow(
      new TypeError('encodeChatSseFrame: invalid-envelope: seq: expected a positive safe integer'),
    );
  });

  it('writes a heartbeat as an SSE comment, never an envelope', () => {
    expect(CHAT_SSE_HEARTBEAT).toBe(':\n\n');
  });

  it('every frame has exactly one data line and reads back through parseChatSseMessage', () => {
    fc.assert(
      fc.property(envelopeArb, (envelope) => {
        const frame = encodeChatSseFrame(envelope);
        const lines = frame.slice(0, -2).split('\n');
        expect(lines).toHaveLength(3);
        const [id, event, data] = lines.map((line) => line.slice(line.indexOf(': ') + 2));
        expect(parseChatSseMessage({ id, event, data: data ?? '' })).toEqual({ ok: true, value: envelope });
      }),
      { numRuns: runs(1_000) },
    );
  });
});

describe('cursors', () => {
  it('formats <turnId>:<seq> and reads it back, splitting at the last colon', () => {
    expect(formatChatCursor({ turnId: 'turn:7', seq: 3 })).toBe('turn:7:3');
    expect(parseChatCursor('turn:7:3')).toEqual({ turnId: 'turn:7', seq: 3 });
    expect(parseChatCursor('turn_1:0')).toEqual({ turnId: 'turn_1', seq: 0 });
  });

  it.each([
    ['no colon', 'turn_1'],
    ['an empty turn id', ':3'],
    ['an empty seq', 'turn_1:'],
    ['a negative seq', 'turn_1:-1'],
    ['a leading zero', 'turn_1:03'],
    ['a fractional seq', 'turn_1:1.5'],
    ['an exponent', 'turn_1:1e3'],
    ['an unsafe seq', 'turn_1:9007199254740992'],
    ['a space in the turn id', 'turn 1:3'],
    ['a non-string', 42],
    ['undefined', undefined],
  ])('parseChatCursor refuses %s with null', (_name, value) => {
    expect(parseChatCursor(value)).toBeNull();
  });

  it('formatChatCursor throws a TypeError for an invalid cursor', () => {
    expect(() => formatChatCursor({ turnId: 'a b', seq: 1 })).toThrow(TypeError);
    expect(() => formatChatCursor({ turnId: 'a', seq: -1 })).toThrow(TypeError);
  });

  it('round-trips every valid cursor', () => {
    fc.assert(
      fc.property(envelopeArb, fc.nat(), (envelope, seq) => {
        expect(parseChatCursor(formatChatCursor({ turnId: envelope.turnId, seq }))).toEqual({ turnId: envelope.turnId, seq });
      }),
    );
  });
});

describe('parseChatSseMessage', () => {
  const data = JSON.stringify(DELTA);

  it('refuses an SSE event name that differs from event.type', () => {
    expect(parseChatSseMessage({ event: 'message', data, id: 'turn:7:3' })).toEqual({
      ok: false,
      code: 'event-mismatch',
      message: 'event: SSE event is "message", envelope says delta',
    });
  });

  it('refuses an SSE id that differs from the cursor, or is missing', () => {
    expect(parseChatSseMessage({ event: 'delta', data, id: 'turn:7:4' })).toEqual({
      ok: false,
      code: 'id-mismatch',
      message: 'id: SSE id is "turn:7:4", envelope cursor is turn:7:3',
    });
    expect(parseChatSseMessage({ event: 'delta', data })).toMatchObject({ ok: false, code: 'id-mismatch' });
  });

  it('passes the envelope refusal through', () => {
    expect(parseChatSseMessage({ event: 'delta', data: '{"type":"delta"}', id: 'x:1' })).toMatchObject({
      ok: false,
      code: 'unsupported-version',
    });
  });

  it('never throws on a message whose properties throw', () => {
    const hostile = {
      get data(): string {
        throw new Error('boom');
      },
    };
    expect(parseChatSseMessage(hostile)).toEqual({ ok: false, code: 'invalid-json', message: 'the message cannot be read' });
  });

  it('names a missing SSE event by its type', () => {
    expect(parseChatSseMessage({ data, id: 'turn:7:3' })).toEqual({
      ok: false,
      code: 'event-mismatch',
      message: 'event: SSE event is undefined, envelope says delta',
    });
  });

  it('refuses data that is not a string as invalid-json, never reading it as a value', () => {
    expect(parseChatSseMessage({ event: 'delta', data: DELTA as unknown as string, id: 'turn:7:3' })).toMatchObject({
      ok: false,
      code: 'invalid-json',
    });
  });
});
