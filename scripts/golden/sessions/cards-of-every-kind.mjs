// @ts-check
// cards-answered, cards-declined, cards-expired: a card of every base kind,
// one turn each. The turn asks, the card closes, the agent answers and the
// turn completes. `responses` are what the person sent (none for expiry).

import { cardId, iso } from '../ids.mjs';
import { conversation } from '../session.mjs';

/** @typedef {'submitted' | 'declined' | 'expired'} CardsResolution */

/**
 * One base card kind as the sessions ask it: the card's fields, the value a
 * person answers with, and what the agent says after the answer.
 * @typedef {{
 *   readonly kind: string;
 *   readonly card: { readonly prompt: string; readonly presentation: import('@papercusp/chat-protocol-core').CardPresentationV1 };
 *   readonly value: import('@papercusp/chat-protocol-core').CardValue;
 *   readonly answered: string;
 * }} CardAsked
 */

/** @type {readonly CardAsked[]} */
const CARD_KINDS_ASKED = [
  {
    kind: 'text',
    card: { prompt: 'What should we call the new project?', presentation: { kind: 'text', placeholder: 'Project name', maxLength: 80 } },
    value: { text: 'Lighthouse' },
    answered: 'The project is called Lighthouse.',
  },
  {
    kind: 'radio',
    card: {
      prompt: 'Which plan should it use?',
      presentation: {
        kind: 'radio',
        options: [
          { id: 'plan_starter', label: 'Starter', description: 'Up to 5 seats' },
          { id: 'plan_team', label: 'Team', description: 'Up to 50 seats, SSO' },
        ],
      },
    },
    value: { optionId: 'plan_team' },
    answered: "It's on the Team plan.",
  },
  {
    kind: 'select',
    card: {
      prompt: 'Where should its data live?',
      presentation: {
        kind: 'select',
        options: [
          { id: 'region_eu_west', label: 'EU (Dublin)' },
          { id: 'region_us_east', label: 'US (Virginia)' },
          { id: 'region_ap_south', label: 'Asia Pacific (Mumbai)' },
        ],
      },
    },
    value: { optionId: 'region_eu_west' },
    answered: 'Its data will live in Dublin.',
  },
  {
    kind: 'checkbox',
    card: {
      prompt: 'Where should we send build notifications?',
      presentation: {
        kind: 'checkbox',
        options: [
          { id: 'notify_email', label: 'Email' },
          { id: 'notify_slack', label: 'Slack' },
          { id: 'notify_sms', label: 'SMS' },
        ],
        minSelected: 1,
      },
    },
    value: { optionIds: ['notify_email', 'notify_slack'] },
    answered: 'Notifications will go to email and Slack.',
  },
  {
    kind: 'confirm',
    card: {
      prompt: 'Invite the 12 people from your old workspace?',
      presentation: { kind: 'confirm', confirmLabel: 'Invite them', rejectLabel: 'Not now' },
    },
    value: { confirmed: true },
    answered: 'Invitations are on their way to all 12.',
  },
  {
    kind: 'date',
    card: { prompt: 'When should the trial start?', presentation: { kind: 'date', min: '2026-12-01', max: '2026-12-31' } },
    value: { date: '2026-12-07' },
    answered: 'The trial starts on 7 December.',
  },
  {
    kind: 'slider',
    card: {
      prompt: 'How many seats do you need?',
      presentation: { kind: 'slider', min: 1, max: 50, step: 1, unit: 'seats' },
    },
    value: { value: 12 },
    answered: "You'll have 12 seats.",
  },
];

/** @type {Readonly<Record<CardsResolution, (asked: CardAsked) => string>>} */
const CARD_FOLLOW_UP = {
  submitted: (asked) => asked.answered,
  declined: () => "No problem, I'll leave that as it is for now.",
  expired: () => "That question timed out, so I've left it unchanged; ask me again any time.",
};

/**
 * A conversation with one turn per card kind, each card closing with `resolution`.
 * @param {string} name
 * @param {number} start
 * @param {CardsResolution} resolution
 * @returns {{ envelopes: import('../session.mjs').GoldenEnvelope[]; responses: import('@papercusp/chat-protocol-core').CardResponse[] }}
 */
function cardsConversation(name, start, resolution) {
  const minutes = resolution === 'expired' ? 11 * 60_000 : 0;
  const turns = CARD_KINDS_ASKED.map((asked, turn) => {
    const at = turn * 20 * 60_000;
    const correlationId = cardId(`${name}/${asked.kind}`, start + at + 300);
    /** @type {import('@papercusp/chat-protocol-core').OpenCardSnapshotV1} */
    const card = {
      correlationId,
      createdAt: iso(start + at + 300),
      ...(resolution === 'expired' ? { expiresAt: iso(start + at + 300 + 10 * 60_000) } : {}),
      ...asked.card,
      allowDecline: true,
    };
    /** @type {import('../session.mjs').GoldenTurn} */
    const events = [
      [at, { type: 'delta', text: `${asked.card.prompt}\n\n` }],
      [at + 300, { type: 'card', card }],
      [at + 300 + 25_000 + minutes, { type: 'card_closed', correlationId, resolution }],
      [at + 300 + 25_400 + minutes, { type: 'delta', text: CARD_FOLLOW_UP[resolution](asked) }],
      [at + 300 + 25_500 + minutes, { type: 'done', status: 'completed', stopReason: 'end_turn' }],
    ];
    return events;
  });
  const envelopes = conversation({ name, start, turns });
  const cards = envelopes.flatMap((envelope) => (envelope.event.type === 'card' ? [envelope.event.card] : []));
  /** @type {import('@papercusp/chat-protocol-core').CardResponse[]} */
  const responses =
    resolution === 'expired'
      ? []
      : cards.map((card, index) =>
          resolution === 'submitted'
            ? { action: 'submit', correlationId: card.correlationId, value: /** @type {CardAsked} */ (CARD_KINDS_ASKED[index]).value }
            : { action: 'decline', correlationId: card.correlationId },
        );
  return { envelopes, responses };
}

const cardsAnswered = cardsConversation('cards-answered', Date.UTC(2026, 4, 11, 9, 0, 4, 200), 'submitted');
const cardsDeclined = cardsConversation('cards-declined', Date.UTC(2026, 4, 12, 13, 30, 0, 900), 'declined');
const cardsExpired = cardsConversation('cards-expired', Date.UTC(2026, 4, 13, 17, 45, 30, 50), 'expired');

/** @type {import('../session.mjs').GoldenSession} */
export const cardsAnsweredSession = { name: 'cards-answered', title: 'A card of every base kind, each answered in its own turn', ...cardsAnswered };
/** @type {import('../session.mjs').GoldenSession} */
export const cardsDeclinedSession = { name: 'cards-declined', title: 'A card of every base kind, each declined', ...cardsDeclined };
/** @type {import('../session.mjs').GoldenSession} */
export const cardsExpiredSession = { name: 'cards-expired', title: 'A card of every base kind, each left unanswered until it expired', ...cardsExpired };
