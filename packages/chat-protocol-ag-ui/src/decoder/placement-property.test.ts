/**
 * The decoder rule of DESIGN §12 as a property (issue 24): over peer streams mutated the way a live transport and a
 * careless peer mutate them (events dropped, duplicated, moved, a window that starts mid-stream), built from AG-UI's
 * published conformance streams and from this package's encoder output for generated v1 streams, folding every
 * envelope the decoder emits with core's `applyChatEvent` never refuses, and each turn's seqs run 1, 2, 3, ….
 * A second property: a turn that has not ended never comes back ended through a round trip.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { applyChatEvent, createChatState, type ChatEventEnvelope, type ChatEventV1, type ChatStateV1 } from '@papercusp/chat-protocol-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runs } from '../../../../test-support/property-runs.js';
import { EVENT_MODELS, cardArb, eventArb } from '../../../../test-support/v1-arbitraries.js';
import { countingHost } from '../../test/counting-host.js';
import { createAgUiDecoder } from './create-ag-ui-decoder.js';
import { createAgUiEncoder } from '../encoder/create-ag-ui-encoder.js';

const CONVERSATION = 'conv_1';
const directory = new URL('../../fixtures/conformance/', import.meta.url);
const conformanceStreams: readonly (readonly Record<string, unknown>[])[] = readdirSync(directory)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => (JSON.parse(readFileSync(new URL(file, directory), 'utf8')) as { stream: Record<string, unknown>[] }).stream);

// A few shared ids, so generated calls get results, cards get closed and turns await them.
const CALL_IDS = ['call_1', 'call_2'] as const;
const CARD_IDS = ['card_1', 'card_2'] as const;
const coherentEventArb = fc.oneof(
  fc.record({ ...EVENT_MODELS.tool_call, callId: fc.constantFrom(...CALL_IDS), name: fc.constant('lookup') }),
  fc.record({ ...EVENT_MODELS.tool_result, callId: fc.constantFrom(...CALL_IDS), name: fc.constant('lookup') }),
  fc.tuple(cardArb, fc.constantFrom(...CARD_IDS)).map(([card, correlationId]) => ({ type: 'card', card: { ...card, correlationId } })),
  fc.record({ ...EVENT_MODELS.card_closed, correlationId: fc.constantFrom(...CARD_IDS) }),
  fc.record({ ...EVENT_MODELS.done, awaiting: fc.option(fc.subarray([...CARD_IDS], { minLength: 1 }), { nil: undefined }) }),
  fc.record(EVENT_MODELS.user_input),
  fc.record(EVENT_MODELS.delta),
  fc.record(EVENT_MODELS.state),
);

/** A v1 stream of up to three turns, interleaved or not, ended or not: seqs contiguous per turn from 1. */
const v1StreamArb: fc.Arbitrary<ChatEventEnvelope[]> = fc
  .array(fc.record({ turn: fc.nat({ max: 2 }), event: fc.oneof(eventArb, coherentEventArb) }), { maxLength: 24 })
  .map((drawn) => {
    const seqs = new Map<string, number>();
    return drawn.map(({ turn, event }) => {
      const turnId = `turn_${turn}`;
      const seq = (seqs.get(turnId) ?? 0) + 1;
      seqs.set(turnId, seq);
      const envelope = {
        schemaVersion: 1,
        conversationId: CONVERSATION,
        turnId,
        eventId: `${turnId}.${seq}`,
        seq,
        occurredAt: '2026-12-01T10:00:00.000Z',
        event,
      };
      return envelope as ChatEventEnvelope;
    });
  });

const encode = (envelopes: readonly ChatEventEnvelope[]): unknown[] => {
  const encoder = createAgUiEncoder();
  return envelopes.flatMap((envelope) => encoder.encode(envelope).events);
};

type Mutation = { readonly kind: 'drop' | 'duplicate' | 'move'; readonly at: number; readonly to: number };
const mutationArb: fc.Arbitrary<Mutation> = fc.record({ kind: fc.constantFrom('drop', 'duplicate', 'move'), at: fc.nat(), to: fc.nat() });

/** `events` seen through a window (it may start mid-stream), then dropped, duplicated and moved as `mutations` say. */
function mutate(
  events: readonly unknown[],
  window: { readonly start: number; readonly length: number },
  mutations: readonly Mutation[],
): unknown[] {
  const start = events.length === 0 ? 0 : window.start % events.length;
  const stream = events.slice(start, start + window.length);
  for (const { kind, at, to } of mutations) {
    if (stream.length === 0) break;
    const index = at % stream.length;
    const [event] = stream.splice(index, kind === 'duplicate' ? 0 : 1);
    const moved = event ?? stream[index];
    if (kind === 'duplicate') stream.splice(to % (stream.length + 1), 0, moved);
    if (kind === 'move') stream.splice(to % (stream.length + 1), 0, moved);
  }
  return stream;
}

const peerStreamArb = fc.oneof(fc.constantFrom(...conformanceStreams), v1StreamArb.map(encode));
const mutatedArb = fc
  .tuple(peerStreamArb, fc.record({ start: fc.nat(), length: fc.nat({ max: 200 }) }), fc.array(mutationArb, { maxLength: 6 }))
  .map(([events, window, mutations]) => mutate(events, window, mutations));

/** Decodes `events` and folds every emitted envelope; the first reducer refusal or seq out of order, or nothing. */
function firstProblem(events: readonly unknown[]): string | undefined {
  const thread = events.find((event): event is { threadId: string } => typeof (event as { threadId?: unknown }).threadId === 'string');
  const conversationId = thread?.threadId ?? CONVERSATION;
  const decoder = createAgUiDecoder(countingHost(conversationId));
  let state: ChatStateV1 = createChatState(conversationId);
  const lastSeq = new Map<string, number>();
  for (const [index, event] of events.entries()) {
    const decoded = decoder.decode(event);
    if (!decoded.ok) continue;
    for (const envelope of decoded.envelopes) {
      const expected = (lastSeq.get(envelope.turnId) ?? 0) + 1;
      if (envelope.seq !== expected) return `event ${index}: ${envelope.turnId} seq ${envelope.seq}, expected ${expected}`;
      lastSeq.set(envelope.turnId, envelope.seq);
      const applied = applyChatEvent(state, envelope);
      if (!applied.ok) return `event ${index}: the reducer refused ${envelope.event.type} with ${applied.code}: ${applied.message}`;
      if (applied.outcome !== 'applied') return `event ${index}: ${envelope.event.type} was a duplicate`;
      state = applied.state;
    }
  }
  return undefined;
}

describe('a decoder never emits an envelope the reducer would refuse (issue 24, DESIGN §12)', () => {
  it('over mutated conformance streams and mutated encoder output: every envelope folds, seqs contiguous per turn', () => {
    fc.assert(
      fc.property(mutatedArb, (events) => {
        expect(firstProblem(events)).toBeUndefined();
      }),
      { numRuns: runs(300) },
    );
  });

  it('every conformance stream whole, and every window of it: every envelope folds', () => {
    for (const stream of conformanceStreams)
      for (let start = 0; start < stream.length; start++) expect(firstProblem(stream.slice(start))).toBeUndefined();
  });

  it('a turn that has not ended never comes back ended: encoder then decoder end exactly the turns the v1 stream ended', () => {
    const terminal = (event: ChatEventV1) => event.type === 'done' || event.type === 'error';
    fc.assert(
      fc.property(v1StreamArb, (envelopes) => {
        const ended = new Set<string>();
        for (const envelope of envelopes) {
          // The encoder carries a turn's first terminal and nothing after it.
          if (!ended.has(envelope.turnId) && terminal(envelope.event)) ended.add(envelope.turnId);
        }
        const decoder = createAgUiDecoder(countingHost(CONVERSATION));
        const decodedEnds = new Set<string>();
        for (const event of encode(envelopes)) {
          const decoded = decoder.decode(event);
          if (decoded.ok) for (const envelope of decoded.envelopes) if (terminal(envelope.event)) decodedEnds.add(envelope.turnId);
        }
        expect([...decodedEnds].sort()).toStrictEqual([...ended].sort());
      }),
      { numRuns: runs(200) },
    );
  });
});
