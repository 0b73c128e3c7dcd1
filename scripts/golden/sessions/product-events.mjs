// @ts-check
// product-events (issue 13): Scout's domain events as registered product
// events, one of each channel. `scout.products` and `scout.broaden` are
// state-channel (the last list wins), `scout.highlight` event-channel (kept in
// order), `scout.cart_mutate` transient (in the log only). The session's
// `productEvents` (name → channel) is what a reader registers to replay it.

import { callId } from '../ids.mjs';
import { conversation } from '../session.mjs';

/** @type {Readonly<Record<string, import('@papercusp/chat-protocol-core').ChatChannel>>} */
const PRODUCT_EVENTS = {
  'scout.products': 'state',
  'scout.broaden': 'state',
  'scout.highlight': 'event',
  'scout.cart_mutate': 'transient',
};
const PRODUCTS_START = Date.UTC(2026, 10, 30, 17, 0, 0, 0);
const productCallId = callId('product-events', PRODUCTS_START + 120);

const productEvents = conversation({
  name: 'product-events',
  start: PRODUCTS_START,
  turns: [[
    [0, { type: 'provenance', engine: 'scout-agent', model: 'provider_x/small', accountRoute: null }],
    [120, { type: 'tool_call', callId: productCallId, name: 'search_products', input: 'trail shoes under 120' }],
    [900, { type: 'tool_result', callId: productCallId, name: 'search_products', status: 'succeeded', summary: '2 products' }],
    [950, { type: 'scout.products', data: { products: [{ id: 'TR-210', price: 109 }, { id: 'TR-315', price: 119 }] } }],
    [980, { type: 'scout.broaden', data: { options: [{ label: 'Any price', prompt: 'trail shoes', resultCount: 14 }] } }],
    [1_100, { type: 'delta', text: 'Two trail shoes under $120. ' }],
    [1_400, { type: 'scout.highlight', data: { productId: 'TR-210' } }],
    [1_450, { type: 'delta', text: 'The TR-210 is the lighter one.' }],
    [2_000, { type: 'scout.products', data: { products: [{ id: 'TR-210', price: 109 }] } }],
    [2_050, { type: 'scout.cart_mutate', data: { op: 'add', productId: 'TR-210', quantity: 1 } }],
    [2_060, { type: 'scout.highlight', data: { productId: 'TR-315' } }],
    [2_300, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 980, outputTokens: 41, totalTokens: 1021, costUsd: 0.0014 } }],
  ]],
});

/** @type {import('../session.mjs').GoldenSession} */
export const productEventsSession = {
  name: 'product-events',
  title: "Scout's domain events as registered product events, one of each channel: state (last wins), event (kept in order), transient (log only)",
  productEvents: PRODUCT_EVENTS,
  envelopes: productEvents,
};
