/**
 * What the page reads out of the host's JSON answers, without the DOM (so the
 * Node tests read it too): a field of an answer, and the `GET /state` answer
 * it draws a conversation from and resumes its running turns with.
 */
import { parseChatCursor, type ChatCursor, type ChatStateV1 } from '@papercusp/chat-protocol-core';

/** The field `name` of a JSON answer, `undefined` when it is not an object holding it. */
export const field = (body: unknown, name: string): unknown =>
  typeof body === 'object' && body !== null && name in body ? (body as Record<string, unknown>)[name] : undefined;

/** A conversation as `GET /state` answers it: the folded state, each running turn's cursor, how many turns retention dropped. */
export interface ConversationSnapshot {
  readonly state: ChatStateV1;
  readonly running: readonly ChatCursor[];
  readonly prunedTurns: number;
}

/**
 * Reads a `GET /state` body for `conversationId`: `null` unless it is the
 * answer's shape (a v1 state of this conversation with a turn list, running
 * turns each with a cursor on its own turn, a pruned list). The turns
 * themselves are the host's fold, as trusted as the script it served; the
 * page checks only what it relies on to draw them and resume their streams.
 * Never throws.
 */
export function readConversationSnapshot(body: unknown, conversationId: string): ConversationSnapshot | null {
  try {
    const state = field(body, 'state');
    const running = field(body, 'running');
    const pruned = field(body, 'pruned');
    if (field(state, 'schemaVersion') !== 1 || field(state, 'conversationId') !== conversationId) return null;
    if (!Array.isArray(field(state, 'turns')) || !Array.isArray(running) || !Array.isArray(pruned)) return null;
    const cursors: ChatCursor[] = [];
    for (const entry of running as unknown[]) {
      const cursor = parseChatCursor(field(entry, 'cursor'));
      if (cursor === null || cursor.turnId !== field(entry, 'turnId')) return null;
      cursors.push(cursor);
    }
    return { state: state as ChatStateV1, running: cursors, prunedTurns: pruned.length };
  } catch {
    // A getter or a Proxy that throws: no JSON body has one, but the reader stays total.
    return null;
  }
}
