// @ts-check
// resumed-after-disconnect: the connection drops after seq 7 mid-turn. The
// client last stored the cursor of seq 5, reconnects with it as
// Last-Event-ID, and the host replays everything after it: seq 6 and 7
// arrive twice, and the reducer absorbs them.

import { callId } from '../ids.mjs';
import { conversation } from '../session.mjs';

const RESUME_START = Date.UTC(2026, 5, 3, 8, 12, 40, 700);
const RESUME_CALL = callId('resumed-after-disconnect/status', RESUME_START + 1_500);

const resumedAfterDisconnect = conversation({
  name: 'resumed-after-disconnect',
  start: RESUME_START,
  turns: [[
    [0, { type: 'provenance', engine: 'papercup-agent', model: 'provider_y/large', accountRoute: 'ops' }],
    [250, { type: 'reasoning', text: 'Check the status page before answering about the outage.' }],
    [600, { type: 'delta', text: 'Checking the status of ' }],
    [680, { type: 'delta', text: 'the EU API region now. ' }],
    [760, { type: 'delta', text: 'One moment.\n\n' }],
    [1_500, { type: 'tool_call', callId: RESUME_CALL, name: 'get_status', input: { region: 'eu-central' } }],
    [3_100, { type: 'delta', text: 'Still waiting on the status service' }],
    [
      9_800,
      {
        type: 'tool_result',
        callId: RESUME_CALL,
        name: 'get_status',
        status: 'succeeded',
        summary: 'Degraded: elevated error rates since 07:50 UTC',
        blocks: [
          {
            kind: 'text',
            text: 'Elevated API error rates in eu-central since 07:50 UTC. A fix is being deployed.',
            sources: [{ ref: 'status:incident/2026-06-03-eu-central', label: 'Incident 2026-06-03' }],
          },
        ],
      },
    ],
    [10_200, { type: 'delta', text: '.\n\nThe EU region has had elevated error rates since 07:50 UTC; ' }],
    [10_260, { type: 'delta', text: 'a fix is being deployed, and retries should start succeeding shortly.' }],
    [10_400, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 1804, outputTokens: 77 } }],
  ]],
});

/** @type {import('../session.mjs').GoldenSession} */
export const resumedAfterDisconnectSession = {
  name: 'resumed-after-disconnect',
  title: 'The connection drops mid-turn; the client resumes from its stored cursor and the overlapping replay is absorbed',
  envelopes: resumedAfterDisconnect,
  connections: [
    { after: null, through: 7 },
    { after: 5, through: null },
  ],
};
