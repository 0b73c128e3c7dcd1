// @ts-check
// asked-and-answered: two turns the person opens (typed, then by voice), each
// with its user_input first; a tool call, a card answered, done completed.
// Its history page shows both sides of the conversation.

import { callId, cardId, iso } from '../ids.mjs';
import { conversation } from '../session.mjs';

const ASKED_START = Date.UTC(2026, 10, 30, 9, 12, 4, 250);
const ASKED_CALL = callId('asked-and-answered/orders', ASKED_START + 900);
const ASKED_CARD = cardId('asked-and-answered', ASKED_START + 62_400);

const askedAndAnswered = conversation({
  name: 'asked-and-answered',
  start: ASKED_START,
  turns: [
    [
      [0, { type: 'user_input', text: 'Where is my order ord_4K7P? It was due on Friday.', source: 'text_typed' }],
      [150, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'support-eu' }],
      [900, { type: 'tool_call', callId: ASKED_CALL, name: 'get_order', input: { orderId: 'ord_4K7P' } }],
      [1_700, { type: 'tool_result', callId: ASKED_CALL, name: 'get_order', status: 'succeeded', summary: 'Delayed at the carrier, new estimate Tuesday' }],
      [2_100, { type: 'delta', text: 'Your order ord_4K7P is held up at the carrier. ' }],
      [2_180, { type: 'delta', text: 'Their new estimate is Tuesday.' }],
      [2_400, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 1220, outputTokens: 31 } }],
    ],
    [
      [61_800, { type: 'user_input', text: 'can you just cancel it', source: 'voice_stt' }],
      [62_000, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'support-eu' }],
      [
        62_400,
        {
          type: 'card',
          card: {
            correlationId: ASKED_CARD,
            createdAt: iso(ASKED_START + 62_400),
            prompt: 'Cancel order ord_4K7P and refund 38.00 EUR?',
            presentation: { kind: 'confirm', confirmLabel: 'Cancel the order', rejectLabel: 'Keep it' },
            fallbackText: 'Say "cancel" or "keep it".',
            allowDecline: true,
          },
        },
      ],
      [80_100, { type: 'card_closed', correlationId: ASKED_CARD, resolution: 'submitted' }],
      [80_500, { type: 'delta', text: 'Done: ord_4K7P is cancelled and 38.00 EUR is on its way back to your card.' }],
      [80_700, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 1490, outputTokens: 24 } }],
    ],
  ],
});

/** @type {import('../session.mjs').GoldenSession} */
export const askedAndAnsweredSession = {
  name: 'asked-and-answered',
  title: 'Two turns the person opens, typed and then by voice: a tool answers the first, a confirm card the second',
  envelopes: askedAndAnswered,
  responses: [{ action: 'submit', correlationId: ASKED_CARD, value: { confirmed: true } }],
};
