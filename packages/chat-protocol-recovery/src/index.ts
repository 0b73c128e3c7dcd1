/**
 * @papercusp/chat-protocol-recovery: `TurnRecovery` and its host adapter,
 * replay-window validation, the event log contract (`ChatEventLog`) and the
 * conversation contract beside it (`ChatConversationStore`), the turn-status
 * read, and client turn delivery. Every export is listed by name;
 * `index.test.ts` pins the list.
 */
export { TurnRecovery } from './turn-recovery.js';
export { DEFAULT_MAX_EFFECTS_PER_TURN } from './turn-recovery-options.js';
export { DEFAULT_RUN_LEASE_MS, isRunLeaseExpired } from './run-lease.js';
export type { TurnRecoveryOptions } from './turn-recovery-options.js';
export type {
  DispatchEffectRequest,
  EffectExecution,
  EffectRequest,
  FinishTurnRequest,
  ReconcileEffectRequest,
  InterruptTurnRequest,
  RenewRunLeaseRequest,
  ReplayTurnRequest,
  StartTurnRequest,
  TurnRequest,
} from './turn-requests.js';
export type {
  AbortDelivery,
  CancelTurnRefusalCode,
  CancelTurnResult,
  CapabilityRefusal,
  CheckpointFailedRefusal,
  ClaimEffectRefusalCode,
  ClaimEffectResult,
  CompletedOutcome,
  DeclareEffectRefusalCode,
  DeclareEffectResult,
  DispatchEffectRefusalCode,
  DispatchEffectResult,
  EffectClaim,
  FinishTurnRefusalCode,
  FinishTurnResult,
  InspectTurnRefusalCode,
  InspectTurnResult,
  InterruptTurnRefusalCode,
  InterruptTurnResult,
  NeedsReconciliationOutcome,
  ReconcileEffectRefusalCode,
  ReconcileEffectResult,
  RenewRunLeaseRefusalCode,
  RenewRunLeaseResult,
  ReplayTurnRefusalCode,
  ReplayTurnResult,
  StartTurnRefusalCode,
  RunLeaseHeldRefusal,
  StartTurnResult,
  TurnInspection,
} from './outcomes.js';
export { admissionRefusal, readAdmitDispatchRequest, type AdmissionFacts } from './admission-checks.js';
export { readListRunningTurnsRequest } from './list-running-turns.js';
export { DEFAULT_ADMISSION_LEASE_MS, EFFECT_STATES } from './admission-lease.js';
export type { EffectInspection, EffectState } from './admission-lease.js';
export type {
  AbortRequest,
  AdmitDispatchRefusalCode,
  AdmitDispatchRequest,
  AdmitDispatchResult,
  AuthorizationRequest,
  CompareAndSwapRequest,
  CompareAndSwapResult,
  ListRunningTurnsRequest,
  ReplayWindow,
  ReplayWindowRequest,
  TurnAction,
  TurnRecoveryAdapter,
  TurnStore,
} from './adapter.js';
export { NEEDS_RECONCILIATION_REASONS } from './turn-record.js';
export type {
  EffectAdmission,
  EffectRecord,
  NeedsReconciliationReason,
  FinishedTurnStatus,
  RecoverableTurnStatus,
  RunLease,
  StoredTurn,
  TurnRecord,
} from './turn-record.js';
export type {
  AppendChatEventRefusalCode,
  AppendChatEventResult,
  ChatEventLog,
  ChatEventLogSubscriptionEnd,
  ChatEventLogUnsubscribe,
  PruneTurnsRefusalCode,
  PruneTurnsRequest,
  PruneTurnsResult,
  SeqGapRefusal,
  SubscribeChatEventsRequest,
} from './chat-event-log.js';
export { DEFAULT_CONVERSATION_LOG_MAX_FRAMES, DEFAULT_CONVERSATION_LOG_MAX_TURNS } from './conversation-log.js';
export type {
  ChatConversationStore,
  ConversationAuthority,
  ConversationAuthorityRequest,
  ConversationLog,
  ConversationLogReader,
  ConversationLogTooLarge,
  ConversationLogTurn,
  ReadConversationLogRefusalCode,
  ReadConversationLogRequest,
  ReadConversationLogResult,
} from './conversation-log.js';
export { validateReplayWindow } from './replay-window.js';
export type {
  ReplayWindowExpectation,
  ValidatedReplayWindow,
  ValidateReplayWindowOptions,
  ValidateReplayWindowRefusalCode,
  ValidateReplayWindowResult,
} from './replay-window.js';
export { IDEMPOTENCY_KEY_HEADER, TURN_ID_FIELD, createTurnId, isTurnId } from './turn-id.js';
export type { CreateTurnIdOptions, RandomSource } from './turn-id.js';
export { TURN_STATUS_VALUES, TurnStatusResponseSchema, parseTurnStatusResponse } from './turn-status.js';
export type { ParseTurnStatusResponseRefusalCode, TurnStatusResponse } from './turn-status.js';
export { readTurnStatus } from './read-turn-status.js';
export type {
  ReadTurnStatusRefusalCode,
  ReadTurnStatusRequest,
  ReadTurnStatusResult,
  TurnStatusReading,
  TurnStatusSource,
} from './read-turn-status.js';
export { DELIVERY_STATES, deliveryStateFromResend, deliveryStateFromStatus } from './delivery.js';
export type { DeliveryState, ResendAnswer, StatusAnswer } from './delivery.js';
