/**
 * Replay-window validation: a pure check of what a host's log returned for
 * "the frames after this cursor". It owns the verdicts on cursors (stale,
 * beyond the latest) and on frames (foreign, duplicated, reordered, missing);
 * it does not read any log and never repairs one: a window with a hole is
 * refused, because a client folding it would render a turn with text missing.
 */
import {
  isChatEventTypeV1,
  isChatId,
  parseChatCursor,
  parseChatEnvelope,
  type ChatCursor,
  type ChatEventEnvelope,
  type ChatRefusal,
} from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { ReplayWindow } from './adapter.js';

/** Refusal codes of {@link validateReplayWindow}. */
export type ValidateReplayWindowRefusalCode =
  | 'invalid-request'
  | 'invalid-window'
  | 'invalid-cursor'
  | 'stale-cursor'
  | 'cursor-beyond-latest'
  | 'invalid-frame'
  | 'foreign-conversation'
  | 'foreign-turn'
  | 'duplicate-frame'
  | 'out-of-order-frame'
  | 'frame-gap';

/** A checked window: the complete suffix after the cursor, seq `after.seq + 1` through `latestSeq`. */
export interface ValidatedReplayWindow {
  readonly after: ChatCursor;
  readonly lowerBound: number;
  readonly latestSeq: number;
  readonly frames: readonly ChatEventEnvelope[];
}

/** The result of {@link validateReplayWindow}. */
export type ValidateReplayWindowResult =
  { readonly ok: true; readonly value: ValidatedReplayWindow } | ChatRefusal<ValidateReplayWindowRefusalCode>;

/**
 * How {@link validateReplayWindow} reads the frames. `parse` (the default):
 * each frame goes through core's strict parser and the value holds fresh
 * copies. `logged`: the frames come from a `ChatEventLog`, which parsed each
 * one strictly on `append`, so only what the window's rules need is read and
 * checked (a plain object whose `conversationId`, `turnId` and `eventId` are
 * ids, whose `seq` is a count and whose `event.type` is a v1 event type; else
 * `invalid-frame`) and the value holds the log's own objects.
 */
export interface ValidateReplayWindowOptions {
  readonly frames?: 'parse' | 'logged';
}

/** Which turn the window must belong to, and the cursor it answers (a `Last-Event-ID` string or a cursor). */
export interface ReplayWindowExpectation {
  readonly conversationId: string;
  readonly turnId: string;
  readonly after: string | ChatCursor;
}

function refusal(
  code: ValidateReplayWindowRefusalCode,
  message: string,
  path: readonly (string | number)[] = [],
): ChatRefusal<ValidateReplayWindowRefusalCode> {
  return refuse(code, message, [{ path, message }]);
}

// `-0` is not a seq: JSON writes it as `0`, so it would not survive a round trip (issue 12).
function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0);
}

// What the window's rules read of a logged frame, without parsing the rest: the log parsed it strictly on append.
function readLoggedFrame(frame: unknown): ChatEventEnvelope | null {
  try {
    if (typeof frame !== 'object' || frame === null || Array.isArray(frame)) return null;
    const { conversationId, turnId, eventId, seq, event } = frame as Record<string, unknown>;
    if (!isChatId(conversationId) || !isChatId(turnId) || !isChatId(eventId) || !isCount(seq)) return null;
    if (typeof event !== 'object' || event === null || !isChatEventTypeV1((event as { type?: unknown }).type)) return null;
    return frame as ChatEventEnvelope;
  } catch {
    return null;
  }
}

/**
 * Reads a cursor for `turnId`: a `Last-Event-ID` string (core's
 * `parseChatCursor`) or a `{ turnId, seq }` object. `invalid-cursor` when
 * malformed, `foreign-turn` when it names another turn.
 */
export function readReplayCursor(after: unknown, turnId: string): ChatCursor | ChatRefusal<'invalid-cursor' | 'foreign-turn'> {
  let cursor: ChatCursor | null = null;
  try {
    if (typeof after === 'string') cursor = parseChatCursor(after);
    else if (typeof after === 'object' && after !== null) {
      const { turnId: cursorTurnId, seq } = after as { turnId?: unknown; seq?: unknown };
      if (typeof cursorTurnId === 'string' && isCount(seq)) cursor = { turnId: cursorTurnId, seq };
    }
  } catch {
    cursor = null;
  }
  if (cursor === null)
    return {
      ok: false,
      code: 'invalid-cursor',
      message: 'after: expected "<turnId>:<seq>" or { turnId, seq } with a non-negative safe integer seq',
    };
  if (cursor.turnId !== turnId) {
    return {
      ok: false,
      code: 'foreign-turn',
      message: `after: the cursor names turn ${JSON.stringify(cursor.turnId)}, not ${JSON.stringify(turnId)}`,
    };
  }
  return cursor;
}

/**
 * Checks a host's replay window against the cursor it answers.
 *
 * Guarantees, in this order: the expectation can be read and names the
 * conversation and turn with v1 ids (`invalid-request`); the window states `lowerBound ≤ latestSeq`, both
 * non-negative safe integers, and a frame list (`invalid-window`); the cursor
 * parses (`invalid-cursor`) and names this turn (`foreign-turn`); it is not
 * below the retained lower bound (`stale-cursor`) nor past the latest seq
 * (`cursor-beyond-latest`). Then each frame, in order: it is a v1 envelope
 * (`invalid-frame`, checked by core's strict parser), of this conversation
 * (`foreign-conversation`) and turn (`foreign-turn`), not a seq or event id seen
 * before (`duplicate-frame`), not past the latest seq (`invalid-window`), not
 * behind the seq it should be or ahead of one that comes later
 * (`out-of-order-frame`), not skipping one (`frame-gap`); and the frames reach
 * `latestSeq` (`frame-gap`). On success the value is the complete suffix
 * `after.seq + 1 … latestSeq` as fresh objects, and `lowerBound`/`latestSeq`
 * are reported even when it is empty. A seq or bound of `-0` is refused (it
 * would come back as `0`). Under `options.frames: 'logged'` every rule holds
 * but a frame's content is not parsed again (see {@link ValidateReplayWindowOptions}).
 * Pure: never throws, on any argument (null, getters, Proxies, cycles), and never mutates.
 */
export function validateReplayWindow(
  window: ReplayWindow,
  expected: ReplayWindowExpectation,
  options?: ValidateReplayWindowOptions,
): ValidateReplayWindowResult {
  let logged: boolean;
  try {
    logged = options?.frames === 'logged';
  } catch {
    return refusal('invalid-request', 'the options cannot be read', ['options']);
  }
  let conversationId: unknown;
  let turnId: unknown;
  let after: unknown;
  try {
    ({ conversationId, turnId, after } = expected);
  } catch {
    return refusal('invalid-request', 'the expectation { conversationId, turnId, after } cannot be read', ['expected']);
  }
  if (!isChatId(conversationId) || !isChatId(turnId)) {
    return refusal('invalid-request', 'the expectation must name the conversation and turn with v1 ids', ['expected']);
  }
  let lowerBound: unknown;
  let latestSeq: unknown;
  let frames: unknown;
  let frameList: readonly unknown[];
  try {
    ({ lowerBound, latestSeq, frames } = window);
    // A fresh copy, read once: an array Proxy's traps cannot throw (or answer differently) later.
    frameList = Array.isArray(frames) ? Array.prototype.slice.call(frames) : [];
  } catch {
    return refusal('invalid-window', 'the window cannot be read');
  }
  if (!isCount(lowerBound) || !isCount(latestSeq) || lowerBound > latestSeq) {
    return refusal('invalid-window', 'the window must state 0 ≤ lowerBound ≤ latestSeq as safe integers', ['lowerBound']);
  }
  if (!Array.isArray(frames)) return refusal('invalid-window', 'the window must list its frames', ['frames']);
  const cursor = readReplayCursor(after, turnId);
  if ('ok' in cursor) return { ...cursor, issues: [{ path: ['after'], message: cursor.message }] };
  if (cursor.seq < lowerBound) {
    return refusal(
      'stale-cursor',
      `the cursor seq ${cursor.seq} is below the retained lower bound ${lowerBound}: frames after it are gone`,
      ['after'],
    );
  }
  if (cursor.seq > latestSeq) {
    return refusal('cursor-beyond-latest', `the cursor seq ${cursor.seq} is beyond the latest seq ${latestSeq}`, ['after']);
  }

  const envelopes: ChatEventEnvelope[] = [];
  for (let index = 0; index < frameList.length; index += 1) {
    if (logged) {
      const frame = readLoggedFrame(frameList[index]);
      if (frame === null) {
        return refusal('invalid-frame', `frames[${index}]: not a logged v1 envelope (ids, seq, event type)`, ['frames', index]);
      }
      envelopes.push(frame);
      continue;
    }
    const parsed = parseChatEnvelope(frameList[index]);
    if (!parsed.ok) return refusal('invalid-frame', `frames[${index}]: ${parsed.code}: ${parsed.message}`, ['frames', index]);
    envelopes.push(parsed.value);
  }
  const seenSeqs = new Set<number>();
  const seenEventIds = new Set<string>();
  let nextSeq = cursor.seq + 1;
  for (let index = 0; index < envelopes.length; index += 1) {
    const envelope = envelopes[index] as ChatEventEnvelope;
    const path = ['frames', index];
    if (envelope.conversationId !== conversationId) {
      return refusal('foreign-conversation', `frames[${index}] belongs to conversation ${JSON.stringify(envelope.conversationId)}`, path);
    }
    if (envelope.turnId !== turnId)
      return refusal('foreign-turn', `frames[${index}] belongs to turn ${JSON.stringify(envelope.turnId)}`, path);
    if (seenSeqs.has(envelope.seq) || seenEventIds.has(envelope.eventId)) {
      return refusal(
        'duplicate-frame',
        `frames[${index}] repeats seq ${envelope.seq} or event id ${JSON.stringify(envelope.eventId)}`,
        path,
      );
    }
    seenSeqs.add(envelope.seq);
    seenEventIds.add(envelope.eventId);
    if (envelope.seq > latestSeq)
      return refusal('invalid-window', `frames[${index}] has seq ${envelope.seq}, beyond the stated latest seq ${latestSeq}`, path);
    if (envelope.seq < nextSeq)
      return refusal('out-of-order-frame', `frames[${index}] has seq ${envelope.seq} where seq ${nextSeq} was due`, path);
    if (envelope.seq > nextSeq) {
      const due = nextSeq;
      const comesLater = envelopes.slice(index + 1).some((later) => later.seq >= due && later.seq < envelope.seq);
      return comesLater
        ? refusal('out-of-order-frame', `frames[${index}] has seq ${envelope.seq} before seq ${due}`, path)
        : refusal('frame-gap', `frames[${index}] has seq ${envelope.seq}: seq ${due} is missing`, path);
    }
    nextSeq += 1;
  }
  if (nextSeq <= latestSeq)
    return refusal('frame-gap', `the frames stop at seq ${nextSeq - 1}; the latest seq is ${latestSeq}`, ['frames']);
  return { ok: true, value: { after: { turnId: cursor.turnId, seq: cursor.seq }, lowerBound, latestSeq, frames: envelopes } };
}
