/**
 * The history an agent's run is given (DESIGN §11.1): the conversation's
 * earlier turns as core's `ChatHistoryTurnV1`s, read from the same fold as
 * `GET /state` (core's `historyFromChatState` over the store's log), newest
 * last, bounded, with the count of what was left out. It owns the bound and
 * the marker; the fold is `conversation-state.ts`'s.
 */
import { historyFromChatState, type ChatHistoryTurnV1, type ChatRefusal } from '@papercusp/chat-protocol-core';
import type { ChatAgentContext } from '../chat-agent.js';
import type { ConversationLogReader } from '@papercusp/chat-protocol-recovery';
import { readConversationState, type ReadConversationStateRefusalCode } from './conversation-state.js';

/** The default of `ChatHostOptions.maxHistoryTurns`. */
export const DEFAULT_MAX_HISTORY_TURNS = 50;

/** The history of a run: the newest earlier turns, and how many were left out. */
export type AgentHistory = Pick<ChatAgentContext, 'history' | 'historyOmitted'>;

/** What {@link readAgentHistory} reads: the conversation, the turn being run, and the bounds. */
export interface AgentHistoryRequest {
  readonly conversationId: string;
  readonly turnId: string;
  /** The most history turns kept (a non-negative integer). */
  readonly maxHistoryTurns: number;
  /** The fold's bounds, the host's `GET /state` ones. */
  readonly bounds: { readonly maxTurns?: number; readonly maxFrames?: number };
}

/**
 * The turns before `turnId` in the conversation's fold, as history. Guarantees: oldest first, newest last; never
 * the current turn or one that started after it; the newest `maxHistoryTurns` at most, and never starting with
 * an answer whose question was left out; `historyOmitted` counts the history turns left out, a turn whose frames
 * retention dropped counting as two (its question and its answer). Refusals: the fold's (`state-too-large`,
 * `state-unfoldable`, `store-unavailable`). Never rejects.
 */
export async function readAgentHistory(
  read: ConversationLogReader,
  request: AgentHistoryRequest,
): Promise<{ readonly ok: true; readonly value: AgentHistory } | ChatRefusal<ReadConversationStateRefusalCode>> {
  const folded = await readConversationState(read, request.conversationId, request.bounds);
  if (!folded.ok) return folded;
  const { state, pruned } = folded.value;
  const current = state.turns.findIndex((turn) => turn.turnId === request.turnId);
  const earlier = historyFromChatState({ ...state, turns: current === -1 ? state.turns : state.turns.slice(0, current) });
  let kept = earlier.slice(Math.max(0, earlier.length - request.maxHistoryTurns));
  const first = kept[0];
  const cut = earlier[earlier.length - kept.length - 1];
  // An answer without its question: the question was cut, so the answer goes too.
  if (first?.role === 'assistant' && cut?.role === 'user' && cut.id === first.id) kept = kept.slice(1);
  const prunedEarlier = pruned.filter((turn) => turn.turnId !== request.turnId).length;
  return { ok: true, value: { history: kept, historyOmitted: earlier.length - kept.length + 2 * prunedEarlier } };
}
