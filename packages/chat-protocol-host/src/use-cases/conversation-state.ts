/**
 * The `GET /state` answer (DESIGN §11): a conversation's `ChatStateV1` folded
 * with core's `applyChatEvent` from the store's retained frames of every turn,
 * in the order the turns started, with the cursor each running turn resumes
 * from. It owns the fold and the answer's shape; it reads through the store's
 * `readConversationLog` (recovery's `ConversationLogReader`: one snapshot) and
 * authorizes nothing.
 */
import { applyChatEvent, createChatState, formatChatCursor, type ChatRefusal, type ChatStateV1 } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { ConversationLog, ConversationLogReader, ConversationLogTurn } from '@papercusp/chat-protocol-recovery';

/**
 * One turn as the store's `readConversationLog` answers it.
 * @deprecated Recovery's `ConversationLogTurn` is the one declaration; this name stays for existing users.
 */
export type ConversationLogTurnView = ConversationLogTurn;

/**
 * The store's `readConversationLog`.
 * @deprecated Recovery's `ConversationLogReader` is the one declaration; this name stays for existing users.
 */
export type ChatHostConversationLogReader = ConversationLogReader;

/** A running turn and the cursor (`<turnId>:<seq>`, the SSE `id:`) a client resumes it from. */
export interface RunningTurnCursor {
  readonly turnId: string;
  readonly cursor: string;
}

/** A turn whose frames retention dropped: it is not in `state.turns`; `lastSeq` is the seq of its last frame. */
export interface PrunedTurn {
  readonly turnId: string;
  readonly lastSeq: number;
}

/** The body of `GET /state`. */
export interface ConversationStateAnswer {
  readonly state: ChatStateV1;
  readonly running: readonly RunningTurnCursor[];
  readonly pruned: readonly PrunedTurn[];
}

/** Refusal codes of {@link readConversationState}. */
export type ReadConversationStateRefusalCode = 'state-too-large' | 'state-unfoldable' | 'store-unavailable';

/**
 * Reads and folds the conversation. Guarantees: `state` is what
 * `applyChatEvent` makes of every retained frame of every turn, turns in the
 * order they started, so its idempotency memory is the one a client folding
 * the same frames holds; `running` lists, in that order, each turn without a
 * terminal frame with the cursor of its latest frame; a pruned turn is absent
 * from `state.turns` (its frames, and so its memory, are gone) and listed in
 * `pruned`. A conversation past the store's bounds is `state-too-large` (with
 * `limit`); frames the reducer refuses are `state-unfoldable`. Never rejects.
 */
export async function readConversationState(
  read: ConversationLogReader,
  conversationId: string,
  bounds: { readonly maxTurns?: number; readonly maxFrames?: number },
): Promise<
  | { readonly ok: true; readonly value: ConversationStateAnswer }
  | (ChatRefusal<ReadConversationStateRefusalCode> & { readonly limit?: number })
> {
  let log: Awaited<ReturnType<ConversationLogReader>>;
  try {
    log = await read({ conversationId, ...bounds });
  } catch {
    return refuse('store-unavailable', 'the conversation could not be read');
  }
  if (!log.ok) {
    if ((log.code === 'too-many-turns' || log.code === 'too-many-frames') && log.limit !== undefined) {
      return { ...refuse('state-too-large', `the conversation is too large to fold: ${log.code}`), limit: log.limit };
    }
    return refuse('store-unavailable', 'the conversation could not be read');
  }
  return foldConversationLog(log.value);
}

/**
 * The fold of {@link readConversationState} over a log already read (all of it, or the turns a bounded read
 * kept): `applyChatEvent` of every retained frame, turns in the order given, the running turns' cursors, the
 * pruned turns listed apart. Frames the reducer refuses are `state-unfoldable`.
 */
export function foldConversationLog(
  log: ConversationLog,
): { readonly ok: true; readonly value: ConversationStateAnswer } | ChatRefusal<'state-unfoldable'> {
  let state = createChatState(log.conversationId);
  const running: RunningTurnCursor[] = [];
  const pruned: PrunedTurn[] = [];
  for (const turn of log.turns) {
    if (turn.pruned || turn.lowerBound > 0) {
      pruned.push({ turnId: turn.turnId, lastSeq: turn.latestSeq });
      continue;
    }
    for (const frame of turn.frames) {
      const applied = applyChatEvent(state, frame);
      if (!applied.ok) return refuse('state-unfoldable', `frame ${frame.seq} of turn ${turn.turnId}: ${applied.code}`);
      state = applied.state;
    }
    const folded = state.turns.at(-1);
    if (folded?.turnId === turn.turnId && folded.status === 'running') {
      running.push({ turnId: turn.turnId, cursor: formatChatCursor({ turnId: turn.turnId, seq: folded.lastSeq }) });
    }
  }
  return { ok: true, value: { state, running, pruned } };
}
