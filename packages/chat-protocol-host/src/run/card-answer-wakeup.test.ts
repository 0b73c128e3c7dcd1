/**
 * A card answered over HTTP reaches the run waiting on it in the same process
 * at once, even when the answer commits while the run is reading the card
 * (issue 17: a card answered over HTTP; the lost-wakeup race).
 */
import type { InteractionSnapshot } from '@papercusp/chat-protocol-interactions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, cardOf, follow, openTestStore, startHost, startTurn, type Host, type TestStore } from '../loopback-host.testing.js';

let testStore: TestStore;
let host: Host;
// While set, a read of the card that saw it pending is held until the answer committed: the race, made certain.
let holdPendingRead: { readonly seen: () => void; readonly answered: Promise<void> } | undefined;

beforeAll(async () => {
  testStore = await openTestStore();
  const { interactionStore } = testStore.store;
  const store = {
    ...testStore.store,
    interactionStore: {
      transact: interactionStore.transact.bind(interactionStore),
      read: async (request: Parameters<typeof interactionStore.read>[0]): Promise<InteractionSnapshot> => {
        const snapshot = await interactionStore.read(request);
        const hold = holdPendingRead;
        if (hold !== undefined && (snapshot.record as { status?: unknown } | null)?.status === 'pending') {
          holdPendingRead = undefined;
          hold.seen();
          await hold.answered;
        }
        return snapshot;
      },
    },
  };
  // A poll far beyond the test's timeout: only the in-process wakeup can end the wait in time.
  host = await startHost({ ...testStore, store }, {}, { cardPollMs: 600_000 });
}, 60_000);
afterAll(() => testStore.close());

describe('a card answer wakes the waiting run (issue 17)', () => {
  it('an answer that commits between the run reading its card as pending and waiting still wakes the run at once', async () => {
    let seen: () => void = () => undefined;
    const readSeen = new Promise<void>((resolve) => (seen = resolve));
    let answered: () => void = () => undefined;
    holdPendingRead = { seen, answered: new Promise<void>((resolve) => (answered = resolve)) };
    const { turnId } = await startTurn(host, 'c_ana_wakeup', 'refund please');
    const first = await follow(host, 'c_ana_wakeup', turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    await readSeen;
    const answer = await call(host, 'POST', `/v1/conversations/c_ana_wakeup/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: true },
    });
    expect(answer).toEqual({ status: 200, body: { correlationId, status: 'submitted' } });
    answered();
    const rest = await follow(host, 'c_ana_wakeup', turnId);
    expect(rest.envelopes.at(-1)?.event).toEqual({
      type: 'done',
      status: 'completed',
      stopReason: 'end_turn',
      usage: { inputTokens: 120, outputTokens: 48, totalTokens: 168 },
    });
    expect(rest.state?.turns[0]?.text.endsWith('Ticket closed.')).toBe(true);
  }, 20_000);
});
