// @ts-check
// interrupted-turn: the worker running the turn dies while a card is open.
// On restart the host's recovery closes the card as interrupted and ends the
// turn interrupted; the person asks again and the next turn completes.

import { callId, cardId, iso } from '../ids.mjs';
import { conversation } from '../session.mjs';

const INTERRUPTED_START = Date.UTC(2026, 7, 9, 19, 20, 0, 480);
const EXPORT_CALL = callId('interrupted-turn/export', INTERRUPTED_START + 500);
const FIRST_CONFIRM = cardId('interrupted-turn/first', INTERRUPTED_START + 4_100);
const SECOND_CONFIRM = cardId('interrupted-turn/second', INTERRUPTED_START + 121_400);
/**
 * The confirm card asking to email the export, created at `at`.
 * @param {string} correlationId
 * @param {number} at
 * @returns {import('@papercusp/chat-protocol-core').OpenCardSnapshotV1}
 */
const confirmEmail = (correlationId, at) => ({
  correlationId,
  createdAt: iso(INTERRUPTED_START + at),
  prompt: 'Email the Q3 export to finance@acme.example?',
  presentation: { kind: 'confirm', confirmLabel: 'Send it', rejectLabel: 'Not yet' },
  fallbackText: 'Reply "send" or "not yet".',
});

const interruptedTurn = conversation({
  name: 'interrupted-turn',
  start: INTERRUPTED_START,
  turns: [
    [
      [0, { type: 'provenance', engine: 'papercup-agent', model: 'provider_y/medium', accountRoute: null }],
      [500, { type: 'tool_call', callId: EXPORT_CALL, name: 'export_report', input: { report: 'q3-revenue', format: 'csv' } }],
      [3_600, { type: 'tool_result', callId: EXPORT_CALL, name: 'export_report', status: 'succeeded', summary: 'q3-revenue.csv, 4,812 rows' }],
      [3_900, { type: 'delta', text: 'The Q3 export is ready (4,812 rows). ' }],
      [4_100, { type: 'card', card: confirmEmail(FIRST_CONFIRM, 4_100) }],
      [96_300, { type: 'card_closed', correlationId: FIRST_CONFIRM, resolution: 'interrupted' }],
      [96_350, { type: 'done', status: 'interrupted', stopReason: 'worker_restarted' }],
    ],
    [
      [120_900, { type: 'provenance', engine: 'papercup-agent', model: 'provider_y/medium', accountRoute: null }],
      [121_100, { type: 'delta', text: 'Sorry, I was interrupted. The export is still ready. ' }],
      [121_400, { type: 'card', card: confirmEmail(SECOND_CONFIRM, 121_400) }],
      [129_000, { type: 'card_closed', correlationId: SECOND_CONFIRM, resolution: 'submitted' }],
      [129_300, { type: 'delta', text: 'Sent: finance@acme.example has the Q3 export.' }],
      [129_400, { type: 'done', status: 'completed', stopReason: 'end_turn' }],
    ],
  ],
});

/** @type {import('../session.mjs').GoldenSession} */
export const interruptedTurnSession = { name: 'interrupted-turn', title: 'A worker restart interrupts a turn with an open card; the next turn asks again and completes', envelopes: interruptedTurn };
