/**
 * The v1 reducer: applies one envelope to a `ChatStateV1` and returns a new
 * state that shares what did not change, or a typed refusal. Redelivery of an
 * identical envelope is a no-op; anything that contradicts what was applied
 * fails closed. It never mutates its input and never reads a clock.
 */
import { digestEnvelope } from './digest.js';
import type { ChatEventEnvelope, ChatEventEnvelopeOf } from './envelope.js';
import type { ChatEventV1 } from './events.js';
import { refuse, type ChatRefusal } from './result.js';
import type { ChatCursor } from './sse.js';
import type { ChatStateOf, ChatStateV1, ChatTurnState } from './state.js';

/** Refusal codes of {@link applyChatEvent}. */
export type ApplyChatEventRefusalCode =
  | 'foreign-conversation'
  | 'seq-gap'
  | 'conflicting-duplicate'
  | 'turn-terminal'
  | 'unknown-tool-call'
  | 'duplicate-tool-call'
  | 'duplicate-tool-result'
  | 'tool-name-mismatch'
  | 'unknown-card'
  | 'duplicate-card'
  | 'card-closed'
  | 'stale-state';

/** A gap: the envelope's seq is past the next one; replay after `replayAfter` to fill it. */
export interface ChatSeqGap extends ChatRefusal<'seq-gap'> {
  readonly expectedSeq: number;
  readonly replayAfter: ChatCursor;
}

/** Result of {@link applyChatEvent}; `State` is `ChatStateOf<Card>` for a product's card vocabulary. */
export type ApplyChatEventResult<State = ChatStateV1> =
  | { readonly ok: true; readonly state: State; readonly outcome: 'applied' | 'duplicate' }
  | ChatSeqGap
  | ChatRefusal<Exclude<ApplyChatEventRefusalCode, 'seq-gap'>>;

// The memory is kept in each turn's `eventLog`; this index over it answers
// "was this event id seen?" in O(1). An index belongs to the newest state derived
// from it (its head); applying to any other state rebuilds it, so two branches
// from one state never see each other's events. The index of the state applied
// last is held in `hot` (no bookkeeping on a single stream's hot path); switching
// to another conversation parks it in a WeakMap.
interface MemoryIndex {
  head: ChatStateV1;
  readonly eventIds: Set<string>;
  readonly turnIndex: Map<string, number>;
  readonly lines: Map<string, string[]>;
}
let hot: MemoryIndex | undefined;
const parked = new WeakMap<ChatStateV1, MemoryIndex>();

function indexOf(state: ChatStateV1): MemoryIndex {
  if (hot !== undefined && hot.head === state) return hot;
  const parkedIndex = parked.get(state);
  const index = parkedIndex !== undefined && parkedIndex.head === state ? parkedIndex : buildIndex(state);
  if (hot !== undefined) parked.set(hot.head, hot);
  hot = index;
  return index;
}

function buildIndex(state: ChatStateV1): MemoryIndex {
  const index: MemoryIndex = { head: state, eventIds: new Set(), turnIndex: new Map(), lines: new Map() };
  state.turns.forEach((turn, position) => {
    index.turnIndex.set(turn.turnId, position);
    const lines = turn.eventLog.split('\n');
    index.lines.set(turn.turnId, lines);
    for (const line of lines) index.eventIds.add(line.slice(0, line.indexOf(' ')));
  });
  return index;
}

/**
 * Applies one v1 envelope (as returned by `parseChatEnvelope`) to `state`.
 *
 * Seqs are contiguous per turn from 1; a turn appears with its seq-1 event.
 * `done` and `error` are terminal and symmetric: after either, anything new is
 * `turn-terminal`, while an identical redelivery is still `duplicate`. The same
 * event id or seq with different content is `conflicting-duplicate`. A gap
 * returns `seq-gap` with the cursor to replay after. The result shares unchanged
 * parts with `state` and with the envelope; treat both as immutable.
 */
export function applyChatEvent(state: ChatStateV1, envelope: ChatEventEnvelope): ApplyChatEventResult;
/** Applies an envelope of a product's card vocabulary (see `createChatCodec`); the rules are the same. */
export function applyChatEvent<Card extends { readonly correlationId: string }>(
  state: ChatStateOf<Card>,
  envelope: ChatEventEnvelopeOf<Card>,
): ApplyChatEventResult<ChatStateOf<Card>>;
export function applyChatEvent(state: ChatStateV1, envelope: ChatEventEnvelope): ApplyChatEventResult {
  if (envelope.conversationId !== state.conversationId) {
    return refuse('foreign-conversation', `envelope belongs to conversation ${envelope.conversationId}`);
  }
  const index = indexOf(state);
  const { turnId, seq, eventId } = envelope;
  const position = index.turnIndex.get(turnId);
  const turn = position === undefined ? undefined : state.turns[position];
  const lastSeq = turn?.lastSeq ?? 0;
  const digest = digestEnvelope(envelope);

  if (seq <= lastSeq) {
    const line = index.lines.get(turnId)?.[seq - 1];
    return line === `${eventId} ${digest}`
      ? { ok: true, state, outcome: 'duplicate' }
      : refuse('conflicting-duplicate', `seq ${seq} of turn ${turnId} was applied with other content`);
  }
  if (turn !== undefined && turn.status !== 'running') {
    return refuse('turn-terminal', `turn ${turnId} already ended as ${turn.status}`);
  }
  if (seq !== lastSeq + 1) {
    return {
      ok: false,
      code: 'seq-gap',
      message: `expected seq ${lastSeq + 1} of turn ${turnId}, got ${seq}`,
      expectedSeq: lastSeq + 1,
      replayAfter: { turnId, seq: lastSeq },
    };
  }
  if (index.eventIds.has(eventId)) {
    return refuse('conflicting-duplicate', `event id ${eventId} was already applied at another position`);
  }

  const line = eventId + ' ' + digest;
  // A fresh turn this call owns: reduceTurn writes the event's effect into it.
  const nextTurn = advanceTurn(turn ?? newTurn(turnId), seq, turn === undefined ? line : turn.eventLog + '\n' + line);
  const refusal = reduceTurn(nextTurn, envelope.event);
  if (refusal !== null) return refusal;
  const turns = state.turns.slice();
  if (position === undefined) turns.push(nextTurn);
  else turns[position] = nextTurn;
  const next: ChatStateV1 = { schemaVersion: 1, conversationId: state.conversationId, turns };

  // The new state takes over the index (it is `hot`); `state` rebuilds if used again.
  index.head = next;
  index.eventIds.add(eventId);
  if (position === undefined) {
    index.turnIndex.set(turnId, turns.length - 1);
    index.lines.set(turnId, [line]);
  } else {
    index.lines.get(turnId)?.push(line);
  }
  return { ok: true, state: next, outcome: 'applied' };
}

function newTurn(turnId: string): ChatTurnState {
  return {
    turnId,
    status: 'running',
    lastSeq: 0,
    text: '',
    reasoning: '',
    toolCalls: [],
    cards: [],
    hostState: null,
    provenance: null,
    stopReason: null,
    usage: null,
    error: null,
    eventLog: '',
  };
}

// Every field spelled out, in schema order: one object shape for every turn,
// which the engine copies far faster than a spread with overrides.
function advanceTurn(turn: ChatTurnState, lastSeq: number, eventLog: string): ChatTurnState {
  return {
    turnId: turn.turnId,
    status: turn.status,
    lastSeq,
    text: turn.text,
    reasoning: turn.reasoning,
    toolCalls: turn.toolCalls,
    cards: turn.cards,
    hostState: turn.hostState,
    provenance: turn.provenance,
    stopReason: turn.stopReason,
    usage: turn.usage,
    error: turn.error,
    eventLog,
  };
}

type TurnRefusal = ChatRefusal<
  Exclude<ApplyChatEventRefusalCode, 'seq-gap' | 'foreign-conversation' | 'conflicting-duplicate' | 'turn-terminal'>
>;

/** Writes the event's effect into `turn`, a copy owned by the caller; a refusal leaves it unused. */
function reduceTurn(turn: ChatTurnState, event: ChatEventV1): TurnRefusal | null {
  switch (event.type) {
    case 'delta':
      turn.text += event.text;
      return null;
    case 'reasoning':
      turn.reasoning += event.text;
      return null;
    case 'tool_call': {
      if (turn.toolCalls.some((call) => call.callId === event.callId)) {
        return refuse('duplicate-tool-call', `tool call ${event.callId} was already made`);
      }
      turn.toolCalls = [...turn.toolCalls, { callId: event.callId, name: event.name, input: event.input ?? null, result: null }];
      return null;
    }
    case 'tool_result': {
      const at = turn.toolCalls.findIndex((call) => call.callId === event.callId);
      const call = turn.toolCalls[at];
      if (call === undefined) return refuse('unknown-tool-call', `no tool call ${event.callId} in this turn`);
      if (call.result !== null) return refuse('duplicate-tool-result', `tool call ${event.callId} already has a result`);
      if (call.name !== event.name) {
        return refuse('tool-name-mismatch', `tool call ${event.callId} called ${call.name}, the result names ${event.name}`);
      }
      const { type: _type, callId: _callId, name: _name, ...result } = event;
      turn.toolCalls = turn.toolCalls.slice();
      turn.toolCalls[at] = { ...call, result };
      return null;
    }
    case 'provenance':
      turn.provenance = { engine: event.engine, model: event.model, accountRoute: event.accountRoute ?? null };
      return null;
    case 'card': {
      const { correlationId } = event.card;
      if (turn.cards.some((entry) => entry.card.correlationId === correlationId)) {
        return refuse('duplicate-card', `card ${correlationId} was already asked`);
      }
      turn.cards = [...turn.cards, { card: event.card, closed: false, resolution: null }];
      return null;
    }
    case 'card_closed': {
      const at = turn.cards.findIndex((entry) => entry.card.correlationId === event.correlationId);
      const entry = turn.cards[at];
      if (entry === undefined) return refuse('unknown-card', `no card ${event.correlationId} in this turn`);
      if (entry.closed) return refuse('card-closed', `card ${event.correlationId} is already closed`);
      turn.cards = turn.cards.slice();
      turn.cards[at] = { ...entry, closed: true, resolution: event.resolution ?? null };
      return null;
    }
    case 'state':
      if (turn.hostState !== null && event.version <= turn.hostState.version) {
        return refuse('stale-state', `state version ${event.version} is not after ${turn.hostState.version}`);
      }
      turn.hostState = { version: event.version, snapshot: event.snapshot };
      return null;
    case 'navigate':
      return null;
    case 'done':
      turn.status = event.status;
      turn.stopReason = event.stopReason ?? null;
      turn.usage = event.usage ?? null;
      return null;
    case 'error':
      turn.status = 'failed';
      turn.error = {
        code: event.code,
        message: event.message,
        retryable: event.retryable,
        retryAfterMs: event.retryAfterMs ?? null,
      };
      return null;
  }
}
