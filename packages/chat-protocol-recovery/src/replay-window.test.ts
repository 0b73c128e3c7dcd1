import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ReplayWindow } from './adapter.js';
import { validateReplayWindow, type ValidateReplayWindowRefusalCode } from './replay-window.js';

const TURN = { conversationId: 'conv_1', turnId: 'turn_1' } as const;

function frame(seq: number, overrides: Partial<ChatEventEnvelope> = {}): ChatEventEnvelope {
  return {
    schemaVersion: 1,
    ...TURN,
    eventId: `evt_${seq}`,
    seq,
    occurredAt: '2026-11-30T10:00:00Z',
    event: { type: 'delta', text: `part ${seq}` },
    ...overrides,
  };
}

const window = (lowerBound: number, latestSeq: number, seqs: readonly number[]): ReplayWindow => ({
  lowerBound,
  latestSeq,
  frames: seqs.map((seq) => frame(seq)),
});

describe('validateReplayWindow (DESIGN §6.9)', () => {
  it('returns the complete suffix after the cursor, with the lower bound and latest seq', () => {
    expect(validateReplayWindow(window(1, 4, [3, 4]), { ...TURN, after: 'turn_1:2' })).toEqual({
      ok: true,
      value: { after: { turnId: 'turn_1', seq: 2 }, lowerBound: 1, latestSeq: 4, frames: [frame(3), frame(4)] },
    });
  });

  it('reports the lower bound and latest seq when the window is empty', () => {
    expect(validateReplayWindow(window(7, 7, []), { ...TURN, after: { turnId: 'turn_1', seq: 7 } })).toEqual({
      ok: true,
      value: { after: { turnId: 'turn_1', seq: 7 }, lowerBound: 7, latestSeq: 7, frames: [] },
    });
    expect(validateReplayWindow(window(0, 0, []), { ...TURN, after: 'turn_1:0' })).toMatchObject({
      ok: true,
      value: { lowerBound: 0, latestSeq: 0, frames: [] },
    });
  });

  const refusals: readonly [string, ValidateReplayWindowRefusalCode, ReplayWindow, string | { turnId: string; seq: number }][] = [
    ['a cursor below the retained lower bound', 'stale-cursor', window(3, 5, [4, 5]), 'turn_1:2'],
    ['a cursor beyond the latest seq', 'cursor-beyond-latest', window(0, 5, []), 'turn_1:6'],
    ['a malformed cursor', 'invalid-cursor', window(0, 1, [1]), 'turn_1'],
    ['a cursor with a negative seq', 'invalid-cursor', window(0, 1, [1]), { turnId: 'turn_1', seq: -1 }],
    ['a cursor of another turn', 'foreign-turn', window(0, 1, [1]), 'turn_2:0'],
    [
      'a frame of another conversation',
      'foreign-conversation',
      { lowerBound: 0, latestSeq: 1, frames: [frame(1, { conversationId: 'conv_2' })] },
      'turn_1:0',
    ],
    ['a frame of another turn', 'foreign-turn', { lowerBound: 0, latestSeq: 1, frames: [frame(1, { turnId: 'turn_2' })] }, 'turn_1:0'],
    ['a gap', 'frame-gap', window(0, 3, [1, 3]), 'turn_1:0'],
    ['a missing tail', 'frame-gap', window(0, 3, [1, 2]), 'turn_1:0'],
    ['a missing head', 'frame-gap', window(0, 3, [2, 3]), 'turn_1:0'],
    ['frames out of order', 'out-of-order-frame', window(0, 3, [1, 3, 2]), 'turn_1:0'],
    ['a frame at or before the cursor', 'out-of-order-frame', window(0, 3, [2, 3]), 'turn_1:2'],
    ['a repeated seq', 'duplicate-frame', window(0, 2, [1, 1, 2]), 'turn_1:0'],
    [
      'a repeated event id',
      'duplicate-frame',
      { lowerBound: 0, latestSeq: 2, frames: [frame(1), frame(2, { eventId: 'evt_1' })] },
      'turn_1:0',
    ],
    [
      'a frame that is not a v1 envelope',
      'invalid-frame',
      { lowerBound: 0, latestSeq: 1, frames: [{ ...frame(1), schemaVersion: 2 } as unknown as ChatEventEnvelope] },
      'turn_1:0',
    ],
    ['a lower bound above the latest seq', 'invalid-window', window(4, 3, []), 'turn_1:3'],
    ['a frame beyond the stated latest seq', 'invalid-window', window(0, 1, [1, 2]), 'turn_1:0'],
    ['no frame list', 'invalid-window', { lowerBound: 0, latestSeq: 0, frames: null } as unknown as ReplayWindow, 'turn_1:0'],
  ];

  it.each(refusals)('refuses %s with %s', (_name, code, given, after) => {
    expect(validateReplayWindow(given, { ...TURN, after })).toMatchObject({ ok: false, code });
  });

  describe("frames: 'logged' (issue 28: a log's frames were parsed strictly on append)", () => {
    const logged = { frames: 'logged' } as const;

    it.each(refusals.filter(([name]) => name !== 'a frame that is not a v1 envelope'))(
      'still refuses %s with %s',
      (_name, code, given, after) => {
        expect(validateReplayWindow(given, { ...TURN, after }, logged)).toMatchObject({ ok: false, code });
      },
    );

    it("answers the log's own frames, reading none of their content", () => {
      const reads: string[] = [];
      const event = new Proxy(
        { type: 'delta', text: 'part 1' },
        {
          get(target, key, receiver) {
            reads.push(String(key));
            return Reflect.get(target, key, receiver);
          },
        },
      );
      const given = frame(1, { event: event as ChatEventEnvelope['event'] });
      const result = validateReplayWindow({ lowerBound: 0, latestSeq: 1, frames: [given] }, { ...TURN, after: 'turn_1:0' }, logged);
      expect(result).toEqual({ ok: true, value: { after: { turnId: 'turn_1', seq: 0 }, lowerBound: 0, latestSeq: 1, frames: [given] } });
      expect(result.ok && result.value.frames[0]).toBe(given);
      expect(reads).toEqual(['type']);
    });

    const malformed: readonly [string, unknown][] = [
      ['null', null],
      ['an array', []],
      ['a seq that is not a count', { ...frame(1), seq: '1' }],
      ['an event id that is not an id', { ...frame(1), eventId: '' }],
      ['no event', { ...frame(1), event: null }],
      ['an event type v1 does not know', { ...frame(1), event: { type: 'delta\ndata: {}', text: 'x' } }],
      [
        'a frame whose fields throw',
        new Proxy(frame(1), {
          get() {
            throw new Error('hostile');
          },
        }),
      ],
    ];

    it.each(malformed)('refuses a frame with %s as invalid-frame', (_name, given) => {
      expect(
        validateReplayWindow({ lowerBound: 0, latestSeq: 1, frames: [given as ChatEventEnvelope] }, { ...TURN, after: 'turn_1:0' }, logged),
      ).toMatchObject({ ok: false, code: 'invalid-frame', issues: [{ path: ['frames', 0] }] });
    });

    it('refuses options it cannot read as invalid-request', () => {
      const options = new Proxy(
        {},
        {
          get() {
            throw new Error('hostile');
          },
        },
      );
      expect(validateReplayWindow(window(0, 1, [1]), { ...TURN, after: 'turn_1:0' }, options)).toMatchObject({
        ok: false,
        code: 'invalid-request',
      });
    });
  });

  it('never throws and never mutates its input, whatever the window holds', () => {
    fc.assert(
      fc.property(
        fc.record({
          lowerBound: fc.integer({ min: -1, max: 6 }),
          latestSeq: fc.integer({ min: -1, max: 6 }),
          frames: fc.array(fc.integer({ min: 0, max: 7 }), { maxLength: 8 }),
        }),
        fc.integer({ min: -1, max: 8 }),
        ({ lowerBound, latestSeq, frames }, seq) => {
          const given = window(
            lowerBound,
            latestSeq,
            frames.filter((value) => value > 0),
          );
          const copy = structuredClone(given);
          const result = validateReplayWindow(given, { ...TURN, after: { turnId: 'turn_1', seq } });
          expect(given).toEqual(copy);
          if (result.ok) {
            expect(result.value.frames.map((envelope) => envelope.seq)).toEqual(
              Array.from({ length: latestSeq - seq }, (_, index) => seq + 1 + index),
            );
          }
        },
      ),
    );
  });
});
