/**
 * `POST /cards/:correlationId` against a card that already has its answer
 * (issue 24, DESIGN §7.5 and §11), over loopback on PGlite: the same answer
 * sent again is a replay of the stored resolution, any other answer is a typed
 * `409 already-closed` with that resolution, and another tenant still gets the
 * not-found answer a missing card gets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, cardOf, follow, openTestStore, startHost, startTurn, type Host, type TestStore } from './loopback-host.testing.js';

let testStore: TestStore;
let host: Host;
beforeAll(async () => {
  testStore = await openTestStore();
  host = await startHost(testStore);
}, 60_000);
afterAll(() => testStore.close());

const NOT_FOUND = { status: 404, body: { code: 'not-found', message: 'no such conversation, turn or card' } };

/** Starts the scripted refund turn in `conversationId` and waits for its card. */
async function openCard(
  conversationId: string,
): Promise<{ readonly turnId: string; readonly correlationId: string; readonly path: string }> {
  const { turnId } = await startTurn(host, conversationId, 'refund please');
  const correlationId = cardOf((await follow(host, conversationId, turnId, (envelope) => envelope.event.type === 'card')).envelopes);
  return { turnId, correlationId, path: `/v1/conversations/${conversationId}/cards/${correlationId}` };
}

describe('a card answered twice (issue 24, DESIGN §7.5, §11)', () => {
  it('§7.5 the same answer resent is 200 with the stored resolution and replayed: true, in any key order; the turn takes it once', async () => {
    const { turnId, correlationId, path } = await openCard('c_ana_replay');
    const answer = { action: 'submit', correlationId, value: { confirmed: true } };
    expect(await call(host, 'POST', path, 'token-ana', answer)).toEqual({ status: 200, body: { correlationId, status: 'submitted' } });
    const replayed = { status: 200, body: { correlationId, status: 'submitted', replayed: true } };
    expect(await call(host, 'POST', path, 'token-ana', answer)).toEqual(replayed);
    // A retry is the same answer however its JSON was written.
    expect(await call(host, 'POST', path, 'token-ana', { value: { confirmed: true }, correlationId, action: 'submit' })).toEqual(replayed);
    const all = await follow(host, 'c_ana_replay', turnId);
    expect(all.envelopes.filter((envelope) => envelope.event.type === 'card_closed').map((envelope) => envelope.event)).toEqual([
      { type: 'card_closed', correlationId, resolution: 'submitted' },
    ]);
    expect(all.state?.turns[0]?.text.endsWith('Ticket closed.')).toBe(true);
  });

  it('§7.5 a different answer to a closed card is 409 already-closed with the stored status; the stored answer stands', async () => {
    const { turnId, correlationId, path } = await openCard('c_ana_closed');
    expect(await call(host, 'POST', path, 'token-ana', { action: 'submit', correlationId, value: { confirmed: true } })).toEqual({
      status: 200,
      body: { correlationId, status: 'submitted' },
    });
    const alreadyClosed = {
      status: 409,
      body: { code: 'already-closed', message: 'the card was already submitted', correlationId, status: 'submitted' },
    };
    expect(await call(host, 'POST', path, 'token-ana', { action: 'submit', correlationId, value: { confirmed: false } })).toEqual(
      alreadyClosed,
    );
    expect(await call(host, 'POST', path, 'token-ana', { action: 'decline', correlationId })).toEqual(alreadyClosed);
    expect(await call(host, 'POST', path, 'token-ana', { action: 'cancel', correlationId })).toEqual(alreadyClosed);
    expect((await follow(host, 'c_ana_closed', turnId)).state?.turns[0]?.text.endsWith('Ticket closed.')).toBe(true);
  });

  it('§7.5 a decline resent with its reason is replayed; with another reason, or as a submit, it is already-closed', async () => {
    const { turnId, correlationId, path } = await openCard('c_ana_declined');
    const decline = { action: 'decline', correlationId, reason: 'Not now' };
    expect(await call(host, 'POST', path, 'token-ana', decline)).toEqual({ status: 200, body: { correlationId, status: 'declined' } });
    expect(await call(host, 'POST', path, 'token-ana', decline)).toEqual({
      status: 200,
      body: { correlationId, status: 'declined', replayed: true },
    });
    const alreadyClosed = {
      status: 409,
      body: { code: 'already-closed', message: 'the card was already declined', correlationId, status: 'declined' },
    };
    expect(await call(host, 'POST', path, 'token-ana', { ...decline, reason: 'Later' })).toEqual(alreadyClosed);
    expect(await call(host, 'POST', path, 'token-ana', { action: 'decline', correlationId })).toEqual(alreadyClosed);
    expect(await call(host, 'POST', path, 'token-ana', { action: 'submit', correlationId, value: { confirmed: true } })).toEqual(
      alreadyClosed,
    );
    expect((await follow(host, 'c_ana_declined', turnId)).state?.turns[0]?.text.endsWith('Ticket left open.')).toBe(true);
  });

  it('§11 another tenant resending the answer, or another one, to a closed card gets the missing card’s 404', async () => {
    const { correlationId, path } = await openCard('c_ana_replay_foreign');
    const answer = { action: 'submit', correlationId, value: { confirmed: true } };
    expect((await call(host, 'POST', path, 'token-ana', answer)).status).toBe(200);
    expect(await call(host, 'POST', path, 'token-bob', answer)).toEqual(NOT_FOUND);
    expect(await call(host, 'POST', path, 'token-bob', { action: 'decline', correlationId })).toEqual(NOT_FOUND);
    const missing = '/v1/conversations/c_ana_replay_foreign/cards/card_missing';
    expect(await call(host, 'POST', missing, 'token-bob', { ...answer, correlationId: 'card_missing' })).toEqual(NOT_FOUND);
    expect(await call(host, 'POST', missing, 'token-ana', { ...answer, correlationId: 'card_missing' })).toEqual(NOT_FOUND);
  });
});
