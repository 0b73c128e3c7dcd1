// @ts-check
// tools-and-sources: text, provenance, two tool calls (one succeeds with
// grounded sources, one fails), more text, done completed with usage.

import { callId } from '../ids.mjs';
import { conversation } from '../session.mjs';

const TOOLS_START = Date.UTC(2026, 2, 14, 9, 26, 53, 120);
const SEARCH_CALL = callId('tools-and-sources/search', TOOLS_START + 900);
const ORDER_CALL = callId('tools-and-sources/order', TOOLS_START + 950);

const toolsAndSources = conversation({
  name: 'tools-and-sources',
  start: TOOLS_START,
  turns: [[
    [0, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'support-eu' }],
    [420, { type: 'delta', text: "I'll check our refund policy" }],
    [510, { type: 'delta', text: ' and look up your order.\n\n' }],
    [900, { type: 'tool_call', callId: SEARCH_CALL, name: 'search_help_center', input: { query: 'refund damaged item', locale: 'en-GB', limit: 3 } }],
    [950, { type: 'tool_call', callId: ORDER_CALL, name: 'get_order', input: { orderId: 'ord_7Q2M9K' } }],
    [
      2_300,
      {
        type: 'tool_result',
        callId: SEARCH_CALL,
        name: 'search_help_center',
        status: 'succeeded',
        summary: 'Found 2 relevant help articles',
        blocks: [
          {
            kind: 'text',
            text: 'Items that arrive damaged can be returned for a full refund within 30 days of delivery. Refunds go back to the original payment method within 5–10 business days.',
            sources: [
              { ref: 'kb:article/refunds-damaged-items', label: 'Refunds for damaged items' },
              { ref: 'kb:article/refund-timelines', label: 'When will I get my refund?' },
            ],
          },
          {
            kind: 'data',
            data: {
              articles: [
                { id: 'refunds-damaged-items', score: 0.92, updatedAt: '2026-02-02' },
                { id: 'refund-timelines', score: 0.81, updatedAt: '2025-11-18' },
              ],
            },
            sources: [{ ref: 'kb:search?q=refund+damaged+item' }],
          },
        ],
      },
    ],
    [10_950, { type: 'tool_result', callId: ORDER_CALL, name: 'get_order', status: 'failed', summary: 'Order lookup timed out', error: 'orders-api did not answer within 10 s' }],
    [11_400, { type: 'delta', text: 'Good news: items that arrive damaged can be refunded in full within 30 days of delivery, ' }],
    [11_480, { type: 'delta', text: 'and the money goes back to your original payment method within 5–10 business days.\n\n' }],
    [11_560, { type: 'delta', text: "I couldn't open order ord_7Q2M9K just now: our order system timed out. Could you try again in a minute, or send a photo of the damage so I can start the return?" }],
    [11_700, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 2381, outputTokens: 164, totalTokens: 2545 } }],
  ]],
});

/** @type {import('../session.mjs').GoldenSession} */
export const toolsAndSourcesSession = {
  name: 'tools-and-sources',
  title: 'Two tool calls, one succeeding with grounded sources, one failing, then a completed answer',
  envelopes: toolsAndSources,
};
