import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONVERSATION_ID, envelopeOf, RADIO_CARD } from '../../test/envelopes.js';
import { applyChatEvent, type ApplyChatEventResult } from './apply-chat-event.js';
import type { ChatEventEnvelope } from '../envelope/envelope.js';
import { CHAT_LIMITS } from '../primitives/limits.js';
import { parseChatEnvelope } from '../envelope/parse-chat-envelope.js';
import { createChatState, parseChatState, type ChatStateV1 } from './state.js';

// DESIGN §3.3 "Cards that outlive their turn" (issue 13): a turn's `done` may
// list in `awaiting` the open cards it leaves waiting for the person; a later
// turn of the conversation closes such a card with its own `card_closed`.

/** Envelope `seq` of turn `turn` (`turn_<n>`), with a unique event id and a growing time. */
const of = (turn: number, seq: number, event: unknown): ChatEventEnvelope =>
  envelopeOf(event, {
    turnId: `turn_${turn}`,
    eventId: `evt_${turn}_${seq}`,
    seq,
    occurredAt: `2026-11-29T12:${String(turn).padStart(2, '0')}:${String(seq).padStart(2, '0')}.000Z`,
  });

const card = (correlationId: string) => ({ type: 'card', card: { ...RADIO_CARD, correlationId } });
const closed = (correlationId: string, resolution = 'submitted') => ({ type: 'card_closed', correlationId, resolution });
const done = (awaiting?: readonly string[]) => ({ type: 'done', status: 'completed', ...(awaiting === undefined ? {} : { awaiting }) });

function replay(envelopes: readonly ChatEventEnvelope[], state: ChatStateV1 = createChatState(CONVERSATION_ID)): ChatStateV1 {
  return envelopes.reduce((current, envelope) => {
    const result = applyChatEvent(current, envelope);
    if (!result.ok || result.outcome !== 'applied') throw new Error(`${envelope.turnId}:${envelope.seq}: ${JSON.stringify(result)}`);
    return result.state;
  }, state);
}

const codeOf = (result: ApplyChatEventResult) => (result.ok ? result.outcome : result.code);

// Turn 1 asks card_a and ends waiting for it; turn 2 starts.
const ASKED = [
  of(1, 1, { type: 'delta', text: 'Which plan?' }),
  of(1, 2, card('card_a')),
  of(1, 3, done(['card_a'])),
  of(2, 1, { type: 'delta', text: 'Noted.' }),
];

describe('done.awaiting: a turn ends waiting for the person (DESIGN §3.3, issue 13)', () => {
  it('parses done.awaiting: one to CHAT_LIMITS.maxAwaitingCards correlation ids, none twice', () => {
    const parse = (awaiting: unknown) => parseChatEnvelope(envelopeOf({ type: 'done', status: 'interrupted', awaiting }));
    expect(parse(['card_a', 'card_b'])).toMatchObject({
      ok: true,
      value: { event: { type: 'done', status: 'interrupted', awaiting: ['card_a', 'card_b'] } },
    });
    expect(parse(['card_a', 'card_a'])).toMatchObject({ ok: false, code: 'invalid-event', issues: [{ path: ['event', 'awaiting'] }] });
    expect(parse([])).toMatchObject({ ok: false, code: 'invalid-event', issues: [{ path: ['event', 'awaiting'] }] });
    expect(parse(['has space'])).toMatchObject({ ok: false, code: 'invalid-event', issues: [{ path: ['event', 'awaiting', 0] }] });
    expect(parse(Array.from({ length: CHAT_LIMITS.maxAwaitingCards }, (_, index) => `card_${index}`))).toMatchObject({ ok: true });
    expect(parse(Array.from({ length: CHAT_LIMITS.maxAwaitingCards + 1 }, (_, index) => `card_${index}`))).toMatchObject({
      ok: false,
      code: 'invalid-event',
    });
  });

  it('keeps the named card open past the turn, marked awaiting; other fields of done as they were', () => {
    const state = replay(ASKED.slice(0, 3));
    expect(state.turns[0]).toMatchObject({ status: 'completed', stopReason: null, usage: null });
    expect(state.turns[0]?.cards).toStrictEqual([
      { card: { ...RADIO_CARD, correlationId: 'card_a' }, closed: false, resolution: null, awaiting: true },
    ]);
  });

  it('leaves cards it does not name as they are: open, not awaiting', () => {
    const state = replay([of(1, 1, card('card_a')), of(1, 2, card('card_b')), of(1, 3, done(['card_b']))]);
    expect(state.turns[0]?.cards.map(({ closed: isClosed, awaiting }) => ({ isClosed, awaiting }))).toStrictEqual([
      { isClosed: false, awaiting: undefined },
      { isClosed: false, awaiting: true },
    ]);
  });

  it('refuses to await a card the turn did not ask (unknown-card) or one already closed (card-closed)', () => {
    const asked = replay([of(1, 1, card('card_a'))]);
    expect(codeOf(applyChatEvent(asked, of(1, 2, done(['card_b']))))).toBe('unknown-card');
    const answered = replay([of(1, 2, closed('card_a'))], asked);
    expect(codeOf(applyChatEvent(answered, of(1, 3, done(['card_a']))))).toBe('card-closed');
    // A card asked in another turn is not this turn's to await.
    const other = replay([of(2, 1, { type: 'delta', text: '' })], asked);
    expect(codeOf(applyChatEvent(other, of(2, 2, done(['card_a']))))).toBe('unknown-card');
  });
});

describe('a later turn closes a card its finished turn left waiting (DESIGN §3.3, issue 13)', () => {
  it('card_closed in turn 2 resolves turn 1’s card: closed, its resolution, closedInTurn; turn 1 stays completed', () => {
    const before = replay(ASKED);
    const state = replay([of(2, 2, closed('card_a', 'declined'))], before);
    expect(state.turns[0]).toMatchObject({ turnId: 'turn_1', status: 'completed', lastSeq: 3 });
    expect(state.turns[0]?.cards).toStrictEqual([
      { card: { ...RADIO_CARD, correlationId: 'card_a' }, closed: true, resolution: 'declined', closedInTurn: 'turn_2' },
    ]);
    // The closing turn records the event in its log, nothing else.
    expect(state.turns[1]).toMatchObject({ turnId: 'turn_2', status: 'running', lastSeq: 2, cards: [], text: 'Noted.' });
    // The input state is untouched.
    expect(before.turns[0]?.cards[0]).toMatchObject({ closed: false, awaiting: true });
  });

  it('a card_closed without a resolution closes it as not reported (resolution null)', () => {
    const state = replay([of(2, 2, { type: 'card_closed', correlationId: 'card_a' })], replay(ASKED));
    expect(state.turns[0]?.cards[0]).toMatchObject({ closed: true, resolution: null, closedInTurn: 'turn_2' });
  });

  it('an id no turn asked is still unknown-card', () => {
    expect(codeOf(applyChatEvent(replay(ASKED), of(2, 2, closed('card_zzz'))))).toBe('unknown-card');
  });

  it('a card its turn did not leave waiting cannot be closed from another turn: card-not-awaiting', () => {
    // Ended without naming it in done.awaiting.
    const abandoned = replay([of(1, 1, card('card_a')), of(1, 2, done()), of(2, 1, { type: 'delta', text: '' })]);
    expect(codeOf(applyChatEvent(abandoned, of(2, 2, closed('card_a'))))).toBe('card-not-awaiting');
    // Its turn is still running: that turn closes it itself.
    const running = replay([of(1, 1, card('card_a')), of(2, 1, { type: 'delta', text: '' })]);
    expect(codeOf(applyChatEvent(running, of(2, 2, closed('card_a'))))).toBe('card-not-awaiting');
  });

  it('only a later turn closes it: a turn that began before the waiting one is card-not-awaiting', () => {
    const state = replay([of(1, 1, { type: 'delta', text: '' }), of(2, 1, card('card_a')), of(2, 2, done(['card_a']))]);
    expect(codeOf(applyChatEvent(state, of(1, 2, closed('card_a'))))).toBe('card-not-awaiting');
    expect(codeOf(applyChatEvent(state, of(3, 1, closed('card_a'))))).toBe('applied');
  });

  it('a card closed once cannot be closed again from a third turn: card-closed', () => {
    const state = replay([of(2, 2, closed('card_a')), of(3, 1, { type: 'delta', text: '' })], replay(ASKED));
    expect(codeOf(applyChatEvent(state, of(3, 2, closed('card_a', 'cancelled'))))).toBe('card-closed');
  });

  it('a turn’s own card comes first: the same id asked again after the wait closed is that turn’s', () => {
    const state = replay([of(2, 2, closed('card_a')), of(3, 1, card('card_a')), of(3, 2, closed('card_a', 'expired'))], replay(ASKED));
    expect(state.turns[0]?.cards[0]).toMatchObject({ resolution: 'submitted', closedInTurn: 'turn_2' });
    expect(state.turns[2]?.cards).toStrictEqual([
      { card: { ...RADIO_CARD, correlationId: 'card_a' }, closed: true, resolution: 'expired' },
    ]);
  });

  it('the asking turn itself cannot close it after its done: turn-terminal, terminal turns stay terminal', () => {
    expect(codeOf(applyChatEvent(replay(ASKED), of(1, 4, closed('card_a'))))).toBe('turn-terminal');
  });

  it('a waiting card’s id cannot be asked again until it closes: duplicate-card', () => {
    expect(codeOf(applyChatEvent(replay(ASKED), of(2, 2, card('card_a'))))).toBe('duplicate-card');
  });

  it('keeps idempotency: the closing envelope again is duplicate, the same seq with other content conflicting-duplicate', () => {
    const closing = of(2, 2, closed('card_a'));
    const state = replay([closing], replay(ASKED));
    expect(applyChatEvent(state, JSON.parse(JSON.stringify(closing)) as ChatEventEnvelope)).toStrictEqual({
      ok: true,
      state,
      outcome: 'duplicate',
    });
    expect(codeOf(applyChatEvent(state, of(2, 2, closed('card_a', 'declined'))))).toBe('conflicting-duplicate');
  });

  it('a snapshot restored with parseChatState continues byte-identically, and a branch from an older state sees only its own past', () => {
    const all = [...ASKED, of(2, 2, closed('card_a')), of(2, 3, done())];
    const straight = replay(all);
    for (let cut = 0; cut <= all.length; cut++) {
      const snapshot = parseChatState(JSON.stringify(replay(all.slice(0, cut))));
      if (!snapshot.ok) throw new Error(snapshot.message);
      expect(JSON.stringify(replay(all.slice(cut), snapshot.value))).toBe(JSON.stringify(straight));
    }
    // Branch: apply to the state before the close, after a newer state closed it.
    const older = replay(ASKED);
    replay([of(2, 2, closed('card_a'))], older);
    expect(codeOf(applyChatEvent(older, of(2, 2, closed('card_a', 'declined'))))).toBe('applied');
    expect(codeOf(applyChatEvent(replay(ASKED.slice(0, 2)), of(2, 1, closed('card_a'))))).toBe('card-not-awaiting');
  });

  it('for any number of turns in between, the answer lands on the asking turn (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 30 }),
        fc.constantFrom('submitted', 'declined', 'cancelled', 'expired', 'interrupted'),
        (between, resolution) => {
          const middle = Array.from({ length: between }, (_, index) => [
            of(index + 2, 1, { type: 'delta', text: 'x' }),
            of(index + 2, 2, done()),
          ]).flat();
          const state = replay([...ASKED.slice(0, 3), ...middle, of(between + 2, 1, closed('card_a', resolution))]);
          expect(state.turns[0]?.cards[0]).toStrictEqual({
            card: { ...RADIO_CARD, correlationId: 'card_a' },
            closed: true,
            resolution,
            closedInTurn: `turn_${between + 2}`,
          });
        },
      ),
    );
  });
});

describe('parseChatState holds the waiting-card fields to what the reducer writes (DESIGN §3.5, issue 13)', () => {
  const waiting = JSON.parse(JSON.stringify(replay(ASKED))) as ChatStateV1;
  const resolved = JSON.parse(JSON.stringify(replay([of(2, 2, closed('card_a'))], replay(ASKED)))) as ChatStateV1;
  const edit = (state: ChatStateV1, change: (copy: { turns: { status: string; cards: Record<string, unknown>[] }[] }) => void) => {
    const copy = JSON.parse(JSON.stringify(state)) as { turns: { status: string; cards: Record<string, unknown>[] }[] };
    change(copy);
    return parseChatState(copy);
  };

  it('reads the reducer’s own snapshots', () => {
    expect(parseChatState(waiting)).toMatchObject({ ok: true });
    expect(parseChatState(resolved)).toMatchObject({ ok: true });
  });

  it.each([
    [
      'awaiting on a closed card',
      (copy: Parameters<Parameters<typeof edit>[1]>[0]) =>
        Object.assign(copy.turns[0]!.cards[0]!, { closed: true, resolution: 'submitted' }),
      ['turns', 0, 'cards', 0, 'awaiting'],
    ],
    [
      'awaiting in a running turn',
      (copy: Parameters<Parameters<typeof edit>[1]>[0]) => Object.assign(copy.turns[0]!, { status: 'running' }),
      ['turns', 0, 'cards', 0, 'awaiting'],
    ],
    [
      'awaiting in a failed turn',
      (copy: Parameters<Parameters<typeof edit>[1]>[0]) =>
        Object.assign(copy.turns[0]!, {
          status: 'failed',
          stopReason: null,
          error: { code: 'x', message: 'm', retryable: false, retryAfterMs: null },
        }),
      ['turns', 0, 'cards', 0, 'awaiting'],
    ],
    [
      'awaiting other than true',
      (copy: Parameters<Parameters<typeof edit>[1]>[0]) => Object.assign(copy.turns[0]!.cards[0]!, { awaiting: false }),
      ['turns', 0, 'cards', 0, 'awaiting'],
    ],
  ] as const)('refuses %s as invalid-state', (_, change, path) => {
    expect(edit(waiting, change)).toMatchObject({ ok: false, code: 'invalid-state', issues: [{ path }] });
  });

  it.each([
    [
      'closedInTurn on an open card',
      (copy: Parameters<Parameters<typeof edit>[1]>[0]) => Object.assign(copy.turns[0]!.cards[0]!, { closed: false, resolution: null }),
    ],
    [
      'closedInTurn naming no turn of the state',
      (copy: Parameters<Parameters<typeof edit>[1]>[0]) => Object.assign(copy.turns[0]!.cards[0]!, { closedInTurn: 'turn_9' }),
    ],
    [
      'closedInTurn naming its own turn',
      (copy: Parameters<Parameters<typeof edit>[1]>[0]) => Object.assign(copy.turns[0]!.cards[0]!, { closedInTurn: 'turn_1' }),
    ],
  ] as const)('refuses %s as invalid-state', (_, change) => {
    expect(edit(resolved, change)).toMatchObject({
      ok: false,
      code: 'invalid-state',
      issues: [{ path: ['turns', 0, 'cards', 0, 'closedInTurn'] }],
    });
  });

  it('refuses one correlation id waiting in two turns as invalid-state', () => {
    const twice = replay([of(1, 1, card('card_a')), of(1, 2, done(['card_a']))]);
    const copy = JSON.parse(JSON.stringify(twice)) as ChatStateV1;
    const second = {
      ...JSON.parse(JSON.stringify(copy.turns[0])),
      turnId: 'turn_2',
      eventLog: copy.turns[0]!.eventLog.replace(/evt_1_/g, 'evt_2_'),
    };
    expect(parseChatState({ ...copy, turns: [copy.turns[0], second] })).toMatchObject({
      ok: false,
      code: 'invalid-state',
      issues: [{ path: ['turns', 1, 'cards', 0, 'awaiting'], message: 'card card_a already awaits in another turn' }],
    });
  });
});
