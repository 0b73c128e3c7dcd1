import { describe, expect, it } from 'vitest';
import { runs } from '../../../test-support/property-runs.js';
import { createFakeChatEventLog, createFakeDatabase, createFakeTurnStore } from './index.js';
import { createFlawedFakeConversationStore, type FakeConversationStoreFlaw } from './fake-conversation-store.js';
import { conversationStoreChecks, describeConversationStoreConformance, type ConversationStoreHarness } from './vitest.js';

// The fake's grants are the fake turn store's: one table, as a host's conversation and admission lookups read the same grants.
function harness(flaw: FakeConversationStoreFlaw | null = null): ConversationStoreHarness {
  const database = createFakeDatabase();
  const grants = createFakeTurnStore(database);
  return {
    connect: () => ({ eventLog: createFakeChatEventLog(database), ...createFlawedFakeConversationStore(database, flaw) }),
    grant: (conversationId, caller, granted) => (granted ? grants.grant(conversationId, caller) : grants.revoke(conversationId, caller)),
  };
}

// The fake keeps the contract: every check passes (issue 25).
describeConversationStoreConformance('the testkit fake conversation store', () => harness(), { numRuns: runs(100) });

// Each flaw breaks one rule of recovery's ChatConversationStore; the check named for that rule must catch it.
const CAUGHT_BY: readonly (readonly [FakeConversationStoreFlaw, string])[] = [
  ['lists-foreign-turns', 'readConversationLog lists the conversation’s turns only'],
  ['ignores-turn-bound', 'bounds:'],
  ['ignores-frame-bound', 'bounds:'],
  ['drops-pruned-turns', 'a pruned turn is listed in its place'],
  ['torn-read', 'readConversationLog never tears under concurrent appends'],
  ['ignores-through-turn', 'throughTurnId and overflow'],
  ['keeps-oldest-turns', 'throughTurnId and overflow'],
  ['grants-any-conversation', 'authorizeConversation grants only what was granted'],
  ['remembers-grants', 'authorizeConversation grants only what was granted'],
];

describe('the conversation store conformance checks catch a broken store (each flaw once)', () => {
  for (const [flaw, checkName] of CAUGHT_BY) {
    it(`a store that ${flaw} fails "${checkName}…"`, async () => {
      const check = conversationStoreChecks({ numRuns: runs(50) }).find((candidate) => candidate.name.startsWith(checkName));
      expect(check).toBeDefined();
      const failures = await check?.run(harness(flaw));
      expect(failures?.length).toBeGreaterThan(0);
    }, 60_000);
  }

  it('a reader that returns another conversation’s turns is named in the failure, with what it answered', async () => {
    const check = conversationStoreChecks().find((candidate) => candidate.name.startsWith('readConversationLog lists'));
    const failures = (await check?.run(harness('lists-foreign-turns'))) ?? [];
    expect(failures.map((failure) => failure.split(' answered ')[0])).toEqual([
      'the conversation',
      'the other conversation',
      'a conversation nobody wrote',
    ]);
  });

  it('a reader that ignores the bounds fails exactly the refusals it owed', async () => {
    const check = conversationStoreChecks().find((candidate) => candidate.name.startsWith('bounds:'));
    const failures = (await check?.run(harness('ignores-turn-bound'))) ?? [];
    expect(failures.map((failure) => failure.split(' answered ')[0])).toEqual(['maxTurns 1', 'maxTurns 1 and maxFrames 1']);
    const frameFailures = (await check?.run(harness('ignores-frame-bound'))) ?? [];
    expect(frameFailures.map((failure) => failure.split(' answered ')[0])).toEqual(['maxFrames 3']);
  });
});

describe('the fake conversation store shares the fake database’s faults and restarts', () => {
  it('a fault on readConversationLog is store-unavailable and on authorizeConversation false; a restart ends the connection', async () => {
    const database = createFakeDatabase();
    const turnStore = createFakeTurnStore(database);
    turnStore.grant('conv_1', 'ana');
    const store = createFlawedFakeConversationStore(database, null);
    database.inject({ operation: 'readConversationLog', kind: 'fail-before-commit' });
    expect(await store.readConversationLog({ conversationId: 'conv_1' })).toMatchObject({ ok: false, code: 'store-unavailable' });
    expect(await store.readConversationLog({ conversationId: 'conv_1' })).toEqual({
      ok: true,
      value: { conversationId: 'conv_1', turns: [] },
    });
    database.inject({ operation: 'authorizeConversation', kind: 'fail-before-commit' });
    expect(await store.authorizeConversation({ caller: 'ana', conversationId: 'conv_1' })).toBe(false);
    expect(await store.authorizeConversation({ caller: 'ana', conversationId: 'conv_1' })).toBe(true);
    database.restart();
    expect(await store.readConversationLog({ conversationId: 'conv_1' })).toMatchObject({ ok: false, code: 'store-unavailable' });
    expect(await store.authorizeConversation({ caller: 'ana', conversationId: 'conv_1' })).toBe(false);
  });
});
