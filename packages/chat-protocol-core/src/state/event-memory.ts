/**
 * The reducer's idempotency memory, held once and compactly: per applied event
 * its id (ASCII bytes) and its 64-bit content digest, which event took which
 * seq of which turn, and a hash table over event ids. It is the source of each
 * turn's `eventLog` text, which is written out only when read.
 *
 * Append-only, so states derived one from another share one memory: a state
 * sees the prefix that was there when it was made (its event count). Only the
 * newest state (the one whose count is the memory's) appends in place; any
 * other copies its own prefix first, so branches never see each other's events.
 * Internal: not exported from the package.
 */
import { formatDigest } from './digest.js';
import { hashOfEventId } from './event-id-hash.js';

// Per event, in `entries`: where its id ends in `idBytes`, then the digest's two halves.
const STRIDE = 3;

/** One conversation's memory. Mutable only through the functions below. */
export interface EventMemory {
  /** Events recorded: ordinals 0..count-1, in the order they were recorded. */
  count: number;
  idBytes: Uint8Array;
  idLength: number;
  entries: Int32Array;
  /**
   * Pairs (ordinal + 1, hash of the id) by the hash (linear probing); ordinal + 1
   * of 0 is a free slot. The hash beside the ordinal lets a probe skip most
   * mismatches without reading the event.
   */
  table: Int32Array;
  /** Per turn position, the ordinals of its seq 1, 2, … */
  turnEvents: Int32Array[];
  /** Turn id → position. */
  readonly turnPositions: Map<string, number>;
  /**
   * Card correlation id → the position of the newest turn that asked it: the
   * index beside the state that lets a later turn close a card its finished
   * turn left waiting without scanning the conversation. A hint: the turn's
   * own card state says whether the card is there and waiting.
   */
  readonly cardTurns: Map<string, number>;
}

/** An empty memory. */
export function createEventMemory(): EventMemory {
  return {
    count: 0,
    idBytes: new Uint8Array(256),
    idLength: 0,
    entries: new Int32Array(16 * STRIDE),
    table: new Int32Array(64),
    turnEvents: [],
    turnPositions: new Map(),
    cardTurns: new Map(),
  };
}

/** Records that the turn at `position` asked the cards `cards` (in the order asked). */
export function recordCards(
  memory: EventMemory,
  position: number,
  cards: readonly { readonly card: { readonly correlationId: string } }[],
): void {
  for (const entry of cards) memory.cardTurns.set(entry.card.correlationId, position);
}

/** The position of `turnId` among the first `turnCount` turns, or `undefined`. */
export function turnPosition(memory: EventMemory, turnId: string, turnCount: number): number | undefined {
  const position = memory.turnPositions.get(turnId);
  return position !== undefined && position < turnCount ? position : undefined;
}

/** Records a new turn at the next position and returns it. */
export function addTurn(memory: EventMemory, turnId: string): number {
  const position = memory.turnEvents.length;
  memory.turnEvents.push(new Int32Array(4));
  memory.turnPositions.set(turnId, position);
  return position;
}

/** The ordinal of the event that took `seq` (from 1) of the turn at `position`. */
export function eventAt(memory: EventMemory, position: number, seq: number): number {
  return (memory.turnEvents[position] as Int32Array)[seq - 1] as number;
}

/** Whether event `ordinal` has id `eventId` and the digest `high`, `low`. */
export function eventIs(memory: EventMemory, ordinal: number, eventId: string, high: number, low: number): boolean {
  const at = ordinal * STRIDE;
  return memory.entries[at + 1] === high && memory.entries[at + 2] === low && idIs(memory, ordinal, eventId);
}

// Event `ordinal`'s id is idBytes[start, end): it starts where the previous one ended.
function idStart(memory: EventMemory, ordinal: number): number {
  return ordinal === 0 ? 0 : (memory.entries[(ordinal - 1) * STRIDE] as number);
}

function idAt(memory: EventMemory, ordinal: number): string {
  return String.fromCharCode(...memory.idBytes.subarray(idStart(memory, ordinal), memory.entries[ordinal * STRIDE]));
}

function idIs(memory: EventMemory, ordinal: number, eventId: string): boolean {
  const start = idStart(memory, ordinal);
  const end = memory.entries[ordinal * STRIDE] as number;
  if (end - start !== eventId.length) return false;
  for (let index = 0; index < eventId.length; index++) {
    if (memory.idBytes[start + index] !== eventId.charCodeAt(index)) return false;
  }
  return true;
}

/** Whether one of the first `count` events has id `eventId`. */
export function hasEventId(memory: EventMemory, eventId: string, count: number): boolean {
  const hash = hashOfEventId(eventId);
  const { table } = memory;
  const mask = (table.length >>> 1) - 1;
  for (let slot = hash & mask; table[slot * 2] !== 0; slot = (slot + 1) & mask) {
    const ordinal = (table[slot * 2] as number) - 1;
    if (table[slot * 2 + 1] === hash && ordinal < count && idIs(memory, ordinal, eventId)) return true;
  }
  return false;
}

/**
 * Records `eventId` with digest `high`, `low` as seq `seq` of the turn at
 * `position`. The caller makes sure the memory is its own (see the header).
 */
export function recordEvent(memory: EventMemory, position: number, seq: number, eventId: string, high: number, low: number): void {
  const ordinal = memory.count;
  if (memory.idLength + eventId.length > memory.idBytes.length) {
    memory.idBytes = grown(memory.idBytes, memory.idLength + eventId.length);
  }
  for (let index = 0; index < eventId.length; index++) memory.idBytes[memory.idLength + index] = eventId.charCodeAt(index);
  memory.idLength += eventId.length;
  if ((ordinal + 1) * STRIDE > memory.entries.length) memory.entries = grown(memory.entries, (ordinal + 1) * STRIDE);
  const at = ordinal * STRIDE;
  memory.entries[at] = memory.idLength;
  memory.entries[at + 1] = high;
  memory.entries[at + 2] = low;
  let events = memory.turnEvents[position] as Int32Array;
  if (seq > events.length) events = memory.turnEvents[position] = grown(events, seq);
  events[seq - 1] = ordinal;
  memory.count = ordinal + 1;
  // At most half full, so a miss (the usual case: a new event id) ends within a few slots.
  if (memory.count > memory.table.length >>> 2) memory.table = rehashed(memory.table, memory.table.length * 2);
  insert(memory.table, hashOfEventId(eventId), ordinal);
}

function insert(table: Int32Array, hash: number, ordinal: number): void {
  const mask = (table.length >>> 1) - 1;
  let slot = hash & mask;
  while (table[slot * 2] !== 0) slot = (slot + 1) & mask;
  table[slot * 2] = ordinal + 1;
  table[slot * 2 + 1] = hash;
}

function rehashed(table: Int32Array, size: number): Int32Array {
  const next = new Int32Array(size);
  for (let slot = 0; slot < table.length; slot += 2) {
    if (table[slot] !== 0) insert(next, table[slot + 1] as number, (table[slot] as number) - 1);
  }
  return next;
}

// Half as large again: less slack than doubling, still amortised O(1) per event.
function grown<Buffer extends Uint8Array | Int32Array>(buffer: Buffer, needed: number): Buffer {
  const next = new (buffer.constructor as new (length: number) => Buffer)(Math.max(needed, Math.ceil(buffer.length * 1.5)));
  next.set(buffer);
  return next;
}

/** The `eventLog` text of the turn at `position` after `lastSeq` events: `<eventId> <digest>` lines joined with `\n`. */
export function eventLogText(memory: EventMemory, position: number, lastSeq: number): string {
  const lines: string[] = [];
  for (let seq = 1; seq <= lastSeq; seq++) {
    const ordinal = eventAt(memory, position, seq);
    const at = ordinal * STRIDE;
    lines.push(`${idAt(memory, ordinal)} ${formatDigest(memory.entries[at + 1] as number, memory.entries[at + 2] as number)}`);
  }
  return lines.join('\n');
}

/**
 * Records the lines of an `eventLog` text as the events of the turn at
 * `position`, as `parseChatState` checked them (`<eventId> <16 hex digits>`).
 */
export function recordEventLog(memory: EventMemory, position: number, eventLog: string): void {
  const lines = eventLog.split('\n');
  for (const [index, line] of lines.entries()) {
    const space = line.indexOf(' ');
    const digest = line.slice(space + 1);
    const high = Number.parseInt(digest.slice(0, 8), 16) | 0;
    const low = Number.parseInt(digest.slice(8, 16), 16) | 0;
    recordEvent(memory, position, index + 1, line.slice(0, space), high, low);
  }
}

/** A fresh memory holding only what a state sees: for each of its turns (by position), its first `lastSeq` events. */
export function copyEventMemory(
  memory: EventMemory,
  turns: readonly {
    readonly turnId: string;
    readonly lastSeq: number;
    readonly cards: readonly { readonly card: { readonly correlationId: string } }[];
  }[],
): EventMemory {
  const copy = createEventMemory();
  for (const [position, turn] of turns.entries()) {
    addTurn(copy, turn.turnId);
    recordCards(copy, position, turn.cards);
    for (let seq = 1; seq <= turn.lastSeq; seq++) {
      const ordinal = eventAt(memory, position, seq);
      const at = ordinal * STRIDE;
      recordEvent(copy, position, seq, idAt(memory, ordinal), memory.entries[at + 1] as number, memory.entries[at + 2] as number);
    }
  }
  return copy;
}
