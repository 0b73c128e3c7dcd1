/**
 * The live tails of one Postgres event log: one `LISTEN` connection shared by
 * the log's subscriptions (opened by the first, closed with the last), a
 * notification that names only a cursor (turn id and seq), and per
 * subscription a pump that reads the frames after its last delivered seq from
 * the table. It owns delivery order and ends; it owns no SQL text of the log.
 */
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import type { ChatEventLogSubscriptionEnd, ChatEventLogUnsubscribe } from '@papercusp/chat-protocol-recovery';
import type { ChatDatabase, ChatDatabaseUnlisten } from './chat-database.js';

/** What a pump reads: the frames after a seq, and whether nothing more can come after them. */
export interface TailRead {
  readonly frames: readonly ChatEventEnvelope[];
  /** The turn's terminal frame is stored (or the finished turn was pruned), and `latestSeq` is its seq. */
  readonly finished: boolean;
  readonly latestSeq: number;
  readonly pruned: boolean;
}

/** One turn's tail to follow. */
export interface TailRequest {
  readonly conversationId: string;
  readonly turnId: string;
  readonly after: number;
}

/** The subscriptions of one log: `subscribe` as the log's contract has it, and the log's own commits fed to them. */
export interface EventLogSubscriptions {
  subscribe(
    request: TailRequest,
    onEnvelope: (envelope: ChatEventEnvelope) => void,
    onEnd: ((end: ChatEventLogSubscriptionEnd) => void) | undefined,
  ): Promise<ChatEventLogUnsubscribe>;
  /**
   * One turn's frames this process just committed, in seq order, contiguous: each live subscription of the turn takes
   * those that continue it at once, without reading the table; one they do not continue (frames before them are not
   * delivered yet) makes it read the table instead. Call only once the frames are durable.
   */
  deliverCommitted(frames: readonly ChatEventEnvelope[]): void;
}

/** The payload an append sends with `NOTIFY`: the cursor only, never the frame. */
export function notificationPayload(turnId: string, seq: number): string {
  return JSON.stringify([turnId, seq]);
}

function readPayload(payload: string): { readonly turnId: string; readonly seq: number } | undefined {
  try {
    const parsed: unknown = JSON.parse(payload);
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'number')
      return { turnId: parsed[0], seq: parsed[1] };
  } catch {
    // Someone else's payload on the channel: nothing to wake.
  }
  return undefined;
}

interface Subscription {
  readonly request: TailRequest;
  delivered: number;
  active: boolean;
  // LISTEN is active and the catch-up read started: from here on the log's own commits may be handed over directly.
  live: boolean;
  pumping: boolean;
  again: boolean;
  readonly onEnvelope: (envelope: ChatEventEnvelope) => void;
  readonly onEnd: ((end: ChatEventLogSubscriptionEnd) => void) | undefined;
}

// One LISTEN connection and the subscriptions it serves; a lost one is replaced by the next subscribe.
interface Listener {
  readonly ready: Promise<ChatDatabaseUnlisten>;
  readonly subscriptions: Set<Subscription>;
  lost: boolean;
}

/**
 * The subscriptions of one log over `database`, listening on `channel`;
 * `readTail` reads a turn's frames after a seq in one statement.
 *
 * Guarantees: `subscribe` resolves once `LISTEN` is active and the
 * subscription registered (the catch-up read follows), so a frame committed
 * after it resolves is delivered; frames arrive in seq order, each once, with
 * no gap, because every wake-up reads after the last delivered seq and pumps
 * of one subscription never overlap; after the terminal frame it ends
 * `terminal`; a lost listening connection or a failed read ends it `lost`
 * with the last delivered seq; nothing reaches a subscriber after its end or
 * after `unsubscribe()` returned; a subscriber's throw is swallowed. Rejects
 * only when `LISTEN` cannot be started.
 */
export function createEventLogSubscriptions(
  database: ChatDatabase,
  channel: string,
  readTail: (request: TailRequest) => Promise<TailRead>,
): EventLogSubscriptions {
  let current: Listener | undefined;

  const callEnd = (subscription: Subscription, end: ChatEventLogSubscriptionEnd): void => {
    try {
      subscription.onEnd?.(end);
    } catch {
      // A subscriber's throw is its own; the subscription has ended either way.
    }
  };
  // Takes the subscription off its listener, closing the listener with its last subscription.
  const stop = (listener: Listener, subscription: Subscription): void => {
    subscription.active = false;
    listener.subscriptions.delete(subscription);
    if (listener.subscriptions.size > 0) return;
    if (current === listener) current = undefined;
    if (!listener.lost) {
      listener.lost = true;
      void listener.ready.then((unlisten) => unlisten()).catch(() => undefined);
    }
  };
  const end = (listener: Listener, subscription: Subscription, reason: ChatEventLogSubscriptionEnd): void => {
    if (!subscription.active) return;
    stop(listener, subscription);
    callEnd(subscription, reason);
  };

  // Hands `frames` on from the one after the last delivered; ends the subscription after a terminal frame. False at a hole.
  const deliver = (listener: Listener, subscription: Subscription, frames: readonly ChatEventEnvelope[]): boolean => {
    for (const frame of frames) {
      if (!subscription.active) return true;
      // Seen already (a local hand-over and a table read can overlap): skipped, never delivered twice.
      if (frame.seq <= subscription.delivered) continue;
      if (frame.seq !== subscription.delivered + 1) return false;
      subscription.delivered = frame.seq;
      try {
        subscription.onEnvelope(frame);
      } catch {
        // A subscriber's throw is its own; the log keeps delivering.
      }
      if (frame.event.type === 'done' || frame.event.type === 'error') end(listener, subscription, { reason: 'terminal' });
    }
    return true;
  };

  const pump = async (listener: Listener, subscription: Subscription): Promise<void> => {
    if (subscription.pumping) {
      subscription.again = true;
      return;
    }
    subscription.pumping = true;
    try {
      do {
        subscription.again = false;
        if (!subscription.active) return;
        let read: TailRead;
        try {
          read = await readTail({ ...subscription.request, after: subscription.delivered });
        } catch {
          end(listener, subscription, { reason: 'lost', afterSeq: subscription.delivered });
          return;
        }
        // Contiguous from the cursor: a frame past a hole would be a gap, so the rest waits for the next read.
        deliver(listener, subscription, read.frames);
        if (subscription.active && read.finished && (subscription.delivered >= read.latestSeq || read.pruned)) {
          end(listener, subscription, { reason: 'terminal' });
        }
      } while (subscription.again);
    } finally {
      subscription.pumping = false;
    }
  };

  const open = (): Listener => {
    const subscriptions = new Set<Subscription>();
    const listener: Listener = {
      subscriptions,
      lost: false,
      ready: database.listen(
        channel,
        (payload) => {
          const cursor = readPayload(payload);
          if (cursor === undefined) return;
          for (const subscription of subscriptions) {
            if (subscription.request.turnId === cursor.turnId && cursor.seq > subscription.delivered) void pump(listener, subscription);
          }
        },
        () => {
          if (current === listener) current = undefined;
          listener.lost = true;
          for (const subscription of [...subscriptions]) end(listener, subscription, { reason: 'lost', afterSeq: subscription.delivered });
        },
      ),
    };
    // A failed LISTEN is answered by the subscribe that awaits it; never an unhandled rejection.
    listener.ready.catch(() => undefined);
    return listener;
  };

  return {
    deliverCommitted(frames) {
      const first = frames[0];
      const listener = current;
      if (first === undefined || listener === undefined || listener.lost) return;
      for (const subscription of [...listener.subscriptions]) {
        const { request } = subscription;
        if (!subscription.live || request.turnId !== first.turnId || request.conversationId !== first.conversationId) continue;
        // While a read is under way its frames may overlap these; delivering both is safe (the cursor skips repeats).
        if (!deliver(listener, subscription, frames)) void pump(listener, subscription);
      }
    },
    async subscribe(request, onEnvelope, onEnd) {
      if (current === undefined || current.lost) current = open();
      const listener = current;
      const subscription: Subscription = {
        request,
        delivered: request.after,
        active: true,
        live: false,
        pumping: false,
        again: false,
        onEnvelope,
        onEnd,
      };
      // Registered before LISTEN is awaited, so a concurrent last unsubscribe cannot close the connection under it.
      listener.subscriptions.add(subscription);
      try {
        await listener.ready;
      } catch (error) {
        subscription.active = false;
        listener.subscriptions.delete(subscription);
        if (current === listener) current = undefined;
        listener.lost = true;
        throw error;
      }
      if (subscription.active) {
        subscription.live = true;
        void pump(listener, subscription);
      }
      return () => {
        if (subscription.active) stop(listener, subscription);
      };
    },
  };
}
