/**
 * The AI SDK 6 UI message stream chunks this package writes and reads, as
 * plain structural types: no runtime or type dependency on the `ai` package.
 * The tests hold every chunk the encoder writes to the `ai` package's own
 * `uiMessageChunkSchema`. It owns the data-part names of v1 events the stream
 * has no chunk for; it does not own the AI SDK's message model.
 */

/** The AI SDK's finish reasons (`finish.finishReason`). */
export const AI_SDK_FINISH_REASONS = ['stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'] as const;

/** One of {@link AI_SDK_FINISH_REASONS}. */
export type AiSdkFinishReason = (typeof AI_SDK_FINISH_REASONS)[number];

/**
 * The `data-*` part names that carry v1 events the UI message stream has no
 * chunk for. `navigate` is written `transient` (it is not part of the message).
 */
export const AI_SDK_DATA_PARTS = {
  user_input: 'data-user-input',
  provenance: 'data-provenance',
  card: 'data-card',
  card_closed: 'data-card-closed',
  state: 'data-state',
  navigate: 'data-navigate',
} as const;

/**
 * The `data-*` part written just before a turn's terminal chunk with the
 * fields `finish`, `abort` and `error` cannot hold (a done's usage, awaiting
 * cards, a stop reason that is not a finish reason, an interrupted or
 * needs-reconciliation status; an error's code and retry permission). The
 * decoder folds it into the terminal envelope, so the round trip keeps them.
 */
export const AI_SDK_TURN_END_PART = 'data-turn-end';

/**
 * The `data-*` part written just before a `tool-output-error` or
 * `tool-output-denied` whose chunk cannot hold the whole v1 tool result: its
 * `data` is the result's `status`, `summary`, `blocks` and `error` (absent
 * when the result had none, so the chunk's error text is not read as one).
 * Its `id` is the call id, so the AI SDK keeps it in the message beside the
 * tool part; the decoder folds it into the tool result.
 */
export const AI_SDK_TOOL_RESULT_PART = 'data-tool-result';

/** A `data-*` part name of {@link AI_SDK_DATA_PARTS}. */
export type AiSdkDataPartName = (typeof AI_SDK_DATA_PARTS)[keyof typeof AI_SDK_DATA_PARTS];

/** A UI message chunk as the encoder writes it (a subset of the AI SDK's `UIMessageChunk`). */
export type AiSdkUiMessageChunk =
  | { readonly type: 'start'; readonly messageId?: string }
  | { readonly type: 'finish'; readonly finishReason?: AiSdkFinishReason }
  | { readonly type: 'abort'; readonly reason?: string }
  | { readonly type: 'error'; readonly errorText: string }
  | { readonly type: 'text-start' | 'text-end' | 'reasoning-start' | 'reasoning-end'; readonly id: string }
  | { readonly type: 'text-delta' | 'reasoning-delta'; readonly id: string; readonly delta: string }
  | { readonly type: 'tool-input-available'; readonly toolCallId: string; readonly toolName: string; readonly input: unknown }
  | { readonly type: 'tool-output-available'; readonly toolCallId: string; readonly output: unknown }
  | { readonly type: 'tool-output-error'; readonly toolCallId: string; readonly errorText: string }
  | { readonly type: 'tool-output-denied'; readonly toolCallId: string }
  | { readonly type: 'tool-approval-request'; readonly approvalId: string; readonly toolCallId: string }
  | { readonly type: AiSdkDataPartName; readonly id?: string; readonly data: unknown; readonly transient?: boolean }
  | { readonly type: typeof AI_SDK_TURN_END_PART; readonly data: Readonly<Record<string, unknown>> }
  | { readonly type: typeof AI_SDK_TOOL_RESULT_PART; readonly id: string; readonly data: Readonly<Record<string, unknown>> };

/**
 * What a conversion could not carry: the field (a dotted path from the
 * envelope, such as `event.usage`, or the chunk's, such as `providerMetadata`)
 * and why. Loss is data: it is returned, never silent.
 */
export interface AiSdkLoss {
  readonly field: string;
  readonly reason: string;
}
