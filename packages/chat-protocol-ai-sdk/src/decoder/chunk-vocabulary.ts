/**
 * The UI message stream's chunk vocabulary as the decoder reads it: which chunks are transport (no envelope), which
 * have no v1 meaning, the `data-*` part of each v1 event, and the fields each chunk type hands to v1 (any other field
 * present is reported lost). It owns no decoding state.
 */
import { CHAT_EVENT_FIELDS, isChatEventTypeV1 } from '@papercusp/chat-protocol-core';
import { AI_SDK_DATA_PARTS, type AiSdkLoss } from '../ui-message-chunk.js';
import type { Fields } from './read-chunk.js';

// Every lookup keyed by a chunk's own strings goes through a Set or a Map: a plain
// record would answer `toString` or `constructor` from Object.prototype.

/** Structural chunks: no envelope. */
export const TRANSPORT = new Set([
  'start',
  'start-step',
  'finish-step',
  'text-start',
  'text-end',
  'reasoning-start',
  'reasoning-end',
  'tool-input-start',
  'tool-input-delta',
]);
/** Chunks with no v1 meaning. AI SDK 7 adds `custom`, `reasoning-file` and `reset-step` (v1 cannot retract a step already streamed). */
export const UNSUPPORTED = new Set(['source-url', 'source-document', 'file', 'message-metadata', 'custom', 'reasoning-file', 'reset-step']);
/** The v1 event each `data-*` part carries. */
export const DATA_EVENTS: ReadonlyMap<string, keyof typeof AI_SDK_DATA_PARTS> = new Map(
  Object.entries(AI_SDK_DATA_PARTS).map(([type, part]) => [part, type as keyof typeof AI_SDK_DATA_PARTS]),
);
/** The fields each chunk type hands to v1; any other field present is reported lost. */
const CARRIED: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>(
  Object.entries({
    'text-delta': ['id', 'delta'],
    'reasoning-delta': ['id', 'delta'],
    // A part's id is reported once, on its start: v1 keeps one text and one reasoning per turn.
    'text-start': [],
    'text-end': ['id'],
    'reasoning-start': [],
    'reasoning-end': ['id'],
    'start-step': [],
    'finish-step': [],
    // The host's turn id names the turn, so the stream's message id is reported lost.
    start: [],
    'tool-input-start': ['toolCallId', 'toolName'],
    'tool-input-delta': ['toolCallId', 'inputTextDelta'],
    'tool-input-available': ['toolCallId', 'toolName', 'input'],
    'tool-input-error': ['toolCallId', 'toolName', 'input', 'errorText'],
    'tool-output-available': ['toolCallId', 'output', 'preliminary'],
    'tool-output-error': ['toolCallId', 'errorText'],
    'tool-output-denied': ['toolCallId'],
    'tool-approval-request': ['approvalId', 'toolCallId'],
    'tool-approval-response': ['approvalId', 'approved'],
    error: ['errorText'],
    finish: ['finishReason'],
    abort: ['reason'],
  }),
);
const DATA_CARRIED = ['id', 'data', 'transient'];

/** The chunk's fields its type does not hand to v1, as loss. */
export function lostFields(chunk: Fields, type: string): AiSdkLoss[] {
  const carried = CARRIED.get(type) ?? (type.startsWith('data-') ? DATA_CARRIED : undefined);
  if (carried === undefined) return [];
  return Object.keys(chunk)
    .filter((field) => field !== 'type' && !carried.includes(field) && chunk[field] !== undefined)
    .map((field) => ({ field, reason: `v1 has no place for a ${type} chunk's ${field}` }));
}

/** A `data-*` part's data fields its v1 event does not have, as loss. */
export function dataLost(chunk: Fields, type: string): AiSdkLoss[] {
  const event = DATA_EVENTS.get(type);
  if (event === undefined || event === 'card' || !isChatEventTypeV1(event)) return [];
  const allowed: readonly string[] = CHAT_EVENT_FIELDS[event];
  return Object.keys(chunk['data'] as object)
    .filter((field) => !allowed.includes(field))
    .map((field) => ({ field: `data.${field}`, reason: `a v1 ${event} event has no ${field}` }));
}
