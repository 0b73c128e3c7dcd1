/**
 * @papercusp/chat-protocol-legacy-adapter: decode, upgrade and encode the
 * unversioned (legacy0) chat frames still on the wire. Every export is listed
 * by name; `index.test.ts` pins the list.
 */
export { defineLegacyDialect } from './define-legacy-dialect.js';
export type {
  LegacyDialect,
  LegacyDialectDefinition,
  LegacyEventOf,
  LegacyEventType,
  LegacyFieldKind,
  LegacyFieldKindTypes,
  LegacyFieldMap,
  LegacyFieldSpec,
  LegacyFieldsOf,
  LegacyPrimitive,
  LegacyTransportRole,
  LegacyTransportType,
  LegacyTypeSource,
  RequiredLegacyFieldKind,
} from './define-legacy-dialect.js';
export { papercup, scout } from './built-in-dialects.js';
export { decodeLegacyChatFrame } from './decode.js';
export type { DecodeLegacyChatFrameRefusalCode, DecodeLegacyChatFrameResult } from './decode.js';
export { upgradeLegacyChatFrame } from './upgrade.js';
export type {
  LegacyCallIdMapping,
  LegacyCallIdRequest,
  LegacyEnvelopeIdentity,
  LegacyTransportFrame,
  LegacyUpgradeContext,
  LegacyUpgradedEnvelope,
  UpgradeLegacyChatFrameRefusalCode,
  UpgradeLegacyChatFrameResult,
} from './upgrade.js';
export type { LegacyCardRefusal, LegacyCardRefusalReason } from './legacy-card.js';
export { upgradeLegacyChatTurn } from './upgrade-chat-turn.js';
export type { LegacyChatTurnOptions, UpgradeLegacyChatTurnRefusalCode, UpgradeLegacyChatTurnResult } from './upgrade-chat-turn.js';
export type { LegacyProductEvents } from './product-frames.js';
export { encodeLegacyChatFrame } from './encode.js';
export type { EncodeLegacyChatFrameRefusalCode, EncodeLegacyChatFrameResult, LegacyChatFrame } from './encode.js';
export type { EncodeLegacyChatFrameOptions, LegacyFrameIds } from './encode.js';
export { parseLegacyLastEventId } from './legacy-last-event-id.js';
export { encodeLegacyControlFrame } from './control-frame.js';
export type {
  EncodeLegacyControlFrameRefusalCode,
  EncodeLegacyControlFrameResult,
  LegacyControlFrame,
  LegacyControlMessage,
} from './control-frame.js';
export { createChatFrameDecoder } from './frame-decoder.js';
export type {
  ChatFrameDecoder,
  ChatFrameDecoderContext,
  ChatFrameDecoderCounts,
  ChatFrameDecoderRefusalCode,
  ChatFrameDecoderResult,
} from './frame-decoder.js';
