import type { OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionAuthority, InteractionStore } from '@papercusp/chat-protocol-interactions';
import { describe, expect, it } from 'vitest';
import { createFakeDatabase, createFakeInteractionStore } from './index.js';
import { describeInteractionStoreConformance, interactionStoreChecks, type InteractionStoreHarness } from './vitest.js';

function fakeHarness(): InteractionStoreHarness {
  const database = createFakeDatabase();
  return {
    connect: () => createFakeInteractionStore(database),
    grant: (conversationId, caller, authority) => createFakeInteractionStore(database).setAuthority(conversationId, caller, authority),
  };
}

// The fake store keeps the contract: every check passes, races at the 1,000 interleavings.
describeInteractionStoreConformance('the testkit fake store', fakeHarness, { numRuns: 1000 });

/** One I/O round trip of a host store: other work runs meanwhile. */
const roundTrip = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A host store over plain maps; `transact` is what each broken variant gets wrong. */
function brokenHarness(
  transact: (
    rows: Map<string, unknown>,
    read: (request: { conversationId: string; correlationId: string; caller: string }) => Promise<{ record: unknown; authority: InteractionAuthority | null }>,
  ) => InteractionStore<OpenCardSnapshotV1, string>['transact'],
  perConnection = false,
): InteractionStoreHarness {
  const rows = new Map<string, unknown>();
  const authorities = new Map<string, InteractionAuthority>();
  const read = async (request: { conversationId: string; correlationId: string; caller: string }) => {
    await roundTrip();
    return {
      record: structuredClone(rows.get(`${request.conversationId}/${request.correlationId}`) ?? null),
      authority: authorities.get(`${request.conversationId}/${request.caller}`) ?? null,
    };
  };
  const shared = transact(rows, read);
  return {
    connect: () => ({ read, transact: perConnection ? transact(rows, read) : shared }),
    grant: (conversationId, caller, authority) => {
      if (authority === null) authorities.delete(`${conversationId}/${caller}`);
      else authorities.set(`${conversationId}/${caller}`, authority);
    },
  };
}

// A read, then an unconditional update: two answers can both read "pending" and both write.
const readThenUpdate = () =>
  brokenHarness((rows, read) => async (request, decide) => {
    const decision = decide(await read(request));
    if ('next' in decision) {
      await roundTrip();
      rows.set(`${request.conversationId}/${request.correlationId}`, structuredClone(decision.next));
    }
    return decision.result;
  });

// A lock held in this process: it serializes one worker's calls, not two workers'.
const inProcessLock = () =>
  brokenHarness((rows, read) => {
    let lock: Promise<unknown> = Promise.resolve();
    return (request, decide) => {
      const run = lock.then(async () => {
        const decision = decide(await read(request));
        if ('next' in decision) {
          await roundTrip();
          rows.set(`${request.conversationId}/${request.correlationId}`, structuredClone(decision.next));
        }
        return decision.result;
      });
      lock = run.catch(() => undefined);
      return run;
    };
  }, true);

const RACES = [
  'two workers answering one card at once: exactly one terminal record, every success saw it',
  'an answer racing cancellation: exactly one of them closes the card',
];

describe('the interaction conformance suite catches broken stores (issue 7)', () => {
  it.each([
    ['a read followed by an unconditional update', readThenUpdate],
    ['an in-process lock instead of a store fence', inProcessLock],
  ])('fails %s on both races, passes it on the single-worker checks', async (_, createHarness) => {
    const verdicts: Record<string, readonly string[]> = {};
    for (const check of interactionStoreChecks({ numRuns: 200 })) verdicts[check.name] = await check.run(createHarness());
    for (const race of RACES) expect(verdicts[race]).not.toEqual([]);
    const others = Object.entries(verdicts).filter(([name]) => !RACES.includes(name));
    expect(others.map(([name, failures]) => [name, failures])).toEqual(others.map(([name]) => [name, []]));
  });
});
