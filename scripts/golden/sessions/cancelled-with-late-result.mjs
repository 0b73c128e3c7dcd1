// @ts-check
// cancelled-with-late-result: the person cancels while send_invoice is in
// flight, with a card open (it closes cancelled). The turn ends cancelled and
// the call has no result: the result,
// which arrived after the cancellation committed, was stored by the host's
// recovery without reopening the turn. The next turn reads it back.

import { callId, cardId, iso } from '../ids.mjs';
import { conversation } from '../session.mjs';

const LATE_START = Date.UTC(2026, 6, 21, 14, 2, 55, 130);
const INVOICE_CALL = callId('cancelled-with-late-result/invoice', LATE_START + 900);
const STATUS_CALL = callId('cancelled-with-late-result/status', LATE_START + 64_300);
const PDF_CARD = cardId('cancelled-with-late-result/pdf', LATE_START + 1_200);

const cancelledWithLateResult = conversation({
  name: 'cancelled-with-late-result',
  start: LATE_START,
  turns: [
    [
      [0, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'billing-eu' }],
      [300, { type: 'delta', text: "I'll send invoice INV-2291 for €1,240.00 to Northwind's billing contact." }],
      [900, { type: 'tool_call', callId: INVOICE_CALL, name: 'send_invoice', input: { invoiceId: 'INV-2291', to: 'billing@northwind.example' } }],
      [1_200, { type: 'card', card: { correlationId: PDF_CARD, createdAt: iso(LATE_START + 1_200), prompt: 'Attach the PDF as well?', presentation: { kind: 'confirm' } } }],
      [2_550, { type: 'card_closed', correlationId: PDF_CARD, resolution: 'cancelled' }],
      [2_600, { type: 'done', status: 'cancelled', stopReason: 'user_cancelled' }],
    ],
    [
      [64_000, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'billing-eu' }],
      [64_300, { type: 'tool_call', callId: STATUS_CALL, name: 'get_effect_status', input: { effectId: INVOICE_CALL } }],
      [
        64_700,
        {
          type: 'tool_result',
          callId: STATUS_CALL,
          name: 'get_effect_status',
          status: 'succeeded',
          summary: 'send_invoice completed after the turn was cancelled',
          blocks: [{ kind: 'data', data: { effectId: INVOICE_CALL, status: 'succeeded', completedAt: iso(LATE_START + 3_450), result: { messageId: 'msg_5f1e' } } }],
        },
      ],
      [65_000, { type: 'delta', text: 'The invoice had already gone out when you cancelled: INV-2291 reached billing@northwind.example a second later. ' }],
      [65_080, { type: 'delta', text: 'Nothing was sent twice. Should I send a note asking them to disregard it?' }],
      [65_200, { type: 'done', status: 'completed', stopReason: 'end_turn' }],
    ],
  ],
});

/** @type {import('../session.mjs').GoldenSession} */
export const cancelledWithLateResultSession = {
  name: 'cancelled-with-late-result',
  title: 'A cancellation while an effect is in flight; its result, stored after the cancellation, is read back by the next turn',
  scenario: ['late-effect-result'],
  envelopes: cancelledWithLateResult,
};
