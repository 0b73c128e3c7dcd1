import { readFileSync, writeFileSync } from 'node:fs';
import { applyChatEvent, createChatState, type ChatEventEnvelope, type ChatStateV1 } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { dotted } from '../test/dotted-dialect.js';
import { scoutProducts } from '../test/scout-products.js';
import { FIXTURES, readSseFixture } from '../test/sse.js';
import {
  createChatFrameDecoder,
  encodeLegacyChatFrame,
  papercup,
  scout,
  upgradeLegacyChatFrame,
  type ChatFrameDecoderCounts,
  type LegacyDialect,
  type LegacyProductEvents,
} from './index.js';

// `UPDATE_LEGACY_FIXTURES=1` (the package's `fixtures` script) rewrites the
// pinned envelopes and states; review the diff before committing it.
const UPDATE = process.env['UPDATE_LEGACY_FIXTURES'] === '1';
const CONVERSATION_ID = 'conv_legacy_1';
const two = (value: number) => String(value).padStart(2, '0');

interface Capture {
  readonly dialect: LegacyDialect;
  readonly file: string;
  readonly counts: ChatFrameDecoderCounts;
  /** Data fields the adapter drops on purpose (README "Real producers' frames"), so a projection lacks them. */
  readonly dropped?: readonly string[];
  /** Data fields whose value travels back inside another field (legacy field → the field that carries it). */
  readonly moved?: Readonly<Record<string, string>>;
  /** The refused messages, in order, as `code: message`. */
  readonly refused?: readonly string[];
  /**
   * Cards (by correlation id) a documented rule normalizes on the way up (the
   * README's card table), with the card fields whose legacy form the projection
   * then writes differently; the upgraded values are pinned in the envelopes.
   */
  readonly normalized?: Readonly<Record<string, readonly string[]>>;
  /** The product events the host registered (issue 13): their frames then lift instead of being refused. */
  readonly products?: LegacyProductEvents<Readonly<Record<string, unknown>>>;
}

// Captures as real servers write them: the first three are the original
// sessions; the rest are issue 12's frames of Papercusp's public servers
// (@papercusp/sse's heartbeats, errors, done and resync; the operator's agent
// routes; scout streams), each pinned with its envelopes, state and counts.
// Every message lands in one total; a refused one is counted by its code too.
const counted = (legacy: number, transport: number, refusals: ChatFrameDecoderCounts['refusals'] = {}): ChatFrameDecoderCounts => ({
  v1: 0,
  legacy,
  transport,
  unsupported: Object.values(refusals).reduce((sum, count) => sum + count, 0),
  refusals,
});

const resync = (reason: string) =>
  `resync-required: the server could not resume this stream (${reason}): discard the turn's state and read it again`;

const CAPTURES: readonly Capture[] = [
  { dialect: papercup, file: 'papercup/refund-lookup', counts: counted(9, 3) },
  {
    dialect: scout,
    file: 'scout/product-search',
    counts: counted(6, 1, { 'unsupported-event': 2 }),
    refused: [
      'unsupported-event: "products" is not an event of this dialect',
      'unsupported-event: "broaden" is not an event of this dialect',
    ],
    // The card omits allowDecline: Papercusp allows a decline then, so v1 says so (issue 13).
    normalized: { card_cart_1: ['allowDecline'] },
  },
  { dialect: dotted, file: 'dotted/refund-lookup', counts: counted(5, 2) },
  { dialect: papercup, file: 'papercup/agent-route', counts: counted(4, 3), dropped: ['fullText'], moved: { costUsd: 'usage' } },
  { dialect: papercup, file: 'papercup/agent-route-error', counts: counted(2, 1), dropped: ['stderr'] },
  { dialect: papercup, file: 'papercup/rate-limited', counts: counted(2, 2), dropped: ['retryAfterMs'] },
  { dialect: papercup, file: 'papercup/setup-error', counts: counted(1, 1), dropped: ['phase'] },
  // Papercusp/agent-chat's harness stream writes plain text: its deltas are another wire, its error is never lost.
  {
    dialect: papercup,
    file: 'papercup/harness-chat',
    counts: counted(1, 0, { 'invalid-json': 2 }),
    refused: ['invalid-json: data: not valid JSON', 'invalid-json: data: not valid JSON'],
  },
  {
    dialect: papercup,
    file: 'papercup/resumed-with-gap',
    counts: counted(2, 1, { 'resync-required': 1 }),
    dropped: ['reason'],
    refused: [resync('gap')],
  },
  {
    dialect: scout,
    file: 'scout/live-stream',
    counts: counted(4, 3, { 'unsupported-event': 1 }),
    refused: ['unsupported-event: "cart_mutate" is not an event of this dialect'],
  },
  { dialect: scout, file: 'scout/rate-limited', counts: counted(3, 3), dropped: ['retryAfterMs'] },
  { dialect: scout, file: 'scout/setup-error', counts: counted(1, 1), dropped: ['phase'] },
  { dialect: scout, file: 'scout/resumed-with-gap', counts: counted(2, 1, { 'resync-required': 1 }), refused: [resync('ahead')] },
  { dialect: scout, file: 'scout/late-join', counts: counted(1, 0), dropped: ['reason'] },
  // Issue 13: every control frame @papercusp/sse writes, on one papercup stream (comments and the retry hint never reach a message).
  { dialect: papercup, file: 'papercup/sse-control-frames', counts: counted(3, 2, { 'resync-required': 1 }), refused: [resync('ahead')] },
  // Issue 13: every card shape Papercusp's shipped packages write, upgraded field for field.
  {
    dialect: scout,
    file: 'scout/card-shapes-issue-13',
    counts: counted(5, 0, { 'invalid-event': 1 }),
    refused: ['invalid-event: data.correlationId: expected a string'],
    normalized: { card_plain: ['allowDecline'], card_string_options: ['allowDecline', 'presentation'], card_styled: ['allowDecline'] },
  },
  {
    dialect: papercup,
    file: 'papercup/tooldef-open-cards',
    counts: counted(14, 0),
    normalized: {
      card_refund_kind: ['allowDecline'],
      card_items: ['allowDecline'],
      card_note: ['allowDecline'],
      card_pickup: ['allowDecline'],
      card_rating: ['allowDecline'],
    },
  },
  {
    dialect: papercup,
    file: 'papercup/chat-protocol-cards',
    counts: counted(20, 0, { 'unsupported-card': 1 }),
    refused: ['unsupported-card: card.presentation.options: a string that is not a JSON array of options'],
    normalized: {
      card_plain: ['allowDecline'],
      card_status: ['allowDecline'],
      card_timed: ['allowDecline'],
      card_budget: ['allowDecline', 'presentation'],
      card_volume: ['allowDecline', 'presentation'],
      card_unlabelled: ['allowDecline', 'presentation'],
      card_terms: ['allowDecline', 'prompt'],
      card_stored: ['allowDecline', 'presentation', 'dataSchemaJson'],
    },
  },
  // Issue 13: the same domain events lift into the product events the host registered, and project back.
  {
    dialect: scout,
    file: 'scout/product-events-issue-13',
    counts: counted(7, 1),
    products: scoutProducts as LegacyProductEvents<Readonly<Record<string, unknown>>>,
  },
];

// The host side of a migration: ids and times come from the host, tool calls
// without an id get a stable one from their position in the turn.
function decoderFor(dialect: LegacyDialect, turnId: string, products: Capture['products']) {
  return createChatFrameDecoder({
    dialect,
    context: {
      conversationId: CONVERSATION_ID,
      turnId,
      identify: ({ seq }) => ({ eventId: `${turnId}.evt_${seq}`, occurredAt: `2026-11-30T09:00:${two(seq)}Z` }),
      callId: ({ name, seq }) => `call_${name}_${seq}`,
      products,
    },
  });
}

function pinned<T>(path: string, actual: T): T {
  const url = new URL(path, FIXTURES);
  if (UPDATE) {
    const text = path.endsWith('.jsonl')
      ? (actual as readonly unknown[]).map((line) => `${JSON.stringify(line)}\n`).join('')
      : `${JSON.stringify(actual, null, 2)}\n`;
    writeFileSync(url, text);
  }
  const text = readFileSync(url, 'utf8');
  return (
    path.endsWith('.jsonl')
      ? text
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as unknown)
      : JSON.parse(text)
  ) as T;
}

describe.each(CAPTURES)('the captured $dialect.name session $file', (capture) => {
  const { dialect, file, counts, products } = capture;
  const turnId = `turn_${file.replace('/', '_')}`;
  const messages = readSseFixture(`legacy/${file}.sse`);
  const decoder = decoderFor(dialect, turnId, products);
  const results = messages.map((message) => decoder.decode(message));
  const envelopes = results.flatMap((result) => (result.ok && result.kind === 'envelope' ? [result.envelope as ChatEventEnvelope] : []));
  // With product events the host's codec reduces them; without, the base reducer (which refuses them).
  const apply = (state: ChatStateV1, envelope: ChatEventEnvelope) =>
    products === undefined
      ? applyChatEvent(state, envelope)
      : (products.codec as typeof scoutProducts.codec).applyChatEvent(state, envelope);

  it('upgrades to the pinned v1 envelopes (transport frames and product events yield none)', () => {
    expect(envelopes).toEqual(pinned(`legacy/${file}.expected.jsonl`, envelopes));
    expect(decoder.counts()).toEqual(counts);
    expect(results.flatMap((result) => (result.ok ? [] : [`${result.code}: ${result.message}`]))).toEqual(capture.refused ?? []);
  });

  it('replays cleanly through applyChatEvent to the pinned state', () => {
    let state: ChatStateV1 = createChatState(CONVERSATION_ID);
    for (const envelope of envelopes) {
      const applied = apply(state, envelope);
      expect(applied).toMatchObject({ ok: true, outcome: 'applied' });
      if (applied.ok) state = applied.state;
    }
    expect(state).toEqual(pinned(`legacy/${file}.state.json`, state));
  });

  it('projects back onto the captured frames, adding only the identity the host supplied and the type a server-named frame left out', () => {
    const captured = messages.filter((_, index) => results[index]?.ok === true && results[index]?.kind === 'envelope');
    expect(captured).toHaveLength(envelopes.length);
    const dropped = new Set(capture.dropped ?? []);
    const seen = new Set<string>();
    envelopes.forEach((envelope, index) => {
      const encoded = encodeLegacyChatFrame(envelope, { dialect, products });
      if (!encoded.ok) throw new Error(encoded.message);
      const parsed = jsonOrText(captured[index]?.data ?? '');
      const original = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
      const projected = JSON.parse(encoded.frame.data) as Record<string, unknown>;
      const typeField = dialect === papercup ? undefined : dialect === scout ? 'type' : 'kind';
      const callIdField = dialect === dotted ? 'toolCallId' : 'callId';
      const moved = Object.entries(capture.moved ?? {}).filter(([key]) => key in original);
      const mayAdd = [
        ...(typeField !== undefined && !(typeField in original) ? [typeField] : []),
        ...(envelope.event.type.startsWith('tool_') && !(callIdField in original) ? [callIdField] : []),
        ...moved.map(([, carrier]) => carrier).filter((carrier) => !(carrier in original)),
      ];
      const added = Object.keys(projected).filter((key) => !(key in original));
      expect(added).toEqual(mayAdd);
      for (const [key, carrier] of moved) expect((projected[carrier] as Record<string, unknown>)[key]).toEqual(original[key]);
      const kept = Object.fromEntries(
        Object.entries(original).filter(([key]) => !dropped.has(key) && !moved.some(([movedKey]) => movedKey === key)),
      );
      for (const key of Object.keys(original)) if (dropped.has(key)) seen.add(key);
      const without = (record: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(record).filter(([key]) => !mayAdd.includes(key)));
      const normalized = envelope.event.type === 'card' ? capture.normalized?.[envelope.event.card.correlationId] : undefined;
      if (normalized !== undefined) {
        // The fields a rule normalized project as their v1 value says; every other card field comes back as captured.
        const rest = (record: Record<string, unknown>) => {
          const card = (record['card'] ?? {}) as Record<string, unknown>;
          return { ...record, card: Object.fromEntries(Object.entries(card).filter(([key]) => !normalized.includes(key))) };
        };
        expect(without(rest(projected))).toEqual(without(rest(kept)));
      } else {
        expect(without(projected)).toEqual(without(kept));
      }
      expect(roundTrip(envelope, dialect, products)).toEqual(envelope);
    });
    // Every field the capture says is dropped was sent, so the list cannot go stale.
    expect([...seen].sort()).toEqual([...dropped].sort());
  });
});

/** A captured frame's data: its JSON, or for a plain-text error (papercup's `plainText`) the message it carries. */
function jsonOrText(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return { message: data };
  }
}

function roundTrip(envelope: ChatEventEnvelope, dialect: LegacyDialect, products: Capture['products']): unknown {
  const encoded = encodeLegacyChatFrame(envelope, { dialect, products });
  if (!encoded.ok) return encoded;
  const upgraded = upgradeLegacyChatFrame(encoded.frame, { ...envelope, dialect, products });
  return upgraded.ok && upgraded.kind === 'envelope' ? upgraded.envelope : upgraded;
}
