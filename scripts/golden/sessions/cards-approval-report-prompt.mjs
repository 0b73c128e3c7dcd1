// @ts-check
// cards-approval-report-prompt (issue 13): the card shapes Papercusp ships that
// v1 first held in issue 13, one turn each: a tool-approval card without
// presentation (answered { confirmed }), a card that only shows a report
// (acknowledged), and a plain prompt-only card (answered in words).

import { callId, cardId, iso } from '../ids.mjs';
import { conversation } from '../session.mjs';

const PARITY_START = Date.UTC(2026, 10, 2, 10, 15, 0, 250);
const PARITY_CALL = callId('cards-approval-report-prompt/write', PARITY_START + 200);
/**
 * One card shape as the session asks it: its seed, the card's fields (without
 * id and time), the value a person answers with, and what the agent says after.
 * @typedef {{
 *   readonly seed: 'approval' | 'report' | 'prompt';
 *   readonly card: Omit<import('@papercusp/chat-protocol-core').OpenCardSnapshotV1, 'correlationId' | 'createdAt'>;
 *   readonly value: import('@papercusp/chat-protocol-core').CardValue;
 *   readonly after: string;
 * }} ParityCard
 */

/** @type {readonly ParityCard[]} */
const PARITY_CARDS = [
  {
    seed: 'approval',
    card: {
      prompt: 'Apply this change to config/retries.yaml?',
      approval: {
        title: 'write_file config/retries.yaml',
        question: 'Apply this change to config/retries.yaml?',
        body: ['--- a/config/retries.yaml', '+++ b/config/retries.yaml', '@@ -1 +1 @@', '-max_attempts: 1', '+max_attempts: 3'],
      },
      allowDecline: true,
      timeoutMs: 600_000,
    },
    value: { confirmed: true },
    after: 'Applied: retries are now capped at three attempts.',
  },
  {
    seed: 'report',
    card: {
      prompt: 'Here is where the rollout stands.',
      report: {
        title: 'Retry rollout',
        plans: [
          {
            slug: 'retry-rollout',
            title: 'Retry rollout',
            status: 'active',
            items: [
              { id: 'R-1', text: 'Config changed', status: 'done' },
              { id: 'R-2', text: 'Canary in eu-west', status: 'wip', ref: 'deploy:canary-eu-west' },
            ],
          },
        ],
      },
      allowDecline: true,
    },
    value: { acknowledged: true },
    after: "Thanks. I'll report back when the canary finishes.",
  },
  {
    seed: 'prompt',
    card: { prompt: 'Anything else before I close this out?', fallbackText: 'Anything else?', allowDecline: true },
    value: { text: 'No, that is all.' },
    after: 'Closing this out.',
  },
];

/** @type {import('../session.mjs').GoldenTurn[]} */
const cardsParityTurns = PARITY_CARDS.map((asked, turn) => {
  const at = turn * 15 * 60_000;
  const correlationId = cardId(`cards-approval-report-prompt/${asked.seed}`, PARITY_START + at + 400);
  const card = { correlationId, createdAt: iso(PARITY_START + at + 400), ...asked.card };
  /** @type {import('../session.mjs').GoldenTurn} */
  const opening =
    asked.seed === 'approval'
      ? [
          [at, { type: 'delta', text: 'I need your approval before I change the retry limit.\n\n' }],
          [at + 200, { type: 'tool_call', callId: PARITY_CALL, name: 'write_file', input: { path: 'config/retries.yaml' } }],
        ]
      : [[at, { type: 'delta', text: `${asked.card.prompt}\n\n` }]];
  /** @type {import('../session.mjs').GoldenTurn} */
  const closing =
    asked.seed === 'approval'
      ? [[at + 31_000, { type: 'tool_result', callId: PARITY_CALL, name: 'write_file', status: 'succeeded', summary: 'config/retries.yaml updated' }]]
      : [];
  return [
    ...opening,
    [at + 400, { type: 'card', card }],
    [at + 30_400, { type: 'card_closed', correlationId, resolution: 'submitted' }],
    ...closing,
    [at + 31_400, { type: 'delta', text: asked.after }],
    [at + 31_500, { type: 'done', status: 'completed', stopReason: 'end_turn' }],
  ];
});
const cardsParity = conversation({ name: 'cards-approval-report-prompt', start: PARITY_START, turns: cardsParityTurns });
/** @type {import('@papercusp/chat-protocol-core').CardResponse[]} */
const cardsParityResponses = cardsParity
  .flatMap((envelope) => (envelope.event.type === 'card' ? [envelope.event.card] : []))
  .map((card, index) => ({ action: 'submit', correlationId: card.correlationId, value: /** @type {ParityCard} */ (PARITY_CARDS[index]).value }));

/** @type {import('../session.mjs').GoldenSession} */
export const cardsApprovalReportPromptSession = {
  name: 'cards-approval-report-prompt',
  title: 'A tool-approval card, a card that only shows a report, and a plain prompt-only card, each answered',
  scenario: ['papercusp-card-shapes'],
  envelopes: cardsParity,
  responses: cardsParityResponses,
};
