/**
 * The bounds every v1 parser enforces. They are part of the contract: a value
 * past a bound is refused, never truncated, so producers and consumers agree on
 * what fits without negotiating.
 */

/** Bounds enforced by the v1 parsers and the reducer. Frozen; sizes are UTF-16 code units. */
export const CHAT_LIMITS = /* @__PURE__ */ Object.freeze({
  /** Longest JSON text `parseChatEnvelope` reads, checked before `JSON.parse`. */
  maxEnvelopeLength: 1_048_576,
  /** Host-allocated ids (conversation, turn, event, tool call, card correlation). */
  maxIdLength: 256,
  /** `delta` and `reasoning` text, grounded text blocks. */
  maxTextLength: 65_536,
  /** Tool names, engine, model, account route, stop reasons, error codes, labels. */
  maxNameLength: 256,
  /** `tool_result.summary`, `error.message`, card prompts and fallback text. */
  maxSummaryLength: 4_096,
  /** `navigate.href`. */
  maxHrefLength: 2_048,
  /** Opaque source references. */
  maxRefLength: 2_048,
  /** Blocks in one `tool_result`. */
  maxBlocks: 64,
  /** Sources on one block. */
  maxSources: 32,
  /** Nesting depth of free JSON (tool input, state snapshots, data blocks, usage). */
  maxJsonDepth: 32,
  /** `error.retryAfterMs`: one day. */
  maxRetryAfterMs: 86_400_000,
  /** Correlation ids in one `done.awaiting`: the cards a finished turn leaves waiting. */
  maxAwaitingCards: 64,
});

/** The type of {@link CHAT_LIMITS}. */
export type ChatLimits = typeof CHAT_LIMITS;
