/**
 * One `tool` step of a run (DESIGN §6 rule 1, §11.1): the declared tool found
 * by name, the host's own authorization of the call, and its execution. A
 * tool with an external effect gets an effect id the host mints from the turn
 * and the call's ordinal, declared to recovery under the caller's current
 * authority, then claimed, admitted and completed (launched at most once
 * across retries and processes); a tool without one runs here with no store
 * round trip. A failed execution is a result (stored, never relaunched); only
 * an unknown outcome needs reconciliation. It owns the call's outcome; the
 * frames around it are the run's.
 */
import type { ChatResultBlock } from '@papercusp/chat-protocol-core';
import type { TurnRecovery } from '@papercusp/chat-protocol-recovery';
import type { ChatAgentTool, ChatAgentToolExecution, ChatAgentToolOutcome, ChatAgentTurn } from '../chat-agent.js';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { failureText } from './failure-text.js';
import type { ToolObservation, TurnObserver } from './turn-observer.js';

/** What a tool step needs of its run. */
export interface ToolStepRun {
  readonly turn: ChatAgentTurn;
  readonly caller: ChatHostCaller;
  readonly recovery: TurnRecovery<unknown, ChatHostCaller>;
  /** The run's signal: aborted when the turn's cancellation committed. */
  readonly signal: AbortSignal;
  /** The run's observer: the step's store calls go through it. */
  readonly observer: Pick<TurnObserver, 'store'>;
  /** This step's observation. */
  readonly observation: ToolObservation;
  /** Registers the abort controller of an admitted effect for recovery's abort hook; the returned function removes it. */
  readonly registerEffect: (effectId: string, controller: AbortController) => () => void;
}

/** The call a `tool` step makes: its wire call id, the tool's name and input, and its ordinal among the turn's `tool` steps (from 1). */
export interface ToolCall {
  readonly callId: string;
  readonly name: string;
  readonly input: unknown;
  readonly ordinal: number;
}

/** A settled call as its `tool_result` reports it. */
export interface SettledToolCall {
  readonly status: 'succeeded' | 'failed' | 'needs-reconciliation';
  readonly summary?: string;
  readonly blocks?: readonly ChatResultBlock[];
}

/** How a call ended: settled, or the turn was cancelled first (a late result is still stored by recovery). */
export type ToolStepOutcome = SettledToolCall | 'cancelled';

// Refusals that mean another run of the turn holds the call (admitted, or claimed after this run's claim): it was or
// may be launched there, so its outcome is unknown here, never a failure the agent could answer by calling again.
const HELD_ELSEWHERE: ReadonlySet<string> = new Set(['already-admitted', 'stale-claim']);

/**
 * The effect id of the call with `ordinal` in the turn: `effect_<turnId>_<ordinal>`. Deterministic, so a retried
 * run of the turn declares the same ids; the host's turn ids (`turn_` and 32 hex digits) keep it a v1 id far
 * inside core's 256 characters.
 */
export function effectIdFor(turnId: string, ordinal: number): string {
  return `effect_${turnId}_${ordinal}`;
}

/**
 * What a tool answered (or recovery stored for it), as the result the host keeps and reports: `status` `failed`
 * when it says so, else `succeeded`; a string `summary` and the `blocks` when present (the `tool_result` frame
 * checks them). Never throws: an answer that cannot be read is a failed result.
 */
export function readToolOutcome(answer: unknown): SettledToolCall {
  try {
    const { status, summary, blocks } = (answer ?? {}) as { status?: unknown; summary?: unknown; blocks?: unknown };
    return {
      status: status === 'failed' ? 'failed' : 'succeeded',
      ...(typeof summary === 'string' ? { summary } : {}),
      ...(blocks === undefined ? {} : { blocks: blocks as readonly ChatResultBlock[] }),
    };
  } catch {
    return { status: 'failed', summary: 'the tool answered a result that cannot be read' };
  }
}

// The host's own authorization of the call: only `true` allows it; a throw is "no".
async function authorized(tool: ChatAgentTool, run: ToolStepRun, input: unknown): Promise<boolean> {
  if (tool.authorize === undefined) return true;
  try {
    return (await tool.authorize({ caller: run.caller, turn: run.turn, input })) === true;
  } catch {
    return false;
  }
}

// Runs `execute` with the step's span active: a throw or rejection is a failed result, unless the execution was
// aborted first (then its outcome is unknown, and the rejection reaches recovery, which marks the effect for reconciliation).
async function execute(run: ToolStepRun, tool: ChatAgentTool, input: unknown, execution: ChatAgentToolExecution): Promise<SettledToolCall> {
  let answer: ChatAgentToolOutcome;
  try {
    answer = await run.observation.activate(() => tool.execute(input, execution));
  } catch (error) {
    if (execution.signal.aborted) throw error;
    return { status: 'failed', summary: failureText(error, '', 'the tool failed') };
  }
  return readToolOutcome(answer);
}

// An execution's own controller, aborted with the run (so a cancellation seen from any process reaches it).
function executionController(run: ToolStepRun): { readonly controller: AbortController; readonly release: () => void } {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  if (run.signal.aborted) controller.abort();
  else run.signal.addEventListener('abort', abort, { once: true });
  return { controller, release: () => run.signal.removeEventListener('abort', abort) };
}

// Resolves with 'cancelled' once the run's signal is aborted.
function whenAborted(signal: AbortSignal): Promise<'cancelled'> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve('cancelled');
    else signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
  });
}

/**
 * Runs one call of `tool` (`undefined`: the agent declared no tool of this name); `logCall` writes its
 * `tool_call` frame. Guarantees: an unknown tool is `failed` ("unknown tool") and a call the tool's `authorize`
 * refuses `failed` ("not authorized"), neither run nor declared; a tool without an external effect runs with no
 * recovery call; a tool with one is declared as `effectIdFor(turnId, ordinal)` before its call is logged (so its
 * claim and admission follow the frame at once), then claimed and dispatched, so a stored result is reused and
 * never re-run; a failed execution is `failed`; only an unknown outcome is `needs-reconciliation`, a call another
 * run of the turn holds included (`already-admitted`, or `stale-claim`: claimed after this run's claim); a
 * cancellation ends the wait at once with `cancelled`; `stopped` when the call could not be logged (nothing runs).
 * Never rejects.
 */
export async function runToolStep(
  run: ToolStepRun,
  tool: ChatAgentTool | undefined,
  call: ToolCall,
  logCall: () => Promise<'appended' | 'stopped'>,
): Promise<ToolStepOutcome | 'stopped'> {
  const allowed = tool !== undefined && (await authorized(tool, run, call.input));
  if (tool !== undefined && allowed && tool.externalEffect !== false && !run.signal.aborted) {
    const { turn, caller } = run;
    const effect = { caller, conversationId: turn.conversationId, turnId: turn.turnId, effectId: effectIdFor(turn.turnId, call.ordinal) };
    const declared = await run.observer.store('declare-effect', () => run.recovery.declareEffect(effect));
    if (declared.ok) run.observation.declared(effect.effectId);
    if ((await logCall()) === 'stopped') return 'stopped';
    if (!declared.ok) return refused(run, declared.code);
    return runExternalEffect(run, tool, call, effect);
  }
  if ((await logCall()) === 'stopped') return 'stopped';
  if (tool === undefined) return { status: 'failed', summary: 'unknown tool' };
  if (!allowed) return { status: 'failed', summary: 'not authorized' };
  if (run.signal.aborted) return 'cancelled';
  return runWithoutEffect(run, tool, call);
}

// A tool without an external effect: run here, no store round trip.
async function runWithoutEffect(run: ToolStepRun, tool: ChatAgentTool, call: ToolCall): Promise<ToolStepOutcome> {
  const { turn } = run;
  const { controller, release } = executionController(run);
  run.observation.launched(null);
  const execution = { signal: controller.signal, turn, callId: call.callId, effectId: effectIdFor(turn.turnId, call.ordinal) };
  const executing = execute(run, tool, call.input, execution)
    // Its outcome after an abort is unknown and nobody waits for it any more.
    .catch((): SettledToolCall => ({ status: 'needs-reconciliation' }))
    .finally(release);
  return Promise.race([executing, whenAborted(run.signal)]);
}

// A refused recovery call: `cancelled` once the turn is cancelled, an unknown outcome when another run holds the
// call, else a failed result naming the refusal.
function refused(run: ToolStepRun, code: string): ToolStepOutcome {
  if (run.signal.aborted || code === 'turn-not-running') return 'cancelled';
  if (HELD_ELSEWHERE.has(code)) return { status: 'needs-reconciliation' };
  return { status: 'failed', summary: code };
}

// A tool with an external effect, once declared: claimed and admitted through recovery.
async function runExternalEffect(
  run: ToolStepRun,
  tool: ChatAgentTool,
  call: ToolCall,
  effect: { readonly caller: ChatHostCaller; readonly conversationId: string; readonly turnId: string; readonly effectId: string },
): Promise<ToolStepOutcome> {
  const { turn, caller, recovery, observer } = run;
  const claimed = await observer.store('claim-effect', () => recovery.claimEffect(effect));
  if (!claimed.ok) return refused(run, claimed.code);
  if (claimed.outcome === 'completed') return readToolOutcome(claimed.result);
  if (claimed.outcome !== 'claimed') return { status: 'needs-reconciliation' };
  const dispatched = observer.store('dispatch-effect', () =>
    recovery.dispatchEffect({
      caller,
      claim: claimed.claim,
      // Called inside the store's fence: the controller is registered before the first await.
      execute: (execution) => {
        const { controller, release } = executionController(run);
        const unregister = run.registerEffect(execution.effectId, controller);
        run.observation.launched(execution.effectId);
        const toolExecution = { signal: controller.signal, turn, callId: call.callId, effectId: execution.effectId };
        return execute(run, tool, call.input, toolExecution).finally(() => {
          release();
          unregister();
        });
      },
    }),
  );
  const settled = await Promise.race([dispatched, whenAborted(run.signal)]);
  if (settled === 'cancelled') return 'cancelled';
  if (settled.ok) return settled.outcome === 'completed' ? readToolOutcome(settled.result) : { status: 'needs-reconciliation' };
  // The execution's result is known here though the store did not confirm it (the observer told it): it is what happened.
  if (settled.code === 'checkpoint-failed') return readToolOutcome(settled.result);
  return refused(run, settled.code);
}
