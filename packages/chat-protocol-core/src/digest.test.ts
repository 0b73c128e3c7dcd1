import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { envelopeArb } from '../../../test-support/v1-arbitraries.js';
import { envelopeOf } from '../test/envelopes.js';
import { digestEnvelope } from './digest.js';
import { runs } from '../../../test-support/property-runs.js';
import { reverseKeys } from '../../../test-support/reverse-keys.js';

describe('digestEnvelope (the idempotency memory, DESIGN §3.5)', () => {
  // Digests are stored in snapshots: changing the function would make every
  // restored state refuse its own redeliveries. This pin makes that a decision.
  it('is 16 lower-case hex characters, pinned for a known envelope', () => {
    expect(digestEnvelope(envelopeOf({ type: 'delta', text: 'Hello' }))).toBe('e00c45fded403782');
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
});
