// @ts-check
// cancelled-mid-stream: reasoning and text stream, a tool call starts, the
// person cancels before it reports: done cancelled, the call has no result.

import { callId } from '../ids.mjs';
import { conversation } from '../session.mjs';

const CANCEL_START = Date.UTC(2026, 2, 14, 16, 45, 12, 5);

const cancelledMidStream = conversation({
  name: 'cancelled-mid-stream',
  start: CANCEL_START,
  turns: [[
    [0, { type: 'provenance', engine: 'papercup-agent', model: 'provider_y/medium' }],
    [300, { type: 'reasoning', text: 'They want a migration plan; first check how many rows are left.' }],
    [800, { type: 'delta', text: "Here's a plan for moving the orders table to the new schema:\n\n1. " }],
    [880, { type: 'delta', text: 'Count the rows that still need to move' }],
    [1_200, { type: 'tool_call', callId: callId('cancelled-mid-stream/sql', CANCEL_START + 1_200), name: 'run_sql', input: { query: 'SELECT count(*) FROM orders WHERE migrated = false', readOnly: true } }],
    [4_750, { type: 'done', status: 'cancelled', stopReason: 'user_cancelled' }],
  ]],
});

/** @type {import('../session.mjs').GoldenSession} */
export const cancelledMidStreamSession = {
  name: 'cancelled-mid-stream',
  title: 'Reasoning and text stream, a tool call starts, and the person cancels before it reports',
  envelopes: cancelledMidStream,
};
