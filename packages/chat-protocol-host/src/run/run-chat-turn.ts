/**
 * Runs one turn of a `ChatAgent` on the host's components: every step becomes a
 * v1 frame appended to the event log (the runner is the turn's only writer, so
 * seqs are contiguous), tools with external effects go through `TurnRecovery`
 * (claimed, admitted, completed) and cards through `InteractionResolver`. It
 * never throws: a failure it cannot report in the log ends the run.
 */
import type { ChatEventEnvelope, ChatEventV1, ChatResultBlock, OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import type { ChatEventLog, TurnRecovery } from '@papercusp/chat-protocol-recovery';
import type { CardWakeup } from './card-wakeups.js';
import type { ChatAgent, ChatAgentCompletion, ChatAgentFeedback, ChatAgentStep, ChatAgentTurn } from '../chat-agent.js';
import { checkAgentFrame } from './check-agent-frame.js';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { turnFrame } from './turn-frame.js';

/** The schema every scripted host card is opened with: the host validates values by the card's own kind. */
const HOST_CARD_SCHEMA = Object.freeze({ id: 'host-card', revision: 1 });

/** What one run needs: the turn, who started it, and the host's components. */
export interface RunChatTurnContext {
  readonly turn: ChatAgentTurn;
  readonly caller: ChatHostCaller;
  readonly agent: ChatAgent;
  readonly effectIds: readonly string[];
  readonly recovery: TurnRecovery<unknown, ChatHostCaller>;
  readonly resolver: InteractionResolver<ChatHostCaller, OpenCardSnapshotV1>;
  readonly eventLog: ChatEventLog;
  readonly clock: () => string;
  /** Aborted when the turn's cancellation committed. */
  readonly signal: AbortSignal;
  /** Registers the abort controller of an admitted effect, for recovery's abort hook. */
  readonly registerEffect: (effectId: string, controller: AbortController) => void;
  /** Arms a wait that settles when a card answer may have been stored (or after a poll interval); armed before each read of the card. */
  readonly armCardWait: (correlationId: string, signal: AbortSignal) => CardWakeup;
  /** How long a card stays open, in milliseconds. */
  readonly cardLifetimeMs: number;
}

type Appended = 'appended' | 'stopped';

/**
 * Runs the turn to its terminal frame. Guarantees: the first frame is the
 * person's `user_input`; the last is `done` or `error`; a cancellation ends the
 * run with `done { status: 'cancelled' }` without waiting for an in-flight tool,
 * whose late result recovery still stores; an agent that throws or yields an
 * undeclared effect ends the turn with a non-retryable `error`, and so does a
 * step (or a completion) core's parser refuses as a frame
 * (`invalid-agent-step`): no invalid frame reaches the log. `state` steps are
 * versioned by the run: 1, 2, … within the turn.
 */
export async function runChatTurn(context: RunChatTurnContext): Promise<void> {
  const { turn, signal } = context;
  let seq = 0;
  const write = async (envelope: ChatEventEnvelope): Promise<Appended> => {
    try {
      const result = await context.eventLog.append(envelope);
      return result.ok ? 'appended' : 'stopped';
    } catch {
      return 'stopped';
    }
  };
  const append = async (event: ChatEventV1): Promise<Appended> => {
    seq += 1;
    return write(turnFrame(turn, seq, event, context.clock));
  };
  const cancelled = async (): Promise<void> => {
    await append({ type: 'done', status: 'cancelled' });
  };
  const failed = async (code: string, message: string): Promise<void> => {
    await append({ type: 'error', code, message, retryable: false });
  };
  // A frame made from what the agent yielded: written only as core parses it, else the turn fails.
  const appendStep = async (event: ChatEventV1): Promise<Appended> => {
    const checked = checkAgentFrame(turnFrame(turn, seq + 1, event, context.clock));
    if (!checked.ok) {
      await failed(checked.code, checked.message);
      return 'stopped';
    }
    seq += 1;
    return write(checked.value);
  };

  if ((await append({ type: 'user_input', text: turn.text, source: 'text_typed' })) === 'stopped') return;
  let generator: AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback>;
  try {
    generator = context.agent.run(turn);
  } catch {
    return failed('agent-failed', 'the agent could not start');
  }
  let feedback: ChatAgentFeedback = undefined;
  let cards = 0;
  let stateVersion = 0;
  for (;;) {
    if (signal.aborted) return cancelled();
    let next: IteratorResult<ChatAgentStep, ChatAgentCompletion | void>;
    try {
      next = await generator.next(feedback);
    } catch {
      return failed('agent-failed', 'the agent failed');
    }
    if (signal.aborted) return cancelled();
    if (next.done === true) {
      await appendStep(doneEvent(next.value));
      return;
    }
    const step = next.value;
    feedback = undefined;
    switch (step.type) {
      case 'delta':
      case 'reasoning':
        if ((await appendStep({ type: step.type, text: step.text })) === 'stopped') return;
        break;
      case 'provenance': {
        const provenance = { type: 'provenance', engine: step.engine, model: step.model } as const;
        const event = step.accountRoute === undefined ? provenance : { ...provenance, accountRoute: step.accountRoute };
        if ((await appendStep(event)) === 'stopped') return;
        break;
      }
      case 'state':
        stateVersion += 1;
        if ((await appendStep({ type: 'state', version: stateVersion, snapshot: step.snapshot })) === 'stopped') return;
        break;
      case 'navigate':
        if ((await appendStep({ type: 'navigate', href: step.href })) === 'stopped') return;
        break;
      case 'fail':
        await appendStep({
          type: 'error',
          code: step.code,
          message: step.message,
          retryable: step.retryable,
          ...(step.retryAfterMs === undefined ? {} : { retryAfterMs: step.retryAfterMs }),
        });
        return;
      case 'tool': {
        if (!context.effectIds.includes(step.callId)) return failed('undeclared-effect', 'the agent ran a tool it did not declare');
        const call = { type: 'tool_call', callId: step.callId, name: step.name } as const;
        if ((await appendStep(step.input === undefined ? call : { ...call, input: step.input })) === 'stopped') return;
        const outcome = await runTool(context, step);
        if (outcome === 'cancelled') {
          await append({ type: 'tool_result', callId: step.callId, name: step.name, status: 'cancelled' });
          return cancelled();
        }
        const status = outcome.status;
        const result = {
          type: 'tool_result',
          callId: step.callId,
          name: step.name,
          status,
          ...(outcome.summary === undefined ? {} : { summary: outcome.summary }),
          ...(outcome.blocks === undefined ? {} : { blocks: outcome.blocks }),
        } as const;
        if ((await appendStep(result as ChatEventV1)) === 'stopped') return;
        if (status === 'needs-reconciliation') {
          await append({ type: 'done', status: 'needs-reconciliation' });
          return;
        }
        const summary = outcome.summary ?? '';
        feedback =
          outcome.blocks === undefined
            ? { type: 'tool-result', status, summary }
            : { type: 'tool-result', status, summary, blocks: outcome.blocks };
        break;
      }
      case 'card': {
        cards += 1;
        const closed = await askCard(context, step.card, `card_${turn.turnId}_${cards}`, append);
        if (closed === 'stopped') return;
        if (closed === 'cancelled') return cancelled();
        feedback = closed;
        break;
      }
    }
  }
}

type ToolOutcome =
  | 'cancelled'
  | {
      readonly status: 'succeeded' | 'failed' | 'needs-reconciliation';
      readonly summary?: string;
      readonly blocks?: readonly ChatResultBlock[];
    };

// The completed turn's `done`, with the agent's stop reason and usage when it returned them.
function doneEvent(completion: ChatAgentCompletion | void): ChatEventV1 {
  const done = { type: 'done', status: 'completed' } as const;
  if (typeof completion !== 'object' || completion === null) return done;
  const { stopReason, usage } = completion;
  return { ...done, ...(stopReason === undefined ? {} : { stopReason }), ...(usage === undefined ? {} : { usage }) };
}

// Claim, admit and complete through recovery; a cancellation ends the wait at once, not the execution.
async function runTool(context: RunChatTurnContext, step: Extract<ChatAgentStep, { type: 'tool' }>): Promise<ToolOutcome> {
  const { turn, caller, recovery, signal } = context;
  const request = { caller, conversationId: turn.conversationId, turnId: turn.turnId, effectId: step.callId };
  const claimed = await recovery.claimEffect(request);
  if (!claimed.ok) return signal.aborted || claimed.code === 'turn-not-running' ? 'cancelled' : { status: 'failed', summary: claimed.code };
  if (claimed.outcome === 'completed') return readOutcome(claimed.result);
  if (claimed.outcome !== 'claimed') return { status: 'needs-reconciliation' };
  const dispatched = recovery.dispatchEffect({
    caller,
    claim: claimed.claim,
    execute: (execution) => {
      const controller = new AbortController();
      context.registerEffect(execution.effectId, controller);
      return step.execute({ signal: controller.signal });
    },
  });
  const aborted = new Promise<'cancelled'>((resolve) => {
    if (signal.aborted) resolve('cancelled');
    signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
  });
  const settled = await Promise.race([dispatched, aborted]);
  if (settled === 'cancelled') return 'cancelled';
  if (settled.ok && settled.outcome === 'completed') return readOutcome(settled.result);
  if (!settled.ok) return settled.code === 'turn-not-running' ? 'cancelled' : { status: 'failed', summary: settled.code };
  return { status: 'needs-reconciliation' };
}

// The stored result as the tool returned it; its blocks are checked with the tool_result frame.
function readOutcome(result: unknown): ToolOutcome {
  const stored = result as { summary?: unknown; blocks?: unknown } | null;
  const summary = stored?.summary;
  const blocks = stored?.blocks as readonly ChatResultBlock[] | undefined;
  return {
    status: 'succeeded',
    ...(typeof summary === 'string' ? { summary } : {}),
    ...(blocks === undefined ? {} : { blocks }),
  };
}

// Opens the card durably, shows it, then waits for its terminal record (the resolver is the authority on answers).
async function askCard(
  context: RunChatTurnContext,
  agentCard: Extract<ChatAgentStep, { type: 'card' }>['card'],
  correlationId: string,
  append: (event: ChatEventV1) => Promise<Appended>,
): Promise<ChatAgentFeedback | 'stopped' | 'cancelled'> {
  const { turn, caller, resolver, signal } = context;
  const createdAt = context.clock();
  const expiresAt = new Date(Date.parse(createdAt) + context.cardLifetimeMs).toISOString();
  const card = { ...agentCard, correlationId, createdAt } as OpenCardSnapshotV1;
  const opened = await resolver.open({
    caller,
    card,
    schema: HOST_CARD_SCHEMA,
    expiresAt,
    scope: {
      conversationId: turn.conversationId,
      principalId: caller.principalId,
      tenantId: caller.tenantId,
      customerId: caller.customerId,
      publicOwnerId: caller.publicOwnerId,
    },
    at: createdAt,
  });
  if (!opened.ok || opened.outcome !== 'opened') {
    const code = opened.ok ? opened.outcome : opened.code;
    await append({ type: 'error', code: 'card-not-opened', message: `the card could not be opened: ${code}`, retryable: false });
    return 'stopped';
  }
  if ((await append({ type: 'card', card: opened.record.card })) === 'stopped') return 'stopped';
  const request = { caller, conversationId: turn.conversationId, correlationId };
  for (;;) {
    if (signal.aborted) {
      await resolver.cancel({ ...request, at: context.clock() });
      if ((await append({ type: 'card_closed', correlationId, resolution: 'cancelled' })) === 'stopped') return 'stopped';
      return 'cancelled';
    }
    // Armed before the read: an answer committing between the read and the wait still wakes this run.
    const wakeup = context.armCardWait(correlationId, signal);
    const read = await resolver.read({ ...request, at: context.clock() });
    if (read.ok && read.record.status !== 'pending') {
      wakeup.release();
      const resolution = read.record.status;
      if ((await append({ type: 'card_closed', correlationId, resolution })) === 'stopped') return 'stopped';
      return read.record.value === undefined
        ? { type: 'card-closed', resolution }
        : { type: 'card-closed', resolution, value: read.record.value };
    }
    if (read.ok && read.expired) {
      wakeup.release();
      await resolver.expire({ ...request, at: context.clock() });
      continue;
    }
    await wakeup.woken;
  }
}
