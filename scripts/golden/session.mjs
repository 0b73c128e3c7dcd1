// @ts-check
// What a golden session is before it is written: its name, title, scenario
// tags, envelopes, the answers a person gave and how its delivery was split;
// and `conversation`, which builds the envelopes of a session from its turns.
// Not the files written from a session (render-session.mjs).
import { conversationIdOf, eventSeed, iso, turnSeed, ulid } from './ids.mjs';

/** @typedef {import('@papercusp/chat-protocol-core').ChatEventV1} ChatEventV1 */
/** @typedef {import('@papercusp/chat-protocol-core').ChatChannel} ChatChannel */
/** @typedef {import('@papercusp/chat-protocol-core').ChatEventEnvelope} ChatEventEnvelope */
/** @typedef {import('@papercusp/chat-protocol-core').CardResponse} CardResponse */
/** @typedef {import('@papercusp/chat-protocol-core').OpenCardSnapshotV1} OpenCardSnapshotV1 */

/**
 * A product event (issue 13): a namespaced type and its data.
 * @typedef {{ readonly type: `${string}.${string}`; readonly data: unknown }} GoldenProductEvent
 */

/**
 * An event of a golden session: a v1 event or a product event.
 * @typedef {ChatEventV1 | GoldenProductEvent} GoldenEvent
 */

/**
 * A turn's events, each at its offset in milliseconds from the session's start.
 * @typedef {ReadonlyArray<readonly [number, GoldenEvent]>} GoldenTurn
 */

/**
 * One envelope of a session, as the host recorded it (before encoding).
 * @typedef {{
 *   readonly conversationId: string;
 *   readonly turnId: string;
 *   readonly eventId: string;
 *   readonly seq: number;
 *   readonly occurredAt: string;
 *   readonly event: GoldenEvent;
 * }} GoldenEnvelope
 */

/**
 * One connection of a session's delivery: the seq of the Last-Event-ID the
 * client connected with (`null`: none) and the seq the connection dropped
 * after (`null`: it ran to the end).
 * @typedef {{ readonly after: number | null; readonly through: number | null }} GoldenConnectionSplit
 */

/**
 * A golden session as written by hand: everything render-session.mjs needs.
 * `connections` defaults to one connection that runs to the end.
 * @typedef {{
 *   readonly name: string;
 *   readonly title: string;
 *   readonly scenario?: readonly string[];
 *   readonly envelopes: readonly (GoldenEnvelope | ChatEventEnvelope)[];
 *   readonly responses?: readonly CardResponse[];
 *   readonly connections?: readonly GoldenConnectionSplit[];
 *   readonly upgradedFrom?: 'papercup' | 'scout';
 *   readonly productEvents?: Readonly<Record<string, ChatChannel>>;
 * }} GoldenSession
 */

/**
 * The envelopes of a conversation: `turns` lists each turn's events as
 * [offset ms from `start`, event]; a turn's id carries its first event's time.
 * @param {{ readonly name: string; readonly start: number; readonly turns: readonly GoldenTurn[] }} conversation
 * @returns {GoldenEnvelope[]}
 */
export function conversation({ name, start, turns }) {
  const conversationId = conversationIdOf(name, start);
  return turns.flatMap((events, turn) => {
    const turnId = `turn_${ulid(start + (events[0]?.[0] ?? 0), turnSeed(name, turn))}`;
    return events.map(([offset, event], index) => ({
      conversationId,
      turnId,
      eventId: `evt_${ulid(start + offset, eventSeed(name, turn, index))}`,
      seq: index + 1,
      occurredAt: iso(start + offset),
      event,
    }));
  });
}
