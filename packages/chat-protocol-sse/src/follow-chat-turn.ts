/**
 * Folds one turn's stream into `ChatStateV1` with core's `applyChatEvent`
 * (DESIGN §10): replay overlap is absorbed as `duplicate`, and a frame the
 * state cannot take (a gap, a conflict) ends the follow with a typed item
 * naming where to replay from. The transport is `readChatStream`'s.
 */
import {
  applyChatEvent,
  createChatState,
  type ApplyChatEventRefusalCode,
  type ChatCursor,
  type ChatEventEnvelope,
  type ChatStateV1,
} from '@papercusp/chat-protocol-core';
import {
  readChatStream,
  type ChatStreamConnectedItem,
  type ChatStreamEndReason,
  type ChatStreamEndedItem,
  type ChatStreamInvalidFrameItem,
  type ChatStreamReconnectingItem,
  type ChatStreamItem,
  type ChatStreamRefusedItem,
  type ReadChatStreamOptions,
} from './read-chat-stream.js';

/** Options of {@link followChatTurn}: the stream's, the conversation, and the state to fold into. */
export interface FollowChatTurnOptions extends ReadChatStreamOptions {
  readonly conversationId: string;
  /** Default: `createChatState(conversationId)`. To resume a turn it holds, pass `cursor: { turnId, seq: turn.lastSeq }`. */
  readonly state?: ChatStateV1;
}

/** An envelope was applied: `state` is the new state (a duplicate changes nothing and yields nothing). */
export interface ChatTurnStateItem {
  readonly type: 'state';
  readonly state: ChatStateV1;
  readonly envelope: ChatEventEnvelope;
}

/**
 * The reducer refused an envelope (`seq-gap`: the state is behind the stream,
 * replay after `replayAfter`; `conflicting-duplicate`: the host sent other
 * content for a known seq or id; ...). The follow ends after it, `state` unchanged.
 */
export interface ChatTurnRejectedItem {
  readonly type: 'rejected';
  readonly code: ApplyChatEventRefusalCode;
  readonly message: string;
  readonly envelope: ChatEventEnvelope;
  readonly replayAfter?: ChatCursor;
}

/** The last item: `readChatStream`'s reasons plus `rejected`, with the state reached. */
export interface ChatTurnEndedItem extends Omit<ChatStreamEndedItem, 'reason'> {
  readonly reason: ChatStreamEndReason | 'rejected';
  readonly state: ChatStateV1;
}

/** Everything {@link followChatTurn} yields: state updates, a rejection, and the stream's own items. */
export type FollowChatTurnItem =
  | ChatTurnStateItem
  | ChatTurnRejectedItem
  | ChatTurnEndedItem
  | ChatStreamConnectedItem
  | ChatStreamReconnectingItem
  | ChatStreamRefusedItem
  | ChatStreamInvalidFrameItem;

/**
 * Follows one turn: each envelope `readChatStream` delivers goes through
 * `applyChatEvent`; `applied` yields `{ type: 'state' }`, `duplicate` is
 * absorbed silently, a refusal yields `rejected` and ends the follow (closing
 * the connection). Reconnects, refusals and invalid frames pass through as
 * `readChatStream` yields them; `ended` comes last with the final state.
 * Never throws while iterating; throws `TypeError` when called with a malformed
 * conversation id, a state of another conversation, or what `readChatStream` refuses.
 */
export function followChatTurn(options: FollowChatTurnOptions): AsyncIterableIterator<FollowChatTurnItem> {
  const { conversationId, state = createChatState(conversationId), ...streamOptions } = options;
  if (state.conversationId !== conversationId) throw new TypeError('followChatTurn: state belongs to another conversation');
  return fold(readChatStream(streamOptions), state, streamOptions.cursor ?? null);
}

async function* fold(
  stream: AsyncIterableIterator<ChatStreamItem>,
  initial: ChatStateV1,
  initialCursor: ChatCursor | null,
): AsyncGenerator<FollowChatTurnItem, void, undefined> {
  let state = initial;
  let cursor = initialCursor;
  try {
    for await (const item of stream) {
      if (item.type === 'ended') return yield { ...item, state };
      if (item.type !== 'envelope') {
        yield item;
        continue;
      }
      const applied = applyChatEvent(state, item.envelope);
      if (applied.ok) {
        cursor = item.cursor;
        if (applied.outcome === 'duplicate') continue;
        state = applied.state;
        yield { type: 'state', state, envelope: item.envelope };
        continue;
      }
      yield {
        type: 'rejected',
        code: applied.code,
        message: applied.message,
        envelope: item.envelope,
        ...(applied.code === 'seq-gap' ? { replayAfter: applied.replayAfter } : {}),
      };
      return yield { type: 'ended', reason: 'rejected', cursor, state };
    }
  } finally {
    await stream.return?.();
  }
}
