/**
 * The fake event log: recovery's `ChatEventLog` (DESIGN §9.3) over a
 * `FakeDatabase`, with the semantics a durable backend must have — contiguity
 * and event-id uniqueness checked and written under one fence, windows read
 * from one snapshot, a tail that any connection's append reaches (the fake's
 * `NOTIFY`: it carries only "look again", the frames are read from the table),
 * and retention of whole finished turns. It shares the database's fences,
 * faults, history and restarts; it is no reference for speed.
 */
import {
  canonicalJson,
  compareChatTimestamps,
  isZonedTimestamp,
  parseChatEnvelope,
  type ChatEventEnvelope,
} from '@papercusp/chat-protocol-core';
import { readFields, refuse } from '@papercusp/chat-protocol-core/internal';
import type {
  AppendChatEventResult,
  ChatEventLog,
  ChatEventLogSubscriptionEnd,
  ChatEventLogUnsubscribe,
  PruneTurnsRequest,
  PruneTurnsResult,
  ReplayWindow,
  ReplayWindowRequest,
  SubscribeChatEventsRequest,
} from '@papercusp/chat-protocol-recovery';
import { connectFakeDatabase, type FakeDatabase } from './fake-database.js';
import { EMPTY_REPLAY_WINDOW, readReplayWindowRequest } from './replay-window-request.js';

/** Table names the event log owns in the database. */
export const FAKE_EVENT_LOG_TABLES = /* @__PURE__ */ Object.freeze({
  turns: 'event-log-turns',
  eventIds: 'event-log-event-ids',
  subscriptions: 'event-log-subscriptions',
} as const);

/** One turn's row in the log's turns table; the fake conversation store reads the same table. Not exported from the package. */
export interface TurnLogRow {
  readonly conversationId: string;
  readonly lowerBound: number;
  readonly latestSeq: number;
  readonly frames: readonly ChatEventEnvelope[];
  /** The terminal envelope's `occurredAt`, once `done` or `error` is stored. */
  readonly finishedAt: string | null;
  readonly pruned: boolean;
}

interface EventIdRow {
  readonly turnId: string;
  readonly content: string;
}

interface Subscription {
  readonly epoch: number;
  readonly conversationId: string;
  readonly turnId: string;
  delivered: number;
  active: boolean;
  readonly onEnvelope: (envelope: ChatEventEnvelope) => void;
  readonly onEnd: ((end: ChatEventLogSubscriptionEnd) => void) | undefined;
  /** Stops listening for the database's restart. */
  stopListening: () => void;
}

/**
 * A deliberate flaw, for the testkit's own proof that the conformance suite
 * catches each broken rule. Not exported from the package.
 */
export type FakeChatEventLogFlaw =
  | 'no-contiguity'
  | 'redelivery-conflicts'
  | 'conflict-is-duplicate'
  | 'seq-overwritten'
  | 'ignores-conversation'
  | 'appends-after-terminal'
  | 'torn-window'
  | 'subscribes-late'
  | 'delivers-twice'
  | 'unsubscribes-late'
  | 'ends-silently'
  | 'ends-early'
  | 'ends-twice'
  | 'ends-after-unsubscribe'
  | 'prunes-running-turns'
  | 'prune-forgets-turn';

// The single fence of the whole log: event ids are unique per conversation and a turn id binds its conversation, so one key is the simple correct choice for a fake.
const LOG_FENCE = 'chat-event-log';
const NO_SUBSCRIPTION: ChatEventLogUnsubscribe = () => undefined;

const isTerminal = (envelope: ChatEventEnvelope): boolean => envelope.event.type === 'done' || envelope.event.type === 'error';
const eventIdKey = (conversationId: string, eventId: string): string => JSON.stringify([conversationId, eventId]);
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const unavailable = (operation: string, error: unknown) =>
  refuse('store-unavailable', `${operation}: ${error instanceof Error ? error.message : 'the store could not answer'}`);

/**
 * Opens one connection to the event log in `database`; every connection to the
 * same database shares one log.
 *
 * Guarantees: the whole `ChatEventLog` contract (recovery's `ChatEventLog`
 * JSDoc), checked by `describeChatEventLogConformance`. Operations, for faults
 * and counts: `append` and `pruneTurns` (transactions; `append` names its turn
 * and conversation), `replayWindow` and `subscribe` (calls). A fault or a
 * restart makes `append` and `pruneTurns` answer `store-unavailable` (after a
 * lost acknowledgement the write did land: a redelivery is `duplicate`) and
 * `replayWindow` and `subscribe` reject; a restart also ends this connection's
 * subscriptions, each `lost` with its last delivered seq (at once, through the
 * database's `onRestart`). A subscription ends `terminal` right after the
 * terminal frame, or at once when it starts at or past it or the finished turn
 * was pruned. History entries: `event-appended`, `turns-pruned`. Retention
 * forgets a pruned turn's event ids, so only `turn-terminal` answers appends to
 * it. Requests it cannot read name no turn: an empty window, a subscription
 * that delivers nothing. Throws `TypeError` only when `database` is not a
 * usable `FakeDatabase`.
 */
export function createFakeChatEventLog(database: FakeDatabase): ChatEventLog {
  return createFlawedFakeChatEventLog(database, null);
}

/** {@link createFakeChatEventLog} with one rule deliberately broken (`null`: none). For the testkit's own tests. */
export function createFlawedFakeChatEventLog(database: FakeDatabase, flaw: FakeChatEventLogFlaw | null): ChatEventLog {
  const connection = connectFakeDatabase(database, 'createFakeChatEventLog', Object.values(FAKE_EVENT_LOG_TABLES));
  const turns = connection.tables.get(FAKE_EVENT_LOG_TABLES.turns) as Map<string, TurnLogRow>;
  const eventIds = connection.tables.get(FAKE_EVENT_LOG_TABLES.eventIds) as Map<string, EventIdRow>;
  const subscriptions = connection.tables.get(FAKE_EVENT_LOG_TABLES.subscriptions) as Map<string, Set<Subscription>>;

  // Removes the subscription from its turn and stops it; nothing reaches its subscriber after this.
  const stop = (subscription: Subscription): void => {
    subscription.active = false;
    subscription.stopListening();
    const remaining = [...(subscriptions.get(subscription.turnId) ?? [])].filter((candidate) => candidate !== subscription);
    if (remaining.length === 0) subscriptions.delete(subscription.turnId);
    else subscriptions.set(subscription.turnId, new Set(remaining));
  };
  // Ends a live subscription once, telling its subscriber why.
  const end = (subscription: Subscription, reason: ChatEventLogSubscriptionEnd): void => {
    if (!subscription.active) return;
    stop(subscription);
    callEnd(subscription, reason);
    // The flaw: the listening connection, closed after the terminal end, reports itself lost as well.
    if (flaw === 'ends-twice') void nextTurn().then(() => callEnd(subscription, { reason: 'lost', afterSeq: subscription.delivered }));
  };
  const callEnd = (subscription: Subscription, reason: ChatEventLogSubscriptionEnd): void => {
    try {
      subscription.onEnd?.(reason);
    } catch {
      // A subscriber's throw is its own; the subscription has ended either way.
    }
  };
  // The connection a subscription listens on died with a restart: it ends lost, resumable after the last delivered seq.
  const lose = (subscription: Subscription): void => end(subscription, { reason: 'lost', afterSeq: subscription.delivered });

  const isLive = (subscription: Subscription): boolean => {
    if (!subscription.active) return false;
    try {
      database.assertEpoch(subscription.epoch, 'subscribe');
      return true;
    } catch {
      lose(subscription);
      return false;
    }
  };

  // Delivers what the table holds after the subscription's cursor, in order, each once. Synchronous: two pumps never interleave.
  const pump = (subscription: Subscription): void => {
    const row = turns.get(subscription.turnId);
    if (row === undefined || row.conversationId !== subscription.conversationId) return;
    for (const frame of row.frames) {
      if (!isLive(subscription)) return;
      if (frame.seq <= subscription.delivered) continue;
      if (flaw === 'ends-early' && isTerminal(frame)) end(subscription, { reason: 'terminal' });
      subscription.delivered = frame.seq;
      deliver(subscription, frame);
    }
    // Nothing more will ever come once the terminal frame is behind the cursor, or the finished turn was pruned.
    const finished = row.finishedAt !== null && (subscription.delivered >= row.latestSeq || row.pruned);
    if (finished && flaw !== 'ends-silently' && isLive(subscription)) end(subscription, { reason: 'terminal' });
  };
  const deliver = (subscription: Subscription, frame: ChatEventEnvelope): void => {
    try {
      subscription.onEnvelope(structuredClone(frame));
    } catch {
      // A subscriber's throw is its own; the log keeps delivering.
    }
  };
  // The fake's NOTIFY: after the commit, every live subscription of the turn looks again.
  const notify = (turnId: string, frame: ChatEventEnvelope): void => {
    for (const subscription of subscriptions.get(turnId) ?? []) {
      void Promise.resolve().then(() => {
        if (flaw === 'delivers-twice' && isLive(subscription)) deliver(subscription, frame);
        pump(subscription);
      });
    }
  };

  const window = (turnId: string, conversationId: string, after: number): ReplayWindow => {
    const row = turns.get(turnId);
    if (row === undefined || row.conversationId !== conversationId) return EMPTY_REPLAY_WINDOW;
    return {
      lowerBound: row.lowerBound,
      latestSeq: row.latestSeq,
      frames: structuredClone(row.frames.filter((frame) => frame.seq > after)),
    };
  };

  return {
    async append(given: ChatEventEnvelope): Promise<AppendChatEventResult> {
      const parsed = parseChatEnvelope(given);
      if (!parsed.ok) return refuse('invalid-envelope', `append: ${parsed.code}: ${parsed.message}`);
      const envelope = parsed.value;
      const { conversationId, turnId, eventId, seq } = envelope;
      const content = canonicalJson(envelope);
      try {
        connection.alive('append');
        return await connection.transact({
          operation: 'append',
          key: LOG_FENCE,
          target: { conversationId, turnId },
          body: async (transaction): Promise<AppendChatEventResult> => {
            const row = turns.get(turnId);
            const latestSeq = row?.latestSeq ?? 0;
            if (row !== undefined && row.conversationId !== conversationId && flaw !== 'ignores-conversation') {
              return refuse('foreign-conversation', `append: turn ${JSON.stringify(turnId)} belongs to another conversation`);
            }
            const stored = eventIds.get(eventIdKey(conversationId, eventId));
            if (stored !== undefined) {
              const identical = stored.content === content;
              if ((identical && flaw !== 'redelivery-conflicts') || flaw === 'conflict-is-duplicate') {
                return { ok: true, outcome: 'duplicate', seq, latestSeq: turns.get(stored.turnId)?.latestSeq ?? latestSeq };
              }
              return refuse(
                'conflicting-duplicate',
                `append: event id ${JSON.stringify(eventId)} is stored in this conversation with other content`,
              );
            }
            if (row?.pruned === true && flaw !== 'prune-forgets-turn')
              return refuse('turn-terminal', `append: turn ${JSON.stringify(turnId)} finished and was pruned`);
            if (seq <= latestSeq && flaw !== 'seq-overwritten' && flaw !== 'no-contiguity') {
              return refuse('conflicting-duplicate', `append: seq ${seq} of turn ${JSON.stringify(turnId)} holds another event`);
            }
            if (row?.finishedAt != null && flaw !== 'appends-after-terminal')
              return refuse('turn-terminal', `append: turn ${JSON.stringify(turnId)} has its terminal event`);
            if (seq > latestSeq + 1 && flaw !== 'no-contiguity') {
              return {
                ...refuse('seq-gap', `append: seq ${seq} of turn ${JSON.stringify(turnId)}: seq ${latestSeq + 1} is due`),
                expectedSeq: latestSeq + 1,
              };
            }
            await transaction.pause('checked');
            const frames = [...(row?.frames ?? []).filter((frame) => frame.seq !== seq), envelope].sort(
              (left, right) => left.seq - right.seq,
            );
            turns.set(turnId, {
              conversationId: row?.conversationId ?? conversationId,
              lowerBound: row?.lowerBound ?? 0,
              latestSeq: Math.max(latestSeq, seq),
              frames,
              finishedAt: isTerminal(envelope) ? envelope.occurredAt : (row?.finishedAt ?? null),
              pruned: false,
            });
            eventIds.set(eventIdKey(conversationId, eventId), { turnId, content });
            transaction.record('event-appended', { turnId, seq, eventId });
            notify(turnId, envelope);
            return { ok: true, outcome: 'appended', seq, latestSeq: Math.max(latestSeq, seq) };
          },
        });
      } catch (error) {
        return unavailable('append', error);
      }
    },

    async replayWindow(given: ReplayWindowRequest): Promise<ReplayWindow> {
      connection.alive('replayWindow');
      const request = readReplayWindowRequest(given);
      if (request === undefined) return EMPTY_REPLAY_WINDOW;
      const { conversationId, turnId, after } = request;
      return connection.call(
        'replayWindow',
        turnId,
        async () => {
          if (flaw !== 'torn-window') return window(turnId, conversationId, after);
          // Two reads without a snapshot: the bounds, then (after other work ran) the frames.
          const bounds = window(turnId, conversationId, after);
          await nextTurn();
          return { ...bounds, frames: window(turnId, conversationId, after).frames };
        },
        { conversationId, turnId },
      );
    },

    async subscribe(
      given: SubscribeChatEventsRequest,
      onEnvelope: (envelope: ChatEventEnvelope) => void,
      onEnd?: (end: ChatEventLogSubscriptionEnd) => void,
    ): Promise<ChatEventLogUnsubscribe> {
      connection.alive('subscribe');
      const request = readReplayWindowRequest(given);
      if (request === undefined || typeof onEnvelope !== 'function' || (onEnd !== undefined && typeof onEnd !== 'function')) {
        return NO_SUBSCRIPTION;
      }
      const { conversationId, turnId, after } = request;
      return connection.call(
        'subscribe',
        turnId,
        () => {
          const subscription: Subscription = {
            epoch: connection.epoch,
            conversationId,
            turnId,
            delivered: after,
            active: true,
            onEnvelope,
            onEnd,
            stopListening: () => undefined,
          };
          const register = (): void => {
            subscription.stopListening = connection.onRestart(() => lose(subscription));
            if (flaw === 'subscribes-late') subscription.delivered = Math.max(after, turns.get(turnId)?.latestSeq ?? 0);
            subscriptions.set(turnId, new Set([...(subscriptions.get(turnId) ?? []), subscription]));
            void Promise.resolve().then(() => pump(subscription));
          };
          if (flaw === 'subscribes-late') void nextTurn().then(register);
          else register();
          return () => {
            if (flaw === 'unsubscribes-late') void nextTurn().then(() => stop(subscription));
            else stop(subscription);
            // The flaw: closing the listening connection reports the subscription lost, after it was unsubscribed.
            if (flaw === 'ends-after-unsubscribe')
              void nextTurn().then(() => callEnd(subscription, { reason: 'lost', afterSeq: subscription.delivered }));
          };
        },
        { conversationId, turnId },
      );
    },

    async pruneTurns(given: PruneTurnsRequest): Promise<PruneTurnsResult> {
      const request = readFields(given, ['before']);
      const before = request?.before;
      if (!isZonedTimestamp(before)) return refuse('invalid-request', 'pruneTurns: before must be an RFC 3339 instant with an offset');
      try {
        connection.alive('pruneTurns');
        return await connection.transact({
          operation: 'pruneTurns',
          key: LOG_FENCE,
          body: (transaction): PruneTurnsResult => {
            let pruned = 0;
            for (const [turnId, row] of turns) {
              if (row.pruned) continue;
              const finished = row.finishedAt !== null && compareChatTimestamps(row.finishedAt, before) < 0;
              const expired =
                finished ||
                (flaw === 'prunes-running-turns' && row.frames.some((frame) => compareChatTimestamps(frame.occurredAt, before) < 0));
              if (!expired) continue;
              for (const frame of row.frames) eventIds.delete(eventIdKey(row.conversationId, frame.eventId));
              if (flaw === 'prune-forgets-turn') turns.delete(turnId);
              else turns.set(turnId, { ...row, lowerBound: row.latestSeq, frames: [], pruned: true });
              pruned += 1;
            }
            transaction.record('turns-pruned', { before, pruned });
            return { ok: true, pruned };
          },
        });
      } catch (error) {
        return unavailable('pruneTurns', error);
      }
    },
  };
}
