/**
 * @papercusp/chat-protocol-core: the v1 wire and state contract for streaming
 * agent chats. Every export is listed by name; `index.test.ts` pins the list.
 */
export { CHAT_PROTOCOL_VERSION, negotiateChatVersion } from './version.js';
export type { ChatProtocolVersion, NegotiateChatVersionRefusalCode, NegotiateChatVersionResult } from './version.js';

export {
  CHAT_CAPABILITY_NAMES,
  ChatCapabilitiesSchema,
  LIGHTWEIGHT_CHAT_CAPABILITIES,
  parseChatCapabilities,
  requireChatCapabilities,
} from './capabilities.js';
export type {
  ChatCapabilities,
  ChatCapabilityName,
  ParseChatCapabilitiesRefusalCode,
  ParseChatCapabilitiesResult,
  RequireChatCapabilitiesRefusalCode,
  RequireChatCapabilitiesResult,
  UnsupportedCapabilityRefusal,
} from './capabilities.js';

export { CHAT_LIMITS } from './limits.js';
export { isChatId, isCleanText, isSafeJson, isZonedTimestamp } from './primitives.js';
export { cardDeadline } from './card-rules.js';
export { compareChatTimestamps } from './timestamps.js';
export type { ChatLimits } from './limits.js';

export { canonicalJson } from './canonical-json.js';
export { digestEnvelope } from './digest.js';
export { readFields } from './read-fields.js';
export { refuse } from './result.js';
export { hasBrand } from './brand.js';
export { customCheck, exactOptional, strictExactObject } from './exact-object.js';
export type { CustomIssue, ExactOptional } from './exact-object.js';

export { REPORT_LIMITS, REPORT_STATUS_TOKENS, ReportBlockSchema, isReportExtensionName, trimmedTextSchema } from './report-block.js';
export type { ReportBlock, ReportItem, ReportLimits, ReportPlan, ReportStatusToken } from './report-block.js';
export type { ChatIssue, ChatRefusal, ParseResult } from './result.js';

export {
  CARD_RESOLUTIONS,
  CHAT_EVENT_FIELDS,
  CHAT_EVENT_TYPES_V1,
  CardClosedEventSchema,
  CardEventSchema,
  ChatEventV1Schema,
  ChatResultBlockSchema,
  ChatSourceSchema,
  ChatUsageSchema,
  DONE_STATUSES,
  DeltaEventSchema,
  DoneEventSchema,
  ErrorEventSchema,
  NavigateEventSchema,
  ProvenanceEventSchema,
  ReasoningEventSchema,
  StateEventSchema,
  TOOL_RESULT_STATUSES,
  ToolCallEventSchema,
  ToolResultEventSchema,
  USER_INPUT_SOURCES,
  UserInputEventSchema,
  channelOf,
  isChatEventTypeV1,
} from './events.js';
export type { ChatChannel, ChatEventTypeV1, ChatEventV1, ChatEventV1Of, ChatResultBlock, ChatSource, ChatUsage } from './events.js';

export {
  CARD_KINDS,
  CARD_LIMITS,
  CARD_OPTION_STYLES,
  CardApprovalSchema,
  CardOptionSchema,
  CardPresentationV1Schema,
  OpenCardSnapshotV1Schema,
  isCardDataSchemaJson,
} from './card-schemas.js';
export { CARD_VALUE_SCHEMAS, CardResponseSchema, CardValueSchema } from './card-responses.js';
export { PROMPT_ONLY_CARD_KINDS, promptOnlyCardKind } from './prompt-only-cards.js';
export { parseOpenCardSnapshot } from './parse-card.js';
export { validateCardResponse } from './validate-card-response.js';
export { baseCardCodec, createCardCodec, defineCardKind } from './card-codec.js';
export type {
  CardApproval,
  CardKind,
  CardOption,
  CardOptionStyle,
  CardPresentationV1,
  OpenCardSnapshotOf,
  OpenCardSnapshotV1,
} from './card-schemas.js';
export type { CardAnswerValue, CardResponse, CardResponseOf, CardValue, CardValueByKind } from './card-responses.js';
export type { PromptOnlyCardKind, PromptOnlyCardValue, PromptOnlyCardValueByKind } from './prompt-only-cards.js';
export type { OpenCardRefusalCode } from './parse-card.js';
export type { CardResponseRefusalCode, CardResponseTiming } from './validate-card-response.js';
export type {
  CardCodec,
  CardKindDefinition,
  CardKindDefinitions,
  CardKindPresentationSchema,
  ProductCardPresentation,
  ProductCardValueByKind,
} from './card-codec.js';

export { ChatEventEnvelopeSchema } from './envelope.js';
export type { ChatEventEnvelope, ChatEventEnvelopeOf, ChatEventOf } from './envelope.js';
export { createChatCodec } from './chat-codec.js';
export type { ChatChannelOfType, ChatCodec, ChatCodecOptions, ChatEventTypeOf, EncodeChatEnvelopeResultOf } from './chat-codec.js';
export { isProductEventName } from './product-events.js';
export type {
  ProductEventDataOf,
  ProductEventDataSchema,
  ProductEventDefinition,
  ProductEventDefinitions,
  ProductEventNamesOn,
  ProductEventOf,
  ProductEventValidation,
} from './product-events.js';
export { parseChatEnvelope } from './parse-chat-envelope.js';
export type { ParseChatEnvelopeRefusalCode, ParseChatEnvelopeResult } from './parse-chat-envelope.js';
export { encodeChatEnvelope } from './encode-chat-envelope.js';
export type { ChatEnvelopeRecord, EncodeChatEnvelopeRefusalCode, EncodeChatEnvelopeResult } from './encode-chat-envelope.js';
export { chatEventEnvelopeJsonSchema } from './json-schema.js';

export { CHAT_SSE_HEARTBEAT, encodeChatSseFrame, formatChatCursor, parseChatCursor, parseChatSseMessage } from './sse.js';
export type { ChatCursor, ChatSseMessage, ParseChatSseMessageRefusalCode } from './sse.js';

export {
  CHAT_TURN_STATUSES,
  ChatCardStateSchema,
  ChatStateV1Schema,
  ChatToolCallStateSchema,
  ChatTurnStateSchema,
  ChatUserInputStateSchema,
  createChatState,
  parseChatState,
} from './state.js';
export type {
  ChatCardState,
  ChatCardStateOf,
  ChatProductTurnFieldsOf,
  ChatStateOf,
  ChatStateV1,
  ChatToolCallState,
  ChatTurnState,
  ChatTurnStateOf,
  ChatTurnStatus,
  ChatUserInputState,
  ParseChatStateRefusalCode,
} from './state.js';
export {
  CHAT_HISTORY_ROLES,
  CHAT_HISTORY_SOURCES,
  ChatHistoryCardSchema,
  ChatHistoryPageV1Schema,
  ChatHistoryTurnV1Schema,
  parseChatHistoryPage,
} from './history.js';
export type {
  ChatHistoryCard,
  ChatHistoryPageOf,
  ChatHistoryPageV1,
  ChatHistoryProductSchema,
  ChatHistoryRole,
  ChatHistorySource,
  ChatHistoryTurnOf,
  ChatHistoryTurnV1,
  ParseChatHistoryPageOptions,
  ParseChatHistoryPageRefusalCode,
} from './history.js';
export { historyFromChatState } from './history-from-state.js';
export { applyChatEvent } from './apply-chat-event.js';
export type { ApplyChatEventRefusalCode, ApplyChatEventResult, ChatSeqGap } from './apply-chat-event.js';

export {
  EVENT_CHANNEL_TYPES,
  STATE_CHANNEL_TYPES,
  TRANSIENT_CHANNEL_TYPES,
  isChatEventType,
  isReplayableEvent,
  isStateChannelEvent,
  parseChatEvent,
} from './parse-chat-event.js';
export type {
  ChatEvent,
  ChatEventType,
  LegacyCardClosedEvent,
  LegacyCardEvent,
  LegacyCardSnapshot,
  LegacyChatEvent,
  LegacyChatUsage,
  LegacyDeltaEvent,
  LegacyDoneEvent,
  LegacyErrorEvent,
  LegacyNavigateEvent,
  LegacyProvenanceEvent,
  LegacySessionEvent,
  LegacyStateEvent,
  LegacyToolCallEvent,
  LegacyToolResultEvent,
} from './parse-chat-event.js';
