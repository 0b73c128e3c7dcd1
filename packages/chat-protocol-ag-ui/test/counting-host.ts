import type { AgUiDecoderContext } from '../src/decoder/decoder-types.js';

/** A test host that allocates turn = run, seq counted per turn, event ids from both, and a fixed clock. */
export function countingHost(conversationId: string, extra: Partial<AgUiDecoderContext> = {}): AgUiDecoderContext {
  const seqs = new Map<string, number>();
  return {
    conversationId,
    identify: ({ runId }) => {
      const seq = (seqs.get(runId) ?? 0) + 1;
      seqs.set(runId, seq);
      return { turnId: runId, eventId: `${runId}.${seq}`, seq, occurredAt: '2026-12-01T10:00:00.000Z' };
    },
    ...extra,
  };
}
