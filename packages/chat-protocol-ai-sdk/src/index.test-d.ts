import type { UIMessageChunk } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import { createAiSdkDecoder, createAiSdkEncoder, type AiSdkDecodeRefusalCode, type AiSdkUiMessageChunk } from './index.js';

describe('@papercusp/chat-protocol-ai-sdk types', () => {
  it('every chunk the encoder writes is an AI SDK 6 UIMessageChunk', () => {
    expectTypeOf<AiSdkUiMessageChunk>().toExtend<UIMessageChunk>();
    const result = createAiSdkEncoder().encode({});
    if (result.ok) expectTypeOf(result.chunks).toEqualTypeOf<readonly AiSdkUiMessageChunk[]>();
  });

  it('a decoder refusal carries a code of its closed union', () => {
    const result = createAiSdkDecoder({ conversationId: 'c', turnId: 't', identify: () => ({ eventId: 'e', occurredAt: '' }) }).decode({});
    if (!result.ok) expectTypeOf(result.code).toEqualTypeOf<AiSdkDecodeRefusalCode>();
  });
});
