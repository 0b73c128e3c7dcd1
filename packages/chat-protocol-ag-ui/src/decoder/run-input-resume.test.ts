/**
 * `RUN_STARTED.input.resume` (issue 18: it was reported lost): the resume
 * entries of a run's request say how the cards they answer closed, so the
 * decoder gives each one as a v1 `card_closed`, which core's reducer applies
 * to the card the earlier run left open. The answer's value is reported lost.
 */
import { applyChatEvent, createChatState, type ChatEventEnvelope, type ChatStateV1 } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { createAgUiDecoder } from './create-ag-ui-decoder.js';
import { createAgUiEncoder } from '../encoder/create-ag-ui-encoder.js';
import { resumeEntryFromCardResponse } from '../resume-entries.js';

const CONVERSATION = 'conv_1';
const card = (correlationId: string) => ({
  correlationId,
  createdAt: '2026-12-01T10:00:01.000Z',
  prompt: 'Go ahead?',
  presentation: { kind: 'confirm' as const },
  allowDecline: true,
});
const envelope = (seq: number, event: ChatEventEnvelope['event']): ChatEventEnvelope => ({
  schemaVersion: 1,
  conversationId: CONVERSATION,
  turnId: 'turn_1',
  eventId: `evt_${seq}`,
  seq,
  occurredAt: '2026-12-01T10:00:00.000Z',
  event,
});

// Run 1 (a turn that ends waiting on two cards) as this package's encoder writes it.
const firstRun = (() => {
  const encoder = createAgUiEncoder();
  return [
    envelope(1, { type: 'card', card: card('card_a') }),
    envelope(2, { type: 'card', card: card('card_b') }),
    envelope(3, { type: 'done', status: 'completed', awaiting: ['card_a', 'card_b'] }),
  ].flatMap((input) => encoder.encode(input).events);
})();

function decodeAll(events: readonly unknown[]) {
  const seqs = new Map<string, number>();
  const decoder = createAgUiDecoder({
    conversationId: CONVERSATION,
    identify: ({ runId }) => {
      const seq = (seqs.get(runId) ?? 0) + 1;
      seqs.set(runId, seq);
      return { turnId: runId, eventId: `${runId}.${seq}`, seq, occurredAt: '2026-12-01T10:00:05.000Z' };
    },
  });
  return events.map((event) => decoder.decode(event));
}

function reduce(envelopes: readonly ChatEventEnvelope[]): ChatStateV1 {
  let state = createChatState(CONVERSATION);
  for (const item of envelopes) {
    const applied = applyChatEvent(state, item);
    if (!applied.ok) throw new Error(`the reducer refused ${item.event.type}: ${applied.code}`);
    state = applied.state;
  }
  return state;
}

describe('RUN_STARTED.input.resume → card_closed (issue 18)', () => {
  it("each answered interrupt is a card_closed with the answer's resolution; the value and the rest of the request are reported lost; core's reducer closes the open cards", () => {
    const resume = [
      resumeEntryFromCardResponse({ action: 'submit', correlationId: 'card_a', value: { confirmed: true } }),
      resumeEntryFromCardResponse({ action: 'decline', correlationId: 'card_b' }),
    ];
    const input = { threadId: CONVERSATION, runId: 'turn_2', messages: [], resume };
    const results = decodeAll([...firstRun, { type: 'RUN_STARTED', threadId: CONVERSATION, runId: 'turn_2', input }]);
    const started = results.at(-1);
    expect(started).toMatchObject({ ok: true });
    if (started?.ok !== true) return;
    expect(started.envelopes.map((item) => item.event)).toStrictEqual([
      { type: 'card_closed', correlationId: 'card_a', resolution: 'submitted' },
      { type: 'card_closed', correlationId: 'card_b', resolution: 'declined' },
    ]);
    expect(started.lost.map((loss) => loss.field)).toStrictEqual([
      'input.threadId',
      'input.runId',
      'input.messages',
      'input.resume[0].payload',
    ]);
    const envelopes = results.flatMap((result) => (result.ok ? result.envelopes : []));
    const cardsOf = (state: ChatStateV1) =>
      state.turns.flatMap((turn) =>
        turn.cards.map(({ card: { correlationId }, closed, resolution }) => ({ correlationId, closed, resolution })),
      );
    expect(cardsOf(reduce(envelopes.slice(0, -2)))).toStrictEqual([
      { correlationId: 'card_a', closed: false, resolution: null },
      { correlationId: 'card_b', closed: false, resolution: null },
    ]);
    expect(cardsOf(reduce(envelopes))).toStrictEqual([
      { correlationId: 'card_a', closed: true, resolution: 'submitted' },
      { correlationId: 'card_b', closed: true, resolution: 'declined' },
    ]);
  });

  it('an entry that is not a card answer (a resolved entry without payload, a bad status) makes no event and is reported lost with its reason', () => {
    const input = {
      resume: [
        { interruptId: 'card_a', status: 'resolved' },
        { interruptId: 'card_b', status: 'maybe' },
        { interruptId: 'card_b', status: 'cancelled' },
      ],
    };
    const [, , , , started] = decodeAll([...firstRun, { type: 'RUN_STARTED', threadId: CONVERSATION, runId: 'turn_2', input }]);
    expect(started).toStrictEqual({
      ok: true,
      envelopes: [expect.objectContaining({ event: { type: 'card_closed', correlationId: 'card_b', resolution: 'cancelled' } })],
      lost: [
        { field: 'input.resume[0]', reason: 'not a card answer (missing-payload)' },
        { field: 'input.resume[1]', reason: 'not a card answer (invalid-resume-entry)' },
      ],
    });
  });

  it('a run without resume entries makes no event', () => {
    const [started] = decodeAll([{ type: 'RUN_STARTED', threadId: CONVERSATION, runId: 'turn_1', input: { threadId: CONVERSATION } }]);
    expect(started).toStrictEqual({
      ok: true,
      envelopes: [],
      lost: [{ field: 'input.threadId', reason: "a run's request is not a v1 event" }],
    });
  });
});
