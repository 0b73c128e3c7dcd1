/**
 * Issue 24, DESIGN §12: a decoder never emits an envelope core's reducer
 * would refuse for the stream it has decoded so far. The streams are the `ai`
 * package's own (test/ai-streams.ts: text, reasoning, tool outputs and errors,
 * an unknown tool and an invalid input, an approval, a model error) and the
 * encoder's messages for every golden session, mutated the ways a peer or a
 * network mangles them: chunks dropped, repeated, moved, taken from another
 * stream, and windows that start mid-stream.
 */
import { applyChatEvent, createChatState, type ChatStateV1 } from '@papercusp/chat-protocol-core';
import { listGoldenSessions, replayGoldenSession } from '@papercusp/chat-protocol-testkit';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { runs } from '../../../../test-support/property-runs.js';
import { AI_STREAM_SCENARIOS, produceAiStream, type AiStreamScenario } from '../../test/ai-streams.js';
import { encodeSession } from '../../test/encoded-golden-sessions.js';
import { createAiSdkDecoder } from './create-ai-sdk-decoder.js';

interface BaseStream {
  readonly name: string;
  readonly chunks: readonly unknown[];
}

const bases: BaseStream[] = [];

beforeAll(async () => {
  for (const name of Object.keys(AI_STREAM_SCENARIOS) as AiStreamScenario[]) bases.push({ name, chunks: await produceAiStream(name) });
  for (const { name } of listGoldenSessions()) {
    const replay = replayGoldenSession(name);
    if (!replay.ok) throw new Error(replay.message);
    for (const [index, chunks] of encodeSession(replay.value).messages.entries()) {
      bases.push({ name: `${name} turn ${index + 1}`, chunks: chunks.map((chunk) => JSON.parse(JSON.stringify(chunk)) as unknown) });
    }
  }
});

type Mutation =
  | { readonly kind: 'drop' | 'duplicate'; readonly at: number }
  | { readonly kind: 'move'; readonly at: number; readonly to: number }
  | { readonly kind: 'insert'; readonly at: number; readonly chunk: unknown };

function mutated(chunks: readonly unknown[], start: number, mutations: readonly Mutation[]): unknown[] {
  const stream = chunks.slice(start % Math.max(chunks.length, 1));
  for (const mutation of mutations) {
    const at = mutation.at % (stream.length + 1);
    if (mutation.kind === 'insert') stream.splice(at, 0, mutation.chunk);
    else if (at < stream.length) {
      const [chunk] = stream.splice(at, mutation.kind === 'drop' ? 1 : 0);
      if (mutation.kind === 'duplicate') stream.splice(at, 0, stream[at]);
      if (mutation.kind === 'move') stream.splice(mutation.to % (stream.length + 1), 0, chunk);
    }
  }
  return stream;
}

function streamArbitrary(): fc.Arbitrary<{ readonly name: string; readonly chunks: unknown[] }> {
  const pool = bases.flatMap((base) => base.chunks);
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ kind: fc.constantFrom('drop' as const, 'duplicate' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('move' as const), at: fc.nat(), to: fc.nat() }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), chunk: fc.constantFrom(...pool) }),
  );
  return fc
    .record({
      base: fc.constantFrom(...bases),
      start: fc.oneof(fc.constant(0), fc.nat()),
      mutations: fc.array(mutation, { maxLength: 8 }),
    })
    .map(({ base, start, mutations }) => ({ name: base.name, chunks: mutated(base.chunks, start, mutations) }));
}

/** Decodes `chunks` and folds every envelope into core's reducer: the first refusal or seq out of order, else nothing. */
function foldDecoded(chunks: readonly unknown[]): string | undefined {
  const decoder = createAiSdkDecoder({
    conversationId: 'conv_1',
    turnId: 'turn_1',
    identify: ({ seq }) => ({ eventId: `evt_${seq}`, occurredAt: '2026-12-01T10:00:00Z' }),
  });
  let state: ChatStateV1 = createChatState('conv_1');
  let expectedSeq = 1;
  for (const [index, chunk] of chunks.entries()) {
    const result = decoder.decode(chunk);
    if (!result.ok) continue;
    for (const envelope of result.envelopes) {
      if (envelope.seq !== expectedSeq) return `chunk ${index}: seq ${envelope.seq}, expected ${expectedSeq}`;
      expectedSeq += 1;
      const applied = applyChatEvent(state, envelope);
      if (!applied.ok)
        return `chunk ${index} (${JSON.stringify(chunk)}): the reducer refused ${JSON.stringify(envelope.event)} as ${applied.code}`;
      if (applied.outcome !== 'applied') return `chunk ${index}: the reducer saw a duplicate`;
      state = applied.state;
    }
  }
  const counts = decoder.counts();
  const counted = counts.decoded + counts.transport + counts.refused;
  return counted === chunks.length ? undefined : `${counted} chunks counted of ${chunks.length}`;
}

describe('the decoder never emits an envelope the reducer would refuse (issue 24, DESIGN §12)', () => {
  it('every base stream, as written, folds into core’s reducer without a refusal', () => {
    expect(bases.length).toBeGreaterThan(Object.keys(AI_STREAM_SCENARIOS).length);
    expect(bases.map((base) => [base.name, foldDecoded(base.chunks)]).filter(([, problem]) => problem !== undefined)).toEqual([]);
  });

  it('over dropped, repeated, moved and foreign chunks and mid-stream windows, every envelope applies and seq stays contiguous', () => {
    fc.assert(
      fc.property(streamArbitrary(), ({ name, chunks }) => {
        expect(foldDecoded(chunks), name).toBeUndefined();
      }),
      { numRuns: runs(400) },
    );
  });
});
