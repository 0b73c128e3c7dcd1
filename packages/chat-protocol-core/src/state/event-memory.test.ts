import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isChatId } from '../primitives/primitives.js';
import { runs } from '../../../../test-support/property-runs.js';
import { hashOfEventId, isChatIdHashed } from './event-id-hash.js';
import {
  addTurn,
  copyEventMemory,
  createEventMemory,
  eventAt,
  eventIs,
  eventLogText,
  hasEventId,
  recordEvent,
  recordEventLog,
} from './event-memory.js';

describe('event memory: the idempotency memory held once (issue 12, DESIGN §3.5)', () => {
  it('answers which event took a seq, with its digest, and whether an id was seen', () => {
    const memory = createEventMemory();
    const first = addTurn(memory, 'turn_1');
    const second = addTurn(memory, 'turn_2');
    recordEvent(memory, first, 1, 'evt_a', 1, -2);
    recordEvent(memory, second, 1, 'evt_b', -1, 0x7fffffff);
    recordEvent(memory, first, 2, 'evt_c', 0, 0);
    expect(eventIs(memory, eventAt(memory, first, 2), 'evt_c', 0, 0)).toBe(true);
    expect(eventIs(memory, eventAt(memory, first, 2), 'evt_c', 0, 1)).toBe(false);
    expect(eventIs(memory, eventAt(memory, first, 2), 'evt_d', 0, 0)).toBe(false);
    expect(eventIs(memory, eventAt(memory, second, 1), 'evt_b', -1, 0x7fffffff)).toBe(true);
    expect(['evt_a', 'evt_b', 'evt_c', 'evt_d', 'evt_'].map((id) => hasEventId(memory, id, memory.count))).toStrictEqual([
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(eventLogText(memory, first, 2)).toBe('evt_a 00000001fffffffe\nevt_c 0000000000000000');
    expect(eventLogText(memory, second, 1)).toBe('evt_b ffffffff7fffffff');
  });

  it('a state sees only the events it was made with: ids recorded later are unknown below their count', () => {
    const memory = createEventMemory();
    const turn = addTurn(memory, 'turn_1');
    recordEvent(memory, turn, 1, 'evt_1', 1, 1);
    const countThen = memory.count;
    recordEvent(memory, turn, 2, 'evt_2', 2, 2);
    expect(hasEventId(memory, 'evt_2', countThen)).toBe(false);
    expect(hasEventId(memory, 'evt_2', memory.count)).toBe(true);
    expect(hasEventId(memory, 'evt_1', countThen)).toBe(true);
  });

  it('reads an eventLog text back to the same text, through table growth (5,000 events in 50 turns)', () => {
    const memory = createEventMemory();
    const logs: string[] = [];
    for (let turn = 0; turn < 50; turn++) {
      const lines = Array.from(
        { length: 100 },
        (_, seq) => `evt_${turn}.${seq} ${(((turn * 100 + seq) * 2654435761) >>> 0).toString(16).padStart(8, '0')}0123abcd`,
      );
      logs.push(lines.join('\n'));
      recordEventLog(memory, addTurn(memory, `turn_${turn}`), logs[turn] as string);
    }
    expect(memory.count).toBe(5_000);
    expect(logs.map((_, turn) => eventLogText(memory, turn, 100))).toStrictEqual(logs);
    expect(hasEventId(memory, 'evt_49.99', memory.count) && hasEventId(memory, 'evt_0.0', memory.count)).toBe(true);
    expect(hasEventId(memory, 'evt_50.0', memory.count)).toBe(false);
  });

  it('a copy holds exactly what its state sees, and what it records stays out of the original', () => {
    const memory = createEventMemory();
    const turn = addTurn(memory, 'turn_1');
    recordEvent(memory, turn, 1, 'evt_1', 1, 1);
    recordEvent(memory, turn, 2, 'evt_2', 2, 2);
    const copy = copyEventMemory(memory, [{ turnId: 'turn_1', lastSeq: 1, cards: [] }]);
    expect(copy.count).toBe(1);
    expect(eventLogText(copy, 0, 1)).toBe(eventLogText(memory, 0, 1));
    expect(hasEventId(copy, 'evt_2', copy.count)).toBe(false);
    recordEvent(copy, 0, 2, 'evt_x', 3, 3);
    expect(hasEventId(memory, 'evt_x', memory.count)).toBe(false);
    expect(eventLogText(memory, 0, 2)).toBe('evt_1 0000000100000001\nevt_2 0000000200000002');
    expect(eventLogText(copy, 0, 2)).toBe('evt_1 0000000100000001\nevt_x 0000000300000003');
  });

  // The reducer checks an event id while hashing it (issue 25): the answer is isChatId's, whatever was hashed before.
  it("isChatIdHashed answers isChatId's rule, and the hash it leaves is the id's own", () => {
    const values: unknown[] = ['evt_1', '', ' ', 'a b', 'évt', 'evt\u007f', '~'.repeat(256), '~'.repeat(257), '!', 42, null, undefined, {}];
    const strings = values.filter((value): value is string => typeof value === 'string');
    const hashes = strings.map((value) => (hashOfEventId('sentinel'), hashOfEventId(value)));
    expect(new Set(hashes).size).toBe(strings.length);
    for (const first of values) {
      for (const value of values) {
        isChatIdHashed(first);
        expect(isChatIdHashed(value)).toBe(isChatId(value));
        if (typeof value === 'string') expect(hashOfEventId(value)).toBe(hashes[strings.indexOf(value)]);
      }
    }
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (value) => {
        expect(isChatIdHashed(value)).toBe(isChatId(value));
      }),
      { numRuns: runs(1_000) },
    );
  });
});
