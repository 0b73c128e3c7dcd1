/**
 * @papercusp/chat-protocol-ag-ui: v1 chat envelopes ⇄ AG-UI 1.0 events, with
 * every loss reported as data. Every export is listed by name; `index.test.ts` pins the list.
 */
export { AG_UI_CUSTOM_EVENT_NAME, AG_UI_METADATA_KEY } from './ag-ui-event.js';
export type { AgUiEvent, AgUiEventType, AgUiInterrupt, AgUiRunOutcome, AgUiTokenUsage } from './ag-ui-event.js';
export type { AgUiLoss } from './loss.js';
export { createAgUiEncoder } from './encoder/create-ag-ui-encoder.js';
export type { AgUiEncodeResult, AgUiEncoder } from './encoder/create-ag-ui-encoder.js';
export { createAgUiDecoder } from './decoder/create-ag-ui-decoder.js';
export type {
  AgUiDecoded,
  AgUiDecoder,
  AgUiDecoderContext,
  AgUiEnvelopeIdentity,
  AgUiEnvelopeRequest,
  AgUiToolResultRequest,
  DecodeAgUiEventRefusalCode,
  DecodeAgUiEventResult,
} from './decoder/decoder-types.js';
export { cardResponseFromResumeEntry, resumeEntryFromCardResponse } from './resume-entries.js';
export type { AgUiResumeEntry, CardResponseFromResumeEntryRefusalCode, CardResponseFromResumeEntryResult } from './resume-entries.js';
export { createAgUiChatAgent } from './agent/create-ag-ui-chat-agent.js';
export type {
  AgUiAgentLike,
  AgUiAgentSubscriber,
  AgUiChatAgent,
  AgUiChatAgentOptions,
  AgUiMessage,
  AgUiRunAgentParameters,
  AgUiRunnableAgent,
} from './agent/agent-types.js';
