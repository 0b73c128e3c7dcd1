/**
 * Closing a cancelled turn whose run is gone (its host process died): the
 * host that took the cancellation, finding no terminal frame after a grace
 * period, writes what the run would have written — a cancelled result for
 * each tool call without one, each open card cancelled and closed, then
 * `done { status: 'cancelled' }` — so a client following the turn from any
 * host ends cleanly. It owns only that tail; the cancellation itself is
 * recovery's, and the event log's seq and event-id uniqueness keep a run that
 * was merely slow and this close from both committing a frame.
 */
import { applyChatEvent, createChatState, type ChatEventV1, type OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { turnFrame } from './turn-frame.js';

/** What closing needs: the turn, the caller whose cancellation committed, and the host's components. */
export interface CloseAbandonedTurnContext {
  readonly conversationId: string;
  readonly turnId: string;
  readonly caller: ChatHostCaller;
  readonly eventLog: ChatEventLog;
  readonly resolver: InteractionResolver<ChatHostCaller, OpenCardSnapshotV1>;
  readonly clock: () => string;
}

/**
 * How the close went: `closed` (this call wrote the terminal frame),
 * `already-ended` (the log holds one: nothing written), `raced` (another
 * writer took a seq first: it owns the tail), `unavailable` (the log could
 * not be read or folded).
 */
export type CloseAbandonedTurnOutcome = 'closed' | 'already-ended' | 'raced' | 'unavailable';

/**
 * Closes the turn's log. Call it only after the turn's cancellation
 * committed. Guarantees: it reads the turn's whole window and folds it with
 * `applyChatEvent`, writes only after the latest frame, and never writes
 * after a terminal frame (the log refuses it); a card it closes is cancelled
 * through the resolver first, and closed with the resolution the card's
 * record then holds (an answer that committed first wins). Never rejects.
 */
export async function closeAbandonedTurn(context: CloseAbandonedTurnContext): Promise<CloseAbandonedTurnOutcome> {
  const { conversationId, turnId, eventLog } = context;
  try {
    const window = await eventLog.replayWindow({ conversationId, turnId, after: 0 });
    if (window.lowerBound > 0) return 'already-ended';
    let state = createChatState(conversationId);
    for (const frame of window.frames) {
      const applied = applyChatEvent(state, frame);
      if (!applied.ok) return 'unavailable';
      state = applied.state;
    }
    const turn = state.turns.find((candidate) => candidate.turnId === turnId);
    if (turn !== undefined && turn.status !== 'running') return 'already-ended';
    let seq = window.latestSeq;
    const append = async (event: ChatEventV1): Promise<boolean> => {
      seq += 1;
      const appended = await eventLog.append(turnFrame({ conversationId, turnId }, seq, event, context.clock));
      return appended.ok && appended.outcome === 'appended';
    };
    for (const call of turn?.toolCalls ?? []) {
      if (call.result === null && !(await append({ type: 'tool_result', callId: call.callId, name: call.name, status: 'cancelled' })))
        return 'raced';
    }
    for (const card of turn?.cards ?? []) {
      if (card.closed) continue;
      const { correlationId } = card.card;
      const request = { caller: context.caller, conversationId, correlationId, at: context.clock() };
      await context.resolver.cancel(request);
      const read = await context.resolver.read(request);
      const resolution = read.ok && read.record.status !== 'pending' ? read.record.status : 'cancelled';
      if (!(await append({ type: 'card_closed', correlationId, resolution }))) return 'raced';
    }
    return (await append({ type: 'done', status: 'cancelled' })) ? 'closed' : 'raced';
  } catch {
    return 'unavailable';
  }
}
