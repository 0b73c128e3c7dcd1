import { describe, expect, it } from 'vitest';
import { runs } from '../../../test-support/property-runs.js';
import { createFakeDatabase } from './index.js';
import { createFlawedFakeChatEventLog, type FakeChatEventLogFlaw } from './fake-chat-event-log.js';
import { chatEventLogChecks, describeChatEventLogConformance, type ChatEventLogHarness } from './vitest.js';

function harness(flaw: FakeChatEventLogFlaw | null = null): ChatEventLogHarness {
  const database = createFakeDatabase();
  return { connect: () => createFlawedFakeChatEventLog(database, flaw) };
}

// The fake keeps the contract: every check passes (DESIGN §9.3).
describeChatEventLogConformance('the testkit fake event log', () => harness(), { numRuns: runs(100) });

// Each flaw breaks one rule of §9.3; the check named for that rule must catch it.
const CAUGHT_BY: readonly (readonly [FakeChatEventLogFlaw, string])[] = [
  ['no-contiguity', 'append keeps a turn contiguous'],
  ['redelivery-conflicts', 'an identical redelivery is duplicate'],
  ['conflict-is-duplicate', 'conflicts are refused conflicting-duplicate'],
  ['seq-overwritten', 'conflicts are refused conflicting-duplicate'],
  ['ignores-conversation', 'a turn belongs to one conversation'],
  ['appends-after-terminal', 'nothing is appended after done or error'],
  ['torn-window', 'replay windows never tear under concurrent appends'],
  ['subscribes-late', 'subscribe, then replay'],
  ['delivers-twice', 'subscribe delivers every frame after the cursor'],
  ['unsubscribes-late', 'unsubscribe stops delivery at once'],
  ['ends-silently', 'a subscription ends terminal right after the terminal frame'],
  ['ends-early', 'a subscription ends terminal right after the terminal frame'],
  ['ends-twice', 'a subscription ends terminal right after the terminal frame'],
  ['ends-after-unsubscribe', 'no end after unsubscribe'],
  ['prunes-running-turns', 'pruneTurns drops whole finished turns'],
  ['prune-forgets-turn', 'pruneTurns drops whole finished turns'],
];

describe('the event log conformance checks catch a broken log (each flaw once)', () => {
  for (const [flaw, checkName] of CAUGHT_BY) {
    it(`a log that ${flaw} fails "${checkName}…"`, async () => {
      const check = chatEventLogChecks({ numRuns: runs(50), deliveryTimeoutMs: 200 }).find((candidate) =>
        candidate.name.startsWith(checkName),
      );
      expect(check).toBeDefined();
      const failures = await check?.run(harness(flaw));
      expect(failures?.length).toBeGreaterThan(0);
    }, 60_000);
  }
});

// Issue 24: a log that hands ids core refuses to its database, as the Postgres log did: its window rejects on a
// NUL (the database cannot bind it), and its tail's first read fails, so the subscription ends `lost` at once.
function bindingLog(): ChatEventLogHarness {
  const database = createFakeDatabase();
  const cannotBind = (request: { readonly conversationId: string; readonly turnId: string }) =>
    `${request.conversationId}${request.turnId}`.includes('\u0000');
  return {
    connect: () => {
      const log = createFlawedFakeChatEventLog(database, null);
      return {
        ...log,
        replayWindow: (request) =>
          cannotBind(request) ? Promise.reject(new Error('invalid byte sequence for encoding "UTF8": 0x00')) : log.replayWindow(request),
        subscribe: async (request, onEnvelope, onEnd) => {
          if (!cannotBind(request)) return log.subscribe(request, onEnvelope, onEnd);
          setTimeout(() => onEnd?.({ reason: 'lost', afterSeq: request.after }), 1);
          return () => undefined;
        },
      };
    },
  };
}

describe('the event log conformance checks catch a log that lets refused ids reach its database (issue 24)', () => {
  it('a window that rejects on a NUL and a tail that ends lost fail "ids core refuses name no turn…"', async () => {
    const check = chatEventLogChecks({ deliveryTimeoutMs: 200 }).find((candidate) => candidate.name.startsWith('ids core refuses'));
    const failures = await check?.run(bindingLog());
    expect(failures).toEqual([
      'the window of a conversationId with a NUL threw Error: invalid byte sequence for encoding "UTF8": 0x00',
      'the window of a turnId with a NUL threw Error: invalid byte sequence for encoding "UTF8": 0x00',
      'a subscription to a conversationId with a NUL heard [end:lost], not nothing',
      'a subscription to a turnId with a NUL heard [end:lost], not nothing',
    ]);
  });
});
