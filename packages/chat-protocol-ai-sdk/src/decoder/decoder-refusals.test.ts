import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAiSdkDecoder } from './create-ai-sdk-decoder.js';
import type { AiSdkDecodeRefusalCode } from './decoder-types.js';

function decoder() {
  return createAiSdkDecoder({
    conversationId: 'conv_1',
    turnId: 'turn_1',
    identify: ({ seq }) => ({ eventId: `evt_${seq}`, occurredAt: '2026-12-01T10:00:00Z' }),
  });
}

const call = { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'weather', input: { city: 'Lyon' } };
const cardPart = {
  type: 'data-card',
  id: 'card_1',
  data: { correlationId: 'card_1', createdAt: '2026-12-01T10:00:00Z', prompt: 'Go?', presentation: { kind: 'confirm' } },
};

// Each row: the chunks before (all accepted), the chunk refused, its code.
const REFUSALS: readonly (readonly [string, readonly unknown[], unknown, AiSdkDecodeRefusalCode])[] = [
  ['a value that is not an object', [], 'text-delta', 'invalid-chunk'],
  ['an object without a string type', [], { delta: 'x' }, 'invalid-chunk'],
  ['a text delta without its text', [], { type: 'text-delta', id: 't1' }, 'invalid-chunk'],
  ['a source has no v1 meaning', [], { type: 'source-url', sourceId: 's1', url: 'https://example.com' }, 'unsupported-chunk'],
  ['a file has no v1 meaning', [], { type: 'file', url: 'https://example.com/a.png', mediaType: 'image/png' }, 'unsupported-chunk'],
  ['message metadata has no v1 meaning', [], { type: 'message-metadata', messageMetadata: { a: 1 } }, 'unsupported-chunk'],
  ['an app’s own data part has no v1 meaning', [], { type: 'data-weather', data: { celsius: 21 } }, 'unsupported-chunk'],
  ...['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf'].map(
    (name) =>
      [
        `a type named like an Object.prototype member (${name}) is no chunk type`,
        [],
        JSON.parse(`{"type":"${name}","id":"t1","data":{}}`) as unknown,
        'unsupported-chunk',
      ] as const,
  ),
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
    'a card closed that the stream never asked',
    [],
    { type: 'data-card-closed', id: 'card_1', data: { correlationId: 'card_1', resolution: 'submitted' } },
    'unknown-card',
  ],
  ['the same card asked twice', [cardPart], cardPart, 'duplicate-card'],
  [
    'a card asked after an approval request of the same id made it',
    [call, { type: 'tool-approval-request', approvalId: 'card_1', toolCallId: 'call_1' }],
    cardPart,
    'duplicate-card',
  ],
  [
    'a card closed twice',
    [cardPart, { type: 'data-card-closed', id: 'card_1', data: { correlationId: 'card_1' } }],
    { type: 'data-card-closed', id: 'card_1', data: { correlationId: 'card_1', resolution: 'declined' } },
    'card-closed',
  ],
  [
    'AI SDK 7: an approval answered twice',
    [
      call,
      { type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'call_1' },
      { type: 'tool-approval-response', approvalId: 'a1', approved: true },
    ],
    { type: 'tool-approval-response', approvalId: 'a1', approved: false },
    'card-closed',
  ],
  [
    'ai’s tool-output-error after the tool-input-error of an unknown or invalid tool: the call already failed',
    [{ type: 'tool-input-error', toolCallId: 'call_1', toolName: 'launch', input: {}, errorText: 'no such tool' }],
    { type: 'tool-output-error', toolCallId: 'call_1', errorText: 'tool error' },
    'duplicate-tool-result',
  ],
  [
    'a second output for a call',
    [call, { type: 'tool-output-available', toolCallId: 'call_1', output: 1 }],
    { type: 'tool-output-denied', toolCallId: 'call_1' },
    'duplicate-tool-result',
  ],
  [
    'a client-side tool’s result for a call of an earlier stream (run)',
    [{ type: 'start', messageId: 'msg_2' }],
    { type: 'tool-output-available', toolCallId: 'call_of_an_earlier_turn', output: { ok: true } },
    'unknown-tool-call',
  ],
  [
    'a tool-input-error for a call already announced',
    [call],
    { ...call, type: 'tool-input-error', errorText: 'bad' },
    'duplicate-tool-call',
  ],
  [
    'a state write that is not after the last one',
    [{ type: 'data-state', id: 'state', data: { version: 2, snapshot: {} } }],
    { type: 'data-state', id: 'state', data: { version: 2, snapshot: { a: 1 } } },
    'stale-state',
  ],
  [
    'a user input that is not the turn’s first envelope',
    [{ type: 'text-delta', id: 't1', delta: 'Hi' }],
    { type: 'data-user-input', data: { text: 'hello' } },
    'misplaced-user-input',
  ],
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

  it('after a refused chunk the numbering goes on without a gap, and the turn still ends (DESIGN §12)', () => {
    const reader = decoder();
    reader.decode({ type: 'tool-input-error', toolCallId: 'call_1', toolName: 'launch', input: {}, errorText: 'no such tool' });
    expect(reader.decode({ type: 'tool-output-error', toolCallId: 'call_1', errorText: 'tool error' })).toMatchObject({
      ok: false,
      code: 'duplicate-tool-result',
    });
    expect(reader.decode({ type: 'data-card-closed', id: 'card_9', data: { correlationId: 'card_9' } })).toMatchObject({
      ok: false,
      code: 'unknown-card',
    });
    expect(reader.decode({ type: 'text-delta', id: 't1', delta: 'Sorry.' })).toMatchObject({ ok: true, envelopes: [{ seq: 3 }] });
    expect(reader.decode({ type: 'finish' })).toMatchObject({ ok: true, envelopes: [{ seq: 4, event: { type: 'done' } }] });
    expect(reader.counts()).toEqual({ decoded: 3, transport: 0, refused: 2, refusals: { 'duplicate-tool-result': 1, 'unknown-card': 1 } });
  });

  it('a card an earlier turn left waiting (the context’s awaitingCards) may be closed once, and not asked again (DESIGN §3.3)', () => {
    const reader = createAiSdkDecoder({
      conversationId: 'conv_1',
      turnId: 'turn_2',
      awaitingCards: ['card_1'],
      identify: ({ seq }) => ({ eventId: `evt_${seq}`, occurredAt: '2026-12-01T10:00:00Z' }),
    });
    expect(reader.decode(cardPart)).toMatchObject({ ok: false, code: 'duplicate-card' });
    const closed = { type: 'data-card-closed', id: 'card_1', data: { correlationId: 'card_1', resolution: 'submitted' } };
    expect(reader.decode(closed)).toMatchObject({
      ok: true,
      envelopes: [{ seq: 1, event: { type: 'card_closed', correlationId: 'card_1' } }],
    });
    expect(reader.decode(closed)).toMatchObject({ ok: false, code: 'card-closed' });
  });

  it('a turn end awaiting a card the stream did not leave open keeps the done and reports the awaiting lost', () => {
    const reader = decoder();
    reader.decode(cardPart);
    reader.decode({ type: 'data-card-closed', id: 'card_1', data: { correlationId: 'card_1' } });
    reader.decode({ type: 'data-turn-end', data: { awaiting: ['card_1'], usage: { outputTokens: 2 } } });
    expect(reader.decode({ type: 'finish' })).toEqual({
      ok: true,
      envelopes: [expect.objectContaining({ seq: 3, event: { type: 'done', status: 'completed', usage: { outputTokens: 2 } } })],
      lost: [{ field: 'data-turn-end.awaiting', reason: 'it names a card this stream did not ask or already closed' }],
    });
  });

  it('a tool-result part cannot move a result to another call: the chunk’s call id and name win', () => {
    const reader = decoder();
    reader.decode(call);
    reader.decode({ ...call, toolCallId: 'call_2' });
    reader.decode({ type: 'data-tool-result', id: 'call_1', data: { status: 'failed', callId: 'call_2', name: 'other', summary: 's' } });
    expect(reader.decode({ type: 'tool-output-error', toolCallId: 'call_1', errorText: 'boom' })).toMatchObject({
      ok: true,
      envelopes: [{ event: { type: 'tool_result', callId: 'call_1', name: 'weather', status: 'failed', summary: 's' } }],
    });
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
