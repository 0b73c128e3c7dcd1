import type { ChatConversationStore, ChatEventLog, TurnRecoveryAdapter, TurnStore } from '@papercusp/chat-protocol-recovery';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createChatCaptureVerifier,
  createFakeChatEventLog,
  createFakeConversationStore,
  createFakeDatabase,
  createFakeTurnStore,
  listGoldenSessions,
  replayGoldenSession,
  verifyChatCapture,
  type ChatCaptureDialect,
  type ChatCaptureReport,
  type ChatCaptureRule,
  type FakeDatabase,
  type FakeCallTarget,
  type FakeFaultKind,
  type FakeFaultRule,
  type FakeTurnStore,
  type GoldenReplay,
  type GoldenSessionName,
} from './index.js';
import { checkRaces, scheduleChatEventLog, scheduleTurnRecoveryAdapter } from './races.js';
import {
  chatEventLogChecks,
  conversationStoreChecks,
  describeChatEventLogConformance,
  describeConversationStoreConformance,
  type ChatEventLogHarness,
  type ConformanceCheck,
  type ConversationStoreConnection,
  type ConversationStoreHarness,
} from './vitest.js';

describe('public types', () => {
  it("the fake event log is recovery's ChatEventLog, and its suite takes connections to any ChatEventLog (DESIGN §9.3)", () => {
    expectTypeOf(createFakeChatEventLog(createFakeDatabase())).toEqualTypeOf<ChatEventLog>();
    expectTypeOf<ChatEventLogHarness['connect']>().returns.toEqualTypeOf<ChatEventLog>();
    expectTypeOf(chatEventLogChecks()).toEqualTypeOf<readonly ConformanceCheck<ChatEventLogHarness>[]>();
    expectTypeOf(describeChatEventLogConformance)
      .parameter(2)
      .toEqualTypeOf<{ readonly numRuns?: number; readonly deliveryTimeoutMs?: number; readonly timeout?: number } | undefined>();
    expectTypeOf(scheduleChatEventLog).returns.toEqualTypeOf<ChatEventLog>();
  });

  it("the fake conversation store is recovery's ChatConversationStore, and its suite takes connections to a store with an event log (issue 25)", () => {
    expectTypeOf(createFakeConversationStore(createFakeDatabase())).toEqualTypeOf<ChatConversationStore<string>>();
    expectTypeOf<ConversationStoreHarness['connect']>().returns.toEqualTypeOf<ConversationStoreConnection>();
    expectTypeOf<ConversationStoreConnection>().toMatchTypeOf<ChatConversationStore<string> & { readonly eventLog: ChatEventLog }>();
    expectTypeOf(conversationStoreChecks()).toEqualTypeOf<readonly ConformanceCheck<ConversationStoreHarness>[]>();
    expectTypeOf(describeConversationStoreConformance)
      .parameter(2)
      .toEqualTypeOf<{ readonly numRuns?: number; readonly timeout?: number } | undefined>();
  });

  it('the fake turn store is a recovery store with the admission seam, typed by its result', () => {
    const store = createFakeTurnStore<{ receiptId: string }>(createFakeDatabase());
    expectTypeOf(store).toEqualTypeOf<FakeTurnStore<{ receiptId: string }>>();
    expectTypeOf(store).toMatchTypeOf<Required<TurnStore<{ receiptId: string }, string>>>();
    expectTypeOf(store.adapter()).toEqualTypeOf<TurnRecoveryAdapter<{ receiptId: string }, string>>();
  });

  it('faults are a closed vocabulary; tables are typed by their rows', () => {
    expectTypeOf<FakeFaultKind>().toEqualTypeOf<
      'fail-before-commit' | 'lose-acknowledgement' | 'lose-acknowledgement-after-launch' | 'delay'
    >();
    expectTypeOf<FakeFaultRule['target']>().toEqualTypeOf<FakeCallTarget | undefined>();
    expectTypeOf<FakeCallTarget>().toEqualTypeOf<{
      readonly conversationId?: string;
      readonly turnId?: string;
      readonly effectId?: string;
      readonly correlationId?: string;
    }>();
    expectTypeOf<FakeDatabase['table']>().returns.toEqualTypeOf<Map<string, unknown>>();
    expectTypeOf(createFakeDatabase().table<number>('counters')).toEqualTypeOf<Map<string, number>>();
  });

  it('capture rules and dialects are closed vocabularies; the report is read-only data', () => {
    expectTypeOf<ChatCaptureRule>().toEqualTypeOf<
      | 'invalid-options'
      | 'invalid-capture'
      | 'invalid-sse-line'
      | 'unterminated-frame'
      | 'unparseable-frame'
      | 'event-mismatch'
      | 'id-mismatch'
      | 'foreign-conversation'
      | 'conflicting-duplicate'
      | 'turn-terminal'
      | 'seq-gap'
      | 'seq-out-of-order'
      | 'misplaced-user-input'
      | 'unknown-tool-call'
      | 'tool-name-mismatch'
      | 'duplicate-tool-call'
      | 'duplicate-tool-result'
      | 'unknown-card'
      | 'duplicate-card'
      | 'card-closed'
      | 'card-not-awaiting'
      | 'stale-state'
    >();
    expectTypeOf<ChatCaptureDialect>().toEqualTypeOf<'papercup' | 'scout'>();
    expectTypeOf(verifyChatCapture('')).toEqualTypeOf<ChatCaptureReport>();
    expectTypeOf(createChatCaptureVerifier().end()).toEqualTypeOf<ChatCaptureReport>();
    expectTypeOf<ChatCaptureReport['violations'][number]['seq']>().toEqualTypeOf<number | undefined>();
    // @ts-expect-error the options take a built-in dialect name only
    verifyChatCapture('', { legacy: 'dotted' });
  });

  it('golden sessions are named by a closed union; a replay is a result', () => {
    expectTypeOf(listGoldenSessions()[0]?.name).toEqualTypeOf<GoldenSessionName | undefined>();
    expectTypeOf<'tools-and-sources'>().toMatchTypeOf<GoldenSessionName>();
    expectTypeOf<'tools-and-source'>().not.toMatchTypeOf<GoldenSessionName>();
    const replayed = replayGoldenSession('resumed-after-disconnect');
    if (replayed.ok) {
      expectTypeOf(replayed.value).toEqualTypeOf<GoldenReplay>();
      expectTypeOf(replayed.value.outcomes).toEqualTypeOf<readonly ('applied' | 'duplicate')[]>();
      expectTypeOf(replayed.value.legacy.scout).toEqualTypeOf<string | undefined>();
    } else {
      expectTypeOf(replayed.code).toEqualTypeOf<'unknown-session'>();
    }
    // @ts-expect-error: a name that is not a golden session
    replayGoldenSession('tools-and-source');
  });

  it('the race helpers keep the adapter and store types they wrap', () => {
    const adapter = createFakeTurnStore<{ receiptId: string }>(createFakeDatabase()).adapter();
    expectTypeOf(scheduleTurnRecoveryAdapter<{ receiptId: string }, string>).returns.toEqualTypeOf<
      TurnRecoveryAdapter<{ receiptId: string }, string>
    >();
    expectTypeOf(adapter).toEqualTypeOf<TurnRecoveryAdapter<{ receiptId: string }, string>>();
    expectTypeOf(checkRaces).returns.resolves.toEqualTypeOf<readonly string[]>();
  });
});
