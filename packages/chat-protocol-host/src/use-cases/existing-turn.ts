/**
 * The answer to a `POST /turns` whose client turn id already names a turn:
 * the same message again is the resend the idempotency key exists for
 * (`turn-in-flight`, `turn-already-processed`); another message under the id
 * is `turn-id-reused`, a client's mistake no retry can mend, so never a 5xx.
 * It owns that comparison only; starting turns is `start-turn.ts`'s.
 */
import type { ChatEventLog, TurnStore } from '@papercusp/chat-protocol-recovery';
import { hostRefusal, type HostRefusal } from './host-refusal.js';
import { readTurnProgress } from './turn-progress.js';

/** The resent request: its conversation, the turn its client turn id names, and the text it carries. */
export interface ExistingTurnRequest {
  readonly conversationId: string;
  readonly turnId: string;
  readonly text: string;
}

// The person's text in the turn's first frame, or `undefined` when that frame is not (yet, or any longer) in the log.
async function firstInputText(eventLog: ChatEventLog, conversationId: string, turnId: string): Promise<string | undefined> {
  const window = await eventLog.replayWindow({ conversationId, turnId, after: 0 });
  const first = window.frames[0];
  return first?.seq === 1 && first.event.type === 'user_input' ? first.event.text : undefined;
}

/**
 * Answers a resend of an existing turn. Guarantees: another text than the
 * turn's `user_input` is `turn-id-reused` with the `turnId`; the same text
 * is `turn-in-flight` while the turn runs and `turn-already-processed`
 * once it ended, both with the `turnId`. When the turn's first frame is not in
 * the log (its run has not written it yet, or it was pruned), nothing tells the
 * texts apart: it answers as the same text. A store that cannot answer is
 * `store-unavailable`. Never rejects.
 */
export async function answerExistingTurn(
  store: { readonly turnStore: TurnStore<unknown, never>; readonly eventLog: ChatEventLog },
  { conversationId, turnId, text }: ExistingTurnRequest,
): Promise<HostRefusal> {
  let storedText: string | undefined;
  try {
    storedText = await firstInputText(store.eventLog, conversationId, turnId);
  } catch {
    return hostRefusal('store-unavailable', 'the turn could not be read');
  }
  if (storedText !== undefined && storedText !== text) {
    return hostRefusal('turn-id-reused', 'this client turn id was used for another message', { turnId });
  }
  const progress = await readTurnProgress(store, conversationId, turnId);
  if (progress === 'unavailable') return hostRefusal('store-unavailable', 'the turn could not be read');
  return progress !== null && progress.status !== 'running'
    ? hostRefusal('turn-already-processed', 'this client turn was already processed', { turnId })
    : hostRefusal('turn-in-flight', 'this client turn is running', { turnId });
}
