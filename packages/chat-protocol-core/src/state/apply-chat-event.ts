/**
 * The v1 reducer: applies one envelope to a `ChatStateV1` and returns a new
 * state that shares what did not change, or a typed refusal. Redelivery of an
 * identical envelope is a no-op; anything that contradicts what was applied
 * fails closed. It never mutates its input and never reads a clock. It is not
 * a parser, but it holds every field it reads to the parser's rule, so no
 * envelope, parsed or not, makes it throw or return a state `parseChatState`
 * refuses.
 */
import { digestEnvelopeInto, digestTextEventInto } from './digest.js';
import type { ChatEventEnvelope } from '../envelope/envelope.js';
import type { ChatChannel, ChatEventV1, ChatEventV1Of } from '../events/events.js';
import { addTurn, eventAt, eventIs, hasEventId, recordEvent, turnPosition, type EventMemory } from './event-memory.js';
import { isChatIdHashed } from './event-id-hash.js';
import { itemAt, lastItem, pushItem, setItem } from './persistent-list.js';
import { isChatId, isCleanText, isSeq } from '../primitives/primitives.js';
import { refuse, type ChatRefusal } from '../primitives/result.js';
import type { ChatCursor } from '../sse/sse.js';
import type { ChatCardState, ChatStateOf, ChatStateV1 } from './state.js';
import {
  newTurnFields,
  ownMemory,
  recordOf,
  turnRecord,
  viewOf,
  type ProductEventEntry,
  type StateRecord,
  type TurnRecord,
} from './state-record.js';
import type { Rules } from '../envelope/validation/rules.js';
import { validateEvent, type ProductRules } from '../envelope/validation/validate-envelope.js';

/** Refusal codes of {@link applyChatEvent}. */
export type ApplyChatEventRefusalCode =
  | 'foreign-conversation'
  | 'seq-gap'
  | 'conflicting-duplicate'
  | 'turn-terminal'
  | 'misplaced-user-input'
  | 'unknown-tool-call'
  | 'duplicate-tool-call'
  | 'duplicate-tool-result'
  | 'tool-name-mismatch'
  | 'unknown-card'
  | 'duplicate-card'
  | 'card-closed'
  | 'card-not-awaiting'
  | 'stale-state'
  | 'invalid-envelope'
  | 'invalid-event'
  | 'unknown-event';

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

// The digest of the envelope being applied, as its two 32-bit halves. Scratch,
// not a cache: applyChatEventWith writes it and reads both halves out at once,
// in one synchronous call, so no value is carried from one call to the next.
// Pure, so a bundle that never applies an event drops it.
const digest = /* @__PURE__ */ new Int32Array(2);

/**
 * Applies one v1 envelope (as returned by `parseChatEnvelope`) to `state`.
 *
 * Seqs are contiguous per turn from 1; a turn appears with its seq-1 event.
 * `done` and `error` are terminal and symmetric: after either, anything new is
 * `turn-terminal`, while an identical redelivery is still `duplicate`. The same
 * event id or seq with different content is `conflicting-duplicate`. A gap
 * returns `seq-gap` with the cursor to replay after. The result shares unchanged
 * parts with `state` and with the envelope; treat both as immutable.
 *
 * Never throws, and every state it returns is one `parseChatState` accepts,
 * also for an envelope that was never parsed: a field it reads that breaks the
 * envelope's rules is `invalid-envelope` (the ids, `seq`, `occurredAt`, or an
 * envelope that cannot be read at all), and an event that breaks them is
 * `invalid-event` or `unknown-event`, as the parser would say. Cards are held
 * to the base v1 kinds: a product's card vocabulary applies through its
 * codec's `applyChatEvent` (`createChatCodec`), which holds them to its own.
 *
 * Cost: the same whatever the conversation's length (no copy of the turn list
 * or of the memory), except once when `state` is not the newest state derived
 * from its origin (a branch, or a state read with `parseChatState`): then the
 * memory is read or copied, O(events). The returned state's `turns` array is
 * built when first read (O(turns), once per state).
 */
export function applyChatEvent(state: ChatStateV1, envelope: ChatEventEnvelope): ApplyChatEventResult {
  return applyChatEventWith(state, envelope, undefined);
}

/** The channel of each product event a reader registered, by name (see `createChatCodec`). */
type ProductChannels = ReadonlyMap<string, ChatChannel>;

/**
 * A codec's vocabulary as the reducer needs it: the rules its card events and
 * product events are held to (see `cardEventRules`, `productEventRules`), and
 * the channel of each product event.
 */
export interface ReducerVocabulary {
  readonly cardRules: Rules | undefined;
  readonly productRules: ProductRules;
  readonly channels: ProductChannels;
}

/**
 * {@link applyChatEvent} that also applies the product events of `vocabulary`:
 * an `event`-channel one is appended to the turn's `productEvents`, a
 * `state`-channel one replaces its name's value in `productState`, and a
 * `transient` one takes its seq in the log and changes nothing else. Any
 * other type the reducer does not know is `unknown-event`.
 */
export function applyChatEventWith(
  state: ChatStateV1,
  envelope: ChatEventEnvelope,
  vocabulary: ReducerVocabulary | undefined,
): ApplyChatEventResult {
  // Every read of the envelope happens before the shared memory is written, so
  // a getter or a Proxy trap that throws leaves no trace: it is a refusal.
  try {
    return reduce(state, envelope, vocabulary);
  } catch {
    return refuse('invalid-envelope', 'the envelope cannot be read (a getter or a Proxy trap threw)');
  }
}

function reduce(state: ChatStateV1, envelope: ChatEventEnvelope, vocabulary: ReducerVocabulary | undefined): ApplyChatEventResult {
  if (typeof envelope !== 'object' || envelope === null) return refuse('invalid-envelope', 'expected an envelope object');
  // Each field is read once: what is checked is what is applied.
  const { conversationId, turnId, seq, eventId, occurredAt, event } = envelope;
  if (conversationId !== state.conversationId) {
    return isChatId(conversationId)
      ? refuse('foreign-conversation', `envelope belongs to conversation ${conversationId}`)
      : invalidEnvelope('conversationId', 'expected a v1 id');
  }
  const record = recordOf(state);
  // Most events continue the newest turn: its id is compared before the turn index is asked.
  const newest = lastItem(record.turns);
  const position =
    newest !== undefined && newest.turnId === turnId ? record.turns.size - 1 : turnPosition(record.memory, turnId, record.turns.size);
  // A text event's type and text are read once, here: what is checked, digested and applied is one value.
  const text = textEventOf(event);
  const problem =
    frameProblem(position === undefined, turnId, seq, eventId, occurredAt) ?? (text === undefined ? eventProblem(event, vocabulary) : null);
  if (problem !== null) return problem;

  const turn = position === undefined ? undefined : itemAt(record.turns, position);
  const lastSeq = turn?.lastSeq ?? 0;
  // The digest reads a text event's text anyway, and says whether it needs the clean-text rule's closer look.
  if (text === undefined) digestEnvelopeInto(envelope, digest);
  else if (digestTextEventInto(occurredAt as string, textType, text, digest) && !isCleanText(text)) return dirtyText(textType, text);
  const high = digest[0] as number;
  const low = digest[1] as number;

  if (seq <= lastSeq) {
    return position !== undefined && eventIs(record.memory, eventAt(record.memory, position, seq), eventId, high, low)
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
  if (hasEventId(record.memory, eventId, record.eventCount)) {
    return refuse('conflicting-duplicate', `event id ${eventId} was already applied at another position`);
  }

  // A fresh turn this call owns: reduceTurn writes the event's effect into it.
  const nextTurn = turnRecord(turn ?? newTurnFields(turnId), seq, undefined);
  const refusal = text === undefined ? reduceTurn(nextTurn, event, vocabulary?.channels) : appendText(nextTurn, textType, text);
  const at = position ?? record.turns.size;
  // The card index is read only from a memory this state owns (a branch copies it first).
  let owned: EventMemory | undefined;
  const memoryOf = (): EventMemory => (owned ??= ownMemory(record));
  let earlier: { readonly position: number; readonly turn: TurnRecord } | undefined;
  const askedCard = text === undefined && event.type === 'card' ? event.card.correlationId : undefined;
  if (refusal === ANOTHER_TURN) {
    const closed = closeAwaitingCard(record, memoryOf(), at, turnId, event as ChatEventV1Of<'card_closed'>);
    if (!('turn' in closed)) return closed;
    earlier = closed;
  } else if (refusal !== null) {
    return refusal;
  } else if (askedCard !== undefined) {
    const waiting = awaitingCardAt(record, memoryOf(), askedCard);
    if (waiting !== undefined) {
      return refuse('duplicate-card', `card ${askedCard} awaits an answer from turn ${waiting.turn.turnId}`);
    }
  }
  const memory = memoryOf();
  if (position === undefined) addTurn(memory, turnId);
  recordEvent(memory, at, seq, eventId, high, low);
  if (askedCard !== undefined) memory.cardTurns.set(askedCard, at);
  let turns = position === undefined ? pushItem(record.turns, nextTurn) : setItem(record.turns, position, nextTurn);
  if (earlier !== undefined) turns = setItem(turns, earlier.position, earlier.turn);
  const next: StateRecord = {
    conversationId: record.conversationId,
    turns,
    memory,
    eventCount: memory.count,
    exposedTurns: undefined,
    view: undefined,
  };
  return { ok: true, state: viewOf(next), outcome: 'applied' };
}

/**
 * Why the frame fields the reducer reads are not what the parser returns, or
 * null. A turn id the state already holds is valid, so only a new one is
 * checked. `occurredAt` never enters the state: it feeds the content digest,
 * which takes any string, so the reducer asks only that it is one and leaves
 * judging the timestamp to the parser.
 */
function frameProblem(
  newTurn: boolean,
  turnId: unknown,
  seq: unknown,
  eventId: unknown,
  occurredAt: unknown,
): ChatRefusal<'invalid-envelope'> | null {
  if (newTurn && !isChatId(turnId)) return invalidEnvelope('turnId', 'expected a v1 id');
  if (!isSeq(seq)) return invalidEnvelope('seq', 'expected a positive safe integer');
  // Checked while hashed: the memory's look-up and record of the id reuse the hash.
  if (!isChatIdHashed(eventId)) return invalidEnvelope('eventId', 'expected a v1 id');
  if (typeof occurredAt !== 'string') return invalidEnvelope('occurredAt', 'expected a timestamp string');
  return null;
}

function invalidEnvelope(field: string, message: string): ChatRefusal<'invalid-envelope'> {
  return refuse('invalid-envelope', `${field}: ${message}`, [{ path: [field], message }]);
}

// The type textEventOf read, for the caller to use with the text it returned. Scratch, like `digest`: written and
// read within one synchronous call.
let textType: 'delta' | 'reasoning' = 'delta';

/**
 * The text of a text delta or reasoning with a string text (most of a stream), its type left in `textType`, or
 * undefined for any other event. The reducer keeps only the text of such an event, so clean text is all it asks
 * of it; the digest tells when the text needs a look.
 */
function textEventOf(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const { type, text } = event as { readonly type?: unknown; readonly text?: unknown };
  if ((type !== 'delta' && type !== 'reasoning') || typeof text !== 'string') return undefined;
  textType = type;
  return text;
}

/** A text event's refusal for text that is not clean, as the parser words it. */
function dirtyText(type: 'delta' | 'reasoning', text: string): ChatRefusal<'invalid-event' | 'unknown-event'> {
  // Never null (the text is not clean); the fallback keeps the type whole.
  return eventProblem({ type, text }, undefined) ?? refuse('invalid-event', 'event: expected clean text');
}

/** Appends a text event's text to the turn. */
function appendText(turn: TurnRecord, type: 'delta' | 'reasoning', text: string): null {
  if (type === 'delta') turn.text += text;
  else turn.reasoning += text;
  return null;
}

/**
 * Why `event` is not one the parser returns for this vocabulary, or null: the
 * full rules of its type, since its fields enter the state as they are (a text
 * event with clean text, {@link textEventOf}, never comes here).
 */
function eventProblem(event: unknown, vocabulary: ReducerVocabulary | undefined): ChatRefusal<'invalid-event' | 'unknown-event'> | null {
  const problem = validateEvent(event, vocabulary?.cardRules, vocabulary?.productRules);
  if (problem === null) return null;
  const issues = [{ path: ['event', ...problem.issue.path], message: problem.issue.message }];
  if (problem.code !== 'unknown-event') return refuse('invalid-event', `event: ${problem.issue.message}`, issues);
  // validateEvent says unknown-event only for an event object, whose type it has read.
  const { type } = event as { readonly type?: unknown };
  return refuse('unknown-event', typeof type === 'string' ? `${type} is not a registered event type` : 'event: unknown event type', issues);
}

/** reduceTurn's answer for a `card_closed` whose card is not the turn's own: the conversation decides. */
const ANOTHER_TURN = 'another-turn';

interface IndexedCard {
  readonly position: number;
  readonly turn: TurnRecord;
  readonly index: number;
  readonly entry: ChatCardState;
}

/** Where the card `correlationId` is among a turn's cards, or -1. */
function cardIndex(cards: readonly ChatCardState[], correlationId: string): number {
  return cards.findIndex((entry) => entry.card.correlationId === correlationId);
}

/** The card `correlationId` in the newest turn of this state that asked it, found through the index, not a scan. */
function indexedCard(record: StateRecord, memory: EventMemory, correlationId: string): IndexedCard | undefined {
  const position = memory.cardTurns.get(correlationId);
  const turn = position === undefined ? undefined : itemAt(record.turns, position);
  if (position === undefined || turn === undefined) return undefined;
  const index = cardIndex(turn.cards, correlationId);
  const entry = turn.cards[index];
  return entry === undefined ? undefined : { position, turn, index, entry };
}

/** The card `correlationId` when an ended turn left it waiting (DESIGN §3.3). */
function awaitingCardAt(record: StateRecord, memory: EventMemory, correlationId: string): IndexedCard | undefined {
  const found = indexedCard(record, memory, correlationId);
  return found?.entry.awaiting === true ? found : undefined;
}

/**
 * Closes, from the turn at `closer`, a card an earlier ended turn left waiting:
 * the earlier turn's copy with the card closed, or the refusal. A card no turn
 * asked is `unknown-card`; one already closed is `card-closed`; one that is
 * not waiting (its turn still runs, or ended without `done.awaiting` naming
 * it) or that waits for a turn that is not later is `card-not-awaiting`.
 */
function closeAwaitingCard(
  record: StateRecord,
  memory: EventMemory,
  closer: number,
  closerTurnId: string,
  event: ChatEventV1Of<'card_closed'>,
): { readonly position: number; readonly turn: TurnRecord } | ChatRefusal<'unknown-card' | 'card-closed' | 'card-not-awaiting'> {
  const { correlationId } = event;
  const found = indexedCard(record, memory, correlationId);
  if (found === undefined) return refuse('unknown-card', `no card ${correlationId} in this turn`);
  if (found.entry.closed) return refuse('card-closed', `card ${correlationId} is already closed`);
  if (found.entry.awaiting !== true || found.position >= closer) {
    return refuse('card-not-awaiting', `card ${correlationId} of turn ${found.turn.turnId} is not waiting for a later turn to close it`);
  }
  const cards = found.turn.cards.slice();
  cards[found.index] = { card: found.entry.card, closed: true, resolution: event.resolution ?? null, closedInTurn: closerTurnId };
  const turn = turnRecord(found.turn, found.turn.lastSeq, undefined);
  turn.cards = cards;
  return { position: found.position, turn };
}

type TurnRefusal = ChatRefusal<
  Exclude<ApplyChatEventRefusalCode, 'seq-gap' | 'foreign-conversation' | 'conflicting-duplicate' | 'turn-terminal'>
>;

/**
 * Writes the event's effect into `turn`, a copy owned by the caller; a refusal
 * leaves it unused. A `card_closed` of a card the turn did not ask is
 * {@link ANOTHER_TURN}: the conversation-level rule decides it.
 */
function reduceTurn(turn: TurnRecord, event: ChatEventV1, channels: ProductChannels | undefined): TurnRefusal | typeof ANOTHER_TURN | null {
  switch (event.type) {
    case 'user_input':
      // The person's message opens the turn: seq 1 only, so at most one per turn.
      if (turn.lastSeq !== 1) {
        return refuse('misplaced-user-input', `user_input must be the turn's first event (seq 1), got seq ${turn.lastSeq}`);
      }
      turn.userInput = event.source === undefined ? { text: event.text } : { text: event.text, source: event.source };
      return null;
    case 'delta':
    case 'reasoning':
      return appendText(turn, event.type, event.text);
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
      if (cardIndex(turn.cards, correlationId) !== -1) {
        return refuse('duplicate-card', `card ${correlationId} was already asked`);
      }
      turn.cards = [...turn.cards, { card: event.card, closed: false, resolution: null }];
      return null;
    }
    case 'card_closed': {
      const at = cardIndex(turn.cards, event.correlationId);
      const entry = turn.cards[at];
      // Not this turn's card: it may be one an earlier turn left waiting.
      if (entry === undefined) return ANOTHER_TURN;
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
    case 'done': {
      if (event.awaiting !== undefined) {
        const cards = turn.cards.slice();
        for (const correlationId of event.awaiting) {
          const index = cardIndex(cards, correlationId);
          const entry = cards[index];
          if (entry === undefined) return refuse('unknown-card', `done awaits card ${correlationId}, which this turn did not ask`);
          if (entry.closed) return refuse('card-closed', `done awaits card ${correlationId}, which is already closed`);
          cards[index] = { card: entry.card, closed: false, resolution: null, awaiting: true };
        }
        turn.cards = cards;
      }
      turn.status = event.status;
      turn.stopReason = event.stopReason ?? null;
      turn.usage = event.usage ?? null;
      return null;
    }
    case 'error':
      turn.status = 'failed';
      turn.error = {
        code: event.code,
        message: event.message,
        retryable: event.retryable,
        retryAfterMs: event.retryAfterMs ?? null,
      };
      return null;
    default:
      return reduceProductEvent(turn, event as ProductEventEntry, channels);
  }
}

function reduceProductEvent(turn: TurnRecord, event: ProductEventEntry, channels: ProductChannels | undefined): TurnRefusal | null {
  const { type, data } = event;
  // eventProblem has refused a type without rules; one with rules but no channel is a codec's own mistake.
  const channel = channels?.get(type);
  if (channel === undefined) return refuse('unknown-event', `${type} is not a registered event type`);
  if (channel === 'event') {
    turn.productEvents = [...(turn.productEvents ?? []), { type, data }];
  } else if (channel === 'state') {
    // Last write wins per name; a name keeps the place of its first write, so equal streams serialize equally.
    turn.productState = { ...turn.productState, [type]: data };
  }
  return null;
}
