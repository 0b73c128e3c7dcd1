/**
 * The closed word lists of v1 events (tool result statuses, `done` statuses,
 * card resolutions), zod-free so the hot-path validator can read them without
 * importing the event schemas, which in turn derive their allowlist from it.
 */

/** Outcomes of a tool call. */
export const TOOL_RESULT_STATUSES = ['succeeded', 'failed', 'cancelled', 'needs-reconciliation'] as const;
/** How a turn ended through `done`. */
export const DONE_STATUSES = ['completed', 'cancelled', 'interrupted', 'needs-reconciliation'] as const;
/** How a card closed. */
export const CARD_RESOLUTIONS = ['submitted', 'declined', 'cancelled', 'expired', 'interrupted'] as const;
/** Where the person's message came from: typed, spoken (speech to text), or written by the host. */
export const USER_INPUT_SOURCES = ['text_typed', 'voice_stt', 'system'] as const;
