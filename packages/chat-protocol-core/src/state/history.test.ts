import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { CONVERSATION_ID, RADIO_CARD, SAMPLE_SESSION, envelopeOf } from '../../test/envelopes.js';
import { buildStream, replaySession, streamSpecArb } from '../../test/streams.js';
import { applyChatEvent } from './apply-chat-event.js';
import type { OpenCardSnapshotV1 } from '../cards/card-schemas.js';
import type { ChatEventEnvelope } from '../envelope/envelope.js';
import { historyFromChatState } from './history-from-state.js';
import {
  parseChatHistoryPage,
  type ChatHistoryProductSchema,
  type ChatHistoryTurnV1,
  type ParseChatHistoryPageRefusalCode,
} from './history.js';
import { createChatCodec } from '../chat-codec.js';
import { createChatState, type ChatStateV1 } from './state.js';
import { runs } from '../../../../test-support/property-runs.js';

const replay = replaySession;

const event = (turnId: string, seq: number, body: unknown): ChatEventEnvelope =>
  envelopeOf(body, { turnId, seq, eventId: `evt_${turnId}_${seq}`, occurredAt: `2026-11-29T12:00:${String(seq).padStart(2, '0')}Z` });

/** A person asks by voice, the assistant searches, asks a card, answers; a second turn fails. */
const ASKED_SESSION: readonly ChatEventEnvelope[] = [
  event('turn_1', 1, { type: 'user_input', text: 'Which plan suits me?', source: 'voice_stt' }),
  event('turn_1', 2, { type: 'provenance', engine: 'papercup', model: 'provider_x/large' }),
  event('turn_1', 3, { type: 'reasoning', text: 'Ask first.' }),
  event('turn_1', 4, { type: 'tool_call', callId: 'call_1', name: 'plans', input: { region: 'eu' } }),
  event('turn_1', 5, { type: 'tool_result', callId: 'call_1', name: 'plans', status: 'succeeded', summary: '2 plans' }),
  event('turn_1', 6, { type: 'card', card: RADIO_CARD }),
  event('turn_1', 7, { type: 'card_closed', correlationId: 'card_1', resolution: 'submitted' }),
  event('turn_1', 8, { type: 'delta', text: 'Pro it is.' }),
  event('turn_1', 9, { type: 'done', status: 'completed', usage: { inputTokens: 3 } }),
  event('turn_2', 1, { type: 'user_input', text: 'And the price?' }),
  event('turn_2', 2, { type: 'error', code: 'rate_limited', message: 'Slow down', retryable: false }),
];

const EXPECTED_HISTORY: ChatHistoryTurnV1[] = [
  { id: 'turn_1', role: 'user', text: 'Which plan suits me?', source: 'voice_stt' },
  {
    id: 'turn_1',
    role: 'assistant',
    text: 'Pro it is.',
    tools: [{ callId: 'call_1', name: 'plans', input: { region: 'eu' }, result: { status: 'succeeded', summary: '2 plans' } }],
    cards: [{ card: RADIO_CARD as unknown as OpenCardSnapshotV1, closed: true, resolution: 'submitted' }],
    provenance: { engine: 'papercup', model: 'provider_x/large', accountRoute: null },
    status: 'completed',
  },
  { id: 'turn_2', role: 'user', text: 'And the price?' },
  {
    id: 'turn_2',
    role: 'assistant',
    text: '',
    status: 'failed',
    error: { code: 'rate_limited', message: 'Slow down', retryable: false, retryAfterMs: null },
  },
];

const page = (turns: readonly unknown[], hasMoreEarlier = false) => ({ turns, hasMoreEarlier });
const user: ChatHistoryTurnV1 = { id: 'm1', seq: 1, role: 'user', text: 'Hi', createdAt: '2026-11-29T12:00:00Z', source: 'text_typed' };
const assistant: ChatHistoryTurnV1 = {
  id: 'm2',
  seq: 2,
  role: 'assistant',
  text: 'Hello',
  createdAt: '2026-11-29T12:00:01+01:00',
  source: 'voice_tts',
  status: 'completed',
};

describe('historyFromChatState (DESIGN §3.9, issue 13: a reloaded client renders both sides)', () => {
  it("each turn's user_input becomes a user turn and the assistant's content an assistant turn with the turn's id", () => {
    expect(historyFromChatState(replay(ASKED_SESSION))).toStrictEqual(EXPECTED_HISTORY);
  });

  it('a turn opened without user_input gives only its assistant turn; reasoning, host state and usage stay out', () => {
    const history = historyFromChatState(replay(SAMPLE_SESSION));
    expect(history.map((turn) => [turn.id, turn.role, turn.status])).toEqual([
      ['turn_1', 'assistant', 'completed'],
      ['turn_2', 'assistant', 'failed'],
    ]);
    expect(Object.keys(history[0] ?? {})).toEqual(['id', 'role', 'text', 'tools', 'cards', 'provenance', 'status']);
  });

  it('a running turn gives its answer so far, status running', () => {
    const history = historyFromChatState(replay(ASKED_SESSION.slice(0, 1)));
    expect(history).toStrictEqual([EXPECTED_HISTORY[0], { id: 'turn_1', role: 'assistant', text: '', status: 'running' }]);
  });

  it('an empty conversation has no history', () => {
    expect(historyFromChatState(createChatState(CONVERSATION_ID))).toEqual([]);
  });

  it('never mutates the state: the JSON is the same before and after', () => {
    const state = replay(ASKED_SESSION);
    const before = JSON.stringify(state);
    historyFromChatState(state);
    expect(JSON.stringify(state)).toBe(before);
  });

  it('every reachable state gives a page parseChatHistoryPage accepts unchanged, at every prefix of every generated stream', () => {
    fc.assert(
      fc.property(streamSpecArb, (spec) => {
        const stream = buildStream(spec);
        let state = createChatState(CONVERSATION_ID);
        for (const envelope of stream) {
          const applied = applyChatEvent(state, envelope);
          if (!applied.ok) throw new Error(applied.message);
          state = applied.state;
          const turns = historyFromChatState(state);
          const parsed = parseChatHistoryPage({ turns, hasMoreEarlier: false });
          if (!parsed.ok) throw new Error(`${parsed.code}: ${parsed.message} ${JSON.stringify(parsed.issues)}`);
          expect(parsed.value).toStrictEqual(JSON.parse(JSON.stringify({ turns, hasMoreEarlier: false })));
        }
      }),
      { numRuns: runs(300) },
    );
  }, 120_000);
});

describe('parseChatHistoryPage (DESIGN §3.9: strict, never throws, typed refusals)', () => {
  it('accepts a page with every field, JSON text or value, and returns a fresh copy', () => {
    const full = page(
      [user, { ...assistant, report: { title: 'Status', plans: [{ title: 'Plan A', status: 'done' }] }, product: { planSlug: 'plan-a' } }],
      true,
    );
    const parsed = parseChatHistoryPage(full);
    expect(parsed).toStrictEqual({ ok: true, value: full });
    expect(parsed.ok && parsed.value).not.toBe(full);
    expect(parseChatHistoryPage(JSON.stringify(full))).toStrictEqual({ ok: true, value: full });
  });

  it('a card answer is kept on a submitted card', () => {
    const withAnswer = { ...assistant, cards: [{ card: RADIO_CARD, closed: true, resolution: 'submitted', answer: { optionId: 'pro' } }] };
    expect(parseChatHistoryPage(page([withAnswer]))).toMatchObject({ ok: true });
  });

  const refusals: readonly (readonly [string, unknown, ParseChatHistoryPageRefusalCode, (string | number)[]])[] = [
    ['text that is not JSON', '{"turns":', 'invalid-json', []],
    ['a value JSON cannot hold', 1n, 'invalid-json', []],
    ['a page without hasMoreEarlier', { turns: [] }, 'invalid-page', ['hasMoreEarlier']],
    ['an unknown key on the page', { ...page([]), cursor: 'x' }, 'invalid-page', ['cursor']],
    ['an unknown key on a turn', page([{ ...user, workRefs: [] }]), 'invalid-page', ['turns', 0, 'workRefs']],
    ['a role the contract does not know', page([{ ...user, role: 'tool' }]), 'invalid-page', ['turns', 0, 'role']],
    ['a createdAt without a zone', page([{ ...user, createdAt: '2026-11-29T12:00:00' }]), 'invalid-page', ['turns', 0, 'createdAt']],
    ['a createdAt in epoch milliseconds', page([{ ...user, createdAt: 1_796_029_200_000 }]), 'invalid-page', ['turns', 0, 'createdAt']],
    ['an unknown source', page([{ ...user, source: 'keyboard' }]), 'invalid-page', ['turns', 0, 'source']],
    ['voice_tts on a user turn', page([{ ...user, source: 'voice_tts' }]), 'invalid-page', ['turns', 0, 'source']],
    ['tools on a user turn', page([{ ...user, tools: [] }]), 'invalid-page', ['turns', 0, 'tools']],
    [
      'a status on a system turn',
      page([{ ...user, role: 'system', source: 'system', status: 'completed' }]),
      'invalid-page',
      ['turns', 0, 'status'],
    ],
    ['an empty user message', page([{ ...user, text: '' }]), 'invalid-page', ['turns', 0, 'text']],
    ['a failed turn without its error', page([{ ...assistant, status: 'failed' }]), 'invalid-page', ['turns', 0, 'error']],
    [
      'an error on a completed turn',
      page([{ ...assistant, error: { code: 'x', message: 'm', retryable: false, retryAfterMs: null } }]),
      'invalid-page',
      ['turns', 0, 'error'],
    ],
    ['two user turns with one id', page([user, { ...user, seq: 3 }]), 'invalid-page', ['turns', 1, 'id']],
    ['seqs not increasing (newest first)', page([assistant, user]), 'invalid-page', ['turns', 1, 'seq']],
    [
      'a call id twice in a turn',
      page([
        {
          ...assistant,
          tools: [
            { callId: 'c', name: 'n', input: null, result: null },
            { callId: 'c', name: 'n', input: null, result: null },
          ],
        },
      ]),
      'invalid-page',
      ['turns', 0, 'tools'],
    ],
    [
      'an answer on a declined card',
      page([{ ...assistant, cards: [{ card: RADIO_CARD, closed: true, resolution: 'declined', answer: { optionId: 'pro' } }] }]),
      'invalid-page',
      ['turns', 0, 'cards', 0, 'answer'],
    ],
    [
      'an open card with a resolution',
      page([{ ...assistant, cards: [{ card: RADIO_CARD, closed: false, resolution: 'submitted' }] }]),
      'invalid-page',
      ['turns', 0, 'cards', 0, 'resolution'],
    ],
    [
      'a report that is not a strict ReportBlock',
      page([{ ...assistant, report: { plans: [] } }]),
      'invalid-page',
      ['turns', 0, 'report', 'plans'],
    ],
    ['product content that is not a JSON object', page([{ ...assistant, product: ['x'] }]), 'invalid-page', ['turns', 0, 'product']],
    ['a user message past the user_input bound', page([{ ...user, text: 'x'.repeat(65_537) }]), 'invalid-page', ['turns', 0, 'text']],
  ];
  it.each(refusals)('%s is refused', (_name, input, code, path) => {
    const result = parseChatHistoryPage(input);
    expect(result).toMatchObject({ ok: false, code });
    if (result.ok || path.length === 0) return;
    expect(result.issues?.[0]?.path).toEqual(path);
  });

  describe("a product's own content, through its schema (issue 13: workRefs and planSlug are never dropped)", () => {
    const PapercuspProduct = z.strictObject({
      workRefs: z.optional(z.array(z.string())),
      planSlug: z.optional(z.string()),
    });
    const withProduct = (product: unknown) => page([user, { ...assistant, product }]);

    it('content the product schema accepts is kept, typed', () => {
      const parsed = parseChatHistoryPage(withProduct({ workRefs: ['WI-12'], planSlug: 'history-v1' }), { product: PapercuspProduct });
      expect(parsed).toStrictEqual({ ok: true, value: withProduct({ workRefs: ['WI-12'], planSlug: 'history-v1' }) });
      if (parsed.ok) expect(parsed.value.turns[1]?.product?.workRefs).toEqual(['WI-12']);
    });

    it('content the product schema refuses is invalid-product at the turn', () => {
      expect(parseChatHistoryPage(withProduct({ planSlug: 7 }), { product: PapercuspProduct })).toStrictEqual({
        ok: false,
        code: 'invalid-product',
        message: "turn 1: product content refused by the product's schema",
        issues: [{ path: ['turns', 1, 'product'], message: "turn 1: product content refused by the product's schema" }],
      });
    });

    it('any Standard Schema judges it, not only zod: a hand-written one, and one that throws or answers later refuses', () => {
      const planSlugIsText = {
        '~standard': {
          version: 1 as const,
          vendor: 'hand-written',
          validate: (value: unknown) =>
            typeof (value as { planSlug?: unknown }).planSlug === 'string'
              ? { value: value as { planSlug: string } }
              : { issues: [{ message: 'planSlug must be text', path: ['planSlug'] }] },
        },
      };
      expect(parseChatHistoryPage(withProduct({ planSlug: 'history-v1' }), { product: planSlugIsText })).toMatchObject({ ok: true });
      expect(parseChatHistoryPage(withProduct({ planSlug: 7 }), { product: planSlugIsText })).toMatchObject({
        ok: false,
        code: 'invalid-product',
      });
      const throwing = {
        '~standard': {
          version: 1 as const,
          vendor: 't',
          validate: (): never => {
            throw new Error('boom');
          },
        },
      };
      expect(parseChatHistoryPage(withProduct({ planSlug: 'x' }), { product: throwing })).toMatchObject({
        ok: false,
        code: 'invalid-product',
      });
      const later = { '~standard': { version: 1 as const, vendor: 't', validate: async (value: unknown) => ({ value }) } };
      expect(parseChatHistoryPage(withProduct({ planSlug: 'x' }), { product: later })).toMatchObject({
        ok: false,
        code: 'invalid-product',
      });
    });

    it('an options.product that is not a Standard Schema is invalid-product, never a throw', () => {
      const notASchema = { safeParse: () => ({ success: true }) } as unknown as ChatHistoryProductSchema<unknown>;
      expect(parseChatHistoryPage(withProduct({ planSlug: 'x' }), { product: notASchema })).toStrictEqual({
        ok: false,
        code: 'invalid-product',
        message: 'options.product is not a Standard Schema',
      });
    });

    it('without a product schema, product content is only checked to be bounded JSON', () => {
      expect(parseChatHistoryPage(withProduct({ planSlug: 7 }))).toMatchObject({ ok: true });
    });
  });

  it('never throws, and refuses __proto__ keys without polluting the prototype', () => {
    const text = JSON.stringify(page([user])).replace('{"id":', '{"__proto__":{"polluted":true},"id":');
    expect(parseChatHistoryPage(text)).toMatchObject({ ok: false, code: 'invalid-page' });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = parseChatHistoryPage(value);
        expect(['invalid-json', 'invalid-page', true]).toContain(result.ok || result.code);
      }),
      { numRuns: runs(500) },
    );
  });
});

// Issue 13 follow-up: history over the other issue-13 features together. Each
// state is built by the reducer, its history must parse as a page, and the page
// must say what happened, in the turn that asked.
describe('historyFromChatState with cards that outlive their turn, every card kind and product events (DESIGN §3.3, §3.9)', () => {
  const PROMPT_ONLY = { correlationId: 'card_p', createdAt: '2026-11-29T12:00:00Z', prompt: 'Anything else?', allowDecline: true };
  const APPROVAL = {
    correlationId: 'card_a',
    createdAt: '2026-11-29T12:00:00Z',
    prompt: 'Apply the change?',
    presentation: { kind: 'confirm' },
    approval: { title: 'write_file a.ts', question: 'Apply?', body: ['-a', '+b'] },
    allowDecline: false,
  };
  const REPORT = {
    correlationId: 'card_r',
    createdAt: '2026-11-29T12:00:00Z',
    prompt: 'Status',
    report: { title: 'S', plans: [{ title: 'Ship', status: 'wip' }] },
    allowDecline: true,
  };
  const ASKED = [
    event('turn_1', 1, { type: 'user_input', text: 'Which plan suits me?' }),
    event('turn_1', 2, { type: 'card', card: RADIO_CARD }),
    event('turn_1', 3, { type: 'done', status: 'interrupted', awaiting: ['card_1'] }),
  ];
  const CLOSED_LATER = [
    ...ASKED,
    event('turn_2', 1, { type: 'user_input', text: 'Pro' }),
    event('turn_2', 2, { type: 'card_closed', correlationId: 'card_1', resolution: 'submitted' }),
    event('turn_2', 3, { type: 'delta', text: 'Pro it is.' }),
    event('turn_2', 4, { type: 'done', status: 'completed' }),
  ];
  const pageOf = (state: ChatStateV1) => parseChatHistoryPage({ turns: historyFromChatState(state), hasMoreEarlier: false });
  const radio = RADIO_CARD as unknown as OpenCardSnapshotV1;

  it('a card a finished turn left waiting shows as open, awaiting, in the turn that asked it', () => {
    expect(pageOf(replay(ASKED))).toStrictEqual({
      ok: true,
      value: {
        turns: [
          { id: 'turn_1', role: 'user', text: 'Which plan suits me?' },
          {
            id: 'turn_1',
            role: 'assistant',
            text: '',
            cards: [{ card: radio, closed: false, resolution: null, awaiting: true }],
            status: 'interrupted',
          },
        ],
        hasMoreEarlier: false,
      },
    });
  });

  it('once a later turn closes it, the card is closed with its resolution in the asking turn, naming the closer; the closing turn holds no card', () => {
    expect(pageOf(replay(CLOSED_LATER))).toStrictEqual({
      ok: true,
      value: {
        turns: [
          { id: 'turn_1', role: 'user', text: 'Which plan suits me?' },
          {
            id: 'turn_1',
            role: 'assistant',
            text: '',
            cards: [{ card: radio, closed: true, resolution: 'submitted', closedInTurn: 'turn_2' }],
            status: 'interrupted',
          },
          { id: 'turn_2', role: 'user', text: 'Pro' },
          { id: 'turn_2', role: 'assistant', text: 'Pro it is.', status: 'completed' },
        ],
        hasMoreEarlier: false,
      },
    });
  });

  it('prompt-only, approval and report cards keep their content and resolution; one left open stays open', () => {
    const state = replay([
      event('turn_1', 1, { type: 'card', card: PROMPT_ONLY }),
      event('turn_1', 2, { type: 'card', card: APPROVAL }),
      event('turn_1', 3, { type: 'card', card: REPORT }),
      event('turn_1', 4, { type: 'card_closed', correlationId: 'card_a', resolution: 'submitted' }),
      event('turn_1', 5, { type: 'card_closed', correlationId: 'card_p', resolution: 'declined' }),
      event('turn_1', 6, { type: 'done', status: 'completed' }),
    ]);
    expect(pageOf(state)).toStrictEqual({
      ok: true,
      value: {
        turns: [
          {
            id: 'turn_1',
            role: 'assistant',
            text: '',
            cards: [
              { card: PROMPT_ONLY, closed: true, resolution: 'declined' },
              { card: APPROVAL, closed: true, resolution: 'submitted' },
              { card: REPORT, closed: false, resolution: null },
            ],
            status: 'completed',
          },
        ],
        hasMoreEarlier: false,
      },
    });
  });

  it("a turn's product events travel in product, as the state holds them (event channel in order, state channel last write); transient ones are not history", () => {
    const scout = createChatCodec({
      events: {
        'scout.products': { schema: z.strictObject({ ids: z.array(z.string()) }), channel: 'state' },
        'scout.highlight': { schema: z.strictObject({ id: z.string() }), channel: 'event' },
        'scout.cart_mutate': { schema: z.strictObject({ id: z.string() }), channel: 'transient' },
      },
    });
    let state = createChatState(CONVERSATION_ID) as Extract<ReturnType<typeof scout.parseChatState>, { ok: true }>['value'];
    for (const envelope of [
      event('turn_1', 1, { type: 'user_input', text: 'Red shoes' }),
      event('turn_1', 2, { type: 'scout.products', data: { ids: ['a'] } }),
      event('turn_1', 3, { type: 'scout.highlight', data: { id: 'a' } }),
      event('turn_1', 4, { type: 'scout.products', data: { ids: ['a', 'b'] } }),
      event('turn_1', 5, { type: 'scout.cart_mutate', data: { id: 'b' } }),
      event('turn_1', 6, { type: 'done', status: 'completed' }),
      event('turn_2', 1, { type: 'user_input', text: 'Thanks' }),
    ]) {
      const parsed = scout.parseChatEnvelope(envelope);
      if (!parsed.ok) throw new Error(parsed.message);
      const applied = scout.applyChatEvent(state, parsed.value);
      if (!applied.ok) throw new Error(applied.message);
      state = applied.state;
    }
    expect(pageOf(state)).toStrictEqual({
      ok: true,
      value: {
        turns: [
          { id: 'turn_1', role: 'user', text: 'Red shoes' },
          {
            id: 'turn_1',
            role: 'assistant',
            text: '',
            status: 'completed',
            product: {
              productEvents: [{ type: 'scout.highlight', data: { id: 'a' } }],
              productState: { 'scout.products': { ids: ['a', 'b'] } },
            },
          },
          { id: 'turn_2', role: 'user', text: 'Thanks' },
          { id: 'turn_2', role: 'assistant', text: '', status: 'running' },
        ],
        hasMoreEarlier: false,
      },
    });
  });

  it.each<[string, Record<string, unknown>, (string | number)[]]>([
    ['a closed card that still awaits', { closed: true, resolution: 'submitted', awaiting: true }, ['turns', 1, 'cards', 0, 'awaiting']],
    [
      'an awaiting card in a running turn',
      { closed: false, resolution: null, awaiting: true, status: 'running' },
      ['turns', 1, 'cards', 0, 'awaiting'],
    ],
    [
      'an open card that names a closing turn',
      { closed: false, resolution: null, closedInTurn: 'turn_2' },
      ['turns', 1, 'cards', 0, 'closedInTurn'],
    ],
    [
      'a card closed by its own turn named as the closer',
      { closed: true, resolution: 'submitted', closedInTurn: 'turn_1' },
      ['turns', 1, 'cards', 0, 'closedInTurn'],
    ],
    [
      'a card closed by a turn earlier in the page',
      { closed: true, resolution: 'submitted', closedInTurn: 'turn_0' },
      ['turns', 1, 'cards', 0, 'closedInTurn'],
    ],
  ])('parseChatHistoryPage refuses %s (invalid-page at the field)', (_label, fields, path) => {
    const { status = 'interrupted', ...card } = fields;
    const turns = [
      { id: 'turn_0', role: 'assistant', text: '', status: 'completed' },
      { id: 'turn_1', role: 'assistant', text: '', cards: [{ card: RADIO_CARD, ...card }], status },
    ];
    const result = parseChatHistoryPage({ turns, hasMoreEarlier: false });
    expect(result).toMatchObject({ ok: false, code: 'invalid-page' });
    expect(result.ok ? undefined : result.issues?.[0]?.path).toEqual(path);
  });

  it('a card closed by a turn on a later page is fine: the closer need not be in the page', () => {
    const turns = [
      {
        id: 'turn_1',
        role: 'assistant',
        text: '',
        cards: [{ card: RADIO_CARD, closed: true, resolution: 'submitted', closedInTurn: 'turn_9' }],
        status: 'interrupted',
      },
    ];
    expect(parseChatHistoryPage({ turns, hasMoreEarlier: true })).toMatchObject({ ok: true });
  });
});
