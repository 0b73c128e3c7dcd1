/**
 * AG-UI's shorthand chunk events, expanded as `@ag-ui/client`'s `transformChunks` does: a chunk opens (or continues)
 * a lane of its kind, and the lane closes at a chunk of another kind or id, or at the next event that is not a chunk
 * (a few pass it by). Each chunk decodes as the `*_START`/content events it stands for, through the decoder's own
 * `decodeOne`; what closing a lane makes travels with the next accepted event, never dropped. It owns the lane
 * record and the expansion; what the expanded events mean is the bracket modules'.
 */
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { AgUiLoss } from '../loss.js';
import type { DecodeAgUiEventRefusalCode, DecodeAgUiEventResult } from './decoder-types.js';
import { describe, unreadFields, type Fields } from './event-vocabulary.js';
import type { RunSlot } from './run-brackets.js';

/** The kind of lane a chunk event opens. */
export type ChunkKind = 'text' | 'tool' | 'reasoning';

// The chunk events and the lane kind each opens.
const CHUNK_KINDS: ReadonlyMap<string, ChunkKind> = new Map([
  ['TEXT_MESSAGE_CHUNK', 'text'],
  ['TOOL_CALL_CHUNK', 'tool'],
  ['REASONING_MESSAGE_CHUNK', 'reasoning'],
]);
const CHUNK_FIELDS: Readonly<Record<ChunkKind, readonly string[]>> = {
  text: ['messageId', 'role', 'delta'],
  tool: ['toolCallId', 'toolCallName', 'delta'],
  reasoning: ['messageId', 'delta'],
};
// Events that pass an open lane by without closing it (as in `transformChunks`); all of them are refused here.
const PASS_LANE = new Set([
  'RAW',
  'ACTIVITY_SNAPSHOT',
  'ACTIVITY_DELTA',
  'REASONING_ENCRYPTED_VALUE',
  'SUBAGENT_STARTED',
  'SUBAGENT_FINISHED',
  'SUBAGENT_ERROR',
]);

/** The chunk lane open now, and what closing one made while the event that closed it was refused. */
export interface ChunkLanes<Envelope> {
  lane: { readonly kind: ChunkKind; readonly id: string } | undefined;
  pending: { envelopes: Envelope[]; lost: AgUiLoss[] };
}

/** How a lane's events are decoded: the decoder's own pipeline, and its refusal count for a lane that cannot close. */
export interface LaneDecoding<Envelope> {
  readonly decodeOne: (input: unknown) => DecodeAgUiEventResult<Envelope>;
  readonly count: (code: DecodeAgUiEventRefusalCode) => void;
}

/** No lane open, nothing pending. */
export function createChunkLanes<Envelope>(): ChunkLanes<Envelope> {
  return { lane: undefined, pending: { envelopes: [], lost: [] } };
}

/** The lane kind an AG-UI type opens, or `undefined` when it is no chunk event. */
export function chunkKind(type: string): ChunkKind | undefined {
  return CHUNK_KINDS.get(type);
}

/** Before an event that is not a chunk: closes the open lane, unless the event passes lanes by. */
export function closeLaneBefore<Envelope>(
  lanes: ChunkLanes<Envelope>,
  type: string,
  timestamp: unknown,
  decoding: LaneDecoding<Envelope>,
): void {
  if (lanes.lane !== undefined && !PASS_LANE.has(type)) closeLane(lanes, timestamp, decoding);
}

/** What closing a lane made travels with the next accepted event, in seq order: never dropped. */
export function deliver<Envelope>(lanes: ChunkLanes<Envelope>, result: DecodeAgUiEventResult<Envelope>): DecodeAgUiEventResult<Envelope> {
  if (!result.ok || (lanes.pending.envelopes.length === 0 && lanes.pending.lost.length === 0)) return result;
  const { envelopes, lost } = lanes.pending;
  lanes.pending = { envelopes: [], lost: [] };
  return { ok: true, envelopes: [...envelopes, ...result.envelopes], lost: [...lost, ...result.lost] };
}

/** A chunk event of `kind`: the events it stands for, decoded in order (the first refusal refuses the chunk). */
export function decodeChunk<Envelope>(
  lanes: ChunkLanes<Envelope>,
  kind: ChunkKind,
  input: Fields,
  slot: RunSlot,
  decoding: LaneDecoding<Envelope>,
): DecodeAgUiEventResult<Envelope> {
  const idField = kind === 'tool' ? 'toolCallId' : 'messageId';
  const id = input[idField];
  const timing = input['timestamp'] === undefined ? {} : { timestamp: input['timestamp'] };
  if (lanes.lane !== undefined && (lanes.lane.kind !== kind || (id !== undefined && id !== lanes.lane.id)))
    closeLane(lanes, input['timestamp'], decoding);
  const conflict = laneConflict(lanes, kind, input, slot);
  if (conflict !== undefined) return refuse('invalid-event', conflict);
  const steps: Fields[] = [];
  if (lanes.lane === undefined) {
    if (typeof id !== 'string') return refuse('invalid-event', `the first ${describe(input['type'])} of a lane needs a string ${idField}`);
    if (kind === 'tool' && typeof input['toolCallName'] !== 'string')
      return refuse('invalid-event', 'the first TOOL_CALL_CHUNK of a lane needs a string toolCallName');
    if (kind === 'text') steps.push({ type: 'TEXT_MESSAGE_START', messageId: id, role: input['role'] ?? 'assistant', ...timing });
    else if (kind === 'tool') steps.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: input['toolCallName'], ...timing });
    else steps.push({ type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning', ...timing });
  }
  const laneId = lanes.lane?.id ?? (id as string);
  if (input['delta'] !== undefined) {
    const content = kind === 'text' ? 'TEXT_MESSAGE_CONTENT' : kind === 'tool' ? 'TOOL_CALL_ARGS' : 'REASONING_MESSAGE_CONTENT';
    steps.push({ type: content, [idField]: laneId, delta: input['delta'], ...timing });
  }
  const envelopes: Envelope[] = [];
  const lost: AgUiLoss[] = unreadFields(input, CHUNK_FIELDS[kind]);
  for (const step of steps) {
    const result = decoding.decodeOne(step);
    if (!result.ok) return result;
    if (typeof step['type'] === 'string' && step['type'].endsWith('_START')) lanes.lane = { kind, id: laneId };
    envelopes.push(...result.envelopes);
    lost.push(...result.lost);
  }
  return { ok: true, envelopes, lost };
}

// Closes the open lane with the END event `transformChunks` would write; a lane that cannot close (arguments that
// are not JSON) is counted as that refusal, and the event that closed it is decoded all the same.
function closeLane<Envelope>(lanes: ChunkLanes<Envelope>, timestamp: unknown, decoding: LaneDecoding<Envelope>): void {
  if (lanes.lane === undefined) return;
  const { kind, id } = lanes.lane;
  lanes.lane = undefined;
  const end =
    kind === 'text'
      ? { type: 'TEXT_MESSAGE_END', messageId: id }
      : kind === 'tool'
        ? { type: 'TOOL_CALL_END', toolCallId: id }
        : { type: 'REASONING_MESSAGE_END', messageId: id };
  const closed = decoding.decodeOne(timestamp === undefined ? end : { ...end, timestamp });
  if (!closed.ok) {
    decoding.count(closed.code);
    return;
  }
  lanes.pending.envelopes.push(...closed.envelopes);
  lanes.pending.lost.push(...closed.lost);
}

// A continuation chunk may repeat its lane's role or toolCallName, never contradict it (AG-UI's chunk rules).
function laneConflict<Envelope>(lanes: ChunkLanes<Envelope>, kind: ChunkKind, input: Fields, slot: RunSlot): string | undefined {
  const { lane } = lanes;
  const run = slot.current;
  if (lane === undefined || run === undefined) return undefined;
  if (kind === 'text' && input['role'] !== undefined && input['role'] !== run.text.get(lane.id)?.role)
    return `the TEXT_MESSAGE_CHUNK role ${describe(input['role'])} contradicts the open message's`;
  if (kind === 'tool' && input['toolCallName'] !== undefined && input['toolCallName'] !== run.calls.get(lane.id)?.name)
    return `the TOOL_CALL_CHUNK toolCallName ${describe(input['toolCallName'])} contradicts the open call's`;
  return undefined;
}
