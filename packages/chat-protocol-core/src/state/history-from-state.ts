/**
 * History from a snapshot: the transcript a reconnecting client renders, read
 * off a `ChatStateV1` (DESIGN §3.9). Pure and total: every state the reducer
 * can reach gives turns `parseChatHistoryPage` accepts. It reads only what the
 * state holds, so what a snapshot does not keep (times, card answers, report
 * blocks still inside the text) is the host's to add.
 */
import type { ChatHistoryTurnV1 } from './history.js';
import type { ChatStateV1, ChatTurnState } from './state.js';

/**
 * The history turns of `state`, oldest first: for each turn, its `user_input`
 * as a user turn (when it has one), then the assistant's content as an
 * assistant turn with the turn's id: text, tool calls with their results,
 * cards with their resolution, provenance, status and error, and the
 * turn's product events (a codec's `productEvents` and `productState`, as
 * the state holds them) in `product`, so they are never silently dropped.
 * Reasoning, host state, usage and the idempotency memory are not content and
 * stay out; a running turn gives its answer so far. A card that outlived its
 * turn stays in the turn that asked it: open with `awaiting: true` while it
 * waits, then closed with its resolution and `closedInTurn` naming the later
 * turn that closed it. Both turns take the v1 turn's id, so a
 * client matches them with live envelopes of the same turn.
 *
 * Never mutates `state`; the result shares the state's tool call and card
 * snapshot objects, so treat it as immutable.
 */
export function historyFromChatState(state: ChatStateV1): ChatHistoryTurnV1[] {
  const turns: ChatHistoryTurnV1[] = [];
  for (const turn of state.turns) {
    if (turn.userInput !== undefined) {
      const { text, source } = turn.userInput;
      turns.push(source === undefined ? { id: turn.turnId, role: 'user', text } : { id: turn.turnId, role: 'user', text, source });
    }
    turns.push(answerOf(turn));
  }
  return turns;
}

function answerOf(turn: ChatTurnState): ChatHistoryTurnV1 {
  const answer: ChatHistoryTurnV1 = { id: turn.turnId, role: 'assistant', text: turn.text };
  if (turn.toolCalls.length > 0) answer.tools = turn.toolCalls;
  if (turn.cards.length > 0) answer.cards = turn.cards;
  if (turn.provenance !== null) answer.provenance = turn.provenance;
  answer.status = turn.status;
  if (turn.error !== null) answer.error = turn.error;
  // A codec's state (createChatCodec) keeps a turn's product events beside its other fields; core never reads their data.
  const { productEvents, productState } = turn as { readonly productEvents?: unknown; readonly productState?: unknown };
  if (productEvents !== undefined || productState !== undefined) {
    answer.product = {
      ...(productEvents === undefined ? {} : { productEvents }),
      ...(productState === undefined ? {} : { productState }),
    };
  }
  return answer;
}
