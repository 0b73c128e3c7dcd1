/**
 * The `GET /state` answer (DESIGN §11): a conversation's `ChatStateV1` folded
 * with core's `applyChatEvent` from the store's retained frames of every turn,
 * in the order the turns started, with the cursor each running turn resumes
 * from. It owns the fold and the answer's shape; it reads through the store's
 * `readConversationLog` (one snapshot) and authorizes nothing.
 */
import {
  applyChatEvent,
  createChatState,
  formatChatCursor,
  refuse,
  type ChatEventEnvelope,
  type ChatRefusal,
  type ChatStateV1,
} from '@papercusp/chat-protocol-core';

/** One turn as the store's `readConversationLog` answers it (the fields the fold reads). */
export interface ConversationLogTurnView {
  readonly turnId: string;
  readonly lowerBound: number;
  readonly latestSeq: number;
  readonly pruned: boolean;
  readonly frames: readonly ChatEventEnvelope[];
}

/** The store's `readConversationLog`, structurally: what `createPostgresChatStore` returns. */
export type ChatHostConversationLogReader = (request: {
  readonly conversationId: string;
  readonly maxTurns?: number;
  readonly maxFrames?: number;
}) => Promise<
  | { readonly ok: true; readonly value: { readonly turns: readonly ConversationLogTurnView[] } }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly limit?: number }
>;

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
  read: ChatHostConversationLogReader,
  conversationId: string,
  bounds: { readonly maxTurns?: number; readonly maxFrames?: number },
): Promise<
  | { readonly ok: true; readonly value: ConversationStateAnswer }
  | (ChatRefusal<ReadConversationStateRefusalCode> & { readonly limit?: number })
> {
  let log: Awaited<ReturnType<ChatHostConversationLogReader>>;
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
  let state = createChatState(conversationId);
  const running: RunningTurnCursor[] = [];
  const pruned: PrunedTurn[] = [];
  for (const turn of log.value.turns) {
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
