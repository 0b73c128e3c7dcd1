/**
 * @papercusp/chat-protocol-testkit: test tools for hosts and packages of the
 * chat protocol: the fake transactional database and the fake stores
 * recovery's and interactions' scenario and race tests run on, the fake event log and the fake
 * conversation store beside it, the golden
 * session replays, and `verifyChatCapture`, the library behind the
 * `chat-protocol verify` command (its CLI module is `cli.ts`, not exported
 * here). The conformance suites are at `/vitest`. Every export is listed by
 * name; `index.test.ts` pins the list.
 */
export { FAKE_FAULT_KINDS, FAKE_RANDOM_FAULT_KINDS, FakeDatabaseError, createFakeDatabase } from './fake-database.js';
export type {
  FakeCall,
  FakeCallTarget,
  FakeDatabase,
  FakeDatabaseOptions,
  FakeFaultKind,
  FakeFaultRule,
  FakeHistoryEntry,
  FakeRandomFaults,
  FakeTransaction,
  FakeTransactionSpec,
} from './fake-database.js';
export { FAKE_TURN_TABLES, createFakeTurnStore } from './fake-turn-store.js';
export type { FakeTurnAdapterOptions, FakeTurnStore } from './fake-turn-store.js';
export { FAKE_EVENT_LOG_TABLES, createFakeChatEventLog } from './fake-chat-event-log.js';
export { createFakeConversationStore } from './fake-conversation-store.js';
export { FAKE_INTERACTION_TABLES, createFakeInteractionStore } from './fake-interaction-store.js';
export type { FakeInteractionMetadataChange, FakeInteractionStore } from './fake-interaction-store.js';
export { CHAT_CAPTURE_DIALECTS, CHAT_CAPTURE_RULES, createChatCaptureVerifier, verifyChatCapture } from './verify-chat-capture.js';
export type {
  ChatCaptureDialect,
  ChatCaptureReport,
  ChatCaptureRule,
  ChatCaptureVerifier,
  ChatCaptureViolation,
  VerifyChatCaptureOptions,
} from './verify-chat-capture.js';
export { formatChatCaptureReport } from './format-chat-capture-report.js';
export { listGoldenSessions, replayGoldenSession } from './golden.js';
export type {
  GoldenConnection,
  GoldenLegacyDialect,
  GoldenReplay,
  GoldenSessionInfo,
  GoldenSessionName,
  ReplayGoldenSessionRefusalCode,
  ReplayGoldenSessionResult,
} from './golden.js';
