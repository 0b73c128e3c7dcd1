import { describe, expectTypeOf, it } from 'vitest';
import {
  createChatFrameDecoder,
  encodeLegacyChatFrame,
  encodeLegacyControlFrame,
  papercup,
  parseLegacyLastEventId,
  type ChatFrameDecoderResult,
  type EncodeLegacyChatFrameOptions,
  type EncodeLegacyControlFrameRefusalCode,
  type LegacyControlFrame,
  type LegacyControlMessage,
  type LegacyFrameIds,
} from './index.js';

describe('numeric resume and control frames are typed (issue 13)', () => {
  it('types the ids option and the Last-Event-ID reader', () => {
    expectTypeOf<LegacyFrameIds>().toEqualTypeOf<'cursor' | 'seq'>();
    expectTypeOf<EncodeLegacyChatFrameOptions['ids']>().toEqualTypeOf<LegacyFrameIds | undefined>();
    expectTypeOf(encodeLegacyChatFrame<Record<never, never>>)
      .parameter(1)
      .toEqualTypeOf<EncodeLegacyChatFrameOptions>();
    expectTypeOf(parseLegacyLastEventId).returns.toEqualTypeOf<number | null>();
  });

  it('types control frames, their refusal and what a frame decoder returns for a comment or retry hint', () => {
    expectTypeOf<LegacyControlFrame['kind']>().toEqualTypeOf<'heartbeat' | 'comment' | 'retry' | 'resync'>();
    expectTypeOf<EncodeLegacyControlFrameRefusalCode>().toEqualTypeOf<'invalid-control-frame'>();
    const result = encodeLegacyControlFrame({ kind: 'retry', retryMs: 1 });
    if (result.ok) expectTypeOf(result.sse).toEqualTypeOf<string>();
    expectTypeOf<LegacyControlMessage>().toExtend<ChatFrameDecoderResult>();
    const decoder = createChatFrameDecoder({
      dialect: papercup,
      context: { conversationId: 'c', turnId: 't', identify: () => ({ eventId: 'e', occurredAt: '' }) },
    });
    const decoded = decoder.decode({ comment: 'ping' });
    if (decoded.ok && decoded.kind === 'control' && decoded.control === 'comment') expectTypeOf(decoded.text).toEqualTypeOf<string>();
  });
});
