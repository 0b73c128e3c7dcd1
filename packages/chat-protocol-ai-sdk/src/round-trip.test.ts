import { applyChatEvent, createChatState, type ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { listGoldenSessions, replayGoldenSession } from '@papercusp/chat-protocol-testkit';
import { describe, expect, it } from 'vitest';
import { createAiSdkDecoder } from './decoder/create-ai-sdk-decoder.js';
import { createAiSdkEncoder } from './encoder/create-ai-sdk-encoder.js';
import type { AiSdkLoss, AiSdkUiMessageChunk } from './ui-message-chunk.js';

interface EncodedTurn {
  readonly turnId: string;
  readonly chunks: AiSdkUiMessageChunk[];
  /** The envelopes that reached the stream, each with what its encoding lost. */
  readonly kept: { readonly envelope: ChatEventEnvelope; readonly lost: readonly AiSdkLoss[] }[];
}

function encodeByTurn(envelopes: readonly ChatEventEnvelope[]): { turns: EncodedTurn[]; lost: AiSdkLoss[] } {
  const encoder = createAiSdkEncoder();
  const turns: EncodedTurn[] = [];
  const lost: AiSdkLoss[] = [];
  for (const envelope of envelopes) {
    const result = encoder.encode(envelope);
    if (!result.ok) throw new Error(result.message);
    if (result.outcome === 'duplicate') continue;
    lost.push(...result.lost);
    if (result.chunks[0]?.type === 'start') turns.push({ turnId: envelope.turnId, chunks: [], kept: [] });
    const turn = turns.at(-1) as EncodedTurn;
    turn.chunks.push(...result.chunks);
    if (!result.lost.some((loss) => loss.field === 'event')) turn.kept.push({ envelope, lost: result.lost });
  }
  return { turns, lost };
}

/** The event without the fields its encoding reported lost (`event.<field>`). */
function withoutLost(event: object, lost: readonly AiSdkLoss[]): object {
  const fields = new Set(lost.flatMap((loss) => (loss.field.startsWith('event.') ? [loss.field.slice('event.'.length)] : [])));
  return Object.fromEntries(Object.entries(event).filter(([field]) => !fields.has(field)));
}

describe('round trip v1 → AI SDK → v1 (issue 18: equal apart from the reported loss)', () => {
  for (const { name } of listGoldenSessions()) {
    it(`${name}: every envelope that reached the stream comes back, equal apart from its reported loss, and core’s reducer accepts them`, () => {
      const replay = replayGoldenSession(name);
      if (!replay.ok) throw new Error(replay.message);
      const { turns } = encodeByTurn(replay.value.envelopes);
      let state = createChatState(replay.value.expectedState.conversationId);
      for (const turn of turns) {
        const decoder = createAiSdkDecoder({
          conversationId: replay.value.expectedState.conversationId,
          turnId: turn.turnId,
          // The cards earlier turns left waiting, which this turn may close (DESIGN §3.3).
          awaitingCards: state.turns.flatMap((earlier) =>
            earlier.cards.flatMap((entry) => (entry.awaiting === true && !entry.closed ? [entry.card.correlationId] : [])),
          ),
          identify: ({ seq }) => {
            const original = turn.kept[seq - 1]?.envelope;
            if (original === undefined) throw new Error(`no original envelope for seq ${seq}`);
            return { eventId: original.eventId, occurredAt: original.occurredAt };
          },
        });
        const decoded: ChatEventEnvelope[] = [];
        for (const chunk of turn.chunks) {
          const result = decoder.decode(JSON.parse(JSON.stringify(chunk)));
          expect(result.ok).toBe(true);
          if (result.ok) decoded.push(...result.envelopes);
        }
        expect(decoded.map((envelope) => withoutLost(envelope.event, turn.kept[envelope.seq - 1]?.lost ?? []))).toEqual(
          turn.kept.map(({ envelope, lost }) => withoutLost(envelope.event, lost)),
        );
        expect(decoded.map((envelope) => envelope.eventId)).toEqual(turn.kept.map(({ envelope }) => envelope.eventId));
        expect(decoder.counts().refused).toBe(0);
        for (const envelope of decoded) {
          const applied = applyChatEvent(state, envelope);
          expect(applied.ok ? 'applied' : applied).toBe('applied');
          if (applied.ok) state = applied.state;
        }
      }
    });
  }

  it('names every loss the golden sessions meet, and nothing else (the README’s table)', () => {
    const fields = new Set<string>();
    for (const { name } of listGoldenSessions()) {
      const replay = replayGoldenSession(name);
      if (!replay.ok) throw new Error(replay.message);
      for (const loss of encodeByTurn(replay.value.envelopes).lost) fields.add(`${loss.field}: ${loss.reason}`);
    }
    // Failed, cancelled and unknown tool outcomes keep every field through the data-tool-result part.
    expect([...fields].sort()).toEqual(['event: a product event has no UI message chunk']);
  });
});
