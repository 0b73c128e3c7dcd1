/**
 * The conformance checks a host's event log must pass: the `ChatEventLog`
 * contract of DESIGN §9.3 (in recovery) exercised through separate
 * connections, including races explored with fast-check's scheduler. Plain
 * async checks that return their failures, so the testkit can prove they catch
 * broken logs; `describeChatEventLogConformance` runs them under vitest. Every
 * invariant is observed from outside: answers, windows and deliveries.
 */
import { canonicalJson, type ChatEventEnvelope, type ChatEventV1 } from '@papercusp/chat-protocol-core';
import {
  validateReplayWindow,
  type AppendChatEventResult,
  type ChatEventLog,
  type ChatEventLogSubscriptionEnd,
  type ReplayWindow,
} from '@papercusp/chat-protocol-recovery';
import type { ConformanceCheck } from './interaction-conformance.js';
import { scheduleChatEventLog } from './scheduled-chat-event-log.js';
import { checkRaces, settleRace } from './scheduled-transit.js';
import { outcomeOf } from './turn-recovery-conformance.js';

/** What a host hands the checks: connections to its event log. */
export interface ChatEventLogHarness {
  /** A new connection to the host's log (another process, in effect). Every connection sees the same log. */
  connect(): ChatEventLog;
}

/** Options of the event log checks. */
export interface ChatEventLogConformanceOptions {
  /** Interleavings per race check (default 100). */
  readonly numRuns?: number;
  /** How long a check waits for a subscription to deliver what it must, in milliseconds (default 5,000; cross-process notification takes a while). */
  readonly deliveryTimeoutMs?: number;
}

// Ids unique to this process, so a host database kept between CI runs never holds them already.
const RUN_ID = Math.random().toString(36).slice(2, 10);
let turnCount = 0;

interface TurnKey {
  readonly conversationId: string;
  readonly turnId: string;
}

/** A turn of its own per use, so checks never meet each other's frames in a shared database. */
function freshTurn(conversationId?: string): TurnKey {
  turnCount += 1;
  return { conversationId: conversationId ?? `conv_eventlog_${RUN_ID}_${turnCount}`, turnId: `turn_eventlog_${RUN_ID}_${turnCount}` };
}

/**
 * Ids core's parsers refuse (`isChatId`), each a string a database may fail
 * to bind or index: no append can have stored them, so they name no turn.
 * The conversation store checks use them too; not exported from the package.
 */
export const UNSTORABLE_IDS: readonly (readonly [string, string])[] = [
  ['a NUL', 'turn\u0000x'],
  ['a lone high surrogate', 'turn\ud800x'],
  ['a lone low surrogate', '\udc00turn'],
  ['257 characters', 't'.repeat(257)],
  ['a control character', 'turn\u0007x'],
  ['a space', 'turn x'],
];

const OCCURRED_AT = '2031-05-01T08:00:00Z';
const delta = (text: string): ChatEventV1 => ({ type: 'delta', text });
const DONE: ChatEventV1 = { type: 'done', status: 'completed' };
const FAILED: ChatEventV1 = { type: 'error', code: 'provider-failed', message: 'the provider failed', retryable: false };

function envelopeOf(key: TurnKey, seq: number, event: ChatEventV1 = delta(`text ${seq}`), occurredAt = OCCURRED_AT): ChatEventEnvelope {
  return { schemaVersion: 1, ...key, eventId: `${key.turnId}_event_${seq}`, seq, occurredAt, event };
}

/** A value as JSON for a failure's text, or its `String` when JSON cannot write it. Not exported from the package. */
export const describe = (value: unknown): string => {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
};

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Appends `envelopes` in order; the failures of any that was not appended. Not exported from the package. */
export async function appendAll(log: ChatEventLog, envelopes: readonly ChatEventEnvelope[]): Promise<string[]> {
  const failures: string[] = [];
  for (const envelope of envelopes) {
    const answer = await log.append(envelope);
    if (!answer.ok || answer.outcome !== 'appended') failures.push(`appending seq ${envelope.seq} answered ${describe(answer)}`);
  }
  return failures;
}

/** Checks one append answer against the expected outcome or refusal code. */
function expectAnswer(what: string, answer: AppendChatEventResult, expected: string, failures: string[]): void {
  const got = answer.ok ? answer.outcome : answer.code;
  if (got !== expected) failures.push(`${what} answered ${describe(answer)}, not ${expected}`);
}

const seqsOf = (frames: readonly ChatEventEnvelope[]): string => frames.map((frame) => frame.seq).join(',');
const range = (from: number, to: number): number[] => Array.from({ length: Math.max(0, to - from + 1) }, (_, index) => from + index);

/** A subscription's deliveries, what it heard as its end, in order with the frames, and a wait until they satisfy a condition (or the timeout passes). */
interface Tail {
  readonly frames: ChatEventEnvelope[];
  readonly ends: ChatEventLogSubscriptionEnd[];
  /** Frames (by seq) and ends (by reason) as they arrived: `1,2,end:terminal`. */
  readonly timeline: string[];
  readonly unsubscribe: () => void;
  until(condition: (frames: readonly ChatEventEnvelope[]) => boolean): Promise<boolean>;
}

async function follow(log: ChatEventLog, key: TurnKey, after: number, timeoutMs: number, onFrame?: () => void): Promise<Tail> {
  const frames: ChatEventEnvelope[] = [];
  const ends: ChatEventLogSubscriptionEnd[] = [];
  const timeline: string[] = [];
  const unsubscribe = await log.subscribe(
    { ...key, after },
    (envelope) => {
      frames.push(envelope);
      timeline.push(String(envelope.seq));
      onFrame?.();
    },
    (end) => {
      ends.push(end);
      timeline.push(`end:${end.reason}`);
    },
  );
  return {
    frames,
    ends,
    timeline,
    unsubscribe,
    async until(condition) {
      const deadline = Date.now() + timeoutMs;
      while (!condition(frames)) {
        if (Date.now() > deadline) return false;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      return true;
    },
  };
}

/** The frames of `frames` as seqs, checked to be exactly `expected` (in order, each once). */
function expectSeqs(what: string, frames: readonly ChatEventEnvelope[], expected: readonly number[], failures: string[]): void {
  if (seqsOf(frames) !== expected.join(',')) failures.push(`${what} delivered seqs [${seqsOf(frames)}], not [${expected.join(',')}]`);
}

/** Whether the window's frames are exactly `sent` after `after` (same content, canonical JSON). */
function expectWindow(
  what: string,
  window: ReplayWindow,
  key: TurnKey,
  after: number,
  sent: readonly ChatEventEnvelope[],
  failures: string[],
): void {
  const validated = validateReplayWindow(window, { ...key, after: { turnId: key.turnId, seq: after } });
  if (!validated.ok) {
    failures.push(`${what}: validateReplayWindow refused ${validated.code}: ${validated.message}`);
    return;
  }
  const expected = sent.filter((envelope) => envelope.seq > after);
  if (canonicalJson(window.frames) !== canonicalJson(expected))
    failures.push(`${what}: the frames are not those appended: ${describe(window)}`);
}

/**
 * The checks, in order. Each uses turns of its own, so one database can serve
 * them all; run them with `describeChatEventLogConformance` from
 * `@papercusp/chat-protocol-testkit/vitest`.
 */
export function chatEventLogChecks(options: ChatEventLogConformanceOptions = {}): readonly ConformanceCheck<ChatEventLogHarness>[] {
  const numRuns = options.numRuns ?? 100;
  const timeoutMs = options.deliveryTimeoutMs ?? 5_000;
  return [
    {
      name: 'append keeps a turn contiguous from 1: the next seq is appended, a skipped one is seq-gap naming the expected seq',
      async run(harness) {
        const log = harness.connect();
        const key = freshTurn();
        const failures: string[] = [];
        const early = await log.append(envelopeOf(key, 2));
        if (early.ok || early.code !== 'seq-gap' || early.expectedSeq !== 1)
          failures.push(`seq 2 of an empty turn answered ${describe(early)}, not seq-gap with expectedSeq 1`);
        failures.push(...(await appendAll(log, [envelopeOf(key, 1), envelopeOf(key, 2)])));
        const gap = await log.append(envelopeOf(key, 4));
        if (gap.ok || gap.code !== 'seq-gap' || gap.expectedSeq !== 3)
          failures.push(`seq 4 after seq 2 answered ${describe(gap)}, not seq-gap with expectedSeq 3`);
        const third = await harness.connect().append(envelopeOf(key, 3));
        if (!third.ok || third.outcome !== 'appended' || third.seq !== 3 || third.latestSeq !== 3)
          failures.push(`seq 3 from another connection answered ${describe(third)}, not appended with latestSeq 3`);
        const window = await harness.connect().replayWindow({ ...key, after: 0 });
        expectWindow(
          'the window after appends 1–3 and refused 2 and 4',
          window,
          key,
          0,
          [1, 2, 3].map((seq) => envelopeOf(key, seq)),
          failures,
        );
        return failures;
      },
    },
    {
      name: 'an identical redelivery is duplicate and changes nothing, from any connection',
      async run(harness) {
        const log = harness.connect();
        const key = freshTurn();
        const sent = [envelopeOf(key, 1), envelopeOf(key, 2)];
        const failures = await appendAll(log, sent);
        const again = await log.append(sent[0] as ChatEventEnvelope);
        if (!again.ok || again.outcome !== 'duplicate' || again.seq !== 1 || again.latestSeq !== 2)
          failures.push(`redelivering seq 1 answered ${describe(again)}, not duplicate with latestSeq 2`);
        // The same content with its fields in another order is the same envelope.
        const reordered = JSON.parse(JSON.stringify({ event: sent[1]?.event, ...sent[1] })) as ChatEventEnvelope;
        expectAnswer('redelivering seq 2 from another connection', await harness.connect().append(reordered), 'duplicate', failures);
        expectWindow('the window after redeliveries', await log.replayWindow({ ...key, after: 0 }), key, 0, sent, failures);
        return failures;
      },
    },
    {
      name: 'conflicts are refused conflicting-duplicate: an event id with other content, a seq with another event, an event id of another turn of the conversation',
      async run(harness) {
        const log = harness.connect();
        const key = freshTurn();
        const sent = [envelopeOf(key, 1), envelopeOf(key, 2)];
        const failures = await appendAll(log, sent);
        expectAnswer(
          'seq 1 again with other text',
          await log.append({ ...envelopeOf(key, 1), event: delta('other text') }),
          'conflicting-duplicate',
          failures,
        );
        expectAnswer(
          'seq 2 with another event id',
          await log.append({ ...envelopeOf(key, 2), eventId: `${key.turnId}_other` }),
          'conflicting-duplicate',
          failures,
        );
        const sibling = freshTurn(key.conversationId);
        expectAnswer(
          'an event id of another turn in the same conversation',
          await log.append({ ...envelopeOf(sibling, 1), eventId: sent[0]?.eventId ?? '' }),
          'conflicting-duplicate',
          failures,
        );
        expectWindow('the window after conflicts', await log.replayWindow({ ...key, after: 0 }), key, 0, sent, failures);
        const siblingWindow = await log.replayWindow({ ...sibling, after: 0 });
        if (siblingWindow.latestSeq !== 0) failures.push(`the other turn holds frames after a refused append: ${describe(siblingWindow)}`);
        return failures;
      },
    },
    {
      name: 'a turn belongs to one conversation: an append naming another is foreign-conversation, and its window from another conversation reads empty',
      async run(harness) {
        const log = harness.connect();
        const key = freshTurn();
        const failures = await appendAll(log, [envelopeOf(key, 1)]);
        const foreign = { conversationId: `${key.conversationId}_other`, turnId: key.turnId };
        expectAnswer(
          'seq 2 of the turn in another conversation',
          await log.append(envelopeOf(foreign, 2)),
          'foreign-conversation',
          failures,
        );
        const window = await harness.connect().replayWindow({ ...foreign, after: 0 });
        if (canonicalJson(window) !== canonicalJson({ lowerBound: 0, latestSeq: 0, frames: [] }))
          failures.push(`the turn read from another conversation answered ${describe(window)}, not the empty window`);
        const own = await log.replayWindow({ ...key, after: 0 });
        if (own.latestSeq !== 1) failures.push(`the turn's own window after a foreign append: ${describe(own)}`);
        return failures;
      },
    },
    {
      name: 'nothing is appended after done or error (turn-terminal); redelivering the terminal event is duplicate',
      async run(harness) {
        const failures: string[] = [];
        for (const terminal of [DONE, FAILED]) {
          const log = harness.connect();
          const key = freshTurn();
          const last = envelopeOf(key, 2, terminal);
          failures.push(...(await appendAll(log, [envelopeOf(key, 1), last])));
          expectAnswer(`seq 3 after ${terminal.type}`, await harness.connect().append(envelopeOf(key, 3)), 'turn-terminal', failures);
          expectAnswer(`redelivering the ${terminal.type}`, await log.append(last), 'duplicate', failures);
          const window = await log.replayWindow({ ...key, after: 0 });
          if (window.latestSeq !== 2) failures.push(`after ${terminal.type} the window is ${describe(window)}`);
        }
        return failures;
      },
    },
    {
      name: 'a value that is not a v1 envelope is refused invalid-envelope and stores nothing',
      async run(harness) {
        const log = harness.connect();
        const key = freshTurn();
        const failures: string[] = [];
        for (const [what, value] of [
          ['seq 0', { ...envelopeOf(key, 1), seq: 0 }],
          ['a time without a zone', { ...envelopeOf(key, 1), occurredAt: '2031-05-01T08:00:00' }],
          ['null', null],
        ] as const) {
          expectAnswer(what, await log.append(value as unknown as ChatEventEnvelope), 'invalid-envelope', failures);
        }
        const window = await log.replayWindow({ ...key, after: 0 });
        if (window.latestSeq !== 0) failures.push(`refused envelopes were stored: ${describe(window)}`);
        return failures;
      },
    },
    {
      name: 'replayWindow is the complete retained suffix after the cursor with lowerBound and latestSeq, also when empty; an unknown turn reads empty',
      async run(harness) {
        const log = harness.connect();
        const key = freshTurn();
        const sent = range(1, 4).map((seq) => envelopeOf(key, seq));
        const failures = await appendAll(log, sent);
        const reader = harness.connect();
        for (const after of [0, 2, 4]) {
          const window = await reader.replayWindow({ ...key, after });
          expectWindow(`the window after ${after}`, window, key, after, sent, failures);
          if (window.lowerBound !== 0 || window.latestSeq !== 4) failures.push(`the window after ${after} states ${describe(window)}`);
        }
        const unknown = await reader.replayWindow({ ...freshTurn(), after: 0 });
        if (canonicalJson(unknown) !== canonicalJson({ lowerBound: 0, latestSeq: 0, frames: [] }))
          failures.push(`an unknown turn answered ${describe(unknown)}, not the empty window`);
        return failures;
      },
    },
    {
      name: 'ids core refuses name no turn: append is invalid-envelope, replayWindow the empty window, subscribe hears nothing; nothing rejects',
      async run(harness) {
        const log = harness.connect();
        const key = freshTurn();
        const failures = await appendAll(log, [envelopeOf(key, 1)]);
        const tails: { readonly what: string; readonly tail: Tail }[] = [];
        for (const [what, id] of UNSTORABLE_IDS) {
          for (const field of ['conversationId', 'turnId'] as const) {
            const named = `a ${field} with ${what}`;
            const appended = await outcomeOf(() => log.append({ ...envelopeOf(key, 2), [field]: id }));
            if (!('value' in appended)) failures.push(`appending ${named} threw ${appended.threw}`);
            else expectAnswer(`appending ${named}`, appended.value as AppendChatEventResult, 'invalid-envelope', failures);
            const window = await outcomeOf(() => log.replayWindow({ ...key, [field]: id, after: 0 }));
            if (!('value' in window)) failures.push(`the window of ${named} threw ${window.threw}`);
            else if (canonicalJson(window.value) !== canonicalJson({ lowerBound: 0, latestSeq: 0, frames: [] }))
              failures.push(`the window of ${named} is ${describe(window.value)}, not the empty window`);
            const followed = await outcomeOf(() => follow(log, { ...key, [field]: id }, 0, timeoutMs));
            if (!('value' in followed)) failures.push(`subscribing to ${named} threw ${followed.threw}`);
            else tails.push({ what: named, tail: followed.value as Tail });
          }
        }
        failures.push(...(await appendAll(log, [envelopeOf(key, 2, DONE)])));
        // Time for a frame or an end (`lost`, say, from a read the database refused) to arrive, if the log sends one.
        await new Promise((resolve) => setTimeout(resolve, Math.min(timeoutMs, 250)));
        for (const { what, tail } of tails) {
          if (tail.timeline.length > 0) failures.push(`a subscription to ${what} heard [${tail.timeline.join(',')}], not nothing`);
          tail.unsubscribe();
        }
        const window = await log.replayWindow({ ...key, after: 0 });
        if (window.latestSeq !== 2) failures.push(`the turn itself holds ${describe(window)}, not its 2 frames`);
        return failures;
      },
    },
    {
      name: 'subscribe delivers every frame after the cursor, stored before or appended later by another connection, in seq order, each once; a throwing subscriber still gets the rest',
      async run(harness) {
        const writer = harness.connect();
        const key = freshTurn();
        const failures = await appendAll(writer, [envelopeOf(key, 1), envelopeOf(key, 2)]);
        const tail = await follow(harness.connect(), key, 1, timeoutMs);
        const throwing = await follow(harness.connect(), key, 0, timeoutMs, () => {
          throw new Error('a subscriber that throws');
        });
        failures.push(...(await appendAll(writer, [envelopeOf(key, 3), envelopeOf(key, 4, DONE)])));
        await tail.until((frames) => frames.length >= 3);
        await throwing.until((frames) => frames.length >= 4);
        await settle();
        expectSeqs('a subscription after seq 1', tail.frames, [2, 3, 4], failures);
        expectSeqs('a subscriber that throws', throwing.frames, [1, 2, 3, 4], failures);
        if (canonicalJson(tail.frames) !== canonicalJson([2, 3].map((seq) => envelopeOf(key, seq)).concat(envelopeOf(key, 4, DONE))))
          failures.push('the subscription delivered other content than was appended');
        tail.unsubscribe();
        throwing.unsubscribe();
        return failures;
      },
    },
    {
      name: 'unsubscribe stops delivery at once: nothing arrives after it returns, while another subscription gets the later frames',
      async run(harness) {
        const writer = harness.connect();
        const key = freshTurn();
        const failures: string[] = [];
        let afterUnsubscribe = 0;
        let stopped = false;
        const stopping = await follow(harness.connect(), key, 0, timeoutMs, () => {
          if (stopped) afterUnsubscribe += 1;
        });
        const control = await follow(harness.connect(), key, 0, timeoutMs);
        failures.push(...(await appendAll(writer, [envelopeOf(key, 1)])));
        if (!(await stopping.until((frames) => frames.length >= 1))) failures.push('seq 1 was never delivered');
        failures.push(...(await appendAll(writer, [envelopeOf(key, 2)])));
        // Unsubscribed right after an append answered: its delivery may be on its way, and must not arrive.
        stopping.unsubscribe();
        stopped = true;
        stopping.unsubscribe();
        failures.push(...(await appendAll(writer, [envelopeOf(key, 3), envelopeOf(key, 4, DONE)])));
        if (!(await control.until((frames) => frames.length >= 4)))
          failures.push(`the control subscription got [${seqsOf(control.frames)}], not 1–4`);
        await settle();
        if (afterUnsubscribe > 0) failures.push(`${afterUnsubscribe} frames arrived after unsubscribe returned`);
        control.unsubscribe();
        return failures;
      },
    },
    {
      name: 'a subscription ends terminal right after the terminal frame, at most once, also one that starts at it; a throwing onEnd is swallowed',
      async run(harness) {
        const failures: string[] = [];
        for (const terminal of [DONE, FAILED]) {
          const writer = harness.connect();
          const key = freshTurn();
          const tail = await follow(harness.connect(), key, 0, timeoutMs);
          let thrown = 0;
          const throwing = await harness.connect().subscribe(
            { ...key, after: 0 },
            () => undefined,
            () => {
              thrown += 1;
              throw new Error('an onEnd that throws');
            },
          );
          failures.push(...(await appendAll(writer, [envelopeOf(key, 1), envelopeOf(key, 2, terminal)])));
          if (!(await tail.until(() => tail.ends.length >= 1)))
            failures.push(`no end arrived after ${terminal.type}: [${tail.timeline.join(',')}]`);
          const late = await follow(harness.connect(), key, 2, timeoutMs);
          await late.until(() => late.ends.length >= 1);
          // Time for a second end, if the log sends one.
          for (let turn = 0; turn < 5; turn += 1) await settle();
          if (tail.timeline.join(',') !== '1,2,end:terminal')
            failures.push(`a subscription to a turn ending in ${terminal.type} heard [${tail.timeline.join(',')}], not [1,2,end:terminal]`);
          if (late.timeline.join(',') !== 'end:terminal')
            failures.push(`a subscription from the ${terminal.type} seq heard [${late.timeline.join(',')}], not [end:terminal]`);
          if (thrown !== 1) failures.push(`an onEnd that throws was called ${thrown} times, not once`);
          tail.unsubscribe();
          late.unsubscribe();
          throwing();
        }
        return failures;
      },
    },
    {
      name: 'no end after unsubscribe: a subscription stopped before its terminal frame hears neither the frame nor an end',
      async run(harness) {
        const writer = harness.connect();
        const key = freshTurn();
        const stopping = await follow(harness.connect(), key, 0, timeoutMs);
        const control = await follow(harness.connect(), key, 0, timeoutMs);
        const failures = await appendAll(writer, [envelopeOf(key, 1)]);
        if (!(await stopping.until((frames) => frames.length >= 1))) failures.push('seq 1 was never delivered');
        stopping.unsubscribe();
        const heard = stopping.timeline.length;
        failures.push(...(await appendAll(writer, [envelopeOf(key, 2, DONE)])));
        if (!(await control.until(() => control.ends.length >= 1)))
          failures.push(`the control subscription heard [${control.timeline.join(',')}], not its end`);
        for (let turn = 0; turn < 5; turn += 1) await settle();
        if (stopping.timeline.length !== heard)
          failures.push(`after unsubscribe returned the subscription heard [${stopping.timeline.slice(heard).join(',')}]`);
        control.unsubscribe();
        return failures;
      },
    },
    {
      name: 'pruneTurns drops whole finished turns before the instant: their window reports lowerBound = latestSeq (an earlier cursor is stale-cursor), running and later turns stay, appends to them are turn-terminal',
      async run(harness) {
        const log = harness.connect();
        // Turns of 2001: no other check writes that year, so a shared database only holds these to prune.
        const at = (instant: string) => (key: TurnKey, seq: number, event?: ChatEventV1) => envelopeOf(key, seq, event, instant);
        const early = at('2001-01-01T00:00:00Z');
        const done = freshTurn();
        const failed = freshTurn();
        const running = freshTurn();
        const later = freshTurn();
        const failures = await appendAll(log, [
          early(done, 1),
          early(done, 2, DONE),
          early(failed, 1),
          // 00:00:01+02:00 is 22:00:01 the day before: an instant, not a text, decides.
          at('2001-01-01T00:00:01+02:00')(failed, 2, FAILED),
          early(running, 1),
          early(later, 1),
          at('2001-12-01T00:00:00Z')(later, 2, DONE),
        ]);
        const refused = await log.pruneTurns({ before: '2001-06-01' });
        if (refused.ok || refused.code !== 'invalid-request')
          failures.push(`pruning before a date without a time answered ${describe(refused)}`);
        const pruned = await log.pruneTurns({ before: '2001-06-01T00:00:00Z' });
        if (!pruned.ok || pruned.pruned !== 2) failures.push(`pruning answered ${describe(pruned)}, not 2 turns pruned`);
        const reader = harness.connect();
        for (const key of [done, failed]) {
          const window = await reader.replayWindow({ ...key, after: 2 });
          if (canonicalJson(window) !== canonicalJson({ lowerBound: 2, latestSeq: 2, frames: [] }))
            failures.push(`a pruned turn's window is ${describe(window)}, not { lowerBound: 2, latestSeq: 2, frames: [] }`);
          const stale = validateReplayWindow(window, { ...key, after: { turnId: key.turnId, seq: 0 } });
          if (stale.ok || stale.code !== 'stale-cursor')
            failures.push(`a cursor at 0 on a pruned turn gave ${describe(stale)}, not stale-cursor`);
          expectAnswer('seq 3 of a pruned turn', await reader.append(early(key, 3)), 'turn-terminal', failures);
          expectAnswer('seq 1 of a pruned turn again', await reader.append(early(key, 1)), 'turn-terminal', failures);
        }
        expectWindow('the running turn', await reader.replayWindow({ ...running, after: 0 }), running, 0, [early(running, 1)], failures);
        expectWindow(
          'the turn that finished after the instant',
          await reader.replayWindow({ ...later, after: 0 }),
          later,
          0,
          [early(later, 1), at('2001-12-01T00:00:00Z')(later, 2, DONE)],
          failures,
        );
        const again = await log.pruneTurns({ before: '2001-06-01T00:00:00Z' });
        if (!again.ok || again.pruned !== 0) failures.push(`pruning again answered ${describe(again)}, not 0 turns pruned`);
        return failures;
      },
    },
    {
      name: 'two connections racing for one seq: exactly one is appended, the other is conflicting-duplicate (or duplicate for the same envelope)',
      run: (harness) =>
        checkRaces(numRuns, async (pacing) => {
          const key = freshTurn();
          const first = scheduleChatEventLog(harness.connect(), pacing.scheduler);
          const second = scheduleChatEventLog(harness.connect(), pacing.scheduler);
          const same = envelopeOf(key, 1);
          const other = { ...envelopeOf(key, 1), eventId: `${key.turnId}_rival` };
          const [a, b, c] = await settleRace(pacing, Promise.all([first.append(same), second.append(other), second.append(same)]));
          const answers = [a, b, c].map((answer) => (answer?.ok === true ? answer.outcome : answer?.code));
          const failures: string[] = [];
          const appended = answers.filter((answer) => answer === 'appended').length;
          if (appended !== 1) failures.push(`${appended} appends of seq 1 were appended: ${answers.join(', ')}`);
          const window = await harness.connect().replayWindow({ ...key, after: 0 });
          const winner = window.frames[0];
          if (window.latestSeq !== 1 || winner === undefined) return [...failures, `the window after the race is ${describe(window)}`];
          // The same envelope from two connections: one appended, one duplicate; the rival: refused. Or the rival won, and both others are refused.
          const holds =
            winner.eventId === same.eventId
              ? answers[1] === 'conflicting-duplicate' && [answers[0], answers[2]].sort().join() === 'appended,duplicate'
              : answers[1] === 'appended' && answers[0] === 'conflicting-duplicate' && answers[2] === 'conflicting-duplicate';
          if (!holds) failures.push(`with ${winner.eventId} stored the answers were ${answers.join(', ')}`);
          return failures;
        }),
    },
    {
      name: 'replay windows never tear under concurrent appends: each validates, and its frames reach its latestSeq',
      run: (harness) =>
        checkRaces(numRuns, async (pacing) => {
          const key = freshTurn();
          const sent = range(1, 6).map((seq) => envelopeOf(key, seq));
          const failures = await appendAll(harness.connect(), sent.slice(0, 2));
          const writer = scheduleChatEventLog(harness.connect(), pacing.scheduler);
          const reader = scheduleChatEventLog(harness.connect(), pacing.scheduler);
          const writes = (async () => {
            for (const envelope of sent.slice(2)) {
              const answer = await writer.append(envelope);
              if (!answer.ok || answer.outcome !== 'appended') failures.push(`appending seq ${envelope.seq} answered ${describe(answer)}`);
            }
          })();
          const windows = await settleRace(
            pacing,
            Promise.all([
              writes,
              ...[0, 1, 2].map((after) => reader.replayWindow({ ...key, after }).then((window) => ({ after, window }))),
            ]),
          );
          for (const entry of windows.slice(1)) {
            if (entry === undefined) continue;
            const { after, window } = entry as { after: number; window: ReplayWindow };
            if (window.latestSeq < 2) failures.push(`a window after ${after} lost committed frames: ${describe(window)}`);
            expectWindow(`a window after ${after} read during appends`, window, key, after, sent.slice(0, window.latestSeq), failures);
          }
          return failures;
        }),
    },
    {
      name: 'subscribe, then replay: with appends racing both, the subscription alone and the window merged with it deliver every seq once, in order',
      run: (harness) =>
        checkRaces(numRuns, async (pacing) => {
          const key = freshTurn();
          const sent = [...range(1, 5).map((seq) => envelopeOf(key, seq)), envelopeOf(key, 6, DONE)];
          const failures = await appendAll(harness.connect(), sent.slice(0, 2));
          const writer = scheduleChatEventLog(harness.connect(), pacing.scheduler);
          const client = scheduleChatEventLog(harness.connect(), pacing.scheduler);
          const live: ChatEventEnvelope[] = [];
          const writes = (async () => {
            for (const envelope of sent.slice(2)) await writer.append(envelope);
          })();
          const handoff = (async () => {
            const unsubscribe = await client.subscribe({ ...key, after: 1 }, (envelope) => live.push(envelope));
            return { unsubscribe, window: await client.replayWindow({ ...key, after: 1 }) };
          })();
          const [, { unsubscribe, window }] = await settleRace(pacing, Promise.all([writes, handoff]));
          const deadline = Date.now() + timeoutMs;
          while (live.length < 5 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
          await settle();
          unsubscribe();
          expectSeqs('the subscription', live, range(2, 6), failures);
          const validated = validateReplayWindow(window, { ...key, after: { turnId: key.turnId, seq: 1 } });
          if (!validated.ok) return [...failures, `the handoff window was refused ${validated.code}: ${validated.message}`];
          const merged = [...window.frames, ...live.filter((frame) => frame.seq > window.latestSeq)];
          expectSeqs('the window merged with the subscription', merged, range(2, 6), failures);
          if (canonicalJson(merged) !== canonicalJson(sent.slice(1))) failures.push('the merged frames are not those appended');
          return failures;
        }),
    },
  ];
}
