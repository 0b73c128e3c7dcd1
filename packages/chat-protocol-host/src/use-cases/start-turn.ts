/**
 * The start-a-turn use case (`POST /turns`, and the peers' POST routes): the
 * grant (the caller's own, or a first caller's claim), the turn id derived
 * from the client turn id, recovery's `startTurn`, and this process's run of
 * the agent. It owns starting once per client turn id; reading and checking
 * the request (body, `Idempotency-Key`, ids) is the routes'.
 */
import { isCleanText } from '@papercusp/chat-protocol-core';
import type { ChatAgentTurn } from '../chat-agent.js';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { runChatTurn, type RunChatTurnContext } from '../run/run-chat-turn.js';
import { interruptionReason } from '../run/run-interruption.js';
import { watchTurnRun } from '../run/watch-turn-run.js';
import { readAgentHistory } from './agent-history.js';
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
 * What a run of `turn` in this process runs on: the runtime's components, the history read with the host's
 * bounds, the effects registered for recovery's abort hook (each removed when its execution ends), and `signal`
 * (the run's: aborted by the turn's cancellation); with `runId`, the run that owns the turn, which finishes its record
 * after the terminal frame.
 */
export function turnRunContext(
  runtime: HostRuntime,
  turn: ChatAgentTurn,
  caller: ChatHostCaller,
  signal: AbortSignal,
  runId?: string,
): RunChatTurnContext {
  const { store, effects } = runtime;
  const { conversationId, turnId } = turn;
  return {
    turn,
    caller,
    agent: runtime.agent,
    recovery: runtime.recovery,
    resolver: runtime.resolver,
    eventLog: store.eventLog,
    clock: runtime.clock,
    ...(runId === undefined ? {} : { runId }),
    signal,
    readHistory: () =>
      readAgentHistory(store.readConversationLog, {
        conversationId,
        turnId,
        maxHistoryTurns: runtime.maxHistoryTurns,
        bounds: runtime.stateBounds,
      }),
    registerEffect: (effectId, effect) => {
      const key = `${turnId}/${effectId}`;
      effects.set(key, effect);
      return () => {
        if (effects.get(key) === effect) effects.delete(key);
      };
    },
    armCardWait: (correlationId, armed) => runtime.cardWakeups.arm(correlationId, armed),
    cardLifetimeMs: runtime.cardLifetimeMs,
    emit: runtime.emit,
    tracing: runtime.tracing,
  };
}

/**
 * Starts the turn once per client turn id and runs it in this process.
 * Guarantees: a draining host refuses it (`draining`) before anything is claimed or written; a conversation the caller holds no grant to (and cannot claim)
 * is `not-found`, and a claim that throws `store-unavailable`, both before
 * anything is written; a new turn is `{ turnId }` with its run started; a
 * resend is `turn-in-flight` or `turn-already-processed` with the `turnId`,
 * another message under the id `turn-id-reused`; a store that cannot answer
 * is `store-unavailable`. Never rejects.
 */
export async function startTurn(runtime: HostRuntime, request: StartTurnRequest): Promise<HostResult<{ readonly turnId: string }>> {
  const { caller, conversationId, clientTurnId, text } = request;
  const { recovery } = runtime;
  if (runtime.lifecycle.draining)
    return hostRefusal('draining', 'this host process is shutting down: send the turn again (another process takes it)');
  const refused = await grantTurn(runtime, caller, conversationId);
  if (refused !== null) return refused;
  const turnId = await hostTurnId(conversationId, clientTurnId);
  // One run id per run: a turn started again (a resend) keeps the run it was started with.
  const runId = `run_${crypto.randomUUID().replace(/-/g, '')}`;
  // No effect is authorized up front: the run declares each tool call's effect as the agent makes it (§6 rule 1).
  const started = await recovery.startTurn({ caller, conversationId, turnId, effectIds: [], runId });
  if (!started.ok) {
    if (started.code === 'forbidden') return NOT_FOUND;
    // The id names a turn of another conversation: a client's error (409), not an outage.
    if (started.code !== 'turn-conflict') {
      runtime.emit({ type: 'store-unavailable', conversationId, turnId, operation: 'start-turn' });
      return hostRefusal('store-unavailable', started.message);
    }
  }
  if (!started.ok || started.outcome === 'existing') return answerExistingTurn(runtime, { caller, conversationId, turnId, text });
  runTurn(runtime, { conversationId, turnId, text }, caller, runId, started.turn.run?.leaseExpiresAt);
  return { ok: true, value: { turnId } };
}

// Runs a started turn in this process, registered in `runtime.runs` until it ends. A cancellation or an interruption
// committed through any host process reaches it through its turn record, a lost lease through its renewals; the
// run's signal reaches its agent and every execution it started.
function runTurn(
  runtime: HostRuntime,
  turn: ChatAgentTurn,
  caller: ChatHostCaller,
  runId: string,
  leaseExpiresAt: string | undefined,
): void {
  const { conversationId, turnId } = turn;
  const controller = new AbortController();
  const stop = (why: 'cancelled' | 'interrupted'): void => {
    if (!controller.signal.aborted) controller.abort(why === 'interrupted' ? interruptionReason('it no longer owns the turn') : undefined);
  };
  const now = (): number => Date.parse(runtime.clock());
  const stopWatching = watchTurnRun({
    turnStore: runtime.store.turnStore,
    turnId,
    runId,
    renew: () => runtime.recovery.renewRunLease({ caller, conversationId, turnId, runId }),
    leaseExpiresAt: leaseExpiresAt === undefined ? now() + runtime.runLeaseMs : Date.parse(leaseExpiresAt),
    pollMs: runtime.cancelPollMs,
    renewEveryMs: Math.max(1, Math.floor(runtime.runLeaseMs / 3)),
    now,
    onStop: stop,
  });
  const ended = runChatTurn(turnRunContext(runtime, turn, caller, controller.signal, runId))
    // runChatTurn never rejects; this keeps a future bug from becoming an unhandled rejection that ends the process.
    .catch(() => undefined)
    .finally(() => {
      stopWatching();
      if (runtime.runs.get(turnId)?.runId === runId) runtime.runs.delete(turnId);
    });
  runtime.runs.set(turnId, { runId, caller, conversationId, stop, ended });
}
