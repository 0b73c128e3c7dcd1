/**
 * A turn's run input messages: the conversation's earlier turns (core's `ChatHistoryTurnV1[]`, oldest first) as
 * AG-UI user, assistant and system messages, then the person's message. Text only: a history turn's tool calls,
 * cards, report and status are not carried (AG-UI's tool messages answer calls of the same thread, which a remote
 * agent did not make), and a turn without text has no message. It owns that reading and the messages' ids.
 */
import type { ChatHistoryTurnV1 } from '@papercusp/chat-protocol-core';
import type { AgUiMessage } from './agent-types.js';

/**
 * The messages of the run that answers `text` in the turn `turnId`, after `history`. A history turn's message id is
 * `<id>:<role>` (history derived from state gives a user message and its answer the turn's id), the person's is
 * `<turnId>:user`.
 */
export function runInputMessages(history: readonly ChatHistoryTurnV1[], turnId: string, text: string): AgUiMessage[] {
  const messages: AgUiMessage[] = [];
  for (const turn of history) {
    if (turn.text !== '') messages.push({ id: `${turn.id}:${turn.role}`, role: turn.role, content: turn.text });
  }
  messages.push({ id: `${turnId}:user`, role: 'user', content: text });
  return messages;
}
