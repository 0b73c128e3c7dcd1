/**
 * SSE framing of the UI message stream, as the AI SDK's own transport writes
 * and reads it: one `data: <json>` message per chunk, `data: [DONE]` at the
 * end, and the header that tells `useChat` the body is a UI message stream.
 * Reading SSE is the host's SSE parser's job, not this module's.
 */
import type { AiSdkUiMessageChunk } from '../ui-message-chunk.js';

/** The header naming the stream protocol: `useChat`'s transport checks it. */
export const AI_SDK_UI_MESSAGE_STREAM_HEADER = { name: 'x-vercel-ai-ui-message-stream', value: 'v1' } as const;

/** The response headers the AI SDK sends with a UI message stream. */
export const AI_SDK_UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  [AI_SDK_UI_MESSAGE_STREAM_HEADER.name]: AI_SDK_UI_MESSAGE_STREAM_HEADER.value,
  'x-accel-buffering': 'no',
});

/** The SSE message that ends a UI message stream. */
export const AI_SDK_SSE_DONE = 'data: [DONE]\n\n';

/**
 * One chunk as an SSE message: `data: <json>\n\n`, byte for byte what the AI
 * SDK's `JsonToSseTransformStream` writes. JSON text never holds a raw line
 * break, so one `data:` line always suffices.
 */
export function encodeAiSdkSseFrame(chunk: AiSdkUiMessageChunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}
