/**
 * The AG-UI 1.0 event vocabulary as the decoder reads it: which event types exist, which have no v1 meaning, the
 * fields each type's mapping reads (any other field is reported lost), and the small readers every mapping shares
 * over an event's plain-data copy. It owns no decoding state and makes no envelope.
 */
import { AG_UI_METADATA_KEY } from '../ag-ui-event.js';
import type { AgUiLoss } from '../loss.js';

/** An AG-UI event or v1 event as plain data (the decoder's copy). */
export type Fields = Readonly<Record<string, unknown>>;

/**
 * Per AG-UI type, the fields the mapping reads; any other field present is reported lost. A Map, so a `type` such as
 * `toString` or `constructor` finds nothing inherited.
 */
export const READ_FIELDS: ReadonlyMap<string, readonly string[]> = new Map(
  Object.entries({
    RUN_STARTED: ['threadId', 'runId', 'input'],
    RUN_FINISHED: ['threadId', 'runId', 'outcome', 'usage'],
    RUN_ERROR: ['message', 'code'],
    TEXT_MESSAGE_START: ['messageId', 'role'],
    TEXT_MESSAGE_CONTENT: ['messageId', 'delta'],
    TEXT_MESSAGE_END: ['messageId'],
    REASONING_START: ['messageId'],
    REASONING_MESSAGE_START: ['messageId', 'role'],
    REASONING_MESSAGE_CONTENT: ['messageId', 'delta'],
    REASONING_MESSAGE_END: ['messageId'],
    REASONING_END: ['messageId'],
    TOOL_CALL_START: ['toolCallId', 'toolCallName'],
    TOOL_CALL_ARGS: ['toolCallId', 'delta'],
    TOOL_CALL_END: ['toolCallId'],
    TOOL_CALL_RESULT: ['messageId', 'toolCallId', 'content', 'role'],
    STATE_SNAPSHOT: ['snapshot'],
    STATE_DELTA: ['delta'],
    CUSTOM: ['name', 'value'],
  }),
);

/** AG-UI 1.0 event types with no v1 meaning: refused as `unsupported-event`. */
export const NO_V1_MEANING = new Set([
  'MESSAGES_SNAPSHOT',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'RAW',
  'STEP_STARTED',
  'STEP_FINISHED',
  'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED',
  'SUBAGENT_FINISHED',
  'SUBAGENT_ERROR',
]);

/** The fields of `input` its mapping did not read (`read`), and `metadata` keys other than this package's, as loss. */
export function unreadFields(input: Fields, read: readonly string[]): AgUiLoss[] {
  const lost: AgUiLoss[] = [];
  for (const key of Object.keys(input)) {
    if (key === 'type' || key === 'timestamp' || read.includes(key)) continue;
    if (key === 'metadata' && isRecord(input['metadata'])) {
      for (const metadataKey of Object.keys(input['metadata'])) {
        if (metadataKey !== AG_UI_METADATA_KEY) lost.push({ field: `metadata.${metadataKey}`, reason: 'v1 events have no open metadata' });
      }
      continue;
    }
    lost.push({ field: key, reason: 'v1 has no field for it' });
  }
  return lost;
}

/** Whether a continuation may continue its opener: one that names a producer must name its opener's; one that names none continues it. */
export function sameProducer(input: Fields, opener: unknown): boolean {
  return input['subagentRunId'] === undefined || input['subagentRunId'] === opener;
}

/** A Map lookup by a field that may not be a string: anything else finds nothing (never `String(value)`'s "[object Object]"). */
export function lookup<Value>(map: ReadonlyMap<string, Value>, key: unknown): Value | undefined {
  return typeof key === 'string' ? map.get(key) : undefined;
}

/** A value in a refusal message: `String` of a copied object with its own `toString` field would throw. */
export function describe(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null ? 'null' : typeof value;
}

/** Whether `value` is one of `values`. */
export function isOneOf<Value extends string>(value: unknown, values: readonly Value[]): value is Value {
  return typeof value === 'string' && (values as readonly string[]).includes(value);
}

/** Whether `value` is an object that is not an array (plain data: the decoder reads copies only). */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
