/**
 * Issue 24 (DESIGN §2.1, §2.7): `decode` and `encode` never throw, whatever
 * they are handed: the hostile catalogue in every position, near-valid chunks
 * with a getter, a Proxy or an inherited member's name planted anywhere, and
 * ids with NUL or lone surrogates. `createAiSdkDecoder` throws `TypeError`
 * only, for a context it cannot use.
 */
import { describe, expect, it } from 'vitest';
import { everyTrapThrows, throwHostile } from '../../../test-support/hostile-values.js';
import { anyArguments, describeHostileContract, type HostileTarget } from '../../../test-support/never-throws.js';
import * as aiSdk from './index.js';

const context = {
  conversationId: 'conv_1',
  turnId: 'turn_1',
  awaitingCards: ['card_0'],
  identify: ({ seq }: { readonly seq: number }) => ({ eventId: `evt_${seq}`, occurredAt: '2026-12-01T10:00:00Z' }),
};
const decoder = () => aiSdk.createAiSdkDecoder(context);
const call = { type: 'tool-input-available', toolCallId: 'call_1', toolName: 'weather', input: { city: 'Lyon', days: [1, 2] } };

/** Decodes `chunks` in order with one decoder: the first answer that is not a result, else the last result. */
function decodeInOrder(...chunks: unknown[]): unknown {
  const reader = decoder();
  let last: unknown;
  for (const chunk of chunks) {
    last = reader.decode(chunk);
    const answer = last as { readonly ok?: unknown };
    if (typeof last !== 'object' || last === null || typeof answer.ok !== 'boolean') return last;
  }
  return last;
}

const neverThrowing: Readonly<Record<string, HostileTarget>> = {
  'createAiSdkDecoder().decode of a tool call, then its output': {
    call: decodeInOrder,
    valid: [
      call,
      { type: 'tool-output-available', toolCallId: 'call_1', output: { summary: 'sunny', blocks: [{ kind: 'text', text: 'x' }] } },
    ],
    returns: 'result',
  },
  'createAiSdkDecoder().decode of a card, its approval request and its closing': {
    call: decodeInOrder,
    valid: [
      call,
      {
        type: 'data-card',
        id: 'card_1',
        data: { correlationId: 'card_1', createdAt: '2026-12-01T10:00:00Z', prompt: 'Go?', presentation: { kind: 'confirm' } },
      },
      { type: 'tool-approval-request', approvalId: 'card_1', toolCallId: 'call_1' },
      { type: 'data-card-closed', id: 'card_1', data: { correlationId: 'card_1', resolution: 'submitted' } },
    ],
    returns: 'result',
  },
  'createAiSdkDecoder().decode of a failed result part and a turn end': {
    call: decodeInOrder,
    valid: [
      call,
      { type: 'data-tool-result', id: 'call_1', data: { status: 'failed', summary: 's', error: 'e' } },
      { type: 'tool-output-error', toolCallId: 'call_1', errorText: 'e' },
      { type: 'data-turn-end', data: { usage: { outputTokens: 1 }, awaiting: ['card_1'] } },
      { type: 'finish', finishReason: 'stop' },
    ],
    returns: 'result',
  },
  'createAiSdkDecoder().counts': {
    call: (chunk) => {
      const reader = decoder();
      reader.decode(chunk);
      return reader.counts();
    },
    valid: [call],
    returns: 'value',
  },
  createAiSdkEncoder: { call: anyArguments(aiSdk.createAiSdkEncoder), valid: [undefined], returns: 'value' },
  'createAiSdkEncoder().encode': {
    call: (envelope) => aiSdk.createAiSdkEncoder().encode(envelope),
    valid: [
      {
        schemaVersion: 1,
        conversationId: 'conv_1',
        turnId: 'turn_1',
        eventId: 'evt_1',
        seq: 1,
        occurredAt: '2026-12-01T10:00:00Z',
        event: { type: 'tool_call', callId: 'call_1', name: 'weather', input: { city: 'Lyon' } },
      },
    ],
    returns: 'result',
  },
};

describeHostileContract('ai-sdk', aiSdk, {
  neverThrowing,
  throwing: { createAiSdkDecoder: { call: anyArguments(aiSdk.createAiSdkDecoder), valid: [context] } },
  others: {
    encodeAiSdkSseFrame:
      'serializes a chunk the encoder wrote (typed AiSdkUiMessageChunk); src/encoder.test.ts holds it to the AI SDK’s own framing',
  },
});

describe('ai-sdk: exact outcomes of hostile chunks (issue 24)', () => {
  const getter = (base: object, key: string) => Object.defineProperty({ ...base }, key, { get: throwHostile, enumerable: true });

  it('a chunk that cannot be read (a throwing getter, a Proxy, a cycle) is invalid-chunk and counted', () => {
    const cyclic: Record<string, unknown> = { type: 'text-delta', id: 't1', delta: 'x' };
    cyclic['self'] = cyclic;
    const reader = decoder();
    for (const chunk of [
      getter(call, 'type'),
      getter(call, 'toolCallId'),
      everyTrapThrows,
      new Proxy(call, { ownKeys: throwHostile }),
      cyclic,
    ]) {
      expect(reader.decode(chunk)).toMatchObject({ ok: false, code: 'invalid-chunk' });
    }
    expect(reader.counts()).toEqual({ decoded: 0, transport: 0, refused: 5, refusals: { 'invalid-chunk': 5 } });
  });

  it('a getter or a Proxy deep inside a chunk is invalid-chunk, and the next chunk still takes seq 1', () => {
    const reader = decoder();
    expect(reader.decode({ ...call, input: { city: getter({}, 'name') } })).toMatchObject({ ok: false, code: 'invalid-chunk' });
    expect(reader.decode({ type: 'data-state', id: 'state', data: new Proxy({ version: 1 }, { ownKeys: throwHostile }) })).toMatchObject({
      ok: false,
      code: 'invalid-chunk',
    });
    expect(reader.decode(call)).toMatchObject({ ok: true, envelopes: [{ seq: 1 }] });
  });

  it('ids with NUL or a lone surrogate are refused by the strict encoder (invalid-envelope), never thrown on', () => {
    const reader = decoder();
    for (const toolCallId of ['call\u00001', 'call_\ud800', '\udc00']) {
      expect(reader.decode({ ...call, toolCallId })).toMatchObject({ ok: false, code: 'invalid-envelope' });
    }
    expect(reader.decode({ type: 'data-card-closed', id: 'x', data: { correlationId: 'card_\ud800' } })).toMatchObject({
      ok: false,
      code: 'invalid-envelope',
    });
    expect(reader.counts().refusals).toEqual({ 'invalid-envelope': 4 });
  });

  it('a context that cannot be read, or awaiting cards that are not ids, is a TypeError at creation', () => {
    expect(() => aiSdk.createAiSdkDecoder(everyTrapThrows as never)).toThrow(TypeError);
    expect(() => aiSdk.createAiSdkDecoder(getter(context, 'identify') as never)).toThrow(TypeError);
    expect(() => aiSdk.createAiSdkDecoder({ ...context, awaitingCards: [1] } as never)).toThrow(TypeError);
    expect(() => aiSdk.createAiSdkDecoder({ ...context, awaitingCards: new Proxy([], { get: throwHostile }) })).toThrow(TypeError);
  });
});
