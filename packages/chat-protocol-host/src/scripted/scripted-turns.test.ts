/**
 * The scripted agent's turns through a real host over loopback on PGlite
 * (issue 17: the scripted agent exercises every v1 event type, report and ask
 * blocks streamed in small deltas, a card of each base kind, a failed turn
 * with retry permission).
 */
import { parseAskTag, parseReportTag } from '@papercusp/chat-protocol-blocks';
import { CARD_KINDS, CHAT_EVENT_TYPES_V1 } from '@papercusp/chat-protocol-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, cardOf, follow, openTestStore, startHost, startTurn, type Host, type TestStore } from '../loopback-host.testing.js';
import { SCRIPTED_TOUR_CARDS } from './scripted-card-turn.js';

let testStore: TestStore;
let host: Host;
beforeAll(async () => {
  testStore = await openTestStore();
  host = await startHost(testStore, { deltaLength: 6 });
}, 60_000);
afterAll(() => testStore.close());

describe('the scripted turns over loopback (issue 17)', () => {
  it('§3.3 the default turn holds every v1 event type but error, provenance first, and the fail turn holds a retryable error', async () => {
    const { turnId } = await startTurn(host, 'c_ana_every_type', 'refund please');
    const first = await follow(host, 'c_ana_every_type', turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    await call(host, 'POST', `/v1/conversations/c_ana_every_type/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: true },
    });
    const all = await follow(host, 'c_ana_every_type', turnId);
    const events = all.envelopes.map((envelope) => envelope.event);
    const types = new Set(events.map((event) => event.type));
    const expected = [
      'user_input',
      'delta',
      'reasoning',
      'tool_call',
      'tool_result',
      'provenance',
      'card',
      'card_closed',
      'state',
      'navigate',
      'done',
    ];
    expect(types).toEqual(new Set(expected));
    expect(new Set([...expected, 'error'])).toEqual(new Set(CHAT_EVENT_TYPES_V1));
    expect(events[1]).toEqual({ type: 'provenance', engine: 'scripted', model: 'scripted-refund-1' });
    expect(events.filter((event) => event.type === 'state' || event.type === 'navigate')).toEqual([
      { type: 'state', version: 1, snapshot: { orderId: '1042', refund: 'issued', ticket: 'open' } },
      { type: 'navigate', href: '/orders/1042' },
    ]);
    expect(events.at(-1)).toEqual({
      type: 'done',
      status: 'completed',
      stopReason: 'end_turn',
      usage: { inputTokens: 120, outputTokens: 48, totalTokens: 168 },
    });
    // The report and ask blocks arrive in deltas of at most 6 characters and parse back from the turn's text.
    expect(events.every((event) => event.type !== 'delta' || event.text.length <= 6)).toBe(true);
    const text = all.state?.turns[0]?.text ?? '';
    expect(parseReportTag(text)?.title).toBe('Refund');
    expect(parseAskTag(text)).toEqual({
      question: 'Anything else about order 1042?',
      options: [
        { id: 'receipt', label: 'Email me the receipt' },
        { id: 'nothing', label: 'No, thanks' },
      ],
    });
    expect(all.state?.turns[0]?.hostState).toEqual({ version: 1, snapshot: { orderId: '1042', refund: 'issued', ticket: 'open' } });

    const failed = await startTurn(host, 'c_ana_every_type', 'fail now');
    const failure = await follow(host, 'c_ana_every_type', failed.turnId);
    expect(failure.envelopes.at(-1)?.event).toEqual({
      type: 'error',
      code: 'provider-unavailable',
      message: 'the scripted provider is down',
      retryable: true,
      retryAfterMs: 1000,
    });
  });

  it('issue 17: a text starting with cards asks one card of each base kind in turn, answered over HTTP, and says what was chosen', async () => {
    expect(SCRIPTED_TOUR_CARDS.map((card) => card.presentation.kind)).toEqual([...CARD_KINDS]);
    const answers: Record<string, unknown> = {
      text: { text: 'Leave it at the door' },
      radio: { optionId: 'phone' },
      select: { optionId: 'express' },
      checkbox: { optionIds: ['receipt', 'survey'] },
      confirm: { confirmed: true },
      date: { date: '2026-12-24' },
    };
    const { turnId } = await startTurn(host, 'c_ana_card_tour', 'cards please');
    const seen: string[] = [];
    for (let index = 0; index < CARD_KINDS.length; index += 1) {
      const next = await follow(
        host,
        'c_ana_card_tour',
        turnId,
        (envelope) => envelope.event.type === 'card' && !seen.includes(envelope.event.card.correlationId),
      );
      const card = next.envelopes.filter((envelope) => envelope.event.type === 'card').at(-1)?.event;
      if (card?.type !== 'card') throw new Error('no card');
      const { correlationId, presentation } = card.card;
      seen.push(correlationId);
      expect(presentation?.kind).toBe(CARD_KINDS[index]);
      const kind = presentation?.kind ?? '';
      // The slider card is declined: a closing that is not a submit is reported too.
      const body = kind === 'slider' ? { action: 'decline', correlationId } : { action: 'submit', correlationId, value: answers[kind] };
      const answered = await call(host, 'POST', `/v1/conversations/c_ana_card_tour/cards/${correlationId}`, 'token-ana', body);
      expect(answered).toEqual({ status: 200, body: { correlationId, status: kind === 'slider' ? 'declined' : 'submitted' } });
    }
    const all = await follow(host, 'c_ana_card_tour', turnId);
    const closed = all.envelopes.flatMap((envelope) => (envelope.event.type === 'card_closed' ? [envelope.event] : []));
    expect(closed).toEqual(
      seen.map((correlationId, index) => ({
        type: 'card_closed',
        correlationId,
        resolution: CARD_KINDS[index] === 'slider' ? 'declined' : 'submitted',
      })),
    );
    expect(all.state?.turns[0]?.status).toBe('completed');
    expect(all.state?.turns[0]?.text).toBe(
      'One question of each kind. You chose: text "Leave it at the door"; radio phone; select express; checkbox receipt+survey; confirm yes; date 2026-12-24; slider declined.',
    );
    expect(host.effects).not.toContain(turnId);
  });

  it('issue 17: the card tour reports a submitted slider value', async () => {
    const { turnId } = await startTurn(host, 'c_ana_card_slider', 'cards');
    const seen: string[] = [];
    for (const kind of CARD_KINDS) {
      const next = await follow(
        host,
        'c_ana_card_slider',
        turnId,
        (envelope) => envelope.event.type === 'card' && !seen.includes(envelope.event.card.correlationId),
      );
      const correlationId = next.envelopes
        .flatMap((envelope) => (envelope.event.type === 'card' ? [envelope.event.card.correlationId] : []))
        .at(-1);
      if (correlationId === undefined) throw new Error('no card');
      seen.push(correlationId);
      const body = kind === 'slider' ? { action: 'submit', correlationId, value: { value: 4 } } : { action: 'decline', correlationId };
      expect((await call(host, 'POST', `/v1/conversations/c_ana_card_slider/cards/${correlationId}`, 'token-ana', body)).status).toBe(200);
    }
    const all = await follow(host, 'c_ana_card_slider', turnId);
    expect(all.state?.turns[0]?.text).toBe(
      'One question of each kind. You chose: text declined; radio declined; select declined; checkbox declined; confirm declined; date declined; slider 4.',
    );
  });
});
