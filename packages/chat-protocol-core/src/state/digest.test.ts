import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopeArb } from '../../../../test-support/v1-arbitraries.js';
import { envelopeOf } from '../../test/envelopes.js';
import { digestEnvelope, digestEnvelopeInto, digestTextEventInto, formatDigest } from './digest.js';
import { runs } from '../../../../test-support/property-runs.js';
import { reverseKeys } from '../../../../test-support/reverse-keys.js';

describe('digestEnvelope (the idempotency memory, DESIGN §3.5)', () => {
  // Digests are stored in snapshots: changing the function would make every
  // restored state refuse its own redeliveries. This pin makes that a decision.
  it('is 16 lower-case hex characters, pinned for a known envelope', () => {
    expect(digestEnvelope(envelopeOf({ type: 'delta', text: 'Hello' }))).toBe('e00c45fded403782');
  });

  // The memory stores the two halves and writes `eventLog` lines with formatDigest:
  // every half, small or negative as an int32, is eight zero-padded digits.
  it('writes each 32-bit half as eight zero-padded lower-case hex digits, the same text digestEnvelope returns', () => {
    expect(formatDigest(0, 1)).toBe('0000000000000001');
    expect(formatDigest(-1, 0x0abc)).toBe('ffffffff00000abc');
    expect(formatDigest(-2147483648, 0x7fffffff)).toBe('800000007fffffff');
    fc.assert(
      fc.property(fc.integer({ min: -2147483648, max: 2147483647 }), fc.integer({ min: -2147483648, max: 2147483647 }), (high, low) => {
        const text = formatDigest(high, low);
        expect(text).toMatch(/^[0-9a-f]{16}$/);
        expect([Number.parseInt(text.slice(0, 8), 16) | 0, Number.parseInt(text.slice(8), 16) | 0]).toEqual([high, low]);
      }),
      { numRuns: runs(1_000) },
    );
    fc.assert(
      fc.property(envelopeArb, (envelope) => {
        const halves = new Int32Array(2);
        digestEnvelopeInto(envelope, halves);
        expect(formatDigest(halves[0] as number, halves[1] as number)).toBe(digestEnvelope(envelope));
      }),
      { numRuns: runs(200) },
    );
  });

  it('ignores identity (ids, seq) and key order, at every level', () => {
    fc.assert(
      fc.property(envelopeArb, (envelope) => {
        const moved = { ...envelope, eventId: 'other', seq: envelope.seq + 1, event: reverseKeys(envelope.event) } as typeof envelope;
        expect(digestEnvelope(moved)).toBe(digestEnvelope(envelope));
      }),
      { numRuns: runs(1_000) },
    );
  });

  it('changes with the timestamp and with any field', () => {
    const base = envelopeOf({ type: 'tool_result', callId: 'c', name: 'n', status: 'failed', summary: 'ab', error: 'c' });
    const digests = new Set([
      digestEnvelope(base),
      digestEnvelope({ ...base, occurredAt: '2026-11-29T12:00:00.001Z' }),
      digestEnvelope(envelopeOf({ type: 'tool_result', callId: 'c', name: 'n', status: 'succeeded', summary: 'ab', error: 'c' })),
      // The same characters split differently between two fields.
      digestEnvelope(envelopeOf({ type: 'tool_result', callId: 'c', name: 'n', status: 'failed', summary: 'a', error: 'bc' })),
      digestEnvelope(envelopeOf({ type: 'tool_result', callId: 'c', name: 'n', status: 'failed', summary: 'abc' })),
      digestEnvelope(envelopeOf({ type: 'state', version: 1, snapshot: { a: [1, 2] } })),
      digestEnvelope(envelopeOf({ type: 'state', version: 1, snapshot: { a: [2, 1] } })),
      digestEnvelope(envelopeOf({ type: 'state', version: 1, snapshot: { a: '[1,2]' } })),
    ]);
    expect(digests.size).toBe(8);
  });

  // The reducer asks isCleanText of a delta's text only when this says so (issue 25: no second scan).
  it("says whether a string of the event holds a character isCleanText reads again, never for the timestamp's", () => {
    const halves = new Int32Array(2);
    const unusual = (text: string, occurredAt?: string): boolean =>
      digestEnvelopeInto({ ...envelopeOf({ type: 'delta', text }), ...(occurredAt === undefined ? {} : { occurredAt }) }, halves);
    expect(['plain', 'tab\tline\ncarriage\r', 'ÿ€中文', '\ud7ff\ue000\uffff', ''].map((text) => unusual(text))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(['\u0000', 'a\u001fb', '\u000b', '\ud83d\ude00', '\ud800', 'x\udfff'].map((text) => unusual(text))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(unusual('plain', '2026-11-29T12:34:56.789Z\u0000')).toBe(false);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        // false only when isCleanText's one-scan answer holds: no control character but tab, LF, CR, no surrogate.
        expect(unusual(text)).toBe(/[\0-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff]/.test(text));
      }),
      { numRuns: runs(1_000) },
    );
  });

  it('digestTextEventInto of a delta or reasoning is digestEnvelopeInto of its envelope, and says the same of its text', () => {
    const halves = new Int32Array(2);
    const expected = new Int32Array(2);
    fc.assert(
      fc.property(fc.constantFrom('delta' as const, 'reasoning' as const), fc.string({ unit: 'binary' }), (type, text) => {
        const envelope = envelopeOf({ type, text });
        const unusual = digestTextEventInto(envelope.occurredAt, type, text, halves);
        expect(unusual).toBe(digestEnvelopeInto(envelope, expected));
        expect([...halves]).toEqual([...expected]);
      }),
      { numRuns: runs(1_000) },
    );
  });
});
