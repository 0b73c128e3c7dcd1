// @ts-check
// card-answered: a radio card is asked and answered (card_closed submitted),
// the host records the choice, more text, done completed.

import { cardId, iso } from '../ids.mjs';
import { conversation } from '../session.mjs';

const CARD_START = Date.UTC(2026, 2, 14, 10, 2, 7, 480);
const CARD_ID = cardId('card-answered', CARD_START + 700);

const cardAnswered = conversation({
  name: 'card-answered',
  start: CARD_START,
  turns: [[
    [0, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: null }],
    [350, { type: 'delta', text: 'Happy to set that up. ' }],
    [410, { type: 'delta', text: 'Which plan should the new workspace use?\n\n' }],
    [
      700,
      {
        type: 'card',
        card: {
          correlationId: CARD_ID,
          createdAt: iso(CARD_START + 700),
          expiresAt: iso(CARD_START + 700 + 15 * 60_000),
          prompt: 'Which plan should the new workspace use?',
          presentation: {
            kind: 'radio',
            options: [
              { id: 'plan_starter', label: 'Starter', description: 'Up to 5 seats, community support' },
              { id: 'plan_team', label: 'Team', description: 'Up to 50 seats, SSO, priority support' },
            ],
          },
          fallbackText: 'Reply "Starter" or "Team".',
          allowDecline: true,
        },
      },
    ],
    [41_950, { type: 'card_closed', correlationId: CARD_ID, resolution: 'submitted' }],
    [42_300, { type: 'state', version: 1, snapshot: { workspace: { name: 'Acme Research', plan: 'plan_team', seats: 12 } } }],
    [42_900, { type: 'delta', text: "Great, Acme Research is on the Team plan now. " }],
    [43_010, { type: 'delta', text: 'You can invite up to 50 people from Settings → Members.' }],
    [43_200, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 1410, outputTokens: 58 } }],
  ]],
});

/** @type {import('../session.mjs').GoldenSession} */
export const cardAnsweredSession = { name: 'card-answered', title: 'A radio card answered, the host state updated, the turn completed', envelopes: cardAnswered };
