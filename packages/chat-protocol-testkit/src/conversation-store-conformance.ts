/**
 * The conformance checks a host's conversation store must pass: recovery's
 * `ChatConversationStore` contract (the conversation-log reader and the
 * conversation grant, DESIGN §9.3 and §11) exercised through separate
 * connections, the one-snapshot rule under racing appends explored with
 * fast-check's scheduler. Plain async checks that return their failures, so
 * the testkit can prove they catch broken stores;
 * `describeConversationStoreConformance` runs them under vitest.
 */
import { canonicalJson, type ChatEventEnvelope, type ChatEventV1 } from '@papercusp/chat-protocol-core';
import type {
  ChatConversationStore,
  ChatEventLog,
  ReadConversationLogRequest,
  ReadConversationLogResult,
} from '@papercusp/chat-protocol-recovery';
import { UNSTORABLE_IDS, appendAll, describe } from './chat-event-log-conformance.js';
import type { ConformanceCheck } from './interaction-conformance.js';
import { scheduleChatEventLog } from './scheduled-chat-event-log.js';
import { checkRaces, scheduleTransit, settleRace } from './scheduled-transit.js';

/** One connection to a host's store: its event log (to write the turns the reads must see) and its conversation reads. */
export type ConversationStoreConnection = ChatConversationStore<string> & { readonly eventLog: ChatEventLog };

/** What a host hands the checks: connections to its store and a way to grant. */
export interface ConversationStoreHarness {
  /** A new connection to the host's store (another process, in effect). Every connection sees the same data. */
  connect(): ConversationStoreConnection;
  /** Grants `caller` the conversation (`true`) or revokes the grant (`false`). The store must read it on every call. */
  grant(conversationId: string, caller: string, granted: boolean): void | Promise<void>;
}

/** Options of the conversation store checks. */
export interface ConversationStoreConformanceOptions {
  /** Interleavings of the race check (default 100). */
  readonly numRuns?: number;
}

// Ids unique to this process, so a host database kept between CI runs never holds them already.
const RUN_ID = Math.random().toString(36).slice(2, 10);
let count = 0;
const fresh = (kind: string): string => {
  count += 1;
  return `${kind}_conversations_${RUN_ID}_${count}`;
};

interface TurnKey {
  readonly conversationId: string;
  readonly turnId: string;
}

const OCCURRED_AT = '2031-05-01T08:00:00Z';
const DONE: ChatEventV1 = { type: 'done', status: 'completed' };

function envelopeOf(key: TurnKey, seq: number, event: ChatEventV1 = { type: 'delta', text: `text ${seq}` }, occurredAt = OCCURRED_AT) {
  return { schemaVersion: 1, ...key, eventId: `${key.turnId}_event_${seq}`, seq, occurredAt, event } satisfies ChatEventEnvelope;
}

/** What a read should hold for one turn, given the frames appended to it. */
function expectedTurn(turnId: string, frames: readonly ChatEventEnvelope[]) {
  const last = frames.at(-1);
  const ended = last?.event.type === 'done' || last?.event.type === 'error';
  return { turnId, lowerBound: 0, latestSeq: frames.length, ended, pruned: false, frames };
}

/** The read answered ok with exactly `turns` (canonical JSON: same content, key order aside). */
function expectTurns(
  what: string,
  answer: ReadConversationLogResult,
  conversationId: string,
  turns: readonly unknown[],
  failures: string[],
) {
  if (canonicalJson(answer) !== canonicalJson({ ok: true, value: { conversationId, turns } }))
    failures.push(`${what} answered ${describe(answer)}, not ${describe({ ok: true, value: { conversationId, turns } })}`);
}

/** The read refused with `code` (and, for a bound, the `limit`). */
function expectRefusal(what: string, answer: ReadConversationLogResult, code: string, failures: string[], limit?: number): void {
  const holds = !answer.ok && answer.code === code && (limit === undefined || ('limit' in answer && answer.limit === limit));
  if (!holds) failures.push(`${what} answered ${describe(answer)}, not ${code}${limit === undefined ? '' : ` with limit ${limit}`}`);
}

/** Calls `read` and turns a rejection into a failure: the reader never rejects. */
async function settled(what: string, read: () => Promise<ReadConversationLogResult>, failures: string[]) {
  try {
    return await read();
  } catch (error) {
    failures.push(`${what} rejected with ${String(error)}`);
    return undefined;
  }
}

/**
 * The checks, in order. Each uses conversations of its own, so one database
 * can serve them all; run them with `describeConversationStoreConformance`
 * from `@papercusp/chat-protocol-testkit/vitest`.
 */
export function conversationStoreChecks(
  options: ConversationStoreConformanceOptions = {},
): readonly ConformanceCheck<ConversationStoreHarness>[] {
  const numRuns = options.numRuns ?? 100;
  return [
    {
      name: 'readConversationLog lists the conversation’s turns only, in the order they started, each with exactly its frames, from any connection; an unknown conversation is no turns',
      async run(harness) {
        const writer = harness.connect();
        const conversationId = fresh('conv');
        const first = { conversationId, turnId: fresh('turn') };
        const second = { conversationId, turnId: fresh('turn') };
        const foreign = { conversationId: fresh('conv'), turnId: fresh('turn') };
        const firstFrames = [envelopeOf(first, 1), envelopeOf(first, 2, DONE)];
        const secondFrames = [envelopeOf(second, 1), envelopeOf(second, 2)];
        // Interleaved: the second turn's frames land between the first's, and another conversation's turn between both.
        const failures = await appendAll(writer.eventLog, [
          firstFrames[0],
          envelopeOf(foreign, 1),
          secondFrames[0],
          firstFrames[1],
          secondFrames[1],
        ] as ChatEventEnvelope[]);
        const reader = harness.connect();
        const turns = [expectedTurn(first.turnId, firstFrames), expectedTurn(second.turnId, secondFrames)];
        expectTurns('the conversation', await reader.readConversationLog({ conversationId }), conversationId, turns, failures);
        expectTurns(
          'the other conversation',
          await reader.readConversationLog({ conversationId: foreign.conversationId }),
          foreign.conversationId,
          [expectedTurn(foreign.turnId, [envelopeOf(foreign, 1)])],
          failures,
        );
        const unknown = fresh('conv');
        expectTurns('a conversation nobody wrote', await reader.readConversationLog({ conversationId: unknown }), unknown, [], failures);
        return failures;
      },
    },
    {
      name: 'a pruned turn is listed in its place, ended and pruned with no frames and lowerBound = latestSeq, and its dropped frames count toward no bound',
      async run(harness) {
        const store = harness.connect();
        // Turns of 1999: no other check of the testkit writes that year, so a shared database only holds these to prune.
        const at = '1999-01-01T00:00:00Z';
        const conversationId = fresh('conv');
        const old = { conversationId, turnId: fresh('turn') };
        const running = { conversationId, turnId: fresh('turn') };
        const oldFrames = [envelopeOf(old, 1, undefined, at), envelopeOf(old, 2, undefined, at), envelopeOf(old, 3, DONE, at)];
        const runningFrames = [envelopeOf(running, 1, undefined, at)];
        const failures = await appendAll(store.eventLog, [...oldFrames, ...runningFrames]);
        const pruned = await store.eventLog.pruneTurns({ before: '1999-06-01T00:00:00Z' });
        if (!pruned.ok || pruned.pruned < 1) failures.push(`pruning answered ${describe(pruned)}, not at least the finished turn pruned`);
        const turns = [
          { turnId: old.turnId, lowerBound: 3, latestSeq: 3, ended: true, pruned: true, frames: [] },
          expectedTurn(running.turnId, runningFrames),
        ];
        const reader = harness.connect();
        expectTurns(
          'the conversation after pruning',
          await reader.readConversationLog({ conversationId }),
          conversationId,
          turns,
          failures,
        );
        expectTurns(
          'the conversation after pruning, maxFrames 1 (one frame retained)',
          await reader.readConversationLog({ conversationId, maxFrames: 1 }),
          conversationId,
          turns,
          failures,
        );
        return failures;
      },
    },
    {
      name: 'bounds: a conversation exactly at maxTurns and maxFrames is read; one turn or frame past is too-many-turns or too-many-frames with the limit',
      async run(harness) {
        const store = harness.connect();
        const conversationId = fresh('conv');
        const keys = [0, 1].map(() => ({ conversationId, turnId: fresh('turn') }));
        const frames = keys.map((key) => [envelopeOf(key, 1), envelopeOf(key, 2)]);
        const failures = await appendAll(store.eventLog, frames.flat());
        const turns = keys.map((key, index) => expectedTurn(key.turnId, frames[index] ?? []));
        const reader = harness.connect();
        expectTurns(
          'maxTurns 2, maxFrames 4',
          await reader.readConversationLog({ conversationId, maxTurns: 2, maxFrames: 4 }),
          conversationId,
          turns,
          failures,
        );
        expectTurns('no bounds (the defaults)', await reader.readConversationLog({ conversationId }), conversationId, turns, failures);
        expectRefusal('maxTurns 1', await reader.readConversationLog({ conversationId, maxTurns: 1 }), 'too-many-turns', failures, 1);
        expectRefusal('maxFrames 3', await reader.readConversationLog({ conversationId, maxFrames: 3 }), 'too-many-frames', failures, 3);
        expectRefusal(
          'maxTurns 1 and maxFrames 1',
          await reader.readConversationLog({ conversationId, maxTurns: 1, maxFrames: 1 }),
          'too-many-turns',
          failures,
          1,
        );
        return failures;
      },
    },
    {
      name: "throughTurnId and overflow 'keep-newest': the turns up to one turn (an unknown one: none), and the newest turns within both bounds with omittedTurns counting the rest, never a size refusal",
      async run(harness) {
        const store = harness.connect();
        const conversationId = fresh('conv');
        const keys = [0, 1, 2].map(() => ({ conversationId, turnId: fresh('turn') }));
        // Two ended turns of two frames, then a running turn of one frame (a turn just started).
        const frames = [
          [envelopeOf(keys[0] as TurnKey, 1), envelopeOf(keys[0] as TurnKey, 2, DONE)],
          [envelopeOf(keys[1] as TurnKey, 1), envelopeOf(keys[1] as TurnKey, 2, DONE)],
          [envelopeOf(keys[2] as TurnKey, 1)],
        ];
        const failures = await appendAll(store.eventLog, frames.flat());
        const [first, second, third] = keys.map((key, index) => expectedTurn(key.turnId, frames[index] ?? []));
        const reader = harness.connect();
        const read = (request: Omit<ReadConversationLogRequest, 'conversationId'>) =>
          reader.readConversationLog({ conversationId, ...request });
        const throughSecond = (keys[1] as TurnKey).turnId;
        const expectKept = (what: string, answer: ReadConversationLogResult, turns: readonly unknown[], omittedTurns: number) => {
          const wanted = { ok: true, value: { conversationId, turns, omittedTurns } };
          if (canonicalJson(answer) !== canonicalJson(wanted))
            failures.push(`${what} answered ${describe(answer)}, not ${describe(wanted)}`);
        };
        expectTurns(
          'throughTurnId the second turn',
          await read({ throughTurnId: throughSecond }),
          conversationId,
          [first, second],
          failures,
        );
        expectTurns('throughTurnId a turn of no conversation', await read({ throughTurnId: fresh('turn') }), conversationId, [], failures);
        expectTurns(
          'throughTurnId the newest turn',
          await read({ throughTurnId: (keys[2] as TurnKey).turnId }),
          conversationId,
          [first, second, third],
          failures,
        );
        expectRefusal(
          'throughTurnId the second turn, maxTurns 1',
          await read({ throughTurnId: throughSecond, maxTurns: 1 }),
          'too-many-turns',
          failures,
          1,
        );
        expectTurns(
          "overflow 'refuse' (the default, named)",
          await read({ overflow: 'refuse' }),
          conversationId,
          [first, second, third],
          failures,
        );
        expectKept("'keep-newest' within the bounds", await read({ overflow: 'keep-newest' }), [first, second, third], 0);
        expectKept("'keep-newest', maxTurns 2", await read({ overflow: 'keep-newest', maxTurns: 2 }), [second, third], 1);
        expectKept("'keep-newest', maxFrames 3", await read({ overflow: 'keep-newest', maxFrames: 3 }), [second, third], 1);
        // The second turn does not fit in 2 frames beside the newest, so the first is not read either: no gap.
        expectKept("'keep-newest', maxFrames 2", await read({ overflow: 'keep-newest', maxFrames: 2 }), [third], 2);
        expectKept(
          "'keep-newest' through the second turn, maxTurns 1",
          await read({ overflow: 'keep-newest', throughTurnId: throughSecond, maxTurns: 1 }),
          [second],
          1,
        );
        expectKept(
          "'keep-newest' through a turn of no conversation",
          await read({ overflow: 'keep-newest', throughTurnId: fresh('turn') }),
          [],
          0,
        );
        return failures;
      },
    },
    {
      name: 'readConversationLog refuses what it cannot read as invalid-request, never a rejection: ids core refuses, bounds that are not positive safe integers, a request that is not one',
      async run(harness) {
        const store = harness.connect();
        const conversationId = fresh('conv');
        const failures = await appendAll(store.eventLog, [envelopeOf({ conversationId, turnId: fresh('turn') }, 1)]);
        const unreadable = new Proxy(
          {},
          {
            get: () => {
              throw new Error('a hostile getter');
            },
          },
        );
        const requests: readonly (readonly [string, unknown])[] = [
          ...UNSTORABLE_IDS.map(([what, id]) => [`a conversation id with ${what}`, { conversationId: id }] as const),
          ['a number for a conversation id', { conversationId: 42 }],
          ...UNSTORABLE_IDS.map(([what, id]) => [`a throughTurnId with ${what}`, { conversationId, throughTurnId: id }] as const),
          ['a number for a throughTurnId', { conversationId, throughTurnId: 42 }],
          ...['newest', 'REFUSE', '', 1, null].map(
            (overflow) => [`overflow ${JSON.stringify(overflow)}`, { conversationId, overflow }] as const,
          ),
          ...[0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '2'].flatMap((bound) => [
            [`maxTurns ${String(bound)}`, { conversationId, maxTurns: bound }] as const,
            [`maxFrames ${String(bound)}`, { conversationId, maxFrames: bound }] as const,
          ]),
          ['null', null],
          ['a string', conversationId],
          ['a request whose getters throw', unreadable],
        ];
        for (const [what, request] of requests) {
          const answer = await settled(what, () => store.readConversationLog(request as never), failures);
          if (answer !== undefined) expectRefusal(what, answer, 'invalid-request', failures);
        }
        return failures;
      },
    },
    {
      name: 'readConversationLog never tears under concurrent appends: every turn it lists holds exactly seqs lowerBound+1..latestSeq, and nothing committed before it is missing',
      run: (harness) =>
        checkRaces(numRuns, async (pacing) => {
          const conversationId = fresh('conv');
          const keys = [0, 1].map(() => ({ conversationId, turnId: fresh('turn') }));
          const sent = keys.map((key) => [1, 2, 3, 4].map((seq) => envelopeOf(key, seq)));
          const failures = await appendAll(
            harness.connect().eventLog,
            sent.map((frames) => frames[0]).filter((frame) => frame !== undefined),
          );
          const writer = scheduleChatEventLog(harness.connect().eventLog, pacing.scheduler);
          const connection = harness.connect();
          const read = scheduleTransit(pacing.scheduler, 'readConversationLog', connection.readConversationLog);
          const writes = Promise.all(
            sent.map(async (frames) => {
              for (const envelope of frames.slice(1)) {
                const answer = await writer.append(envelope);
                if (!answer.ok || answer.outcome !== 'appended')
                  failures.push(`appending ${envelope.eventId} answered ${describe(answer)}`);
              }
            }),
          );
          const [, ...answers] = await settleRace(pacing, Promise.all([writes, read({ conversationId }), read({ conversationId })]));
          for (const answer of answers) {
            if (answer === undefined || !answer.ok) {
              failures.push(`a read during appends answered ${describe(answer)}`);
              continue;
            }
            const listed = answer.value.turns.map((turn) => turn.turnId);
            if (listed.join() !== keys.map((key) => key.turnId).join()) failures.push(`a read during appends listed [${listed.join()}]`);
            answer.value.turns.forEach((turn, index) => {
              const expected = (sent[index] ?? []).slice(0, turn.latestSeq);
              if (turn.lowerBound !== 0 || turn.latestSeq < 1 || canonicalJson(turn.frames) !== canonicalJson(expected))
                failures.push(
                  `a read during appends tore turn ${turn.turnId}: latestSeq ${turn.latestSeq}, frames ${describe(turn.frames.map((frame) => frame.seq))}`,
                );
            });
          }
          return failures;
        }),
    },
    {
      name: 'authorizeConversation grants only what was granted, as it is now: one caller, one conversation, a revocation seen at once, from any connection',
      async run(harness) {
        const failures: string[] = [];
        const conversationId = fresh('conv');
        const other = fresh('conv');
        const [owner, stranger] = [fresh('caller'), fresh('caller')] as const;
        const expectGrant = async (what: string, caller: string, conversation: string, expected: boolean) => {
          let answer: unknown;
          try {
            answer = await harness.connect().authorizeConversation({ caller, conversationId: conversation });
          } catch (error) {
            answer = `a rejection (${String(error)})`;
          }
          if (answer !== expected) failures.push(`${what} answered ${describe(answer)}, not ${String(expected)}`);
        };
        // A connection opened before every change it must see: the store reads the grants on every call, never a copy.
        const early = harness.connect();
        await expectGrant('the owner before any grant', owner, conversationId, false);
        if ((await early.authorizeConversation({ caller: owner, conversationId })) !== false)
          failures.push('a connection grants the owner before any grant');
        await harness.grant(conversationId, owner, true);
        await expectGrant('the owner once granted', owner, conversationId, true);
        await expectGrant('another caller', stranger, conversationId, false);
        await expectGrant('the owner in another conversation', owner, other, false);
        if ((await early.authorizeConversation({ caller: owner, conversationId })) !== true)
          failures.push('a connection opened before the grant does not see it');
        await harness.grant(conversationId, owner, false);
        if ((await early.authorizeConversation({ caller: owner, conversationId })) !== false)
          failures.push('a connection that granted the owner before does not see the revocation');
        await expectGrant('the owner once revoked', owner, conversationId, false);
        return failures;
      },
    },
    {
      name: 'authorizeConversation is false, never a rejection, for an id core refuses or a request it cannot read',
      async run(harness) {
        const failures: string[] = [];
        const conversationId = fresh('conv');
        const caller = fresh('caller');
        await harness.grant(conversationId, caller, true);
        const store = harness.connect();
        const requests: readonly (readonly [string, unknown])[] = [
          ...UNSTORABLE_IDS.map(([what, id]) => [`a conversation id with ${what}`, { caller, conversationId: id }] as const),
          ['a number for a conversation id', { caller, conversationId: 42 }],
          ['no caller', { conversationId }],
          ['null', null],
          [
            'a request whose getters throw',
            new Proxy(
              {},
              {
                get: () => {
                  throw new Error('a hostile getter');
                },
              },
            ),
          ],
        ];
        for (const [what, request] of requests) {
          let answer: unknown;
          try {
            answer = await store.authorizeConversation(request as never);
          } catch (error) {
            answer = `a rejection (${String(error)})`;
          }
          if (answer !== false) failures.push(`${what} answered ${describe(answer)}, not false`);
        }
        if ((await store.authorizeConversation({ caller, conversationId })) !== true) failures.push('the granted caller is not granted');
        return failures;
      },
    },
  ];
}
