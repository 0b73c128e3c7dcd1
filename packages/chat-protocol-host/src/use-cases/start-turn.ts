/**
 * The start-a-turn use case (`POST /turns`, and the peers' POST routes): the
 * grant (the caller's own, or a first caller's claim), the turn id derived
 * from the client turn id, recovery's `startTurn`, and this process's run of
 * the agent. It owns starting once per client turn id; reading and checking
 * the request (body, `Idempotency-Key`, ids) is the routes'.
 */
import { isCleanText } from '@papercusp/chat-protocol-core';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { runChatTurn } from '../run/run-chat-turn.js';
import { watchTurnCancellation } from '../run/watch-turn-cancellation.js';
import { answerExistingTurn } from './existing-turn.js';
import { NOT_FOUND, hostRefusal, type HostRefusal, type HostResult } from './host-refusal.js';
import type { HostRuntime } from './host-runtime.js';
import { hostTurnId } from './host-turn-id.js';

/** The longest `text` a turn's message may hold, in UTF-16 code units. */
export const MAX_TURN_TEXT_LENGTH = 4000;

/** A turn to start: who asks, in which conversation, under which client turn id, with which text. */
export interface StartTurnRequest {
  readonly caller: ChatHostCaller;
  readonly conversationId: string;
  /** Of the form `turn_<32 hex digits>` (the routes check it). */
  readonly clientTurnId: string;
  /** Passed {@link checkTurnText}. */
  readonly text: string;
}

/** The refusal for a turn's text that is empty, longer than {@link MAX_TURN_TEXT_LENGTH} or not clean text; `null` when it may start a turn. */
export function checkTurnText(text: string): HostRefusal | null {
  return text.length === 0 || text.length > MAX_TURN_TEXT_LENGTH || !isCleanText(text)
    ? hostRefusal('invalid-body', `text: 1 to ${MAX_TURN_TEXT_LENGTH} characters of clean text`)
    : null;
}

// The turn's grant: the caller's own, or the one `claimConversation` gives a first caller.
async function grantTurn(runtime: HostRuntime, caller: ChatHostCaller, conversationId: string): Promise<HostRefusal | null> {
  if (await runtime.authorized(caller, conversationId)) return null;
  if (runtime.claimConversation === undefined) return NOT_FOUND;
  try {
    await runtime.claimConversation({ caller, conversationId });
  } catch {
    return hostRefusal('store-unavailable', 'the conversation could not be claimed');
  }
  return (await runtime.authorized(caller, conversationId)) ? null : NOT_FOUND;
}

/**
 * Starts the turn once per client turn id and runs it in this process.
 * Guarantees: a conversation the caller holds no grant to (and cannot claim)
 * is `not-found`, and a claim that throws `store-unavailable`, both before
 * anything is written; a new turn is `{ turnId }` with its run started; a
 * resend is `turn-in-flight` or `turn-already-processed` with the `turnId`,
 * another message under the id `turn-id-reused`; a store that cannot answer
 * is `store-unavailable`. Never rejects.
 */
export async function startTurn(runtime: HostRuntime, request: StartTurnRequest): Promise<HostResult<{ readonly turnId: string }>> {
  const { caller, conversationId, clientTurnId, text } = request;
  const { agent, recovery, store, runs, effects } = runtime;
  const refused = await grantTurn(runtime, caller, conversationId);
  if (refused !== null) return refused;
  const turnId = await hostTurnId(conversationId, clientTurnId);
  const turn = { conversationId, turnId, text };
  let effectIds: readonly string[];
  try {
    effectIds = agent.effects(turn);
  } catch {
    effectIds = [];
  }
  const started = await recovery.startTurn({ caller, conversationId, turnId, effectIds });
  if (!started.ok) {
    if (started.code === 'forbidden') return NOT_FOUND;
    // The id names a turn started with other effect ids: a resend of another message, a client's error (409), not an outage.
    if (started.code !== 'turn-conflict') return hostRefusal('store-unavailable', started.message);
  }
  if (!started.ok || started.outcome === 'existing') {
    return answerExistingTurn(store, { conversationId, turnId, text, effectsDiffer: !started.ok });
  }
  const controller = new AbortController();
  runs.set(turnId, controller);
  // A cancellation committed through another host process reaches this run through its turn record.
  const stopWatching = watchTurnCancellation({
    turnStore: store.turnStore,
    turnId,
    intervalMs: runtime.cancelPollMs,
    onCancelled: () => {
      controller.abort();
      for (const effectId of effectIds) effects.get(`${turnId}/${effectId}`)?.abort();
    },
  });
  void runChatTurn({
    turn,
    caller,
    agent,
    effectIds,
    recovery,
    resolver: runtime.resolver,
    eventLog: store.eventLog,
    clock: runtime.clock,
    signal: controller.signal,
    registerEffect: (effectId, effect) => effects.set(`${turnId}/${effectId}`, effect),
    armCardWait: (correlationId, signal) => runtime.cardWakeups.arm(correlationId, signal),
    cardLifetimeMs: runtime.cardLifetimeMs,
  })
    // runChatTurn never rejects; this keeps a future bug from becoming an unhandled rejection that ends the process.
    .catch(() => undefined)
    .finally(() => {
      stopWatching();
      runs.delete(turnId);
      for (const effectId of effectIds) effects.delete(`${turnId}/${effectId}`);
    });
  return { ok: true, value: { turnId } };
}
