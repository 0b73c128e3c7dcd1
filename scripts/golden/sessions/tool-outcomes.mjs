// @ts-check
// tool-outcomes: one call of each result status. The refund's outcome is
// unknown (the payments API took the request, the answer was lost), so the
// turn ends needing reconciliation.

import { callId } from '../ids.mjs';
import { conversation } from '../session.mjs';

const OUTCOMES_START = Date.UTC(2026, 3, 2, 11, 14, 9, 310);
const outcomeCall = (/** @type {string} */ tool, /** @type {number} */ offset) => callId(`tool-outcomes/${tool}`, OUTCOMES_START + offset);
const CUSTOMER_CALL = outcomeCall('customer', 600);
const PDF_CALL = outcomeCall('pdf', 650);
const SMS_CALL = outcomeCall('sms', 700);
const REFUND_CALL = outcomeCall('refund', 750);

const toolOutcomes = conversation({
  name: 'tool-outcomes',
  start: OUTCOMES_START,
  turns: [[
    [0, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'billing-eu' }],
    [240, { type: 'delta', text: "I'll refund the duplicate charge, send you the corrected invoice and text you a confirmation.\n\n" }],
    [600, { type: 'tool_call', callId: CUSTOMER_CALL, name: 'lookup_customer', input: { email: 'dana@example.com' } }],
    [650, { type: 'tool_call', callId: PDF_CALL, name: 'fetch_invoice_pdf', input: { invoiceId: 'INV-4410' } }],
    [700, { type: 'tool_call', callId: SMS_CALL, name: 'send_sms', input: { to: 'customer', template: 'refund-started' } }],
    [750, { type: 'tool_call', callId: REFUND_CALL, name: 'issue_refund', input: { chargeId: 'ch_3PqL', amount: { currency: 'EUR', cents: 4900 } } }],
    [
      1_400,
      {
        type: 'tool_result',
        callId: CUSTOMER_CALL,
        name: 'lookup_customer',
        status: 'succeeded',
        summary: 'Dana Whitfield, customer since 2023',
        blocks: [{ kind: 'data', data: { customerId: 'cus_88A1', plan: 'team', smsOptOut: true }, sources: [{ ref: 'crm:customer/cus_88A1', label: 'CRM record' }] }],
      },
    ],
    [1_900, { type: 'tool_result', callId: PDF_CALL, name: 'fetch_invoice_pdf', status: 'failed', summary: 'Invoice renderer unavailable', error: 'renderer returned 503' }],
    [1_950, { type: 'tool_result', callId: SMS_CALL, name: 'send_sms', status: 'cancelled', summary: 'Not sent: the customer opted out of SMS' }],
    [
      12_750,
      {
        type: 'tool_result',
        callId: REFUND_CALL,
        name: 'issue_refund',
        status: 'needs-reconciliation',
        summary: 'The payments API accepted the refund request, but its confirmation never arrived',
      },
    ],
    [13_100, { type: 'delta', text: "I asked for the refund of €49.00, but I couldn't confirm it went through; " }],
    [13_180, { type: 'delta', text: "someone from billing will check before anything is retried. The corrected invoice couldn't be generated right now, and I didn't text you because you've opted out of SMS." }],
    [13_300, { type: 'done', status: 'needs-reconciliation', stopReason: 'effect_unconfirmed', usage: { inputTokens: 3120, outputTokens: 118 } }],
  ]],
});

/** @type {import('../session.mjs').GoldenSession} */
export const toolOutcomesSession = { name: 'tool-outcomes', title: 'Tool calls that succeed, fail, are cancelled and need reconciliation', envelopes: toolOutcomes };
