// @ts-check
// failed-then-retried: the provider rate-limits the first turn (a retryable
// error with a delay); the retry completes, moves the host state through two
// versions, navigates the app, and withdraws a card without reporting why. A
// third turn fails for good: its error does not permit a retry.

import { callId, cardId, iso } from '../ids.mjs';
import { conversation } from '../session.mjs';

const RETRY_START = Date.UTC(2026, 8, 30, 6, 58, 12, 0);
const DRAFT_CARD = cardId('failed-then-retried/draft', RETRY_START + 7_600);
const ARCHIVE_CALL = callId('failed-then-retried/archive', RETRY_START + 95_400);

const failedThenRetried = conversation({
  name: 'failed-then-retried',
  start: RETRY_START,
  turns: [
    [
      [0, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'reports' }],
      [400, { type: 'delta', text: 'Drafting the weekly summary' }],
      [1_100, { type: 'error', code: 'rate-limited', message: 'The model provider is rate limiting this account', retryable: true, retryAfterMs: 2_000 }],
    ],
    [
      [3_500, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'reports' }],
      [3_800, { type: 'state', version: 1, snapshot: { draft: { id: 'rep_w48', status: 'writing' } } }],
      [6_900, { type: 'delta', text: 'The weekly summary is drafted: revenue is up 4% and churn is flat. ' }],
      [7_600, { type: 'card', card: { correlationId: DRAFT_CARD, createdAt: iso(RETRY_START + 7_600), prompt: 'Share the draft with the team now?', presentation: { kind: 'confirm' } } }],
      [7_900, { type: 'state', version: 2, snapshot: { draft: { id: 'rep_w48', status: 'ready' } } }],
      [8_000, { type: 'card_closed', correlationId: DRAFT_CARD }],
      [8_100, { type: 'delta', text: "I've opened it for you to review first." }],
      [8_200, { type: 'navigate', href: '/reports/rep_w48' }],
      [8_300, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 2210, outputTokens: 96 } }],
    ],
    [
      [95_000, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'reports' }],
      [95_400, { type: 'tool_call', callId: ARCHIVE_CALL, name: 'load_archive', input: { weeks: 260 } }],
      [97_900, { type: 'tool_result', callId: ARCHIVE_CALL, name: 'load_archive', status: 'succeeded', summary: '260 weekly reports, 1.9M tokens' }],
      [98_000, { type: 'error', code: 'context-too-long', message: 'Five years of reports do not fit in one request', retryable: false }],
    ],
  ],
});

/** @type {import('../session.mjs').GoldenSession} */
export const failedThenRetriedSession = {
  name: 'failed-then-retried',
  title: 'A retryable error ends a turn; the retry updates host state twice, withdraws a card and navigates; a final error ends the third',
  envelopes: failedThenRetried,
};
