/**
 * The fake conversation store: recovery's `ChatConversationStore` (the
 * conversation grant and the conversation-log reader, beside `ChatEventLog`)
 * over a `FakeDatabase`. It reads the tables the fake event log writes and
 * the grants the fake turn store keeps, so one fake database answers for
 * turns, frames and grants alike, as a host's store answers from one database.
 * It shares the database's faults, counts and restarts; it owns no table.
 */
import { isChatId } from '@papercusp/chat-protocol-core';
import { readFields, refuse } from '@papercusp/chat-protocol-core/internal';
import {
  DEFAULT_CONVERSATION_LOG_MAX_FRAMES,
  DEFAULT_CONVERSATION_LOG_MAX_TURNS,
  type ChatConversationStore,
  type ConversationAuthorityRequest,
  type ConversationLogTurn,
  type ReadConversationLogRequest,
  type ReadConversationLogResult,
} from '@papercusp/chat-protocol-recovery';
import { FAKE_EVENT_LOG_TABLES, type TurnLogRow } from './fake-chat-event-log.js';
import { connectFakeDatabase, type FakeDatabase } from './fake-database.js';
import { FAKE_TURN_TABLES, grantKey } from './fake-turn-store.js';

/**
 * A deliberate flaw, for the testkit's own proof that the conformance suite
 * catches each broken rule. Not exported from the package.
 */
export type FakeConversationStoreFlaw =
  | 'lists-foreign-turns'
  | 'ignores-turn-bound'
  | 'ignores-frame-bound'
  | 'drops-pruned-turns'
  | 'torn-read'
  | 'ignores-through-turn'
  | 'keeps-oldest-turns'
  | 'grants-any-conversation'
  | 'remembers-grants';

/** A read request whose fields were checked, with the defaults filled in. */
interface CheckedRead {
  readonly conversationId: string;
  readonly maxTurns: number;
  readonly maxFrames: number;
  readonly throughTurnId: string | undefined;
  readonly overflow: 'refuse' | 'keep-newest';
}

const isBound = (value: unknown): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Opens one connection to the conversation reads of `database`.
 *
 * Guarantees: recovery's `ConversationLogReader` and `ConversationAuthority`
 * contracts, checked by `describeConversationStoreConformance`. The log is
 * the one `createFakeChatEventLog` connections write in the same database;
 * the grants are the fake turn store's (`FakeTurnStore.grant` and `revoke`),
 * the table its `authorize` reads. Operations, for faults and counts:
 * `readConversationLog` and `authorizeConversation` (calls naming their
 * conversation). A fault or a restart makes the read `store-unavailable` and
 * the grant `false`. Throws `TypeError` only when `database` is not a usable
 * `FakeDatabase`.
 */
export function createFakeConversationStore(database: FakeDatabase): ChatConversationStore<string> {
  return createFlawedFakeConversationStore(database, null);
}

/** {@link createFakeConversationStore} with one rule deliberately broken (`null`: none). For the testkit's own tests. */
export function createFlawedFakeConversationStore(
  database: FakeDatabase,
  flaw: FakeConversationStoreFlaw | null,
): ChatConversationStore<string> {
  const connection = connectFakeDatabase(database, 'createFakeConversationStore', [FAKE_EVENT_LOG_TABLES.turns, FAKE_TURN_TABLES.grants]);
  const turns = connection.tables.get(FAKE_EVENT_LOG_TABLES.turns) as Map<string, TurnLogRow>;
  const grants = connection.tables.get(FAKE_TURN_TABLES.grants) as Map<string, true>;
  // The flaw 'remembers-grants': answers once granted are kept in the process, so a revocation goes unseen.
  const remembered = new Set<string>();

  // The turns of the conversation in the order they started (the table keeps the order of each turn's first append).
  const listed = (conversationId: string): (readonly [string, TurnLogRow])[] =>
    [...turns].filter(
      ([, row]) =>
        (row.conversationId === conversationId || flaw === 'lists-foreign-turns') && (!row.pruned || flaw !== 'drops-pruned-turns'),
    );
  const turnOf = (turnId: string, row: TurnLogRow): ConversationLogTurn => ({
    turnId,
    lowerBound: row.lowerBound,
    latestSeq: row.latestSeq,
    ended: row.finishedAt !== null,
    pruned: row.pruned,
    frames: structuredClone(row.frames),
  });

  // The turns up to `throughTurnId` (all without one; none when the conversation lacks it).
  const through = (heads: (readonly [string, TurnLogRow])[], throughTurnId: string | undefined) => {
    if (throughTurnId === undefined || flaw === 'ignores-through-turn') return heads;
    return heads.slice(0, heads.findIndex(([turnId]) => turnId === throughTurnId) + 1);
  };
  // The newest of `heads` within both bounds, counted from the newest ('keep-newest').
  const newest = (heads: (readonly [string, TurnLogRow])[], maxTurns: number, maxFrames: number) => {
    let frames = 0;
    let kept = 0;
    for (const [, row] of [...heads].reverse()) {
      frames += row.latestSeq - row.lowerBound;
      if (kept === maxTurns || frames > maxFrames) break;
      kept += 1;
    }
    // The flaw: the oldest turns are kept instead.
    return flaw === 'keeps-oldest-turns' ? heads.slice(0, kept) : heads.slice(heads.length - kept);
  };

  const readLog = async (request: CheckedRead): Promise<ReadConversationLogResult> => {
    const { conversationId, maxTurns, maxFrames } = request;
    const heads = through(listed(conversationId), request.throughTurnId);
    if (request.overflow === 'keep-newest') {
      const kept = newest(heads, maxTurns, maxFrames);
      const turns = kept.map(([turnId, row]) => turnOf(turnId, row));
      return { ok: true, value: { conversationId, turns, omittedTurns: heads.length - kept.length } };
    }
    if (heads.length > maxTurns && flaw !== 'ignores-turn-bound') {
      return { ...refuse('too-many-turns', `readConversationLog: the conversation has more than ${maxTurns} turns`), limit: maxTurns };
    }
    const frameCount = heads.reduce((total, [, row]) => total + row.latestSeq - row.lowerBound, 0);
    if (frameCount > maxFrames && flaw !== 'ignores-frame-bound') {
      return { ...refuse('too-many-frames', `readConversationLog: the conversation has more than ${maxFrames} frames`), limit: maxFrames };
    }
    if (flaw !== 'torn-read') return { ok: true, value: { conversationId, turns: heads.map(([turnId, row]) => turnOf(turnId, row)) } };
    // Two reads without a snapshot: the heads, then (after other work ran) the frames.
    const bounds = heads.map(([turnId, row]) => turnOf(turnId, row));
    await nextTurn();
    return {
      ok: true,
      value: {
        conversationId,
        turns: bounds.map((turn) => ({ ...turn, frames: structuredClone(turns.get(turn.turnId)?.frames ?? []) })),
      },
    };
  };

  return {
    async readConversationLog(given: ReadConversationLogRequest): Promise<ReadConversationLogResult> {
      const request = readFields(given, ['conversationId', 'maxTurns', 'maxFrames', 'throughTurnId', 'overflow']);
      const conversationId = request?.conversationId;
      const maxTurns = request?.maxTurns ?? DEFAULT_CONVERSATION_LOG_MAX_TURNS;
      const maxFrames = request?.maxFrames ?? DEFAULT_CONVERSATION_LOG_MAX_FRAMES;
      const throughTurnId = request?.throughTurnId;
      // Only a missing overflow is the default: null is no overflow the contract names.
      const overflow = request?.overflow === undefined ? 'refuse' : request.overflow;
      if (
        !isChatId(conversationId) ||
        !isBound(maxTurns) ||
        !isBound(maxFrames) ||
        (throughTurnId !== undefined && !isChatId(throughTurnId)) ||
        (overflow !== 'refuse' && overflow !== 'keep-newest')
      )
        return refuse(
          'invalid-request',
          "readConversationLog: expected a v1 conversation id, positive integer bounds, a v1 throughTurnId and overflow 'refuse' or 'keep-newest'",
        );
      const read: CheckedRead = { conversationId, maxTurns, maxFrames, throughTurnId, overflow };
      try {
        connection.alive('readConversationLog');
        return await connection.call('readConversationLog', conversationId, () => readLog(read), {
          conversationId,
        });
      } catch (error) {
        return refuse('store-unavailable', `readConversationLog: ${error instanceof Error ? error.message : 'the store could not answer'}`);
      }
    },

    async authorizeConversation(given: ConversationAuthorityRequest<string>): Promise<boolean> {
      const request = readFields(given, ['caller', 'conversationId']);
      const conversationId = request?.conversationId;
      if (request === undefined || !isChatId(conversationId)) return false;
      const { caller } = request;
      const key = grantKey(conversationId, caller);
      if (key === undefined) return false;
      try {
        connection.alive('authorizeConversation');
        return await connection.call(
          'authorizeConversation',
          conversationId,
          () => {
            // The flaw: any grant the caller holds, to whichever conversation, grants this one.
            if (flaw === 'grants-any-conversation')
              return [...grants.keys()].some((granted) => (JSON.parse(granted) as unknown[])[1] === caller);
            if (flaw === 'remembers-grants' && remembered.has(key)) return true;
            const granted = grants.has(key);
            if (granted) remembered.add(key);
            return granted;
          },
          { conversationId },
        );
      } catch {
        return false;
      }
    },
  };
}
