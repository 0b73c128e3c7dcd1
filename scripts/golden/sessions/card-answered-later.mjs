// @ts-check
// card-answered-later: a card that outlives its turn (DESIGN §3.3, issue 13).
// Turn 1 asks and ends waiting for the person (`done.awaiting`, as an AG-UI
// interrupt or an `<ask>` does); the answer comes the next morning and turn 2
// closes turn 1's card, then carries on.

import { cardId, iso } from '../ids.mjs';
import { conversation } from '../session.mjs';

const LATER_START = Date.UTC(2026, 10, 20, 17, 45, 0, 0);
const LATER_CARD = cardId('card-answered-later/approve', LATER_START + 1_200);
const LATER_NEXT_DAY = 15 * 3_600_000;

const cardAnsweredLater = conversation({
  name: 'card-answered-later',
  start: LATER_START,
  turns: [
    [
      [0, { type: 'delta', text: 'The migration plan is ready. It needs your approval before it runs tonight.' }],
      [
        1_200,
        {
          type: 'card',
          card: {
            correlationId: LATER_CARD,
            createdAt: iso(LATER_START + 1_200),
            prompt: 'Run the billing migration tonight at 02:00 UTC?',
            presentation: {
              kind: 'radio',
              options: [
                { id: 'run', label: 'Run it tonight' },
                { id: 'hold', label: 'Hold until Monday' },
              ],
            },
            allowDecline: true,
          },
        },
      ],
      [1_300, { type: 'done', status: 'completed', stopReason: 'awaiting_input', awaiting: [LATER_CARD] }],
    ],
    [
      [LATER_NEXT_DAY, { type: 'card_closed', correlationId: LATER_CARD, resolution: 'submitted' }],
      [LATER_NEXT_DAY + 400, { type: 'delta', text: 'Holding the migration until Monday, as you chose.' }],
      [LATER_NEXT_DAY + 500, { type: 'done', status: 'completed', stopReason: 'end_turn' }],
    ],
  ],
});
/** @type {import('@papercusp/chat-protocol-core').CardResponse[]} */
const CARD_ANSWERED_LATER_RESPONSES = [{ action: 'submit', correlationId: LATER_CARD, value: { optionId: 'hold' } }];

/** @type {import('../session.mjs').GoldenSession} */
export const cardAnsweredLaterSession = {
  name: 'card-answered-later',
  title: 'A turn ends waiting for the answer to its card; the next turn, a day later, closes that card',
  scenario: ['card-outlives-turn'],
  envelopes: cardAnsweredLater,
  responses: CARD_ANSWERED_LATER_RESPONSES,
};
