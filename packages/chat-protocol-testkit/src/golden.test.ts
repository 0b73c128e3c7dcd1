import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTurnTextSplitter, splitTurnText, type TurnTextSegment } from '@papercusp/chat-protocol-blocks';
import {
  CARD_KINDS,
  CARD_RESOLUTIONS,
  CHAT_EVENT_TYPES_V1,
  CHAT_TURN_STATUSES,
  TOOL_RESULT_STATUSES,
  applyChatEvent,
  createChatCodec,
  createChatState,
  encodeChatSseFrame,
  formatChatCursor,
  historyFromChatState,
  parseChatHistoryPage,
  promptOnlyCardKind,
  validateCardResponse,
  type ChatEventEnvelope,
  type ChatStateV1,
  type ChatTurnState,
} from '@papercusp/chat-protocol-core';
import {
  createChatFrameDecoder,
  encodeLegacyChatFrame,
  papercup,
  scout,
  type ChatFrameDecoderContext,
  type ChatFrameDecoderCounts,
  type LegacyDialect,
} from '@papercusp/chat-protocol-legacy-adapter';
import { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import { TurnRecovery, validateReplayWindow } from '@papercusp/chat-protocol-recovery';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFakeDatabase } from './fake-database.js';
import { createFakeInteractionStore } from './fake-interaction-store.js';
import { createFakeTurnStore } from './fake-turn-store.js';
import { listGoldenSessions, replayGoldenSession, type GoldenReplay, type GoldenSessionName } from './golden.js';
import { verifyChatCapture } from './verify-chat-capture.js';
import { runs } from '../../../test-support/property-runs.js';

// The golden sessions of fixtures/golden (written by scripts/write-golden.mjs),
// as the testkit ships them: each replays to its pinned state byte for byte,
// each legacy projection is exactly what the adapter writes and reads back to
// the same envelopes, and together they cover every capability of the contract.

const GOLDEN = new URL('../../../fixtures/golden/', import.meta.url);
const NAMES = listGoldenSessions().map((session) => session.name);
const DIALECTS: readonly LegacyDialect[] = [papercup, scout];

function golden(name: GoldenSessionName): GoldenReplay {
  const replayed = replayGoldenSession(name);
  if (!replayed.ok) throw new Error(`${name}: ${replayed.code}`);
  return replayed.value;
}

const applied = (session: GoldenReplay) => session.envelopes.filter((_envelope, index) => session.outcomes[index] === 'applied');
const turnsOf = (state: ChatStateV1): ChatTurnState[] => state.turns;
const isProductSession = (session: GoldenReplay) => Object.keys(session.productEvents).length > 0;

function sseMessages(text: string): EventSourceMessage[] {
  const messages: EventSourceMessage[] = [];
  createParser({ onEvent: (message) => messages.push(message) }).feed(text);
  return messages;
}

/** A host context that gives each legacy frame the identity its golden envelope has. */
function contextFrom(envelopes: readonly ChatEventEnvelope[]): ChatFrameDecoderContext {
  const [first] = envelopes;
  if (first === undefined) throw new Error('no envelopes');
  const at = (seq: number) => {
    const envelope = envelopes.find((candidate) => candidate.seq === seq);
    if (envelope === undefined) throw new Error(`no envelope at seq ${seq}`);
    return envelope;
  };
  return {
    conversationId: first.conversationId,
    turnId: first.turnId,
    identify: ({ seq }) => ({ eventId: at(seq).eventId, occurredAt: at(seq).occurredAt }),
    callId: ({ seq }) => {
      const { event } = at(seq);
      return event.type === 'tool_call' || event.type === 'tool_result' ? event.callId : undefined;
    },
  };
}

/** Reads a legacy SSE text turn by turn (frames name their turn in `id`) with one decoder per turn. */
function readLegacy(text: string, dialect: LegacyDialect, envelopes: readonly ChatEventEnvelope[]) {
  const byTurn = new Map<string, EventSourceMessage[]>();
  for (const message of sseMessages(text)) {
    const turnId = message.id?.slice(0, message.id.lastIndexOf(':')) ?? '';
    byTurn.set(turnId, [...(byTurn.get(turnId) ?? []), message]);
  }
  return [...byTurn].flatMap(([turnId, messages]) => {
    const decoder = createChatFrameDecoder({ dialect, context: contextFrom(envelopes.filter((envelope) => envelope.turnId === turnId)) });
    return messages.map((message) => decoder.decode(message));
  });
}

describe('the golden sessions as shipped', () => {
  it('lists every session in fixtures/golden, each file belonging to one', () => {
    const kinds = /^(.+)\.(jsonl|state\.json|history\.json|papercup\.sse|scout\.sse|capture\.sse)$/;
    for (const file of readdirSync(GOLDEN)) {
      if (file === 'index.json') continue;
      expect(NAMES).toContain(kinds.exec(file)?.[1]);
    }
    const manifest = JSON.parse(readFileSync(new URL('index.json', GOLDEN), 'utf8')) as { name: string }[];
    expect(manifest.map((entry) => entry.name)).toStrictEqual(NAMES);
  });

  it('are exactly what scripts/write-golden.mjs writes (run against the built core and legacy adapter)', () => {
    const script = fileURLToPath(new URL('../../../scripts/write-golden.mjs', import.meta.url));
    const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('golden fixtures are up to date\n');
    expect(run.status).toBe(0);
  });

  it.each(NAMES)('%s: the bundle holds the fixture files byte for byte', (name) => {
    const session = golden(name);
    const read = (file: string) => readFileSync(new URL(file, GOLDEN), 'utf8');
    expect(session.jsonl).toBe(read(`${name}.jsonl`));
    expect(session.expectedStateJson).toBe(read(`${name}.state.json`));
    expect(session.expectedHistoryJson).toBe(read(`${name}.history.json`));
    for (const dialect of session.legacyDialects) expect(session.legacy[dialect]).toBe(read(`${name}.${dialect}.sse`));
    if (session.upgradedFrom !== null) expect(session.capture).toBe(read(`${name}.capture.sse`));
  });

  it.each(NAMES)('%s: every envelope applies or is a duplicate, and the state matches byte for byte', (name) => {
    const session = golden(name);
    expect(session.envelopes).toHaveLength(session.jsonl.split('\n').length - 1);
    expect(session.outcomes).toHaveLength(session.envelopes.length);
    expect(session.state).toStrictEqual(session.expectedState);
    expect(`${JSON.stringify(session.state, null, 2)}\n`).toBe(session.expectedStateJson);
    expect(session.connections.flatMap((connection) => connection.envelopes)).toStrictEqual(session.envelopes);
  });

  it.each(NAMES)('%s: its history page is historyFromChatState of the state, and parseChatHistoryPage accepts it (DESIGN §3.9)', (name) => {
    const session = golden(name);
    const page = { turns: historyFromChatState(session.state), hasMoreEarlier: false };
    expect(`${JSON.stringify(page, null, 2)}\n`).toBe(session.expectedHistoryJson);
    expect(parseChatHistoryPage(session.expectedHistoryJson)).toStrictEqual({ ok: true, value: page });
    const userTurns = session.state.turns.filter((turn) => turn.userInput !== undefined).length;
    expect(page.turns.filter((turn) => turn.role === 'user')).toHaveLength(userTurns);
  });

  it.each(NAMES.filter((name) => Object.keys(golden(name).productEvents).length === 0))(
    '%s: written as the SSE a host sends, the capture passes chat-protocol verify',
    (name) => {
      const session = golden(name);
      const report = verifyChatCapture(session.envelopes.map((envelope) => encodeChatSseFrame(envelope)).join(''));
      expect(report.violations).toStrictEqual([]);
      expect(report).toMatchObject({ ok: true, frames: session.envelopes.length, turns: session.state.turns.length });
    },
  );

  it('product-events (issue 13): written as SSE by its codec, verify (which knows no product events) refuses exactly those frames as unparseable', () => {
    const session = golden('product-events');
    const codec = createChatCodec({
      events: Object.fromEntries(
        Object.entries(session.productEvents).map(([name, channel]) => [
          name,
          { schema: { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value }) } }, channel },
        ]),
      ),
    });
    const sse = session.envelopes.map((envelope) => codec.encodeChatSseFrame(envelope as never)).join('');
    for (const message of sseMessages(sse)) expect(codec.parseChatSseMessage(message)).toMatchObject({ ok: true });
    const report = verifyChatCapture(sse);
    const productFrames = session.envelopes.flatMap(({ event }, index) =>
      Object.prototype.hasOwnProperty.call(session.productEvents, event.type) ? [index + 1] : [],
    );
    const unparseable = report.violations.filter((violation) => violation.rule === 'unparseable-frame');
    expect(unparseable.map((violation) => [violation.frame, violation.message])).toStrictEqual(
      productFrames.map((frame) => [frame, 'unknown-event: event.type: unknown event type']),
    );
    // The next base frame after each run of them then shows the seqs they held as missing.
    expect(
      new Set(report.violations.filter((violation) => violation.rule !== 'unparseable-frame').map((violation) => violation.rule)),
    ).toStrictEqual(new Set(['seq-gap']));
  });

  it('hands out fresh objects: changing one replay does not change the next', () => {
    const first = golden('tools-and-sources');
    (first.envelopes as ChatEventEnvelope[]).length = 0;
    (first.state.turns as unknown[]).length = 0;
    (listGoldenSessions()[0]?.covers as string[]).length = 0;
    (golden('cards-answered').responses as unknown[]).length = 0;
    expect(golden('cards-answered').responses).toHaveLength(7);
    const second = golden('tools-and-sources');
    expect(second.envelopes).toHaveLength(11);
    expect(second.state.turns).toHaveLength(1);
    expect(listGoldenSessions()[0]?.covers.length).toBeGreaterThan(0);
  });

  it('refuses an unknown name with unknown-session, and never throws for any value', () => {
    expect(replayGoldenSession('tools-and-source' as GoldenSessionName)).toStrictEqual({
      ok: false,
      code: 'unknown-session',
      message: expect.stringContaining(
        'no golden session is named "tools-and-source"; the sessions are asked-and-answered, blocks-streamed,',
      ) as string,
    });
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = replayGoldenSession(value as GoldenSessionName);
        expect(result.ok).toBe(typeof value === 'string' && (NAMES as readonly string[]).includes(value));
      }),
      { numRuns: runs(500) },
    );
    expect(replayGoldenSession(Object.create(null) as GoldenSessionName)).toMatchObject({
      code: 'unknown-session',
      message: expect.stringContaining('named by a value of type object') as string,
    });
  });
});

describe('the golden sessions cover every capability', () => {
  const covered = new Set(listGoldenSessions().flatMap((session) => session.covers));
  const required = [
    ...CHAT_EVENT_TYPES_V1.map((type) => `event:${type}`),
    ...TOOL_RESULT_STATUSES.map((status) => `tool:${status}`),
    ...CHAT_TURN_STATUSES.filter((status) => status !== 'running').map((status) => `turn:${status}`),
    ...CARD_KINDS.flatMap((kind) => ['submitted', 'declined', 'expired'].map((resolution) => `card:${kind}:${resolution}`)),
    'grounded-sources',
    'error:retryable',
    'error:final',
    'multi-turn',
    'resumed-from-cursor',
    'overlapping-replay',
    'late-effect-result',
    'provider-substitution',
    'blocks-split-while-streaming',
    'card-outlives-turn',
    'upgraded-from:papercup',
    'upgraded-from:scout',
    'legacy-projection:papercup',
    'legacy-projection:scout',
    'product-event:event',
    'product-event:state',
    'product-event:transient',
  ];

  it.each(required)('%s', (tag) => {
    expect([...covered]).toContain(tag);
  });

  it('every card resolution, and a card closed without one', () => {
    for (const resolution of [...CARD_RESOLUTIONS, 'unreported']) {
      expect([...covered].some((tag) => tag.startsWith('card:') && tag.endsWith(`:${resolution}`))).toBe(true);
    }
  });
});

describe('legacy projections', () => {
  it.each(NAMES.flatMap((name) => DIALECTS.map((dialect) => [name, dialect] as const)))(
    '%s in %s: pinned exactly when every applied envelope has a legacy form, and equal to what the adapter writes',
    (name, dialect) => {
      const session = golden(name);
      const frames = applied(session).map((envelope) => encodeLegacyChatFrame(envelope, { dialect }));
      const key = dialect.name as 'papercup' | 'scout';
      if (frames.every((frame) => frame.ok)) {
        expect(session.legacyDialects).toContain(key);
        expect(session.legacy[key]).toBe(frames.map((frame) => (frame.ok ? frame.sse : '')).join(''));
      } else {
        expect(session.legacyDialects).not.toContain(key);
        expect(session.legacy[key]).toBeUndefined();
        // A product event has no legacy form without the host's mapping: the base parser does not know it.
        const isProduct = (envelope: ChatEventEnvelope) => Object.prototype.hasOwnProperty.call(session.productEvents, envelope.event.type);
        const refusals = applied(session).flatMap((envelope, index) => {
          const frame = frames[index];
          return frame === undefined || frame.ok ? [] : [[isProduct(envelope), frame.code]];
        });
        expect(new Set(refusals.filter(([product]) => product).map(([, code]) => code))).toStrictEqual(
          new Set(isProductSession(session) ? ['unknown-event'] : []),
        );
        expect(new Set(refusals.filter(([product]) => !product).map(([, code]) => code))).toStrictEqual(
          new Set(refusals.some(([product]) => !product) ? ['unsupported-event'] : []),
        );
      }
    },
  );

  it.each(NAMES.flatMap((name) => golden(name).legacyDialects.map((dialect) => [name, dialect] as const)))(
    '%s in %s: the projection reads back through the adapter to the applied envelopes',
    (name, dialect) => {
      const session = golden(name);
      const results = readLegacy(session.legacy[dialect] ?? '', dialect === 'papercup' ? papercup : scout, applied(session));
      // A card's allowDecline is written down explicitly (issue 13: Papercusp reads an absent flag as allowed),
      // so it reads back explicit: absent in v1 is false.
      const explicit = applied(session).map((envelope) =>
        envelope.event.type === 'card'
          ? {
              ...envelope,
              event: { ...envelope.event, card: { ...envelope.event.card, allowDecline: envelope.event.card.allowDecline === true } },
            }
          : envelope,
      );
      expect(results.map((result) => (result.ok && result.kind === 'envelope' ? result.envelope : result))).toStrictEqual(explicit);
    },
  );

  it.each(
    NAMES.flatMap((name) => {
      const session = golden(name);
      return session.state.turns.length === 1 ? session.legacyDialects.map((dialect) => [name, dialect] as const) : [];
    }),
  )('%s in %s: the one-turn projection passes chat-protocol verify --legacy', (name, dialect) => {
    const session = golden(name);
    const report = verifyChatCapture(session.legacy[dialect] ?? '', {
      legacy: dialect,
      conversationId: session.state.conversationId,
      turnId: session.state.turns[0]?.turnId,
    });
    expect(report.violations).toStrictEqual([]);
    expect(report).toMatchObject({ ok: true, frames: applied(session).length, turns: 1 });
  });

  it('names each session whose projection is pinned, per dialect', () => {
    const pinned = (dialect: string) =>
      listGoldenSessions()
        .filter((session) => (session.legacyDialects as string[]).includes(dialect))
        .map((session) => session.name);
    expect(pinned('papercup')).toStrictEqual([
      'blocks-streamed',
      'card-answered',
      'cards-approval-report-prompt',
      'cards-answered',
      'cards-declined',
      'cards-expired',
      'failed-then-retried',
      'same-session-provider-x',
      'same-session-provider-y',
      'tools-and-sources',
      'upgraded-from-papercup',
      'upgraded-from-scout',
    ]);
    expect(pinned('scout')).toStrictEqual(['blocks-streamed', 'cards-answered', 'cards-declined', 'cards-expired', 'upgraded-from-scout']);
  });
});

describe('sessions upgraded from legacy captures', () => {
  it.each<[GoldenSessionName, LegacyDialect, ChatFrameDecoderCounts]>([
    ['upgraded-from-papercup', papercup, { v1: 0, legacy: 11, transport: 3, unsupported: 0, refusals: {} }],
    ['upgraded-from-scout', scout, { v1: 0, legacy: 8, transport: 1, unsupported: 2, refusals: { 'unsupported-event': 2 } }],
  ])('%s: the capture upgrades to exactly the session, and its own dialect projects back to the capture', (name, dialect, counts) => {
    const session = golden(name);
    expect(session.upgradedFrom).toBe(dialect.name);
    const decoder = createChatFrameDecoder({ dialect, context: contextFrom(session.envelopes) });
    const results = sseMessages(session.capture ?? '').map((message) => decoder.decode(message));
    expect(results.flatMap((result) => (result.ok && result.kind === 'envelope' ? [result.envelope] : []))).toStrictEqual(
      session.envelopes,
    );
    expect(decoder.counts()).toStrictEqual(counts);

    // The projection is the capture without its transport frames and product
    // events, field for field, plus the call ids the host mapped (an extra field old readers ignore).
    const kept = sseMessages(session.capture ?? '').filter((_message, index) => {
      const result = results[index];
      return result?.ok === true && result.kind === 'envelope';
    });
    const expected = kept.map(({ event, data }, index) => {
      const fields = JSON.parse(data) as Record<string, unknown>;
      const upgraded = session.envelopes[index]?.event;
      if (upgraded?.type === 'tool_call' && fields['callId'] === undefined) fields['callId'] = upgraded.callId;
      return [event, fields];
    });
    const projected = sseMessages(session.legacy[dialect.name as 'papercup' | 'scout'] ?? '');
    expect(projected.map(({ event, data }) => [event, JSON.parse(data) as unknown])).toStrictEqual(expected);
  });
});

describe('what each session shows', () => {
  it("asked-and-answered: each turn opens with the person's user_input, typed then spoken; history shows both sides (issue 13)", () => {
    const session = golden('asked-and-answered');
    const turns = turnsOf(session.state);
    expect(turns.map((turn) => turn.userInput)).toStrictEqual([
      { text: 'Where is my order ord_4K7P? It was due on Friday.', source: 'text_typed' },
      { text: 'can you just cancel it', source: 'voice_stt' },
    ]);
    expect(session.envelopes.filter((envelope) => envelope.event.type === 'user_input').map((envelope) => envelope.seq)).toEqual([1, 1]);
    const history = historyFromChatState(session.state);
    expect(history.map((turn) => [turn.role, turn.source ?? turn.status, turn.text])).toStrictEqual([
      ['user', 'text_typed', 'Where is my order ord_4K7P? It was due on Friday.'],
      ['assistant', 'completed', 'Your order ord_4K7P is held up at the carrier. Their new estimate is Tuesday.'],
      ['user', 'voice_stt', 'can you just cancel it'],
      ['assistant', 'completed', 'Done: ord_4K7P is cancelled and 38.00 EUR is on its way back to your card.'],
    ]);
    expect(session.legacyDialects).toEqual([]);
  });

  it('tools-and-sources: grounded sources on a succeeded call, a failed call, a completed answer', () => {
    const [turn] = turnsOf(golden('tools-and-sources').state);
    expect(turn?.status).toBe('completed');
    expect(turn?.toolCalls.map((call) => [call.name, call.result?.status])).toStrictEqual([
      ['search_help_center', 'succeeded'],
      ['get_order', 'failed'],
    ]);
    expect(turn?.toolCalls[0]?.result?.blocks?.[0]?.sources?.map((source) => source.ref)).toStrictEqual([
      'kb:article/refunds-damaged-items',
      'kb:article/refund-timelines',
    ]);
    expect(turn?.toolCalls[1]?.result).toStrictEqual({
      status: 'failed',
      summary: 'Order lookup timed out',
      error: 'orders-api did not answer within 10 s',
    });
    expect(turn?.usage).toStrictEqual({ inputTokens: 2381, outputTokens: 164, totalTokens: 2545 });
  });

  it('product-events (issue 13): state-channel data is the last written, event-channel events are kept in order, transient ones only in the log', () => {
    const session = golden('product-events');
    expect(session.productEvents).toStrictEqual({
      'scout.products': 'state',
      'scout.broaden': 'state',
      'scout.highlight': 'event',
      'scout.cart_mutate': 'transient',
    });
    const [turn] = session.state.turns as (ChatStateV1['turns'][number] & { productEvents?: unknown; productState?: unknown })[];
    expect(turn?.productState).toStrictEqual({
      'scout.products': { products: [{ id: 'TR-210', price: 109 }] },
      'scout.broaden': { options: [{ label: 'Any price', prompt: 'trail shoes', resultCount: 14 }] },
    });
    expect(turn?.productEvents).toStrictEqual([
      { type: 'scout.highlight', data: { productId: 'TR-210' } },
      { type: 'scout.highlight', data: { productId: 'TR-315' } },
    ]);
    expect(session.envelopes.filter(({ event }) => event.type === ('scout.cart_mutate' as string))).toHaveLength(1);
    expect(turn?.lastSeq).toBe(12);
    // No legacy projection: a built-in dialect has no form for a product event unless the host maps it.
    expect(session.legacyDialects).toStrictEqual([]);
  });

  it('tool-outcomes: one call per result status, and a turn that needs reconciliation', () => {
    const [turn] = turnsOf(golden('tool-outcomes').state);
    expect(turn?.toolCalls.map((call) => call.result?.status)).toStrictEqual(['succeeded', 'failed', 'cancelled', 'needs-reconciliation']);
    expect(turn).toMatchObject({ status: 'needs-reconciliation', stopReason: 'effect_unconfirmed', error: null });
  });

  it('card-answered: a radio card submitted and the host state it led to', () => {
    const [turn] = turnsOf(golden('card-answered').state);
    expect(turn?.cards.map((entry) => [entry.card.presentation?.kind, entry.closed, entry.resolution])).toStrictEqual([
      ['radio', true, 'submitted'],
    ]);
    expect(turn?.hostState).toStrictEqual({ version: 1, snapshot: { workspace: { name: 'Acme Research', plan: 'plan_team', seats: 12 } } });
  });

  it.each([
    ['cards-answered', 'submitted', 'submit'],
    ['cards-declined', 'declined', 'decline'],
    ['cards-expired', 'expired', null],
  ] as const)(
    '%s: every base kind, one turn each, closed %s; the answers validate and InteractionResolver stores the same outcome',
    async (name, resolution, action) => {
      const session = golden(name);
      const turns = turnsOf(session.state);
      expect(
        turns.map((turn) => [turn.status, turn.cards.map((entry) => [entry.card.presentation?.kind, entry.resolution])]),
      ).toStrictEqual(CARD_KINDS.map((kind) => ['completed', [[kind, resolution]]]));
      const cards = turns.flatMap((turn) => turn.cards.map((entry) => entry.card));
      expect(session.responses.map((response) => response.action)).toStrictEqual(action === null ? [] : CARD_KINDS.map(() => action));
      session.responses.forEach((response, index) => {
        const card = cards[index];
        if (card === undefined) throw new Error(`no card for response ${index}`);
        expect(validateCardResponse(card, response)).toStrictEqual({ ok: true, value: response });
      });
      // The same answers through InteractionResolver over the fake store, each at
      // the instant its card closed: the stored outcome is the golden resolution.
      const database = createFakeDatabase();
      const store = createFakeInteractionStore(database);
      const conversationId = session.state.conversationId;
      const scope = { conversationId, principalId: 'user_1', tenantId: 'tenant_1', customerId: null, publicOwnerId: null };
      store.setAuthority(conversationId, 'user_1', { principalId: 'user_1', tenantId: 'tenant_1', customerId: null, publicOwnerId: null });
      const resolver = new InteractionResolver<string>({ store, validate: ({ value }) => ({ value }) });
      const closedAt = session.envelopes.filter((envelope) => envelope.event.type === 'card_closed').map((envelope) => envelope.occurredAt);
      for (const [index, card] of cards.entries()) {
        const expiresAt = card.expiresAt ?? new Date(Date.parse(card.createdAt) + 3_600_000).toISOString();
        const opened = await resolver.open({
          caller: 'user_1',
          card,
          schema: { id: `golden-${card.presentation?.kind ?? 'prompt-only'}`, revision: 1 },
          expiresAt,
          scope,
          at: card.createdAt,
        });
        expect(opened).toMatchObject({ ok: true, outcome: 'opened' });
        const key = { caller: 'user_1', conversationId, correlationId: card.correlationId, at: closedAt[index] ?? '' };
        const response = session.responses[index];
        const closed = response === undefined ? await resolver.expire(key) : await resolver.respond({ ...key, response });
        expect(closed).toMatchObject({ ok: true, outcome: resolution, record: { status: resolution } });
        // A later cancellation changes nothing: past its expiry a card is expired first of all.
        expect(await resolver.cancel(key)).toMatchObject({ ok: false, code: resolution === 'expired' ? 'expired' : 'already-closed' });
      }
      expect(store.transitions().map((transition) => transition.type)).toStrictEqual(
        cards.flatMap(() => ['interaction-opened', 'interaction-closed']),
      );

      if (name === 'cards-expired') {
        // Each card closed after the instant it expired.
        const closedAt = session.envelopes
          .filter((envelope) => envelope.event.type === 'card_closed')
          .map((envelope) => Date.parse(envelope.occurredAt));
        expect(cards.map((card, index) => Date.parse(card?.expiresAt ?? '') < (closedAt[index] ?? 0))).toStrictEqual(
          CARD_KINDS.map(() => true),
        );
      }
    },
  );

  it('cards-approval-report-prompt (issue 13): an approval, a report-only and a plain prompt-only card, answered as core says; the resolver stores them', async () => {
    const session = golden('cards-approval-report-prompt');
    const turns = turnsOf(session.state);
    const cards = turns.flatMap((turn) => turn.cards.map((entry) => entry.card));
    expect(
      cards.map((card) => [card.presentation, promptOnlyCardKind(card), card.approval?.title, card.report?.plans[0]?.slug]),
    ).toStrictEqual([
      [undefined, 'approval', 'write_file config/retries.yaml', undefined],
      [undefined, 'report', undefined, 'retry-rollout'],
      [undefined, 'plain', undefined, undefined],
    ]);
    expect(turns.map((turn) => [turn.status, turn.cards.map((entry) => entry.resolution)])).toStrictEqual([
      ['completed', ['submitted']],
      ['completed', ['submitted']],
      ['completed', ['submitted']],
    ]);
    expect(session.responses.map((response) => (response.action === 'submit' ? response.value : null))).toStrictEqual([
      { confirmed: true },
      { acknowledged: true },
      { text: 'No, that is all.' },
    ]);
    const closedAt = session.envelopes.filter((envelope) => envelope.event.type === 'card_closed').map((envelope) => envelope.occurredAt);
    session.responses.forEach((response, index) => {
      const card = cards[index];
      if (card === undefined) throw new Error(`no card for response ${index}`);
      expect(validateCardResponse(card, response, { at: closedAt[index] ?? '' })).toStrictEqual({ ok: true, value: response });
    });
    // The approval card's timeoutMs: the same answer after createdAt + timeoutMs is late.
    const [approval] = cards;
    if (approval === undefined) throw new Error('no approval card');
    const late = new Date(Date.parse(approval.createdAt) + (approval.timeoutMs ?? 0)).toISOString();
    expect(validateCardResponse(approval, session.responses[0], { at: late })).toMatchObject({ ok: false, code: 'expired' });
  });

  it('resumed-after-disconnect: the second connection is the complete replay after its cursor; the overlap is absorbed', () => {
    const session = golden('resumed-after-disconnect');
    const [first, second] = session.connections;
    const turnId = session.envelopes[0]?.turnId ?? '';
    expect(first?.lastEventId).toBeNull();
    expect(first?.envelopes.map((envelope) => envelope.seq)).toStrictEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(second?.lastEventId).toBe(formatChatCursor({ turnId, seq: 5 }));
    const latest = session.envelopes.at(-1)?.seq ?? 0;
    const window = validateReplayWindow(
      { lowerBound: 0, latestSeq: latest, frames: second?.envelopes ?? [] },
      { conversationId: session.state.conversationId, turnId, after: second?.lastEventId ?? '' },
    );
    expect(window).toMatchObject({ ok: true, value: { after: { turnId, seq: 5 }, latestSeq: latest } });
    expect(session.outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(2);
    // The same state as one clean connection: no repeated text, no repeated call.
    let clean = createChatState(session.state.conversationId);
    for (const envelope of applied(session)) {
      const result = applyChatEvent(clean, envelope);
      if (!result.ok) throw new Error(result.code);
      clean = result.state;
    }
    expect(clean).toStrictEqual(session.state);
    expect(session.state.turns[0]?.text).toBe(
      'Checking the status of the EU API region now. One moment.\n\nStill waiting on the status service.\n\nThe EU region has had elevated error rates since 07:50 UTC; a fix is being deployed, and retries should start succeeding shortly.',
    );
  });

  it('cancelled-mid-stream: the turn is cancelled, its open call has no result', () => {
    const [turn] = turnsOf(golden('cancelled-mid-stream').state);
    expect(turn).toMatchObject({ status: 'cancelled', stopReason: 'user_cancelled', usage: null, error: null });
    expect(turn?.toolCalls.map((call) => [call.name, call.result])).toStrictEqual([['run_sql', null]]);
    expect(turn?.reasoning).not.toBe('');
  });

  it('cancelled-with-late-result: the late result reopens nothing; recovery stores it and the next turn reads it back', async () => {
    const session = golden('cancelled-with-late-result');
    const [cancelled, next] = turnsOf(session.state);
    const invoice = cancelled?.toolCalls[0];
    expect(cancelled).toMatchObject({ status: 'cancelled', stopReason: 'user_cancelled' });
    expect(invoice).toMatchObject({ name: 'send_invoice', result: null });
    expect(cancelled?.cards.map((entry) => entry.resolution)).toStrictEqual(['cancelled']);

    // What the next turn read back: the effect's stored result.
    const status = next?.toolCalls[0]?.result?.blocks?.[0];
    expect(next?.status).toBe('completed');
    expect(status).toMatchObject({ kind: 'data', data: { effectId: invoice?.callId, status: 'succeeded' } });
    const storedResult = status?.kind === 'data' ? (status.data as { result: unknown }).result : undefined;

    // An envelope carrying the late result in the cancelled turn is refused: the turn stays cancelled.
    const late = {
      ...session.envelopes[0],
      turnId: cancelled?.turnId,
      eventId: 'evt_late_result',
      seq: (cancelled?.lastSeq ?? 0) + 1,
      event: { type: 'tool_result', callId: invoice?.callId, name: 'send_invoice', status: 'succeeded' },
    } as ChatEventEnvelope;
    expect(applyChatEvent(session.state, late)).toMatchObject({ ok: false, code: 'turn-terminal' });

    // The same story through TurnRecovery over the fake store: cancellation
    // commits first, the execution completes anyway, its result is stored
    // without reopening the turn, and a fresh worker gets it, never re-running it.
    const database = createFakeDatabase({ seed: 7 });
    createFakeTurnStore(database).grant(session.state.conversationId, 'user_1');
    const turn = { caller: 'user_1', conversationId: session.state.conversationId, turnId: cancelled?.turnId ?? '' };
    const effectId = invoice?.callId ?? '';
    let finish: (result: unknown) => void = () => undefined;
    const worker = new TurnRecovery<unknown, string>(createFakeTurnStore(database).adapter());
    const canceller = new TurnRecovery<unknown, string>(createFakeTurnStore(database).adapter({ onAbort: () => finish(storedResult) }));
    await worker.startTurn({ ...turn, effectIds: [effectId] });
    const claimed = await worker.claimEffect({ ...turn, effectId });
    if (!claimed.ok || claimed.outcome !== 'claimed') throw new Error('claim failed');
    let launches = 0;
    const dispatched = worker.dispatchEffect({
      caller: 'user_1',
      claim: claimed.claim,
      execute: () => {
        launches++;
        return new Promise((resolve) => (finish = resolve));
      },
    });
    await expect.poll(() => launches).toBe(1);
    expect(await canceller.cancelTurn(turn)).toMatchObject({ ok: true, committed: true, inFlight: [effectId], abort: 'requested' });
    expect(await dispatched).toStrictEqual({ ok: true, outcome: 'completed', reused: false, result: storedResult });
    const fresh = new TurnRecovery<unknown, string>(createFakeTurnStore(database).adapter());
    expect(await fresh.claimEffect({ ...turn, effectId })).toStrictEqual({
      ok: true,
      outcome: 'completed',
      reused: true,
      result: storedResult,
    });
    expect(await fresh.startTurn({ ...turn, effectIds: [effectId] })).toMatchObject({
      ok: true,
      outcome: 'existing',
      turn: { status: 'cancelled' },
    });
    expect(launches).toBe(1);
  });

  it('card-answered-later: turn 1 ends awaiting its card; turn 2 closes it (DESIGN §3.3, issue 13)', () => {
    const session = golden('card-answered-later');
    const [asked, answered] = turnsOf(session.state);
    const done = session.envelopes.find((envelope) => envelope.turnId === asked?.turnId && envelope.event.type === 'done');
    expect(done?.event).toStrictEqual({
      type: 'done',
      status: 'completed',
      stopReason: 'awaiting_input',
      awaiting: [asked?.cards[0]?.card.correlationId],
    });
    expect(asked?.cards.map(({ closed, resolution, closedInTurn }) => ({ closed, resolution, closedInTurn }))).toStrictEqual([
      { closed: true, resolution: 'submitted', closedInTurn: answered?.turnId },
    ]);
    expect(answered).toMatchObject({ status: 'completed', cards: [] });
    expect(session.responses).toStrictEqual([
      { action: 'submit', correlationId: asked?.cards[0]?.card.correlationId, value: { optionId: 'hold' } },
    ]);
    expect(session.legacyDialects).toStrictEqual([]);
  });

  it('interrupted-turn: the open card closes interrupted with the turn; the next turn asks again and completes', () => {
    const [interrupted, next] = turnsOf(golden('interrupted-turn').state);
    expect(interrupted).toMatchObject({ status: 'interrupted', stopReason: 'worker_restarted' });
    expect(interrupted?.cards.map((entry) => entry.resolution)).toStrictEqual(['interrupted']);
    expect(next?.status).toBe('completed');
    expect(next?.cards.map((entry) => entry.resolution)).toStrictEqual(['submitted']);
    expect(next?.cards[0]?.card.prompt).toBe(interrupted?.cards[0]?.card.prompt);
  });

  it('failed-then-retried: a retryable error, a retry that completes, then an error that may not be retried', () => {
    const [failed, retried, final] = turnsOf(golden('failed-then-retried').state);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'rate-limited', retryable: true, retryAfterMs: 2000 } });
    expect(retried).toMatchObject({ status: 'completed', hostState: { version: 2, snapshot: { draft: { status: 'ready' } } } });
    expect(retried?.cards.map((entry) => [entry.closed, entry.resolution])).toStrictEqual([[true, null]]);
    expect(final).toMatchObject({ status: 'failed', error: { code: 'context-too-long', retryable: false, retryAfterMs: null } });
    const navigations = golden('failed-then-retried').envelopes.filter((envelope) => envelope.event.type === 'navigate');
    expect(navigations.map((envelope) => envelope.event)).toStrictEqual([{ type: 'navigate', href: '/reports/rep_w48' }]);
  });

  it('same-session-provider-x and -y: the envelopes and states differ only in provenance', () => {
    const x = golden('same-session-provider-x');
    const y = golden('same-session-provider-y');
    const withoutProvenance = (session: GoldenReplay) => ({
      envelopes: session.envelopes.map((envelope) =>
        envelope.event.type === 'provenance' ? { ...envelope, event: 'provenance' } : envelope,
      ),
      turns: session.state.turns.map((turn) => ({
        ...turn,
        provenance: 'provenance',
        // The digest of the provenance event's content differs with it; its event id does not.
        eventLog: turn.eventLog.replace(/^(\S+) [0-9a-f]{16}$/m, '$1 <provenance>'),
      })),
    });
    expect(withoutProvenance(x)).toStrictEqual(withoutProvenance(y));
    expect(x.state.turns[0]?.provenance).toStrictEqual({
      engine: 'papercup-agent',
      model: 'provider_x/large',
      accountRoute: 'pool-provider_x',
    });
    expect(y.state.turns[0]?.provenance).toStrictEqual({
      engine: 'papercup-agent',
      model: 'provider_y/large',
      accountRoute: 'pool-provider_y',
    });
    expect(x.state).not.toStrictEqual(y.state);
  });

  it('blocks-streamed: deltas cut through the tags, and the streaming splitter reads them as the whole text does', () => {
    const session = golden('blocks-streamed');
    const deltas = session.envelopes.flatMap((envelope) => (envelope.event.type === 'delta' ? [envelope.event.text] : []));
    const text = session.state.turns[0]?.text ?? '';
    expect(deltas.join('')).toBe(text);

    const splitter = createTurnTextSplitter();
    // The splitter may hand out the prose in pieces; joined, they are the whole text's segments.
    const streamed: TurnTextSegment[] = [];
    for (const segment of [...deltas.flatMap((delta) => splitter.push(delta)), ...splitter.end()]) {
      const last = streamed.at(-1);
      if (segment.kind === 'text' && last?.kind === 'text')
        streamed[streamed.length - 1] = { kind: 'text', text: last.text + segment.text };
      else streamed.push(segment);
    }
    const whole = splitTurnText(text);
    expect(streamed).toStrictEqual(whole);
    expect(whole.map((segment) => segment.kind)).toStrictEqual(['text', 'report', 'text', 'ask']);
    expect(whole[0]).toMatchObject({ kind: 'text', text: expect.stringContaining('`<report>` block') as string });
    expect(whole[1]).toMatchObject({
      kind: 'report',
      block: { title: 'Orders migration', plans: [{ title: 'Backfill' }, { title: 'Cut-over', status: 'blocked' }] },
    });
    expect(whole[3]).toMatchObject({
      kind: 'ask',
      block: { question: 'Cut over tonight at 22:00 UTC, or wait for Monday?', refs: ['runbook:orders-cutover'] },
    });

    // While streaming, after each delta: a partial opener at the end is held
    // back (not shown), an opened tag is pending until its closer is whole.
    let sofar = '';
    const shown = deltas.map((delta) => {
      sofar += delta;
      const last = splitTurnText(sofar, { streaming: true }).at(-1);
      return last?.kind === 'text' ? `text…${last.text.slice(-5)}` : last?.kind === 'pending' ? `pending ${last.tag}` : last?.kind;
    });
    expect(shown).toStrictEqual([
      'text…`<rep', // inside inline code: text
      'text…k):\n\n', // the partial opener after it is held back
      'pending report',
      'pending report',
      'text…rs:\n\n', // and here
      'pending ask',
      'pending ask',
      'pending ask',
      'ask',
    ]);
  });
});
