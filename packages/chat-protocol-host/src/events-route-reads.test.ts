/**
 * How often the events route reads the event log before its first byte
 * (issue 25): once, the transport's window read after it subscribed (DESIGN
 * §10). The route itself reads only the turn's record. Counted in process
 * through a wrapper around the store's `eventLog`.
 */
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, cardOf, follow, openTestStore, startHost, startTurn, type LoopbackHost, type TestStore } from './loopback-host.testing.js';

let testStore: TestStore;
let host: LoopbackHost;
let windowReads = 0;

beforeAll(async () => {
  testStore = await openTestStore();
  const log = testStore.store.eventLog;
  const counting: ChatEventLog = {
    append: (envelope) => log.append(envelope),
    subscribe: (request, onEnvelope, onEnd) => log.subscribe(request, onEnvelope, onEnd),
    pruneTurns: (request) => log.pruneTurns(request),
    replayWindow: (request) => {
      windowReads += 1;
      return log.replayWindow(request);
    },
  };
  host = await startHost({ ...testStore, store: { ...testStore.store, eventLog: counting } });
}, 60_000);
afterAll(() => testStore.close());

// The event log reads from the request until the first byte of the answer's body (or its end, when it has none).
async function readsBeforeFirstByte(path: string, headers: Record<string, string> = {}): Promise<{ status: number; reads: number }> {
  const request = new Request(`${host.base}${path}`, { headers: { ...auth('token-ana'), ...headers } });
  windowReads = 0;
  const response = await host.handler(request);
  const reader = response.body?.getReader();
  await reader?.read();
  const reads = windowReads;
  await reader?.cancel();
  return { status: response.status, reads };
}

describe('the events route reads the event log once before its first byte (issue 25)', () => {
  it('a finished turn from its start, and resumed from a cursor inside it: one window read', async () => {
    const { turnId } = await startTurn(host, 'c_ana_reads', 'fail now');
    const { envelopes } = await follow(host, 'c_ana_reads', turnId);
    const events = `/v1/conversations/c_ana_reads/turns/${turnId}/events`;
    expect(await readsBeforeFirstByte(events)).toEqual({ status: 200, reads: 1 });
    expect(await readsBeforeFirstByte(events, { 'last-event-id': `${turnId}:2` })).toEqual({ status: 200, reads: 1 });
    expect(await readsBeforeFirstByte(`${events}?format=ag-ui`)).toEqual({ status: 200, reads: 1 });
    // At the end of a finished turn the subscription has already ended as terminal: 204 on the same one read.
    const last = envelopes.at(-1)?.seq ?? 0;
    expect(await readsBeforeFirstByte(events, { 'last-event-id': `${turnId}:${last}` })).toEqual({ status: 204, reads: 1 });
  });

  it('a running turn waiting for a card, from its start and from its latest frame: one window read', async () => {
    const { turnId } = await startTurn(host, 'c_ana_reads_card', 'cards please');
    const { envelopes } = await follow(host, 'c_ana_reads_card', turnId, (envelope) => envelope.event.type === 'card');
    expect(cardOf(envelopes)).toBeTypeOf('string');
    const events = `/v1/conversations/c_ana_reads_card/turns/${turnId}/events`;
    expect(await readsBeforeFirstByte(events)).toEqual({ status: 200, reads: 1 });
    // At the latest seq of a running turn: the same read holds that frame, which tells the transport the turn goes on.
    const latest = envelopes.at(-1)?.seq ?? 0;
    expect(await readsBeforeFirstByte(events, { 'last-event-id': `${turnId}:${latest}` })).toEqual({ status: 200, reads: 1 });
  });
});
