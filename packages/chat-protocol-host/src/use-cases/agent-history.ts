/**
 * The history an agent's run is given (DESIGN §11.1): the conversation's
 * earlier turns as core's `ChatHistoryTurnV1`s, newest last, bounded, with the
 * count of what was left out. It reads only the newest turns up to the run's
 * own (the store's `overflow: 'keep-newest'`), so a conversation of any length
 * gets a history and a turn; the fold is `conversation-state.ts`'s, the one
 * `GET /state` answers from. It owns the bound and the marker.
 */
import { historyFromChatState, type ChatHistoryTurnV1, type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import { DEFAULT_CONVERSATION_LOG_MAX_TURNS, type ConversationLogReader } from '@papercusp/chat-protocol-recovery';
import type { ChatAgentContext } from '../chat-agent.js';
import { foldConversationLog } from './conversation-state.js';

/** The default of `ChatHostOptions.maxHistoryTurns`. */
export const DEFAULT_MAX_HISTORY_TURNS = 50;

/** The history of a run: the newest earlier turns, and how many were left out. */
export type AgentHistory = Pick<ChatAgentContext, 'history' | 'historyOmitted'>;

// Refusal codes of readAgentHistory.
type ReadAgentHistoryRefusalCode = 'state-unfoldable' | 'store-unavailable';

/** What {@link readAgentHistory} reads: the conversation, the turn being run, and the bounds. */
export interface AgentHistoryRequest {
  readonly conversationId: string;
  readonly turnId: string;
  /** The most history turns kept (a non-negative integer). */
  readonly maxHistoryTurns: number;
  /** The host's `GET /state` bounds, which the read stays within. */
  readonly bounds: { readonly maxTurns?: number; readonly maxFrames?: number };
}

/**
 * The turns before `turnId` in the conversation, as history. Guarantees: oldest first, newest last; never the
 * current turn or one that started after it; the newest `maxHistoryTurns` at most, and never starting with an
 * answer whose question was left out; `historyOmitted` counts the history turns left out, a v1 turn the read left
 * out (past the bounds) or whose frames retention dropped counting as two (its question and its answer). One read
 * of at most `maxHistoryTurns + 1` turns within the frame bound, whatever the conversation's length. Refusals:
 * `store-unavailable` (the store could not answer, or refused the read), `state-unfoldable` (a frame the reducer
 * refuses). Never rejects.
 */
export async function readAgentHistory(
  read: ConversationLogReader,
  request: AgentHistoryRequest,
): Promise<{ readonly ok: true; readonly value: AgentHistory } | ChatRefusal<ReadAgentHistoryRefusalCode>> {
  const { conversationId, turnId, maxHistoryTurns, bounds } = request;
  // A v1 turn gives at most two history turns and the run's own turn is read too: this many turns always suffice.
  const maxTurns = Math.min(maxHistoryTurns + 1, bounds.maxTurns ?? DEFAULT_CONVERSATION_LOG_MAX_TURNS);
  let log: Awaited<ReturnType<ConversationLogReader>>;
  try {
    log = await read({ conversationId, throughTurnId: turnId, overflow: 'keep-newest', maxTurns, ...pick(bounds) });
  } catch {
    return refuse('store-unavailable', 'the conversation could not be read');
  }
  if (!log.ok) return refuse('store-unavailable', `the conversation could not be read: ${log.code}`);
  const folded = foldConversationLog(log.value);
  if (!folded.ok) return folded;
  const { state, pruned } = folded.value;
  const current = state.turns.findIndex((turn) => turn.turnId === turnId);
  const earlier = historyFromChatState({ ...state, turns: current === -1 ? state.turns : state.turns.slice(0, current) });
  let kept = earlier.slice(Math.max(0, earlier.length - maxHistoryTurns));
  const first = kept[0];
  const cut = earlier[earlier.length - kept.length - 1];
  // An answer without its question: the question was cut, so the answer goes too.
  if (first?.role === 'assistant' && cut?.role === 'user' && cut.id === first.id) kept = kept.slice(1);
  const prunedEarlier = pruned.filter((turn) => turn.turnId !== turnId).length;
  const leftOut = (log.value.omittedTurns ?? 0) + prunedEarlier;
  return { ok: true, value: { history: kept, historyOmitted: earlier.length - kept.length + 2 * leftOut } };
}

// The frame bound, when the host set one (the store's default otherwise).
const pick = (bounds: AgentHistoryRequest['bounds']) => (bounds.maxFrames === undefined ? {} : { maxFrames: bounds.maxFrames });
