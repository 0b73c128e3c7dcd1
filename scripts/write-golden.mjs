#!/usr/bin/env node
// Writes the golden sessions in fixtures/golden/: `<name>.jsonl` (one v1
// envelope per line, as encodeChatEnvelope writes it) and `<name>.state.json`
// (the ChatStateV1 the reducer reaches, as JSON.stringify(state, null, 2)).
// It runs the BUILT core package, so build it first:
//   pnpm --filter @papercusp/chat-protocol-core build && node scripts/write-golden.mjs
// `--check` writes nothing and exits 1 when a fixture differs from what the
// sessions below produce. A regenerated state file must be read by a person
// before it is committed: that reading is what makes it golden.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import {
  applyChatEvent,
  createChatState,
  encodeChatEnvelope,
  parseChatEnvelope,
} from '../packages/chat-protocol-core/dist/index.js';

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);

// Plausible, reproducible ULID-style ids: 10 characters of time, 16 of a
// generator seeded by the id's name. No clock, no randomness.
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
function ulid(ms, seed) {
  let time = '';
  for (let rest = ms, index = 0; index < 10; index++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  let state = 2166136261;
  for (const char of seed) state = Math.imul(state ^ char.charCodeAt(0), 16777619) >>> 0;
  let random = '';
  for (let index = 0; index < 16; index++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    random += CROCKFORD[state >>> 27];
  }
  return time + random;
}

const iso = (ms) => new Date(ms).toISOString();

/** A session: one conversation, one turn, events at offsets (ms) from `start`. */
function session({ name, start, events }) {
  const conversationId = `conv_${ulid(start - 3_600_000, `${name}/conversation`)}`;
  const turnId = `turn_${ulid(start, `${name}/turn`)}`;
  return events.map(([offset, event], index) => ({
    conversationId,
    turnId,
    eventId: `evt_${ulid(start + offset, `${name}/${index + 1}`)}`,
    seq: index + 1,
    occurredAt: iso(start + offset),
    event,
  }));
}

const callId = (name, ms) => `call_${ulid(ms, `${name}/call`)}`;

// ---------------------------------------------------------------------------
// tools-and-sources: text, provenance, two tool calls (one succeeds with
// grounded sources, one fails), more text, done completed with usage.

const TOOLS_START = Date.UTC(2026, 2, 14, 9, 26, 53, 120);
const SEARCH_CALL = callId('tools-and-sources/search', TOOLS_START + 900);
const ORDER_CALL = callId('tools-and-sources/order', TOOLS_START + 950);

const toolsAndSources = session({
  name: 'tools-and-sources',
  start: TOOLS_START,
  events: [
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
    [11_700, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 2381, outputTokens: 164, cachedInputTokens: 1024 } }],
  ],
});

// ---------------------------------------------------------------------------
// card-answered: a radio card is asked and answered (card_closed submitted),
// the host records the choice, more text, done completed.

const CARD_START = Date.UTC(2026, 2, 14, 10, 2, 7, 480);
const CARD_ID = `card_${ulid(CARD_START + 700, 'card-answered/card')}`;

const cardAnswered = session({
  name: 'card-answered',
  start: CARD_START,
  events: [
    [0, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: null }],
    [350, { type: 'delta', text: 'Happy to set that up. ' }],
    [410, { type: 'delta', text: 'Which plan should the new workspace use?\n\n' }],
    [
      700,
      {
        type: 'card',
        card: {
          correlationId: CARD_ID,
          createdAt: iso(CARD_START + 700),
          expiresAt: iso(CARD_START + 700 + 15 * 60_000),
          prompt: 'Which plan should the new workspace use?',
          presentation: {
            kind: 'radio',
            options: [
              { id: 'plan_starter', label: 'Starter', description: 'Up to 5 seats, community support' },
              { id: 'plan_team', label: 'Team', description: 'Up to 50 seats, SSO, priority support' },
            ],
          },
          fallbackText: 'Reply "Starter" or "Team".',
          allowDecline: true,
        },
      },
    ],
    [41_950, { type: 'card_closed', correlationId: CARD_ID, resolution: 'submitted' }],
    [42_300, { type: 'state', version: 1, snapshot: { workspace: { name: 'Acme Research', plan: 'plan_team', seats: 12 } } }],
    [42_900, { type: 'delta', text: "Great, Acme Research is on the Team plan now. " }],
    [43_010, { type: 'delta', text: 'You can invite up to 50 people from Settings → Members.' }],
    [43_200, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 1410, outputTokens: 58 } }],
  ],
});

// ---------------------------------------------------------------------------
// cancelled-mid-stream: reasoning and text stream, a tool call starts, the
// person cancels before it reports: done cancelled, the call has no result.

const CANCEL_START = Date.UTC(2026, 2, 14, 16, 45, 12, 5);

const cancelledMidStream = session({
  name: 'cancelled-mid-stream',
  start: CANCEL_START,
  events: [
    [0, { type: 'provenance', engine: 'papercup-agent', model: 'provider_y/medium' }],
    [300, { type: 'reasoning', text: 'They want a migration plan; first check how many rows are left.' }],
    [800, { type: 'delta', text: "Here's a plan for moving the orders table to the new schema:\n\n1. " }],
    [880, { type: 'delta', text: 'Count the rows that still need to move' }],
    [1_200, { type: 'tool_call', callId: callId('cancelled-mid-stream/sql', CANCEL_START + 1_200), name: 'run_sql', input: { query: 'SELECT count(*) FROM orders WHERE migrated = false', readOnly: true } }],
    [4_750, { type: 'done', status: 'cancelled', stopReason: 'user_cancelled' }],
  ],
});

const SESSIONS = {
  'tools-and-sources': toolsAndSources,
  'card-answered': cardAnswered,
  'cancelled-mid-stream': cancelledMidStream,
};

// ---------------------------------------------------------------------------

function render(records) {
  const lines = records.map((record) => {
    const encoded = encodeChatEnvelope(record);
    if (!encoded.ok) throw new Error(`${record.turnId}:${record.seq}: ${encoded.code}: ${encoded.message}`);
    return encoded.json;
  });
  // The state comes from the written lines, exactly as a reader replays them.
  let state = createChatState(records[0].conversationId);
  for (const line of lines) {
    const parsed = parseChatEnvelope(line);
    if (!parsed.ok) throw new Error(`${parsed.code}: ${parsed.message}`);
    const result = applyChatEvent(state, parsed.value);
    if (!result.ok || result.outcome !== 'applied') throw new Error(`not applied: ${JSON.stringify(result)}`);
    state = result.state;
  }
  return { jsonl: `${lines.join('\n')}\n`, stateJson: `${JSON.stringify(state, null, 2)}\n` };
}

const check = process.argv.includes('--check');
mkdirSync(GOLDEN, { recursive: true });
let stale = 0;
for (const [name, records] of Object.entries(SESSIONS)) {
  const { jsonl, stateJson } = render(records);
  for (const [file, text] of [[`${name}.jsonl`, jsonl], [`${name}.state.json`, stateJson]]) {
    const url = new URL(file, GOLDEN);
    if (check) {
      let current = null;
      try {
        current = readFileSync(url, 'utf8');
      } catch {
        // missing counts as stale
      }
      if (current !== text) {
        stale++;
        console.error(`stale: fixtures/golden/${file}`);
      }
    } else {
      writeFileSync(url, text);
      console.log(`wrote fixtures/golden/${file}`);
    }
  }
}
if (check && stale > 0) process.exit(1);
if (check) console.log('golden fixtures are up to date');
