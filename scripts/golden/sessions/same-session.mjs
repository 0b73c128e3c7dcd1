// @ts-check
// same-session-provider-x / same-session-provider-y: one session run through
// each provider. The host allocated the same ids and recorded the same
// events; only the provenance differs, and so only provenance may differ in
// the two states.

import { callId } from '../ids.mjs';
import { conversation } from '../session.mjs';

const PROVIDER_START = Date.UTC(2026, 9, 14, 12, 0, 0, 0);
const PROVIDER_CALL = callId('same-session/search', PROVIDER_START + 700);

/**
 * The session as run through `provider`.
 * @param {string} provider
 */
const sameSession = (provider) =>
  conversation({
    name: 'same-session',
    start: PROVIDER_START,
    turns: [[
      [0, { type: 'provenance', engine: 'papercup-agent', model: `${provider}/large`, accountRoute: `pool-${provider}` }],
      [300, { type: 'delta', text: "I'll look up the data retention policy.\n\n" }],
      [700, { type: 'tool_call', callId: PROVIDER_CALL, name: 'search_policies', input: { query: 'data retention' } }],
      [
        1_900,
        {
          type: 'tool_result',
          callId: PROVIDER_CALL,
          name: 'search_policies',
          status: 'succeeded',
          summary: '1 policy found',
          blocks: [
            {
              kind: 'text',
              text: 'Chat transcripts are kept for 90 days, then deleted. Exports are kept for 30 days.',
              sources: [{ ref: 'policy:data-retention#chat', label: 'Data retention policy, §2' }],
            },
          ],
        },
      ],
      [2_300, { type: 'delta', text: 'Chat transcripts are kept for 90 days and exports for 30 days; after that both are deleted.' }],
      [2_400, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 990, outputTokens: 40 } }],
    ]],
  });

/** @type {import('../session.mjs').GoldenSession} */
export const sameSessionProviderXSession = { name: 'same-session-provider-x', title: 'A sourced answer produced by provider_x', scenario: ['provider-substitution'], envelopes: sameSession('provider_x') };
/** @type {import('../session.mjs').GoldenSession} */
export const sameSessionProviderYSession = {
  name: 'same-session-provider-y',
  title: 'The same session produced by provider_y: only provenance differs',
  scenario: ['provider-substitution'],
  envelopes: sameSession('provider_y'),
};
