import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAiSdkDecoder, type AiSdkDecodeRefusalCode } from './create-ai-sdk-decoder.js';

function decoder() {
  return createAiSdkDecoder({
    conversationId: 'conv_1',
    turnId: 'turn_1',
    identify: ({ seq }) => ({ eventId: `evt_${seq}`, occurredAt: '2026-12-01T10:00:00Z' }),
  });
}

const call = { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'weather', input: { city: 'Lyon' } };

// Each row: the chunks before (all accepted), the chunk refused, its code.
const REFUSALS: readonly (readonly [string, readonly unknown[], unknown, AiSdkDecodeRefusalCode])[] = [
  ['a value that is not an object', [], 'text-delta', 'invalid-chunk'],
  ['an object without a string type', [], { delta: 'x' }, 'invalid-chunk'],
  ['a text delta without its text', [], { type: 'text-delta', id: 't1' }, 'invalid-chunk'],
  ['a source has no v1 meaning', [], { type: 'source-url', sourceId: 's1', url: 'https://example.com' }, 'unsupported-chunk'],
  ['a file has no v1 meaning', [], { type: 'file', url: 'https://example.com/a.png', mediaType: 'image/png' }, 'unsupported-chunk'],
  ['message metadata has no v1 meaning', [], { type: 'message-metadata', messageMetadata: { a: 1 } }, 'unsupported-chunk'],
  ['an app’s own data part has no v1 meaning', [], { type: 'data-weather', data: { celsius: 21 } }, 'unsupported-chunk'],
  ['a chunk type AI SDK 6 does not have', [], { type: 'tool-output-partial', toolCallId: 'call_1' }, 'unsupported-chunk'],
  ['AI SDK 7: a custom chunk has no v1 meaning', [], { type: 'custom', kind: 'acme.progress' }, 'unsupported-chunk'],
  ['AI SDK 7: v1 cannot retract a streamed step', [], { type: 'reset-step' }, 'unsupported-chunk'],
  [
    'AI SDK 7: a reasoning file has no v1 meaning',
    [],
    { type: 'reasoning-file', url: 'https://example.com/r', mediaType: 'text/plain' },
    'unsupported-chunk',
  ],
  [
    'AI SDK 7: an approval response for an approval never requested',
    [],
    { type: 'tool-approval-response', approvalId: 'a1', approved: true },
    'unknown-card',
  ],
  ['an output for a call never announced', [], { type: 'tool-output-available', toolCallId: 'call_9', output: 1 }, 'unknown-tool-call'],
  [
    'an approval for a call never announced',
    [],
    { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'call_9' },
    'unknown-tool-call',
  ],
  [
    'a preliminary output states no outcome',
    [call],
    { type: 'tool-output-available', toolCallId: 'call_1', output: 1, preliminary: true },
    'unknown-status',
  ],
  ['a call announced twice', [call], call, 'duplicate-tool-call'],
  ['text after the finish', [{ type: 'finish' }], { type: 'text-delta', id: 't1', delta: 'x' }, 'turn-terminal'],
  ['text after an error', [{ type: 'error', errorText: 'boom' }], { type: 'text-delta', id: 't1', delta: 'x' }, 'turn-terminal'],
  ['a call id v1 does not accept', [], { ...call, toolCallId: 'call with spaces' }, 'invalid-envelope'],
  [
    'a card data part that is not a v1 card',
    [],
    { type: 'data-card', id: 'card_1', data: { correlationId: 'card_1' } },
    'invalid-envelope',
  ],
];

describe('the decoder refuses what has no v1 meaning, with a typed code, and counts it (DESIGN §12)', () => {
  for (const [rule, before, chunk, code] of REFUSALS) {
    it(`${rule}: ${code}`, () => {
      const reader = decoder();
      for (const earlier of before) expect(reader.decode(earlier).ok).toBe(true);
      expect(reader.decode(chunk)).toMatchObject({ ok: false, code });
      expect(reader.counts()).toMatchObject({ refused: 1, refusals: { [code]: 1 } });
    });
  }

  it('a refused chunk uses up no seq: the next envelope takes the seq the refused one would have had', () => {
    const reader = decoder();
    expect(reader.decode({ type: 'source-url', sourceId: 's1', url: 'https://example.com' }).ok).toBe(false);
    const result = reader.decode({ type: 'text-delta', id: 't1', delta: 'Hi' });
    expect(result).toMatchObject({ ok: true, envelopes: [{ seq: 1, eventId: 'evt_1', event: { type: 'delta', text: 'Hi' } }] });
  });

  it('a tool-input-error is the call and its failure; never a success', () => {
    const result = decoder().decode({
      type: 'tool-input-error',
      toolCallId: 'call_1',
      toolName: 'weather',
      input: 'Lyon',
      errorText: 'bad input',
    });
    expect(result).toMatchObject({
      ok: true,
      envelopes: [
        { seq: 1, event: { type: 'tool_call', callId: 'call_1', name: 'weather', input: 'Lyon' } },
        { seq: 2, event: { type: 'tool_result', callId: 'call_1', name: 'weather', status: 'failed', error: 'bad input' } },
      ],
    });
  });

  it('a foreign output that only looks like the v1 shape is kept whole as one data block', () => {
    const reader = decoder();
    reader.decode(call);
    expect(reader.decode({ type: 'tool-output-available', toolCallId: 'call_1', output: { summary: 3 } })).toMatchObject({
      ok: true,
      envelopes: [{ event: { type: 'tool_result', status: 'succeeded', blocks: [{ kind: 'data', data: { summary: 3 } }] } }],
    });
  });

  it('a denied tool output is a cancelled result; an abort is a cancelled done with its reason', () => {
    const reader = decoder();
    reader.decode(call);
    expect(reader.decode({ type: 'tool-output-denied', toolCallId: 'call_1' })).toMatchObject({
      ok: true,
      envelopes: [{ event: { type: 'tool_result', callId: 'call_1', name: 'weather', status: 'cancelled' } }],
    });
    expect(reader.decode({ type: 'abort', reason: 'This operation was aborted' })).toMatchObject({
      ok: true,
      envelopes: [{ event: { type: 'done', status: 'cancelled', stopReason: 'This operation was aborted' } }],
    });
  });

  it('AI SDK 7: an approval response closes the approval card, submitted when approved and declined when not', () => {
    for (const [approved, resolution] of [
      [true, 'submitted'],
      [false, 'declined'],
    ] as const) {
      const reader = decoder();
      reader.decode(call);
      reader.decode({ type: 'tool-approval-request', approvalId: 'approval_1', toolCallId: 'call_1' });
      expect(reader.decode({ type: 'tool-approval-response', approvalId: 'approval_1', approved, reason: 'ok' })).toEqual({
        ok: true,
        envelopes: [expect.objectContaining({ seq: 3, event: { type: 'card_closed', correlationId: 'approval_1', resolution } })],
        lost: [{ field: 'reason', reason: "v1 has no place for a tool-approval-response chunk's reason" }],
      });
    }
  });

  it('part boundaries and the stream’s message id are reported lost: v1 keeps one text per turn, named by the host', () => {
    const reader = decoder();
    expect(reader.decode({ type: 'start', messageId: 'msg_1' })).toEqual({
      ok: true,
      envelopes: [],
      lost: [{ field: 'messageId', reason: "v1 has no place for a start chunk's messageId" }],
    });
    expect(reader.decode({ type: 'text-start', id: 't1' })).toEqual({
      ok: true,
      envelopes: [],
      lost: [{ field: 'id', reason: "v1 has no place for a text-start chunk's id" }],
    });
  });

  it('fields v1 cannot hold are reported lost, by name', () => {
    const reader = decoder();
    const result = reader.decode({ ...call, providerExecuted: true, title: 'Weather', providerMetadata: { x: {} } });
    expect(result).toMatchObject({
      ok: true,
      lost: [
        { field: 'providerExecuted', reason: "v1 has no place for a tool-input-available chunk's providerExecuted" },
        { field: 'title', reason: "v1 has no place for a tool-input-available chunk's title" },
        { field: 'providerMetadata', reason: "v1 has no place for a tool-input-available chunk's providerMetadata" },
      ],
    });
  });

  it('an error whose text is past the v1 bound is cut, reported, and still a terminal error', () => {
    const result = decoder().decode({ type: 'error', errorText: 'x'.repeat(5000) });
    expect(result).toMatchObject({ ok: true, lost: [{ field: 'errorText', reason: 'cut to the v1 message bound' }] });
    if (result.ok)
      expect(result.envelopes[0]?.event).toEqual({ type: 'error', code: 'ai-sdk-error', message: 'x'.repeat(4096), retryable: false });
  });

  it('never throws, on any chunk (DESIGN §2.7)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.anything(),
            fc.record({
              type: fc.constantFrom('text-delta', 'tool-input-available', 'finish', 'data-card', 'error'),
              delta: fc.anything(),
              toolCallId: fc.anything(),
              toolName: fc.anything(),
              data: fc.anything(),
              errorText: fc.anything(),
            }),
          ),
        ),
        (chunks) => {
          const reader = decoder();
          for (const chunk of chunks) reader.decode(chunk);
          const counts = reader.counts();
          expect(counts.decoded + counts.transport + counts.refused).toBe(chunks.length);
        },
      ),
    );
  });

  it('a context without identify is a TypeError at creation', () => {
    expect(() => createAiSdkDecoder({ conversationId: 'conv_1', turnId: 'turn_1' } as never)).toThrow(TypeError);
  });
});
