/**
 * Group commit for one event log's appends (DESIGN §9.3, issue 28): appends
 * in flight together form one batch, each turn's frames that can only succeed
 * together (contiguous seqs, one conversation, no event id twice, nothing
 * after a terminal frame) become one run, the runs go to the database at once,
 * and every other frame, or every frame of a run the database did not take,
 * is appended alone after it, in arrival order. It owns batch forming and the
 * assignment of outcomes; it owns no SQL (the log passes `commitRuns` and
 * `appendAlone`) and no delivery (the log passes `onCommitted`).
 */
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type { AppendChatEventResult } from '@papercusp/chat-protocol-recovery';

/** One turn's frames of a batch that commit together: contiguous seqs from `frames[0].seq`, at most the last terminal. */
export interface AppendRun {
  readonly turnId: string;
  readonly conversationId: string;
  readonly frames: readonly ChatEventEnvelope[];
  /** Where each of `frames` stands in the batch (the same envelope object may be appended twice). */
  readonly positions: readonly number[];
}

/** What the log gives the group commit. */
export interface GroupCommitSteps {
  /**
   * Commits the runs in one transaction, each only where its turn's head is
   * where the run starts; resolves with the turn ids of the runs committed.
   * A rejection means the outcome is unknown (nothing, or everything, may
   * have committed): every frame of the runs is then appended alone.
   */
  readonly commitRuns: (runs: readonly AppendRun[]) => Promise<ReadonlySet<string>>;
  /** Today's one-frame path, answering every refusal code exactly; never rejects. */
  readonly appendAlone: (envelope: ChatEventEnvelope) => Promise<AppendChatEventResult>;
  /** Called with each turn's committed frames (in seq order) once they are durable; never before. */
  readonly onCommitted: (frames: readonly ChatEventEnvelope[]) => void;
}

/** Appends through a group commit: `append` resolves with the envelope's own outcome. */
export interface GroupCommit {
  append(envelope: ChatEventEnvelope): Promise<AppendChatEventResult>;
}

interface Pending {
  readonly envelope: ChatEventEnvelope;
  readonly resolve: (result: AppendChatEventResult) => void;
}

/** Whether `envelope` ends its turn (`done` or `error`): nothing may follow it. */
export const isTerminal = (envelope: ChatEventEnvelope): boolean => envelope.event.type === 'done' || envelope.event.type === 'error';

/**
 * The runs of `batch`, one per turn in the order turns first appear. A frame
 * joins its turn's run only when it continues it exactly (the next seq, the
 * same conversation, an event id not yet in the batch's conversation, the run
 * not ended): a frame that might be refused never rides in a run, so a run
 * either commits whole or is retried frame by frame. Frames in no run are
 * appended alone.
 */
export function planBatch(batch: readonly ChatEventEnvelope[]): readonly AppendRun[] {
  const runs = new Map<string, { readonly conversationId: string; readonly frames: ChatEventEnvelope[]; readonly positions: number[] }>();
  const eventIds = new Set<string>();
  for (const [position, envelope] of batch.entries()) {
    // JSON of the pair, so no pair of ids collides with another by concatenation.
    const eventKey = JSON.stringify([envelope.conversationId, envelope.eventId]);
    if (eventIds.has(eventKey)) continue;
    const run = runs.get(envelope.turnId);
    if (run === undefined) {
      runs.set(envelope.turnId, { conversationId: envelope.conversationId, frames: [envelope], positions: [position] });
    } else {
      const last = run.frames.at(-1);
      if (last === undefined || run.conversationId !== envelope.conversationId || envelope.seq !== last.seq + 1 || isTerminal(last))
        continue;
      run.frames.push(envelope);
      run.positions.push(position);
    }
    eventIds.add(eventKey);
  }
  return [...runs].map(([turnId, run]) => ({ turnId, ...run }));
}

/**
 * A group commit over `steps`, at most `batchFrames` frames a batch.
 *
 * Guarantees: a batch starts as soon as none is in flight (an append alone
 * waits for nothing but the microtask that lets its caller's other
 * synchronous appends join it); at most one batch of this log is in flight,
 * so a turn's frames reach the database in the order `append` was called;
 * each append resolves with its own outcome: `appended` (`latestSeq` its own
 * seq) when its run committed, otherwise whatever `appendAlone` answers,
 * which is today's answer (a run whose commit outcome is unknown is re-run
 * frame by frame, and a frame that did commit reads back `duplicate`);
 * `onCommitted` hears a run only after `commitRuns` resolved with it, right
 * after the run's appends resolved. Never rejects.
 */
export function createGroupCommit(steps: GroupCommitSteps, batchFrames: number): GroupCommit {
  const queue: Pending[] = [];
  let draining = false;

  // One batch, each append resolved exactly once: its run's outcome, else today's one-frame path.
  const commitBatch = async (batch: readonly Pending[]): Promise<void> => {
    const runs = planBatch(batch.map((pending) => pending.envelope));
    let committed: ReadonlySet<string> = new Set();
    try {
      if (runs.length > 0) committed = await steps.commitRuns(runs);
    } catch {
      // The outcome is unknown: every frame goes alone, and a frame that did commit reads back `duplicate`.
    }
    const taken = runs.filter((run) => committed.has(run.turnId));
    const inTakenRun = new Set(taken.flatMap((run) => run.positions));
    for (const [position, pending] of batch.entries()) {
      const { envelope } = pending;
      if (inTakenRun.has(position)) pending.resolve({ ok: true, outcome: 'appended', seq: envelope.seq, latestSeq: envelope.seq });
    }
    for (const run of taken) steps.onCommitted(run.frames);
    for (const [position, pending] of batch.entries()) {
      if (inTakenRun.has(position)) continue;
      const result = await steps.appendAlone(pending.envelope);
      pending.resolve(result);
      if (result.ok && result.outcome === 'appended') steps.onCommitted([pending.envelope]);
    }
  };

  const drain = async (): Promise<void> => {
    while (queue.length > 0) await commitBatch(queue.splice(0, batchFrames));
    draining = false;
  };

  return {
    append(envelope) {
      return new Promise<AppendChatEventResult>((resolve) => {
        queue.push({ envelope, resolve });
        if (draining) return;
        draining = true;
        queueMicrotask(() => void drain());
      });
    },
  };
}
