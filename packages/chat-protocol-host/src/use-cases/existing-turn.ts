/**
 * The answer to a `POST /turns` whose client turn id already names a turn:
 * the same message again is the resend the idempotency key exists for
 * (`turn-in-flight`, `turn-already-processed`); another message under the id
 * is `turn-id-reused`, a client's mistake no retry can mend, so never a 5xx.
 * It owns that comparison only; starting turns is `start-turn.ts`'s.
 */
import type { ChatEventLog } from '@papercusp/chat-protocol-recovery';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { hostRefusal, type HostRefusal } from './host-refusal.js';
import type { HostRuntime } from './host-runtime.js';
import { readSettledProgress } from './interrupt-turn.js';

/** The resent request: who resends, its conversation, the turn its client turn id names, and the text it carries. */
export interface ExistingTurnRequest {
  readonly caller: ChatHostCaller;
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
 * is `turn-in-flight` while the turn runs, `turn-interrupted` once its run
 * was lost (a turn found past its run lease is interrupted first, and its tail
 * written: the person may send the message again, as a new turn), and
 * `turn-already-processed` once it ended otherwise, all with the `turnId`. When the turn's first frame is not in
 * the log (its run has not written it yet, or it was pruned), nothing tells the
 * texts apart: it answers as the same text. A store that cannot answer is
 * `store-unavailable`. Never rejects.
 */
export async function answerExistingTurn(runtime: HostRuntime, request: ExistingTurnRequest): Promise<HostRefusal> {
  const { caller, conversationId, turnId, text } = request;
  let storedText: string | undefined;
  try {
    storedText = await firstInputText(runtime.store.eventLog, conversationId, turnId);
  } catch {
    return hostRefusal('store-unavailable', 'the turn could not be read');
  }
  if (storedText !== undefined && storedText !== text) {
    return hostRefusal('turn-id-reused', 'this client turn id was used for another message', { turnId });
  }
  const progress = await readSettledProgress(runtime, { caller, conversationId, turnId });
  if (progress === 'unavailable') return hostRefusal('store-unavailable', 'the turn could not be read');
  if (progress === null || progress.status === 'running') return hostRefusal('turn-in-flight', 'this client turn is running', { turnId });
  return progress.status === 'interrupted'
    ? hostRefusal('turn-interrupted', 'this client turn was interrupted: its run was lost; send the message again as a new turn', {
        turnId,
      })
    : hostRefusal('turn-already-processed', 'this client turn was already processed', { turnId });
}
