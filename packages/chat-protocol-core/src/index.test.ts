import { describe, expect, it } from 'vitest';
import * as core from './index.js';

// Every runtime export is a semver promise: adding or removing one must be a
// deliberate change to this list (and a changeset).
describe('the public surface of @papercusp/chat-protocol-core', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(core).sort()).toEqual([
      'CARD_KINDS',
      'CARD_LIMITS',
      'CARD_RESOLUTIONS',
      'CARD_VALUE_SCHEMAS',
      'CHAT_CAPABILITY_NAMES',
      'CHAT_EVENT_FIELDS',
      'CHAT_EVENT_TYPES_V1',
      'CHAT_LIMITS',
      'CHAT_PROTOCOL_VERSION',
      'CHAT_SSE_HEARTBEAT',
      'CHAT_TURN_STATUSES',
      'CardClosedEventSchema',
      'CardEventSchema',
      'CardOptionSchema',
      'CardPresentationV1Schema',
      'CardResponseSchema',
      'CardValueSchema',
      'ChatCapabilitiesSchema',
      'ChatCardStateSchema',
      'ChatEventEnvelopeSchema',
      'ChatEventV1Schema',
      'ChatResultBlockSchema',
      'ChatSourceSchema',
      'ChatStateV1Schema',
      'ChatToolCallStateSchema',
      'ChatTurnStateSchema',
      'DONE_STATUSES',
      'DeltaEventSchema',
      'DoneEventSchema',
      'EVENT_CHANNEL_TYPES',
      'ErrorEventSchema',
      'LIGHTWEIGHT_CHAT_CAPABILITIES',
      'NavigateEventSchema',
      'OpenCardSnapshotV1Schema',
      'ProvenanceEventSchema',
      'ReasoningEventSchema',
      'STATE_CHANNEL_TYPES',
      'StateEventSchema',
      'TOOL_RESULT_STATUSES',
      'TRANSIENT_CHANNEL_TYPES',
      'ToolCallEventSchema',
      'ToolResultEventSchema',
      'applyChatEvent',
      'baseCardCodec',
      'channelOf',
      'chatEventEnvelopeJsonSchema',
      'createCardCodec',
      'createChatCodec',
      'createChatState',
      'defineCardKind',
      'encodeChatEnvelope',
      'encodeChatSseFrame',
      'formatChatCursor',
      'isChatEventType',
      'isChatEventTypeV1',
      'isCleanText',
      'isReplayableEvent',
      'isSafeJson',
      'isStateChannelEvent',
      'negotiateChatVersion',
      'parseChatCapabilities',
      'parseChatCursor',
      'parseChatEnvelope',
      'parseChatEvent',
      'parseChatSseMessage',
      'parseChatState',
      'parseOpenCardSnapshot',
      'refuse',
      'requireChatCapabilities',
      'validateCardResponse',
    ]);
  });

  it('keeps the names other teams already call (DESIGN, fixed)', () => {
    for (const name of ['negotiateChatVersion', 'requireChatCapabilities', 'parseChatEvent'] as const) {
      expect(typeof core[name]).toBe('function');
    }
  });
});
