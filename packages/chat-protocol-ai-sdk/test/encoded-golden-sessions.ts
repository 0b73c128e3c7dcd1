/**
 * Test support: a golden session through the encoder, as the chunks of each
 * turn's assistant message and the loss of each envelope. The AI SDK judges
 * the chunks in golden-sessions.test.ts; the placement property decodes them.
 */
import type { GoldenReplay } from '@papercusp/chat-protocol-testkit';
import { createAiSdkEncoder } from '../src/encoder/create-ai-sdk-encoder.js';
import type { AiSdkLoss, AiSdkUiMessageChunk } from '../src/ui-message-chunk.js';

/** Every golden session encoded: the chunks by turn (a `start` opens each) and the loss by envelope. */
export function encodeSession(replay: GoldenReplay): {
  readonly messages: AiSdkUiMessageChunk[][];
  readonly lost: { readonly eventId: string; readonly lost: readonly AiSdkLoss[] }[];
} {
  const encoder = createAiSdkEncoder();
  const messages: AiSdkUiMessageChunk[][] = [];
  const lost: { eventId: string; lost: readonly AiSdkLoss[] }[] = [];
  for (const envelope of replay.envelopes) {
    const result = encoder.encode(envelope);
    if (!result.ok) throw new Error(`${replay.name} seq ${envelope.seq}: ${result.code} ${result.message}`);
    for (const chunk of result.chunks) {
      if (chunk.type === 'start') messages.push([]);
      messages.at(-1)?.push(chunk);
    }
    if (result.outcome === 'encoded') lost.push({ eventId: envelope.eventId, lost: result.lost });
  }
  messages.at(-1)?.push(...encoder.close());
  return { messages, lost };
}
