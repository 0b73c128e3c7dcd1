/**
 * What the reducer keeps behind a `ChatStateV1`: the turns as a persistent list
 * of turn records and one shared, compact idempotency memory. The state a
 * caller gets is a plain JSON value over it: `turns` (and each turn's
 * `eventLog`) is an enumerable accessor that builds the array (the text) the
 * first time it is read, so `JSON.stringify`, `structuredClone`, spread and
 * equality see exactly the plain value, while applying an event costs the same
 * whatever the conversation's length. Internal: not exported from the package.
 */
import {
  addTurn,
  copyEventMemory,
  createEventMemory,
  eventLogText,
  recordCards,
  recordEventLog,
  type EventMemory,
} from './event-memory.js';
import { listOf, toArray, type PersistentList } from './persistent-list.js';
import type { ChatStateV1, ChatTurnState, ChatUserInputState } from './state.js';

/**
 * A turn as the reducer holds it: its public fields but `eventLog`, whose lines
 * live in the memory of every state that has the turn, at the turn's position.
 */
export interface TurnRecord extends TurnFields, ProductTurnFields {
  /** The public turn, once built (or the caller's own turn when the record was read from it). */
  exposed: ChatTurnState | undefined;
}

/**
 * A turn's fields but `eventLog`, with `userInput` always present as a key
 * (undefined when the turn has none), so every record has one object shape.
 */
export type TurnFields = Omit<ChatTurnState, 'eventLog' | 'userInput'> & { userInput: ChatUserInputState | undefined };

/**
 * A turn's product events (see `createChatCodec`): undefined until the turn
 * gets one, and then written into the public turn; a turn without them has
 * exactly the fields it always had.
 */
export interface ProductTurnFields {
  productEvents: readonly ProductEventEntry[] | undefined;
  productState: Readonly<Record<string, unknown>> | undefined;
}

/** One `event`-channel product event as a turn keeps it. */
export interface ProductEventEntry {
  readonly type: string;
  readonly data: unknown;
}

/** A conversation's state as the reducer holds it. Immutable once made, but for its caches. */
export interface StateRecord {
  readonly conversationId: string;
  readonly turns: PersistentList<TurnRecord>;
  readonly memory: EventMemory;
  /** How many events of `memory` this state has seen; it may append only while that is all of them. */
  readonly eventCount: number;
  exposedTurns: ChatTurnState[] | undefined;
  view: ChatStateV1 | undefined;
}

// Non-enumerable symbol keys: JSON.stringify, structuredClone, spread, Object.keys
// and deep equality never see them, and a copy of the value never carries them.
const STATE = Symbol('chat-state-record');
const TURN = Symbol('chat-turn-record');

interface StateView {
  readonly [STATE]?: StateRecord;
}
/** Where a public turn's `eventLog` lines are. */
interface TurnLines {
  readonly memory: EventMemory;
  readonly position: number;
  readonly lastSeq: number;
}
interface TurnView {
  readonly [TURN]?: TurnLines;
}

function turnsOfView(this: StateView): ChatTurnState[] {
  const record = this[STATE];
  if (record === undefined) throw new TypeError('turns: not a state returned by applyChatEvent');
  return (record.exposedTurns ??= toArray(record.turns).map((turn, position) => exposeTurn(turn, position, record.memory)));
}

function eventLogOfView(this: TurnView): string {
  const lines = this[TURN];
  if (lines === undefined) throw new TypeError('eventLog: not a turn of a state returned by applyChatEvent');
  return eventLogText(lines.memory, lines.position, lines.lastSeq);
}

// One descriptor object each, so every view shares one accessor and one object shape.
const TURNS_ACCESSOR: PropertyDescriptor = { get: turnsOfView, enumerable: true, configurable: true };
const EVENT_LOG_ACCESSOR: PropertyDescriptor = { get: eventLogOfView, enumerable: true, configurable: true };

/** The public state over `record`, made once per record. */
export function viewOf(record: StateRecord): ChatStateV1 {
  if (record.view !== undefined) return record.view;
  if (shapeKeepers === undefined) keepShapes();
  const view = { schemaVersion: 1, conversationId: record.conversationId } as ChatStateV1;
  Object.defineProperty(view, STATE, { value: record });
  Object.defineProperty(view, 'turns', TURNS_ACCESSOR);
  record.view = view;
  return view;
}

function exposeTurn(record: TurnRecord, position: number, memory: EventMemory): ChatTurnState {
  if (record.exposed !== undefined) return record.exposed;
  // Every field in schema order, as the reducer has always written a turn;
  // `userInput` only when the turn has one, so other turns keep their JSON.
  const view = {
    turnId: record.turnId,
    status: record.status,
    lastSeq: record.lastSeq,
    text: record.text,
    reasoning: record.reasoning,
    toolCalls: record.toolCalls,
    cards: record.cards,
    hostState: record.hostState,
    provenance: record.provenance,
    stopReason: record.stopReason,
    usage: record.usage,
    error: record.error,
  } as ChatTurnState & Partial<ProductTurnFields>;
  if (record.userInput !== undefined) view.userInput = record.userInput;
  if (record.productEvents !== undefined) view.productEvents = record.productEvents;
  if (record.productState !== undefined) view.productState = record.productState;
  const lines: TurnLines = { memory, position, lastSeq: record.lastSeq };
  Object.defineProperty(view, TURN, { value: lines });
  Object.defineProperty(view, 'eventLog', EVENT_LOG_ACCESSOR);
  record.exposed = view;
  return view;
}

// The engine forgets the object shapes that defineProperty creates once no
// object has them, and then throws away the code compiled for them: between two
// conversations a host may hold no state at all. One small state and turn of
// each shape, made on first use, keep them (and that code) alive. Invariant:
// it holds only objects made here, never a caller's state, and is never read:
// it changes how fast the reducer runs, never what it returns.
let shapeKeepers: readonly unknown[] | undefined;
function keepShapes(): void {
  const memory = createEventMemory();
  const turn = turnRecord(newTurnFields('shape'), 0, undefined);
  const record: StateRecord = {
    conversationId: 'shape',
    turns: listOf([turn]),
    memory,
    eventCount: 0,
    exposedTurns: undefined,
    view: undefined,
  };
  shapeKeepers = [];
  shapeKeepers = [viewOf(record), exposeTurn(turn, 0, memory)];
}

/** The fields of a turn that has just begun: running, nothing applied yet. */
export function newTurnFields(turnId: string): TurnFields {
  return {
    turnId,
    status: 'running',
    lastSeq: 0,
    userInput: undefined,
    text: '',
    reasoning: '',
    toolCalls: [],
    cards: [],
    hostState: null,
    provenance: null,
    stopReason: null,
    usage: null,
    error: null,
  };
}

/**
 * A turn record with `fields` (a record's or a public turn's), at `lastSeq`.
 * Every field spelled out, in schema order: one object shape for every turn
 * record, which the engine copies far faster than a spread with overrides.
 */
export function turnRecord(
  fields: (TurnFields | Omit<ChatTurnState, 'eventLog'>) & Partial<ProductTurnFields>,
  lastSeq: number,
  exposed: ChatTurnState | undefined,
): TurnRecord {
  return {
    turnId: fields.turnId,
    status: fields.status,
    lastSeq,
    userInput: fields.userInput,
    text: fields.text,
    reasoning: fields.reasoning,
    toolCalls: fields.toolCalls,
    cards: fields.cards,
    hostState: fields.hostState,
    provenance: fields.provenance,
    stopReason: fields.stopReason,
    usage: fields.usage,
    error: fields.error,
    productEvents: fields.productEvents,
    productState: fields.productState,
    exposed,
  };
}

// Records read from states the reducer did not make (createChatState, parseChatState,
// a literal): built once per state object, kept while the state lives.
// Invariant: a state is an immutable value, so the record read from an object
// once is its record for as long as the object lives (the WeakMap lets it go).
const readRecords = new WeakMap<object, StateRecord>();

/** The record behind `state`: its own when the reducer made it, else read from its JSON value (once per object). */
export function recordOf(state: ChatStateV1): StateRecord {
  const own = (state as StateView)[STATE];
  if (own !== undefined && own.view === state) return own;
  let record = readRecords.get(state);
  if (record === undefined) {
    record = readRecord(state);
    readRecords.set(state, record);
  }
  return record;
}

function readRecord(state: ChatStateV1): StateRecord {
  const memory = createEventMemory();
  const turns = state.turns.map((turn): TurnRecord => {
    const position = addTurn(memory, turn.turnId);
    recordEventLog(memory, position, turn.eventLog);
    recordCards(memory, position, turn.cards);
    return turnRecord(turn, turn.lastSeq, turn);
  });
  return {
    conversationId: state.conversationId,
    turns: listOf(turns),
    memory,
    eventCount: memory.count,
    exposedTurns: undefined,
    view: state,
  };
}

/**
 * The memory `record` may append to: the shared one when `record` is the newest
 * state over it, else a copy of what `record` sees (applying to an older state
 * starts a branch; the copy costs O(events) once).
 */
export function ownMemory(record: StateRecord): EventMemory {
  if (record.memory.count === record.eventCount) return record.memory;
  return copyEventMemory(record.memory, toArray(record.turns));
}
