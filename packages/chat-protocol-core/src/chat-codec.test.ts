import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { envelopeOf } from '../test/envelopes.js';
import { applyChatEvent } from './state/apply-chat-event.js';
import { createCardCodec, defineCardKind } from './cards/card-codec.js';
import { createChatCodec } from './chat-codec.js';
import { parseChatEnvelope } from './envelope/parse-chat-envelope.js';
import { createChatState, parseChatState, type ChatStateOf } from './state/state.js';

const rating = defineCardKind({
  presentation: z.strictObject({ maxStars: z.int().check(z.positive(), z.maximum(10)) }),
  value: z.strictObject({ stars: z.int().check(z.nonnegative()) }),
});
const chat = createChatCodec({ cards: createCardCodec({ kinds: { rating } }) });

type ProductEnvelope = Extract<ReturnType<typeof chat.parseChatEnvelope>, { ok: true }>['value'];
type ProductCard = Extract<ProductEnvelope['event'], { type: 'card' }>['card'];

const RATING_CARD = {
  correlationId: 'card_rate',
  createdAt: '2026-11-29T12:00:00Z',
  prompt: 'How did we do?',
  presentation: { kind: 'rating' as const, maxStars: 5 },
  allowDecline: true,
};
const asked = envelopeOf({ type: 'card', card: RATING_CARD }, { seq: 1, eventId: 'evt_1' });
const closed = envelopeOf({ type: 'card_closed', correlationId: 'card_rate', resolution: 'submitted' }, { seq: 2, eventId: 'evt_2' });

describe('createChatCodec: a product card vocabulary on the wire (DESIGN §3.7)', () => {
  it('accepts a product card kind that the base parser refuses', () => {
    expect(chat.parseChatEnvelope(JSON.stringify(asked))).toEqual({ ok: true, value: asked });
    expect(parseChatEnvelope(JSON.stringify(asked))).toMatchObject({
      ok: false,
      code: 'invalid-event',
      issues: [{ path: ['event', 'card', 'presentation', 'kind'] }],
    });
  });

  it("refuses a product card that breaks the product's schema, with the path into the card", () => {
    const tooMany = envelopeOf({ type: 'card', card: { ...RATING_CARD, presentation: { kind: 'rating', maxStars: 11 } } });
    expect(chat.parseChatEnvelope(tooMany)).toMatchObject({
      ok: false,
      code: 'invalid-event',
      issues: [{ path: ['event', 'card', 'presentation', 'maxStars'] }],
    });
  });

  it('keeps every other rule of the base contract, base card kinds included', () => {
    expect(chat.parseChatEnvelope(envelopeOf({ type: 'delta', text: 'x', extra: 1 }))).toMatchObject({ ok: false, code: 'invalid-event' });
    expect(chat.parseChatEnvelope('{"type":"delta","text":"x"}')).toMatchObject({ ok: false, code: 'unsupported-version' });
    const radio = envelopeOf({
      type: 'card',
      card: { ...RATING_CARD, presentation: { kind: 'radio', options: [{ id: 'a', label: 'A' }] } },
    });
    expect(chat.parseChatEnvelope(radio)).toEqual({ ok: true, value: radio });
  });

  it('a product state applies, survives a snapshot through the codec, and the base parser refuses it', () => {
    const parse = (envelope: object) => {
      const result = chat.parseChatEnvelope(JSON.stringify(envelope));
      if (!result.ok) throw new Error(result.message);
      return result.value;
    };
    let state: ChatStateOf<ProductCard> = createChatState('conv_1');
    for (const envelope of [parse(asked), parse(closed)]) {
      const result = chat.applyChatEvent(state, envelope);
      if (!result.ok) throw new Error(result.message);
      state = result.state;
    }
    expect(state.turns[0]?.cards).toEqual([{ card: RATING_CARD, closed: true, resolution: 'submitted' }]);
    const snapshot = JSON.stringify(state);
    const restored = chat.parseChatState(snapshot);
    expect(restored).toEqual({ ok: true, value: JSON.parse(snapshot) });
    expect(parseChatState(snapshot)).toMatchObject({ ok: false, code: 'invalid-state' });
    if (!restored.ok) return;
    expect(chat.applyChatEvent(restored.value, parse(asked))).toMatchObject({ ok: true, outcome: 'duplicate' });
  });

  it('the base reducer refuses a product card as invalid-event: it would make a state the base parser refuses (issue 24)', () => {
    const parsed = chat.parseChatEnvelope(asked);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(applyChatEvent(createChatState('conv_1'), parsed.value as never)).toEqual({
      ok: false,
      code: 'invalid-event',
      message: 'event: expected one of text, radio, select, checkbox, confirm, date, slider',
      issues: [
        {
          path: ['event', 'card', 'presentation', 'kind'],
          message: 'expected one of text, radio, select, checkbox, confirm, date, slider',
        },
      ],
    });
  });
});
