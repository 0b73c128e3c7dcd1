/**
 * @papercusp/chat-protocol-interactions: answering agent cards safely. Every
 * export is listed by name; `index.test.ts` pins the list.
 */
export { InteractionResolver } from './resolver.js';
export type { InteractionCard, InteractionCardVocabulary } from './card-vocabulary.js';
export type { InteractionResolverOptions } from './resolver.js';
export type {
  DeclineInteractionRequest,
  InteractionRequest,
  OpenInteractionRequest,
  RespondInteractionRequest,
  SubmitInteractionRequest,
} from './requests.js';
export type {
  CloseInteractionRefusalCode,
  CloseInteractionResult,
  ExpireInteractionRefusalCode,
  ExpireInteractionResult,
  InteractionAlreadyClosed,
  InteractionClosed,
  InteractionNeedsReconciliation,
  InteractionOpened,
  InteractionRead,
  InteractionReconciliationReason,
  InteractionRefusal,
  InteractionRefusalCode,
  OpenInteractionRefusalCode,
  OpenInteractionResult,
  ReadInteractionResult,
  SubmitInteractionRefusalCode,
  SubmitInteractionResult,
} from './outcomes.js';
export { INTERACTION_TERMINAL_STATUSES, isInteractionSchemaRef, isInteractionScope, parseInteractionRecord } from './records.js';
export type {
  InteractionRecordV1,
  InteractionSchemaRef,
  InteractionScope,
  InteractionTerminalStatus,
  ParseInteractionRecordRefusalCode,
  PendingInteractionV1,
  TerminalInteractionV1,
} from './records.js';
export type {
  InteractionAuthority,
  InteractionDecision,
  InteractionSnapshot,
  InteractionStore,
  InteractionStoreRequest,
  InteractionTransition,
} from './store.js';
export { standardSchemaValidator } from './validator.js';
export type { InteractionValidationRequest, InteractionValidator } from './validator.js';
