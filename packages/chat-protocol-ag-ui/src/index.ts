/**
 * @papercusp/chat-protocol-ag-ui: v1 chat envelopes ⇄ AG-UI 1.0 events, with
 * every loss reported as data. Every export is listed by name; `index.test.ts` pins the list.
 */
export { AG_UI_CUSTOM_EVENT_NAME, AG_UI_METADATA_KEY } from './ag-ui-event.js';
export type { AgUiEvent, AgUiEventType, AgUiInterrupt, AgUiRunOutcome, AgUiTokenUsage } from './ag-ui-event.js';
export type { AgUiLoss } from './loss.js';
export { createAgUiEncoder } from './create-ag-ui-encoder.js';
export type { AgUiEncodeResult, AgUiEncoder } from './create-ag-ui-encoder.js';
export { createAgUiDecoder } from './create-ag-ui-decoder.js';
export type {
  AgUiDecoded,
  AgUiDecoder,
  AgUiDecoderContext,
  AgUiEnvelopeIdentity,
  AgUiEnvelopeRequest,
  AgUiToolResultRequest,
  DecodeAgUiEventRefusalCode,
  DecodeAgUiEventResult,
} from './create-ag-ui-decoder.js';
export { cardResponseFromResumeEntry, resumeEntryFromCardResponse } from './resume-entries.js';
export type { AgUiResumeEntry, CardResponseFromResumeEntryRefusalCode, CardResponseFromResumeEntryResult } from './resume-entries.js';
