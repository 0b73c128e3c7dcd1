/**
 * The AG-UI 1.0 events this package writes and reads, typed locally so the
 * package has no runtime or type dependency on `@ag-ui/core` (its tests check
 * every written event against `@ag-ui/core`'s own `EventSchemas`). Only the
 * fields the mapping uses are typed; the wire may carry more.
 */

/** The metadata key under which the encoder puts v1 fields AG-UI has no slot for. */
export const AG_UI_METADATA_KEY = 'papercusp';

/** The AG-UI `CUSTOM` event name that carries a v1 event AG-UI has no native event for. */
export const AG_UI_CUSTOM_EVENT_NAME = 'papercusp.event';

/** A JSON value as the encoder writes it. */
type Json = unknown;

/** Fields every AG-UI event may carry. */
interface AgUiBase {
  readonly timestamp?: number;
  readonly metadata?: Readonly<Record<string, Json>>;
}

/** One AG-UI interrupt, as `RUN_FINISHED.outcome.interrupts` holds it. */
export interface AgUiInterrupt {
  readonly id: string;
  readonly reason: string;
  readonly message?: string;
  readonly expiresAt?: string;
  readonly responseSchema?: Readonly<Record<string, Json>>;
}

/** One AG-UI token usage entry. */
export interface AgUiTokenUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly totalTokens?: number;
}

/** How an AG-UI run finished. */
export type AgUiRunOutcome =
  | { readonly type: 'success' }
  | { readonly type: 'cancelled' }
  | { readonly type: 'interrupt'; readonly interrupts: readonly AgUiInterrupt[] };

/** An AG-UI 1.0 event the encoder writes (a subset of `@ag-ui/core`'s `BaseEvent` union). */
export type AgUiEvent = AgUiBase &
  (
    | { readonly type: 'RUN_STARTED'; readonly threadId: string; readonly runId: string }
    | {
        readonly type: 'RUN_FINISHED';
        readonly threadId: string;
        readonly runId: string;
        readonly outcome?: AgUiRunOutcome;
        readonly usage?: readonly AgUiTokenUsage[];
      }
    | { readonly type: 'RUN_ERROR'; readonly message: string; readonly code?: string }
    | { readonly type: 'TEXT_MESSAGE_START'; readonly messageId: string; readonly role: 'assistant' | 'user' }
    | { readonly type: 'TEXT_MESSAGE_CONTENT'; readonly messageId: string; readonly delta: string }
    | { readonly type: 'TEXT_MESSAGE_END'; readonly messageId: string }
    | { readonly type: 'REASONING_START'; readonly messageId: string }
    | { readonly type: 'REASONING_MESSAGE_START'; readonly messageId: string; readonly role: 'reasoning' }
    | { readonly type: 'REASONING_MESSAGE_CONTENT'; readonly messageId: string; readonly delta: string }
    | { readonly type: 'REASONING_MESSAGE_END'; readonly messageId: string }
    | { readonly type: 'REASONING_END'; readonly messageId: string }
    | { readonly type: 'TOOL_CALL_START'; readonly toolCallId: string; readonly toolCallName: string; readonly parentMessageId?: string }
    | { readonly type: 'TOOL_CALL_ARGS'; readonly toolCallId: string; readonly delta: string }
    | { readonly type: 'TOOL_CALL_END'; readonly toolCallId: string }
    | {
        readonly type: 'TOOL_CALL_RESULT';
        readonly messageId: string;
        readonly toolCallId: string;
        readonly content: string;
        readonly role: 'tool';
      }
    | { readonly type: 'STATE_SNAPSHOT'; readonly snapshot: Json }
    | { readonly type: 'CUSTOM'; readonly name: string; readonly value: Json }
  );

/** The `type` of an {@link AgUiEvent}. */
export type AgUiEventType = AgUiEvent['type'];
