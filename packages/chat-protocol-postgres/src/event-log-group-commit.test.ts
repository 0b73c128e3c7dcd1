import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type { AppendChatEventResult } from '@papercusp/chat-protocol-recovery';
import { describe, expect, it } from 'vitest';
import { createGroupCommit, planBatch, type AppendRun } from './event-log-group-commit.js';

const frame = (turnId: string, seq: number, overrides: Partial<ChatEventEnvelope> = {}): ChatEventEnvelope => ({
  schemaVersion: 1,
  conversationId: 'conv_group',
  turnId,
  eventId: `${turnId}_${seq}`,
  seq,
  occurredAt: '2031-05-01T08:00:00Z',
  event: { type: 'delta', text: `text ${seq}` },
  ...overrides,
});
const DONE: ChatEventEnvelope['event'] = { type: 'done', status: 'completed' };

/** Steps that record every call; `commitRuns` waits for `release()` and takes the turns `take` names (all by default). */
function recordingSteps(take: (run: AppendRun) => boolean = () => true) {
  const calls: string[] = [];
  const batches: (readonly AppendRun[])[] = [];
  let release: (fail?: boolean) => void = () => undefined;
  const steps = {
    commitRuns: (runs: readonly AppendRun[]) => {
      batches.push(runs);
      calls.push(`commit ${runs.map((run) => `${run.turnId}:${run.frames.map((envelope) => envelope.seq).join(',')}`).join(' ')}`);
      return new Promise<ReadonlySet<string>>((resolve, reject) => {
        release = (fail) =>
          fail ? reject(new Error('Connection terminated unexpectedly')) : resolve(new Set(runs.filter(take).map((run) => run.turnId)));
      });
    },
    appendAlone: async (envelope: ChatEventEnvelope): Promise<AppendChatEventResult> => {
      calls.push(`alone ${envelope.turnId}:${envelope.seq}`);
      return { ok: true, outcome: 'duplicate', seq: envelope.seq, latestSeq: envelope.seq };
    },
    onCommitted: (frames: readonly ChatEventEnvelope[]) => calls.push(`committed ${frames.map((envelope) => envelope.seq).join(',')}`),
  };
  return { steps, calls, batches, release: (fail?: boolean) => release(fail) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('planBatch (issue 28: a frame that might be refused never rides in a run)', () => {
  it.each([
    ['contiguous frames of one turn form one run', [frame('a', 3), frame('a', 4), frame('a', 5)], ['a:3,4,5']],
    ['a gap ends the run there', [frame('a', 3), frame('a', 5), frame('a', 4)], ['a:3,4']],
    ['a repeated seq stays out', [frame('a', 1), frame('a', 1), frame('a', 2)], ['a:1,2']],
    ['nothing follows a terminal frame', [frame('a', 1, { event: DONE }), frame('a', 2)], ['a:1']],
    ['an event id twice in a conversation stays out, even across turns', [frame('a', 1), frame('b', 1, { eventId: 'a_1' })], ['a:1']],
    [
      'the same event id in another conversation is another event',
      [frame('a', 1), frame('b', 1, { eventId: 'a_1', conversationId: 'other' })],
      ['a:1', 'b:1'],
    ],
    ['another conversation on the same turn stays out', [frame('a', 1), frame('a', 2, { conversationId: 'other' })], ['a:1']],
    ['turns keep the order they first appear in', [frame('b', 7), frame('a', 2), frame('b', 8)], ['b:7,8', 'a:2']],
  ])('%s', (_name, batch, expected) => {
    expect(planBatch(batch).map((run) => `${run.turnId}:${run.frames.map((envelope) => envelope.seq).join(',')}`)).toEqual(expected);
  });
});

describe('createGroupCommit (issue 28: group commit, each append its own outcome)', () => {
  it('a lone append goes at once: its batch is sent before any timer runs', async () => {
    const { steps, calls, release } = recordingSteps();
    const pending = createGroupCommit(steps, 500).append(frame('a', 1));
    await Promise.resolve();
    expect(calls).toEqual(['commit a:1']);
    release();
    expect(await pending).toEqual({ ok: true, outcome: 'appended', seq: 1, latestSeq: 1 });
  });

  it('appends made while a batch is in flight wait for it and then go together, at most batchFrames at a time', async () => {
    const { steps, calls, release } = recordingSteps();
    const log = createGroupCommit(steps, 2);
    const answers = [log.append(frame('a', 1))];
    await Promise.resolve();
    answers.push(log.append(frame('a', 2)), log.append(frame('b', 1)), log.append(frame('a', 3)));
    await flush();
    expect(calls).toEqual(['commit a:1']);
    release();
    await flush();
    expect(calls).toEqual(['commit a:1', 'committed 1', 'commit a:2 b:1']);
    release();
    await flush();
    release();
    await flush();
    expect(calls).toEqual(['commit a:1', 'committed 1', 'commit a:2 b:1', 'committed 2', 'committed 1', 'commit a:3', 'committed 3']);
    expect((await Promise.all(answers)).map((answer) => answer.ok && answer.outcome)).toEqual([
      'appended',
      'appended',
      'appended',
      'appended',
    ]);
  });

  it('a run the database does not take, and every frame outside a run, is appended alone in arrival order', async () => {
    const { steps, calls, release } = recordingSteps((run) => run.turnId === 'b');
    const log = createGroupCommit(steps, 500);
    const answers = Promise.all([
      log.append(frame('a', 4)),
      log.append(frame('b', 1)),
      log.append(frame('a', 9)),
      log.append(frame('a', 5)),
    ]);
    await Promise.resolve();
    release();
    expect((await answers).map((answer) => answer.ok && answer.outcome)).toEqual(['duplicate', 'appended', 'duplicate', 'duplicate']);
    expect(calls).toEqual(['commit a:4,5 b:1', 'committed 1', 'alone a:4', 'alone a:9', 'alone a:5']);
  });

  it('a commit whose outcome is unknown re-runs every frame alone and tells subscribers nothing of the batch', async () => {
    const { steps, calls, release } = recordingSteps();
    const log = createGroupCommit(steps, 500);
    const answers = Promise.all([log.append(frame('a', 1)), log.append(frame('a', 2))]);
    await Promise.resolve();
    release(true);
    expect((await answers).map((answer) => answer.ok && answer.outcome)).toEqual(['duplicate', 'duplicate']);
    expect(calls).toEqual(['commit a:1,2', 'alone a:1', 'alone a:2']);
  });

  it('the same envelope object appended twice at once gets two answers: appended, then its own alone answer', async () => {
    const { steps, calls, release } = recordingSteps();
    const log = createGroupCommit(steps, 500);
    const same = frame('a', 1);
    const answers = Promise.all([log.append(same), log.append(same)]);
    await Promise.resolve();
    release();
    expect((await answers).map((answer) => answer.ok && answer.outcome)).toEqual(['appended', 'duplicate']);
    expect(calls).toEqual(['commit a:1', 'committed 1', 'alone a:1']);
  });
});
