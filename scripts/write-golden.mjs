#!/usr/bin/env node
// Writes the golden sessions in fixtures/golden/, one conversation each:
//   <name>.jsonl          one v1 envelope per line, in the order a client
//                         received them (an overlapping replay repeats lines),
//                         as encodeChatEnvelope writes them;
//   <name>.state.json     the ChatStateV1 the reducer reaches, as
//                         JSON.stringify(state, null, 2);
//   <name>.history.json   the history page a reloaded client renders from that
//                         state: historyFromChatState, hasMoreEarlier false;
//   <name>.<dialect>.sse  the legacy projection for each built-in dialect in
//                         which every applied envelope has a legacy form, as
//                         encodeLegacyChatFrame writes it;
//   index.json            what each session is: title, scenario tags, the
//                         connections its lines arrived on, the card answers a
//                         person gave, and the legacy capture it was upgraded from.
// `<name>.capture.sse` files are written by hand: legacy captures as an old
// backend wrote them; their sessions are what the legacy adapter upgrades
// them to.
// It runs the BUILT core and legacy-adapter packages, so build them first:
//   pnpm --filter @papercusp/chat-protocol-legacy-adapter... build && node scripts/write-golden.mjs
// `--check` writes nothing and exits 1 when a fixture differs from what the
// sessions below produce. A regenerated state file must be read by a person
// before it is committed: that reading is what makes it golden.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createParser } from 'eventsource-parser';
import {
  applyChatEvent,
  createChatCodec,
  createChatState,
  encodeChatEnvelope,
  formatChatCursor,
  historyFromChatState,
  parseChatEnvelope,
} from '../packages/chat-protocol-core/dist/index.js';
import { createChatFrameDecoder, encodeLegacyChatFrame, papercup, scout } from '../packages/chat-protocol-legacy-adapter/dist/index.js';

const GOLDEN = new URL('../fixtures/golden/', import.meta.url);
const DIALECTS = [papercup, scout];

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

const conversationIdOf = (name, start) => `conv_${ulid(start - 3_600_000, `${name}/conversation`)}`;
// The first turn keeps the seeds of the single-turn sessions written before
// conversations had several turns, so their ids did not change.
const turnSeed = (name, turn) => (turn === 0 ? `${name}/turn` : `${name}/turn${turn + 1}`);
const eventSeed = (name, turn, index) => (turn === 0 ? `${name}/${index + 1}` : `${name}/turn${turn + 1}/${index + 1}`);

/**
 * The envelopes of a conversation: `turns` lists each turn's events as
 * [offset ms from `start`, event]; a turn's id carries its first event's time.
 */
function conversation({ name, start, turns }) {
  const conversationId = conversationIdOf(name, start);
  return turns.flatMap((events, turn) => {
    const turnId = `turn_${ulid(start + events[0][0], turnSeed(name, turn))}`;
    return events.map(([offset, event], index) => ({
      conversationId,
      turnId,
      eventId: `evt_${ulid(start + offset, eventSeed(name, turn, index))}`,
      seq: index + 1,
      occurredAt: iso(start + offset),
      event,
    }));
  });
}

const callId = (name, ms) => `call_${ulid(ms, `${name}/call`)}`;
const cardId = (name, ms) => `card_${ulid(ms, `${name}/card`)}`;

// ---------------------------------------------------------------------------
// tools-and-sources: text, provenance, two tool calls (one succeeds with
// grounded sources, one fails), more text, done completed with usage.

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

// ---------------------------------------------------------------------------
// card-answered: a radio card is asked and answered (card_closed submitted),
// the host records the choice, more text, done completed.

const CARD_START = Date.UTC(2026, 2, 14, 10, 2, 7, 480);
const CARD_ID = cardId('card-answered', CARD_START + 700);

const cardAnswered = conversation({
  name: 'card-answered',
  start: CARD_START,
  turns: [[
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
  ]],
});

// ---------------------------------------------------------------------------
// cancelled-mid-stream: reasoning and text stream, a tool call starts, the
// person cancels before it reports: done cancelled, the call has no result.

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


// ---------------------------------------------------------------------------
// tool-outcomes: one call of each result status. The refund's outcome is
// unknown (the payments API took the request, the answer was lost), so the
// turn ends needing reconciliation.

const OUTCOMES_START = Date.UTC(2026, 3, 2, 11, 14, 9, 310);
const outcomeCall = (tool, offset) => callId(`tool-outcomes/${tool}`, OUTCOMES_START + offset);
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

// ---------------------------------------------------------------------------
// cards-answered, cards-declined, cards-expired: a card of every base kind,
// one turn each. The turn asks, the card closes, the agent answers and the
// turn completes. `responses` are what the person sent (none for expiry).

const CARD_KINDS_ASKED = [
  {
    kind: 'text',
    card: { prompt: 'What should we call the new project?', presentation: { kind: 'text', placeholder: 'Project name', maxLength: 80 } },
    value: { text: 'Lighthouse' },
    answered: 'The project is called Lighthouse.',
  },
  {
    kind: 'radio',
    card: {
      prompt: 'Which plan should it use?',
      presentation: {
        kind: 'radio',
        options: [
          { id: 'plan_starter', label: 'Starter', description: 'Up to 5 seats' },
          { id: 'plan_team', label: 'Team', description: 'Up to 50 seats, SSO' },
        ],
      },
    },
    value: { optionId: 'plan_team' },
    answered: "It's on the Team plan.",
  },
  {
    kind: 'select',
    card: {
      prompt: 'Where should its data live?',
      presentation: {
        kind: 'select',
        options: [
          { id: 'region_eu_west', label: 'EU (Dublin)' },
          { id: 'region_us_east', label: 'US (Virginia)' },
          { id: 'region_ap_south', label: 'Asia Pacific (Mumbai)' },
        ],
      },
    },
    value: { optionId: 'region_eu_west' },
    answered: 'Its data will live in Dublin.',
  },
  {
    kind: 'checkbox',
    card: {
      prompt: 'Where should we send build notifications?',
      presentation: {
        kind: 'checkbox',
        options: [
          { id: 'notify_email', label: 'Email' },
          { id: 'notify_slack', label: 'Slack' },
          { id: 'notify_sms', label: 'SMS' },
        ],
        minSelected: 1,
      },
    },
    value: { optionIds: ['notify_email', 'notify_slack'] },
    answered: 'Notifications will go to email and Slack.',
  },
  {
    kind: 'confirm',
    card: {
      prompt: 'Invite the 12 people from your old workspace?',
      presentation: { kind: 'confirm', confirmLabel: 'Invite them', rejectLabel: 'Not now' },
    },
    value: { confirmed: true },
    answered: 'Invitations are on their way to all 12.',
  },
  {
    kind: 'date',
    card: { prompt: 'When should the trial start?', presentation: { kind: 'date', min: '2026-12-01', max: '2026-12-31' } },
    value: { date: '2026-12-07' },
    answered: 'The trial starts on 7 December.',
  },
  {
    kind: 'slider',
    card: {
      prompt: 'How many seats do you need?',
      presentation: { kind: 'slider', min: 1, max: 50, step: 1, unit: 'seats' },
    },
    value: { value: 12 },
    answered: "You'll have 12 seats.",
  },
];

const CARD_FOLLOW_UP = {
  submitted: (asked) => asked.answered,
  declined: () => "No problem, I'll leave that as it is for now.",
  expired: () => "That question timed out, so I've left it unchanged; ask me again any time.",
};

/** A conversation with one turn per card kind, each card closing with `resolution`. */
function cardsConversation(name, start, resolution) {
  const minutes = resolution === 'expired' ? 11 * 60_000 : 0;
  const turns = CARD_KINDS_ASKED.map((asked, turn) => {
    const at = turn * 20 * 60_000;
    const correlationId = cardId(`${name}/${asked.kind}`, start + at + 300);
    const card = {
      correlationId,
      createdAt: iso(start + at + 300),
      ...(resolution === 'expired' ? { expiresAt: iso(start + at + 300 + 10 * 60_000) } : {}),
      ...asked.card,
      allowDecline: true,
    };
    return [
      [at, { type: 'delta', text: `${asked.card.prompt}\n\n` }],
      [at + 300, { type: 'card', card }],
      [at + 300 + 25_000 + minutes, { type: 'card_closed', correlationId, resolution }],
      [at + 300 + 25_400 + minutes, { type: 'delta', text: CARD_FOLLOW_UP[resolution](asked) }],
      [at + 300 + 25_500 + minutes, { type: 'done', status: 'completed', stopReason: 'end_turn' }],
    ];
  });
  const envelopes = conversation({ name, start, turns });
  const cards = envelopes.filter((envelope) => envelope.event.type === 'card').map((envelope) => envelope.event.card);
  const responses =
    resolution === 'expired'
      ? []
      : cards.map((card, index) =>
          resolution === 'submitted'
            ? { action: 'submit', correlationId: card.correlationId, value: CARD_KINDS_ASKED[index].value }
            : { action: 'decline', correlationId: card.correlationId },
        );
  return { envelopes, responses };
}

const cardsAnswered = cardsConversation('cards-answered', Date.UTC(2026, 4, 11, 9, 0, 4, 200), 'submitted');
const cardsDeclined = cardsConversation('cards-declined', Date.UTC(2026, 4, 12, 13, 30, 0, 900), 'declined');
const cardsExpired = cardsConversation('cards-expired', Date.UTC(2026, 4, 13, 17, 45, 30, 50), 'expired');

// ---------------------------------------------------------------------------
// resumed-after-disconnect: the connection drops after seq 7 mid-turn. The
// client last stored the cursor of seq 5, reconnects with it as
// Last-Event-ID, and the host replays everything after it: seq 6 and 7
// arrive twice, and the reducer absorbs them.

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

// ---------------------------------------------------------------------------
// cancelled-with-late-result: the person cancels while send_invoice is in
// flight, with a card open (it closes cancelled). The turn ends cancelled and
// the call has no result: the result,
// which arrived after the cancellation committed, was stored by the host's
// recovery without reopening the turn. The next turn reads it back.

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

// ---------------------------------------------------------------------------
// interrupted-turn: the worker running the turn dies while a card is open.
// On restart the host's recovery closes the card as interrupted and ends the
// turn interrupted; the person asks again and the next turn completes.

const INTERRUPTED_START = Date.UTC(2026, 7, 9, 19, 20, 0, 480);
const EXPORT_CALL = callId('interrupted-turn/export', INTERRUPTED_START + 500);
const FIRST_CONFIRM = cardId('interrupted-turn/first', INTERRUPTED_START + 4_100);
const SECOND_CONFIRM = cardId('interrupted-turn/second', INTERRUPTED_START + 121_400);
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

// ---------------------------------------------------------------------------
// failed-then-retried: the provider rate-limits the first turn (a retryable
// error with a delay); the retry completes, moves the host state through two
// versions, navigates the app, and withdraws a card without reporting why. A
// third turn fails for good: its error does not permit a retry.

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

// ---------------------------------------------------------------------------
// same-session-provider-x / same-session-provider-y: one session run through
// each provider. The host allocated the same ids and recorded the same
// events; only the provenance differs, and so only provenance may differ in
// the two states.

const PROVIDER_START = Date.UTC(2026, 9, 14, 12, 0, 0, 0);
const PROVIDER_CALL = callId('same-session/search', PROVIDER_START + 700);

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

// ---------------------------------------------------------------------------
// blocks-streamed: the turn's text carries a <report> and an <ask> block, and
// the deltas cut through both: inside an opener, inside the JSON, inside a
// closer. Inline code that mentions a tag is text, not a block.

const BLOCKS_START = Date.UTC(2026, 10, 2, 16, 30, 0, 0);
const BLOCKS_TEXT = [
  'Here is where the orders migration stands (I write status as a `<report>` block):\n\n',
  '<report>',
  JSON.stringify({
    title: 'Orders migration',
    plans: [
      {
        slug: 'backfill',
        title: 'Backfill',
        status: 'done',
        items: [{ id: 'copy', text: 'Copy 1.2M rows to orders_v2', status: 'done' }],
      },
      {
        slug: 'cutover',
        title: 'Cut-over',
        status: 'blocked',
        items: [
          { id: 'reads', text: 'Switch reads to orders_v2', status: 'needs-human', ref: 'runbook:orders-cutover' },
          { id: 'drop', text: 'Drop the old table', status: 'todo' },
        ],
      },
    ],
  }),
  '</report>',
  '\n\nOne decision is yours:\n\n',
  '<ask>',
  JSON.stringify({
    question: 'Cut over tonight at 22:00 UTC, or wait for Monday?',
    options: [
      { id: 'tonight', label: 'Tonight at 22:00 UTC' },
      { id: 'monday', label: 'Monday morning', description: 'after the deploy freeze lifts' },
    ],
    refs: ['runbook:orders-cutover'],
  }),
  '</ask>',
].join('');
// Cut after each of these, in order: each lands inside a tag or its JSON.
const BLOCKS_CUTS = ['`<rep', ':\n\n<rep', '"Backfill","st', '</rep', 'yours:\n\n<a', 'sk>{"question":"Cut over', '22:00 UTC"},', '</as'];

function cutText(text, cuts) {
  const pieces = [];
  let from = 0;
  for (const cut of cuts) {
    const at = text.indexOf(cut, from) + cut.length;
    if (at < from + cut.length) throw new Error(`cut not found after ${from}: ${cut}`);
    pieces.push(text.slice(from, at));
    from = at;
  }
  pieces.push(text.slice(from));
  return pieces;
}

const blocksStreamed = conversation({
  name: 'blocks-streamed',
  start: BLOCKS_START,
  turns: [[
    ...cutText(BLOCKS_TEXT, BLOCKS_CUTS).map((text, index) => [200 + index * 90, { type: 'delta', text }]),
    [1_400, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 2650, outputTokens: 233 } }],
  ]],
});

// ---------------------------------------------------------------------------
// card-answered-later: a card that outlives its turn (DESIGN §3.3, issue 13).
// Turn 1 asks and ends waiting for the person (`done.awaiting`, as an AG-UI
// interrupt or an `<ask>` does); the answer comes the next morning and turn 2
// closes turn 1's card, then carries on.

const LATER_START = Date.UTC(2026, 10, 20, 17, 45, 0, 0);
const LATER_CARD = cardId('card-answered-later/approve', LATER_START + 1_200);
const LATER_NEXT_DAY = 15 * 3_600_000;

const cardAnsweredLater = conversation({
  name: 'card-answered-later',
  start: LATER_START,
  turns: [
    [
      [0, { type: 'delta', text: 'The migration plan is ready. It needs your approval before it runs tonight.' }],
      [
        1_200,
        {
          type: 'card',
          card: {
            correlationId: LATER_CARD,
            createdAt: iso(LATER_START + 1_200),
            prompt: 'Run the billing migration tonight at 02:00 UTC?',
            presentation: {
              kind: 'radio',
              options: [
                { id: 'run', label: 'Run it tonight' },
                { id: 'hold', label: 'Hold until Monday' },
              ],
            },
            allowDecline: true,
          },
        },
      ],
      [1_300, { type: 'done', status: 'completed', stopReason: 'awaiting_input', awaiting: [LATER_CARD] }],
    ],
    [
      [LATER_NEXT_DAY, { type: 'card_closed', correlationId: LATER_CARD, resolution: 'submitted' }],
      [LATER_NEXT_DAY + 400, { type: 'delta', text: 'Holding the migration until Monday, as you chose.' }],
      [LATER_NEXT_DAY + 500, { type: 'done', status: 'completed', stopReason: 'end_turn' }],
    ],
  ],
});
const CARD_ANSWERED_LATER_RESPONSES = [{ action: 'submit', correlationId: LATER_CARD, value: { optionId: 'hold' } }];

// ---------------------------------------------------------------------------
// upgraded-from-papercup / upgraded-from-scout: the hand-written legacy
// captures `<name>.capture.sse`, read with one frame decoder per connection.
// The host context gives ids and times as a migrating host would: event ids
// and times from its own clock, call ids by tool name for frames without one.

function upgradedSession(name, dialect, start) {
  const messages = [];
  createParser({ onEvent: (message) => messages.push(message) }).feed(readFileSync(new URL(`${name}.capture.sse`, GOLDEN), 'utf8'));
  const conversationId = conversationIdOf(name, start);
  const turnId = `turn_${ulid(start, turnSeed(name, 0))}`;
  const decoder = createChatFrameDecoder({
    dialect,
    context: {
      conversationId,
      turnId,
      identify: ({ seq }) => ({ eventId: `evt_${ulid(start + seq * 400, eventSeed(name, 0, seq - 1))}`, occurredAt: iso(start + seq * 400) }),
      callId: ({ name: tool }) => callId(`${name}/${tool}`, start),
    },
  });
  const envelopes = [];
  for (const message of messages) {
    const result = decoder.decode(message);
    if (result.ok && result.kind === 'envelope') envelopes.push(result.envelope);
    else if (!result.ok && result.code !== 'unsupported-event') throw new Error(`${name}: ${result.code}: ${result.message}`);
  }
  return envelopes;
}

// ---------------------------------------------------------------------------

// ---------------------------------------------------------------------------
// cards-approval-report-prompt (issue 13): the card shapes Papercusp ships that
// v1 first held in issue 13, one turn each: a tool-approval card without
// presentation (answered { confirmed }), a card that only shows a report
// (acknowledged), and a plain prompt-only card (answered in words).

const PARITY_START = Date.UTC(2026, 10, 2, 10, 15, 0, 250);
const PARITY_CALL = callId('cards-approval-report-prompt/write', PARITY_START + 200);
const PARITY_CARDS = [
  {
    seed: 'approval',
    card: {
      prompt: 'Apply this change to config/retries.yaml?',
      approval: {
        title: 'write_file config/retries.yaml',
        question: 'Apply this change to config/retries.yaml?',
        body: ['--- a/config/retries.yaml', '+++ b/config/retries.yaml', '@@ -1 +1 @@', '-max_attempts: 1', '+max_attempts: 3'],
      },
      allowDecline: true,
      timeoutMs: 600_000,
    },
    value: { confirmed: true },
    after: 'Applied: retries are now capped at three attempts.',
  },
  {
    seed: 'report',
    card: {
      prompt: 'Here is where the rollout stands.',
      report: {
        title: 'Retry rollout',
        plans: [
          {
            slug: 'retry-rollout',
            title: 'Retry rollout',
            status: 'active',
            items: [
              { id: 'R-1', text: 'Config changed', status: 'done' },
              { id: 'R-2', text: 'Canary in eu-west', status: 'wip', ref: 'deploy:canary-eu-west' },
            ],
          },
        ],
      },
      allowDecline: true,
    },
    value: { acknowledged: true },
    after: "Thanks. I'll report back when the canary finishes.",
  },
  {
    seed: 'prompt',
    card: { prompt: 'Anything else before I close this out?', fallbackText: 'Anything else?', allowDecline: true },
    value: { text: 'No, that is all.' },
    after: 'Closing this out.',
  },
];

const cardsParityTurns = PARITY_CARDS.map((asked, turn) => {
  const at = turn * 15 * 60_000;
  const correlationId = cardId(`cards-approval-report-prompt/${asked.seed}`, PARITY_START + at + 400);
  const card = { correlationId, createdAt: iso(PARITY_START + at + 400), ...asked.card };
  const opening =
    asked.seed === 'approval'
      ? [
          [at, { type: 'delta', text: 'I need your approval before I change the retry limit.\n\n' }],
          [at + 200, { type: 'tool_call', callId: PARITY_CALL, name: 'write_file', input: { path: 'config/retries.yaml' } }],
        ]
      : [[at, { type: 'delta', text: `${asked.card.prompt}\n\n` }]];
  const closing =
    asked.seed === 'approval'
      ? [[at + 31_000, { type: 'tool_result', callId: PARITY_CALL, name: 'write_file', status: 'succeeded', summary: 'config/retries.yaml updated' }]]
      : [];
  return [
    ...opening,
    [at + 400, { type: 'card', card }],
    [at + 30_400, { type: 'card_closed', correlationId, resolution: 'submitted' }],
    ...closing,
    [at + 31_400, { type: 'delta', text: asked.after }],
    [at + 31_500, { type: 'done', status: 'completed', stopReason: 'end_turn' }],
  ];
});
const cardsParity = conversation({ name: 'cards-approval-report-prompt', start: PARITY_START, turns: cardsParityTurns });
const cardsParityResponses = cardsParity
  .filter((envelope) => envelope.event.type === 'card')
  .map((envelope, index) => ({ action: 'submit', correlationId: envelope.event.card.correlationId, value: PARITY_CARDS[index].value }));

/**
 * Every session. `connections` (default: one) splits the delivery: each entry
 * is the Last-Event-ID the client connected with and the seq the connection
 * dropped after (`null`: it ran to the end).
 */
// ---------------------------------------------------------------------------
// asked-and-answered: two turns the person opens (typed, then by voice), each
// with its user_input first; a tool call, a card answered, done completed.
// Its history page shows both sides of the conversation.

const ASKED_START = Date.UTC(2026, 10, 30, 9, 12, 4, 250);
const ASKED_CALL = callId('asked-and-answered/orders', ASKED_START + 900);
const ASKED_CARD = cardId('asked-and-answered', ASKED_START + 62_400);

const askedAndAnswered = conversation({
  name: 'asked-and-answered',
  start: ASKED_START,
  turns: [
    [
      [0, { type: 'user_input', text: 'Where is my order ord_4K7P? It was due on Friday.', source: 'text_typed' }],
      [150, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'support-eu' }],
      [900, { type: 'tool_call', callId: ASKED_CALL, name: 'get_order', input: { orderId: 'ord_4K7P' } }],
      [1_700, { type: 'tool_result', callId: ASKED_CALL, name: 'get_order', status: 'succeeded', summary: 'Delayed at the carrier, new estimate Tuesday' }],
      [2_100, { type: 'delta', text: 'Your order ord_4K7P is held up at the carrier. ' }],
      [2_180, { type: 'delta', text: 'Their new estimate is Tuesday.' }],
      [2_400, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 1220, outputTokens: 31 } }],
    ],
    [
      [61_800, { type: 'user_input', text: 'can you just cancel it', source: 'voice_stt' }],
      [62_000, { type: 'provenance', engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'support-eu' }],
      [
        62_400,
        {
          type: 'card',
          card: {
            correlationId: ASKED_CARD,
            createdAt: iso(ASKED_START + 62_400),
            prompt: 'Cancel order ord_4K7P and refund 38.00 EUR?',
            presentation: { kind: 'confirm', confirmLabel: 'Cancel the order', rejectLabel: 'Keep it' },
            fallbackText: 'Say "cancel" or "keep it".',
            allowDecline: true,
          },
        },
      ],
      [80_100, { type: 'card_closed', correlationId: ASKED_CARD, resolution: 'submitted' }],
      [80_500, { type: 'delta', text: 'Done: ord_4K7P is cancelled and 38.00 EUR is on its way back to your card.' }],
      [80_700, { type: 'done', status: 'completed', stopReason: 'end_turn', usage: { inputTokens: 1490, outputTokens: 24 } }],
    ],
  ],
});

// ---------------------------------------------------------------------------

// product-events (issue 13): Scout's domain events as registered product
// events, one of each channel. `scout.products` and `scout.broaden` are
// state-channel (the last list wins), `scout.highlight` event-channel (kept in
// order), `scout.cart_mutate` transient (in the log only). The session's
// `productEvents` (name → channel) is what a reader registers to replay it.

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

const SESSIONS = [
  {
    name: 'asked-and-answered',
    title: 'Two turns the person opens, typed and then by voice: a tool answers the first, a confirm card the second',
    envelopes: askedAndAnswered,
    responses: [{ action: 'submit', correlationId: ASKED_CARD, value: { confirmed: true } }],
  },
  { name: 'blocks-streamed', title: 'A turn whose text carries a <report> and an <ask> block, cut mid-tag by its deltas', scenario: ['blocks-split-while-streaming'], envelopes: blocksStreamed },
  { name: 'cancelled-mid-stream', title: 'Reasoning and text stream, a tool call starts, and the person cancels before it reports', envelopes: cancelledMidStream },
  {
    name: 'cancelled-with-late-result',
    title: 'A cancellation while an effect is in flight; its result, stored after the cancellation, is read back by the next turn',
    scenario: ['late-effect-result'],
    envelopes: cancelledWithLateResult,
  },
  { name: 'card-answered', title: 'A radio card answered, the host state updated, the turn completed', envelopes: cardAnswered },
  {
    name: 'card-answered-later',
    title: 'A turn ends waiting for the answer to its card; the next turn, a day later, closes that card',
    scenario: ['card-outlives-turn'],
    envelopes: cardAnsweredLater,
    responses: CARD_ANSWERED_LATER_RESPONSES,
  },
  {
    name: 'cards-approval-report-prompt',
    title: 'A tool-approval card, a card that only shows a report, and a plain prompt-only card, each answered',
    scenario: ['papercusp-card-shapes'],
    envelopes: cardsParity,
    responses: cardsParityResponses,
  },
  { name: 'cards-answered', title: 'A card of every base kind, each answered in its own turn', envelopes: cardsAnswered.envelopes, responses: cardsAnswered.responses },
  { name: 'cards-declined', title: 'A card of every base kind, each declined', envelopes: cardsDeclined.envelopes, responses: cardsDeclined.responses },
  { name: 'cards-expired', title: 'A card of every base kind, each left unanswered until it expired', envelopes: cardsExpired.envelopes, responses: cardsExpired.responses },
  { name: 'failed-then-retried', title: 'A retryable error ends a turn; the retry updates host state twice, withdraws a card and navigates; a final error ends the third', envelopes: failedThenRetried },
  { name: 'interrupted-turn', title: 'A worker restart interrupts a turn with an open card; the next turn asks again and completes', envelopes: interruptedTurn },
  {
    name: 'product-events',
    title: "Scout's domain events as registered product events, one of each channel: state (last wins), event (kept in order), transient (log only)",
    productEvents: PRODUCT_EVENTS,
    envelopes: productEvents,
  },
  {
    name: 'resumed-after-disconnect',
    title: 'The connection drops mid-turn; the client resumes from its stored cursor and the overlapping replay is absorbed',
    envelopes: resumedAfterDisconnect,
    connections: [
      { after: null, through: 7 },
      { after: 5, through: null },
    ],
  },
  { name: 'same-session-provider-x', title: 'A sourced answer produced by provider_x', scenario: ['provider-substitution'], envelopes: sameSession('provider_x') },
  { name: 'same-session-provider-y', title: 'The same session produced by provider_y: only provenance differs', scenario: ['provider-substitution'], envelopes: sameSession('provider_y') },
  { name: 'tool-outcomes', title: 'Tool calls that succeed, fail, are cancelled and need reconciliation', envelopes: toolOutcomes },
  { name: 'tools-and-sources', title: 'Two tool calls, one succeeding with grounded sources, one failing, then a completed answer', envelopes: toolsAndSources },
  {
    name: 'upgraded-from-papercup',
    title: 'A papercup (legacy0) capture upgraded to v1',
    upgradedFrom: 'papercup',
    envelopes: upgradedSession('upgraded-from-papercup', papercup, Date.UTC(2026, 10, 30, 15, 0, 0, 0)),
  },
  {
    name: 'upgraded-from-scout',
    title: 'A scout (legacy0) capture upgraded to v1; its product events have no v1 form',
    upgradedFrom: 'scout',
    envelopes: upgradedSession('upgraded-from-scout', scout, Date.UTC(2026, 10, 30, 16, 0, 0, 0)),
  },
];

// ---------------------------------------------------------------------------

/** The envelopes in the order the client received them, and each connection's size. */
function deliver({ envelopes, connections = [{ after: null, through: null }] }) {
  const delivered = [];
  const manifest = connections.map(({ after, through }) => {
    const sent = envelopes.filter((envelope) => envelope.seq > (after ?? 0) && (through === null || envelope.seq <= through));
    if (new Set(sent.map((envelope) => envelope.turnId)).size > 1 && (after !== null || through !== null)) {
      throw new Error('a connection that resumes or drops must carry one turn');
    }
    delivered.push(...sent);
    return { lastEventId: after === null ? null : formatChatCursor({ turnId: sent[0].turnId, seq: after }), envelopes: sent.length };
  });
  return { delivered, connections: manifest };
}

// A golden session's product events are judged for their bounds only: the
// session pins the wire and the state, and names each event's channel.
const ANY_DATA = { '~standard': { version: 1, vendor: 'golden', validate: (value) => ({ value }) } };
function codecOf(session) {
  if (session.productEvents === undefined) return { encodeChatEnvelope, parseChatEnvelope, applyChatEvent };
  return createChatCodec({
    events: Object.fromEntries(Object.entries(session.productEvents).map(([name, channel]) => [name, { schema: ANY_DATA, channel }])),
  });
}

function render(session) {
  const { delivered, connections } = deliver(session);
  const { encodeChatEnvelope, parseChatEnvelope, applyChatEvent } = codecOf(session);
  const lines = delivered.map((record) => {
    const encoded = encodeChatEnvelope(record);
    if (!encoded.ok) throw new Error(`${session.name} ${record.turnId}:${record.seq}: ${encoded.code}: ${encoded.message}`);
    return encoded.json;
  });
  // The state comes from the written lines, exactly as a reader replays them.
  let state = createChatState(delivered[0].conversationId);
  const applied = [];
  for (const line of lines) {
    const parsed = parseChatEnvelope(line);
    if (!parsed.ok) throw new Error(`${session.name}: ${parsed.code}: ${parsed.message}`);
    const result = applyChatEvent(state, parsed.value);
    if (!result.ok) throw new Error(`${session.name}: not applied: ${JSON.stringify(result)}`);
    if (result.outcome === 'applied') applied.push(parsed.value);
    state = result.state;
  }
  const files = {
    [`${session.name}.jsonl`]: `${lines.join('\n')}\n`,
    [`${session.name}.state.json`]: `${JSON.stringify(state, null, 2)}\n`,
    [`${session.name}.history.json`]: `${JSON.stringify({ turns: historyFromChatState(state), hasMoreEarlier: false }, null, 2)}\n`,
  };
  // A projection exists for a dialect only when every applied envelope has a legacy form.
  for (const dialect of DIALECTS) {
    const frames = applied.map((envelope) => encodeLegacyChatFrame(envelope, { dialect }));
    if (frames.every((frame) => frame.ok)) files[`${session.name}.${dialect.name}.sse`] = frames.map((frame) => frame.sse).join('');
  }
  const entry = {
    name: session.name,
    title: session.title,
    scenario: session.scenario ?? [],
    connections,
    responses: session.responses ?? [],
    ...(session.upgradedFrom === undefined ? {} : { upgradedFrom: { dialect: session.upgradedFrom, capture: `${session.name}.capture.sse` } }),
    ...(session.productEvents === undefined ? {} : { productEvents: session.productEvents }),
  };
  return { files, entry };
}

const rendered = SESSIONS.map(render);
const files = Object.assign({}, ...rendered.map(({ files: sessionFiles }) => sessionFiles));
files['index.json'] = `${JSON.stringify(rendered.map(({ entry }) => entry), null, 2)}\n`;

const handWritten = (file) => file.endsWith('.capture.sse');
const check = process.argv.includes('--check');
let stale = 0;
for (const [file, text] of Object.entries(files)) {
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
for (const file of readdirSync(GOLDEN)) {
  if (file in files || handWritten(file)) continue;
  if (check) {
    stale++;
    console.error(`not written by this script: fixtures/golden/${file}`);
  } else {
    rmSync(new URL(file, GOLDEN));
    console.log(`removed fixtures/golden/${file}`);
  }
}
if (check && stale > 0) process.exit(1);
if (check) console.log('golden fixtures are up to date');
