/**
 * @papercusp/chat-protocol-ai-sdk: v1 envelopes ⇄ AI SDK 6 UI message stream
 * chunks, with loss reported as data. Every export is listed by name;
 * `index.test.ts` pins the list.
 */
export { createAiSdkEncoder } from './encoder/create-ai-sdk-encoder.js';
export type { AiSdkEncodeRefusalCode, AiSdkEncodeResult, AiSdkEncoder } from './encoder/create-ai-sdk-encoder.js';
export { createAiSdkDecoder } from './decoder/create-ai-sdk-decoder.js';
export { AI_SDK_ERROR_CODE } from './decoder/chunk-events.js';
export type {
  AiSdkDecodeRefusalCode,
  AiSdkDecodeResult,
  AiSdkDecoder,
  AiSdkDecoderContext,
  AiSdkDecoderCounts,
} from './decoder/decoder-types.js';
export { AI_SDK_DATA_PARTS, AI_SDK_FINISH_REASONS, AI_SDK_TOOL_RESULT_PART, AI_SDK_TURN_END_PART } from './ui-message-chunk.js';
export type { AiSdkDataPartName, AiSdkFinishReason, AiSdkLoss, AiSdkUiMessageChunk } from './ui-message-chunk.js';
export {
  AI_SDK_SSE_DONE,
  AI_SDK_UI_MESSAGE_STREAM_HEADER,
  AI_SDK_UI_MESSAGE_STREAM_HEADERS,
  encodeAiSdkSseFrame,
} from './encoder/ui-message-stream-sse.js';
