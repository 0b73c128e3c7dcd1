/**
 * @papercusp/chat-protocol-core: the v1 wire and state contract for streaming
 * agent chats. Every export is listed by name; `index.test.ts` pins the list.
 * The helpers the other @papercusp packages share are at `./internal`.
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

export { CHAT_LIMITS } from './primitives/limits.js';
export { isChatId, isCleanText, isSafeJson, isZonedTimestamp } from './primitives/primitives.js';
export { cardDeadline } from './cards/card-rules.js';
export { compareChatTimestamps } from './primitives/timestamps.js';
export type { ChatLimits } from './primitives/limits.js';

export { canonicalJson } from './primitives/canonical-json.js';

export { REPORT_LIMITS, REPORT_STATUS_TOKENS, ReportBlockSchema } from './cards/report-block.js';
export type { ReportBlock, ReportItem, ReportLimits, ReportPlan, ReportStatusToken } from './cards/report-block.js';
export type { ChatIssue, ChatRefusal, ParseResult } from './primitives/result.js';

export {
  CARD_RESOLUTIONS,
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
} from './events/events.js';
export { CHAT_EVENT_FIELDS, CHAT_EVENT_TYPES_V1, isChatEventTypeV1 } from './events/event-fields.js';
export type { ChatChannel, ChatEventTypeV1, ChatEventV1, ChatEventV1Of, ChatResultBlock, ChatSource, ChatUsage } from './events/events.js';

export {
  CARD_KINDS,
  CARD_LIMITS,
  CARD_OPTION_STYLES,
  CardApprovalSchema,
  CardOptionSchema,
  CardPresentationV1Schema,
  OpenCardSnapshotV1Schema,
  isCardDataSchemaJson,
} from './cards/card-schemas.js';
export { CARD_VALUE_SCHEMAS, CardResponseSchema, CardValueSchema } from './cards/card-responses.js';
export { PROMPT_ONLY_CARD_KINDS, promptOnlyCardKind } from './cards/prompt-only-cards.js';
export { parseOpenCardSnapshot } from './cards/parse-card.js';
export { validateCardResponse } from './cards/validate-card-response.js';
export { baseCardCodec, createCardCodec, defineCardKind } from './cards/card-codec.js';
export type {
  CardApproval,
  CardKind,
  CardOption,
  CardOptionStyle,
  CardPresentationV1,
  OpenCardSnapshotOf,
  OpenCardSnapshotV1,
} from './cards/card-schemas.js';
export type {
  CardAnswerValue,
  CardResponse,
  CardResponseOf,
  CardValue,
  CardValueByKind,
  PromptOnlyCardValue,
  PromptOnlyCardValueByKind,
} from './cards/card-responses.js';
export type { PromptOnlyCardKind } from './cards/prompt-only-cards.js';
export type { OpenCardRefusalCode } from './cards/parse-card.js';
export type { CardResponseRefusalCode } from './cards/card-response-refusals.js';
export type { CardResponseTiming } from './cards/validate-card-response.js';
export type {
  CardCodec,
  CardKindDefinition,
  CardKindDefinitions,
  CardKindPresentationSchema,
  ProductCardPresentation,
  ProductCardValueByKind,
} from './cards/card-codec.js';

export { ChatEventEnvelopeSchema } from './envelope/envelope.js';
export type { ChatEventEnvelope, ChatEventEnvelopeOf, ChatEventOf } from './envelope/envelope.js';
export { createChatCodec } from './chat-codec.js';
export type { ChatChannelOfType, ChatCodec, ChatCodecOptions, ChatEventTypeOf, EncodeChatEnvelopeResultOf } from './chat-codec.js';
export { isProductEventName } from './events/product-events.js';
export type {
  ProductEventDataOf,
  ProductEventDataSchema,
  ProductEventDefinition,
  ProductEventDefinitions,
  ProductEventNamesOn,
  ProductEventOf,
  ProductEventValidation,
} from './events/product-events.js';
export { parseChatEnvelope } from './envelope/parse-chat-envelope.js';
export type { ParseChatEnvelopeRefusalCode, ParseChatEnvelopeResult } from './envelope/parse-chat-envelope.js';
export { encodeChatEnvelope } from './envelope/encode-chat-envelope.js';
export type { ChatEnvelopeRecord, EncodeChatEnvelopeRefusalCode, EncodeChatEnvelopeResult } from './envelope/encode-chat-envelope.js';
export { chatEventEnvelopeJsonSchema } from './envelope/json-schema.js';

export { CHAT_SSE_HEARTBEAT, encodeChatSseFrame, formatChatCursor, parseChatCursor, parseChatSseMessage } from './sse/sse.js';
export type { ChatCursor, ChatSseMessage, ParseChatSseMessageRefusalCode } from './sse/sse.js';

export {
  CHAT_TURN_STATUSES,
  ChatCardStateSchema,
  ChatStateV1Schema,
  ChatToolCallStateSchema,
  ChatTurnStateSchema,
  ChatUserInputStateSchema,
  createChatState,
  parseChatState,
} from './state/state.js';
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
} from './state/state.js';
export {
  CHAT_HISTORY_ROLES,
  CHAT_HISTORY_SOURCES,
  ChatHistoryCardSchema,
  ChatHistoryPageV1Schema,
  ChatHistoryTurnV1Schema,
  parseChatHistoryPage,
} from './state/history.js';
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
} from './state/history.js';
export { historyFromChatState } from './state/history-from-state.js';
export type {
  ChatAgent,
  ChatAgentCard,
  ChatAgentCompletion,
  ChatAgentContext,
  ChatAgentFeedback,
  ChatAgentStep,
  ChatAgentTool,
  ChatAgentToolExecution,
  ChatAgentToolOutcome,
  ChatAgentTurn,
} from './agent/agent-seam.js';
export { applyChatEvent } from './state/apply-chat-event.js';
export type { ApplyChatEventRefusalCode, ApplyChatEventResult, ChatSeqGap } from './state/apply-chat-event.js';

export {
  EVENT_CHANNEL_TYPES,
  STATE_CHANNEL_TYPES,
  TRANSIENT_CHANNEL_TYPES,
  isChatEventType,
  isReplayableEvent,
  isStateChannelEvent,
  parseChatEvent,
} from './events/parse-chat-event.js';
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
} from './events/parse-chat-event.js';
