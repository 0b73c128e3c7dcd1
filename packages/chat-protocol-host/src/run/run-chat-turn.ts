/**
 * Runs one turn of a `ChatAgent` on the host's components (DESIGN §11.1):
 * the agent is given its context (caller, input, history, signal), every step
 * becomes a v1 frame appended to the event log (the runner is the turn's only
 * writer, so seqs are contiguous), tool steps go through `run-tool-step.ts`
 * and cards through `ask-card.ts`. It never throws: a failure it cannot report
 * in the log ends the run, and what happened reaches the turn's observer
 * (`turn-observer.ts`: the host's events and spans).
 */
import { isChatId, type ChatEventEnvelope, type ChatEventV1, type OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionResolver } from '@papercusp/chat-protocol-interactions';
import type { ChatEventLog, TurnRecovery } from '@papercusp/chat-protocol-recovery';
import type {
  ChatAgent,
  ChatAgentCompletion,
  ChatAgentContext,
  ChatAgentFeedback,
  ChatAgentStep,
  ChatAgentTool,
  ChatAgentTurn,
} from '../chat-agent.js';
import type { ChatHostCaller } from '../chat-host-caller.js';
import type { ChatHostEventSink, ChatHostTurnEndStatus } from '../chat-host-event.js';
import { askCard, cardCorrelationId, type CardStepRun } from './ask-card.js';
import type { CardWakeup } from './card-wakeups.js';
import { checkAgentFrame } from './check-agent-frame.js';
import { failureText } from './failure-text.js';
import { readToolOutcome, runToolStep, type ToolStepOutcome } from './run-tool-step.js';
import { isInterrupted } from './run-interruption.js';
import { turnFrame } from './turn-frame.js';
import { createTurnObserver, type ToolObservation, type TurnObserver } from './turn-observer.js';
import type { HostTracing } from './turn-spans.js';

/** What one run needs: the turn, who started it, and the host's components. */
export interface RunChatTurnContext {
  readonly turn: ChatAgentTurn;
  readonly caller: ChatHostCaller;
  readonly agent: ChatAgent;
  readonly recovery: TurnRecovery<unknown, ChatHostCaller>;
  readonly resolver: InteractionResolver<ChatHostCaller, OpenCardSnapshotV1>;
  readonly eventLog: ChatEventLog;
  readonly clock: () => string;
  /** The run that owns the turn (its record names it): with it, the run finishes the turn's record after its terminal frame. */
  readonly runId?: string;
  /**
   * Aborted when the turn's cancellation committed (seen in this process or through the turn record), or with an
   * interruption reason (`run-interruption.ts`) when the run lost its turn: then it writes nothing more.
   */
  readonly signal: AbortSignal;
  /** The conversation's earlier turns for the agent's context, read once the turn's `user_input` is written. */
  readonly readHistory: () => Promise<
    | { readonly ok: true; readonly value: Pick<ChatAgentContext, 'history' | 'historyOmitted'> }
    | { readonly ok: false; readonly code: string }
  >;
  /** Registers the abort controller of an admitted effect, for recovery's abort hook; the returned function removes it. */
  readonly registerEffect: (effectId: string, controller: AbortController) => () => void;
  /** Arms a wait that settles when a card answer may have been stored (or after a poll interval); armed before each read of the card. */
  readonly armCardWait: (correlationId: string, signal: AbortSignal) => CardWakeup;
  /** How long a card stays open, in milliseconds. */
  readonly cardLifetimeMs: number;
  readonly emit: ChatHostEventSink;
  /** The host's OpenTelemetry tracing, `undefined` without it. */
  readonly tracing: HostTracing | undefined;
}

/** A run under way: its context and the observer that tells its events and spans. */
type RunningTurn = RunChatTurnContext & CardStepRun;

type Appended = 'appended' | 'stopped';
type Generator = AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback>;

// What a generator's next() came to: a step or its return, a throw, or the turn's cancellation first.
type Advanced =
  | { readonly type: 'next'; readonly result: IteratorResult<ChatAgentStep, ChatAgentCompletion | void> }
  | { readonly type: 'threw'; readonly error: unknown }
  | { readonly type: 'cancelled' };

// The agent's tools by name, the first of a repeated name winning; read once, so a getter answers once.
function toolsByName(agent: ChatAgent): ReadonlyMap<string, ChatAgentTool> {
  const tools = new Map<string, ChatAgentTool>();
  for (const tool of agent.tools ?? []) if (!tools.has(tool.name)) tools.set(tool.name, tool);
  return tools;
}

// The call's id on the wire: the agent's when it is a v1 id not yet used in the turn (core's reducer refuses a
// repeated one), else one the host mints.
function wireCallId(given: string | undefined, ordinal: number, used: Set<string>): string {
  let callId = given !== undefined && isChatId(given) && !used.has(given) ? given : `call_${ordinal}`;
  for (let suffix = 2; used.has(callId); suffix += 1) callId = `call_${ordinal}_${suffix}`;
  used.add(callId);
  return callId;
}

// The completed turn's `done`, with the agent's stop reason and usage when it returned them.
function doneEvent(completion: ChatAgentCompletion | void): ChatEventV1 {
  const done = { type: 'done', status: 'completed' } as const;
  if (typeof completion !== 'object' || completion === null) return done;
  const { stopReason, usage } = completion;
  return { ...done, ...(stopReason === undefined ? {} : { stopReason }), ...(usage === undefined ? {} : { usage }) };
}

/**
 * Runs the turn to its terminal frame. Guarantees: the first frame is the person's `user_input`; the last is
 * `done` or `error`; the agent runs with {@link ChatAgentContext} (its signal is the run's); a cancellation ends
 * the run with `done { status: 'cancelled' }` without waiting for the agent or an in-flight tool (whose late
 * result recovery still stores), then calls the generator's `return()` so its `finally` blocks run (so does every
 * other early end); an agent that throws ends the turn with `error { code: 'agent-failed', retryable: false }`
 * (its message, bounded) and the error reaches the observer; a step (or a completion) core's parser refuses as a frame
 * ends it with `invalid-agent-step`: no invalid frame reaches the log. `state` steps are versioned by the run: 1,
 * 2, … within the turn. Each `tool` step gets a `tool_call` and a `tool_result`, and its result is fed back
 * (`succeeded` or `failed`); an unknown outcome is never fed back: it ends the turn
 * `done { status: 'needs-reconciliation' }`, and the generator's `return()` runs.
 */
export async function runChatTurn(context: RunChatTurnContext): Promise<void> {
  const observer = createTurnObserver(context.turn, context.emit, context.tracing);
  const ended = await runTurn({ ...context, observer });
  await finishTurn(context, observer, ended);
  observer.ended(ended);
}

// Once the run's terminal frame is durable, its turn's record ends too (§6 rule 12), so nobody interrupts a turn that
// ended when its lease runs out. A refusal (a cancellation or an interruption committed first: their tail ends the
// log) or an outage leaves the record to them and to the sweeper, whose tail then finds the log ended and adds nothing.
async function finishTurn(context: RunChatTurnContext, observer: TurnObserver, ended: ChatHostTurnEndStatus): Promise<void> {
  const { runId, recovery, caller, turn } = context;
  if (runId === undefined || (ended !== 'completed' && ended !== 'failed' && ended !== 'needs-reconciliation')) return;
  const { conversationId, turnId } = turn;
  try {
    await observer.store('finish-turn', () => recovery.finishTurn({ caller, conversationId, turnId, runId, status: ended }));
  } catch {
    // The observer told the store's failure.
  }
}

async function runTurn(context: RunningTurn): Promise<ChatHostTurnEndStatus> {
  const { turn, signal, observer } = context;
  let seq = 0;
  let ended: ChatHostTurnEndStatus = 'stopped';
  const write = async (envelope: ChatEventEnvelope): Promise<Appended> => {
    // A run that lost its turn writes nothing more: the interrupter owns the tail.
    if (isInterrupted(signal)) {
      ended = 'interrupted';
      return 'stopped';
    }
    const { event } = envelope;
    let appended = false;
    try {
      const append = () => context.eventLog.append(envelope);
      appended = (await observer.store('append-frame', append, { 'chat.event.seq': envelope.seq, 'chat.event.type': event.type })).ok;
    } catch {
      // The observer told the store's failure; the run stops.
    }
    if (!appended) return 'stopped';
    if (event.type === 'done') ended = event.status;
    if (event.type === 'error') {
      ended = 'failed';
      observer.errorWritten(event.code);
    }
    return 'appended';
  };
  const append = async (event: ChatEventV1): Promise<Appended> => {
    seq += 1;
    return write(turnFrame(turn, seq, event, context.clock));
  };
  const cancelled = async (): Promise<ChatHostTurnEndStatus> => {
    await append({ type: 'done', status: 'cancelled' });
    return ended;
  };
  const failed = async (code: string, message: string, retryable = false): Promise<ChatHostTurnEndStatus> => {
    await append({ type: 'error', code, message, retryable });
    return ended;
  };
  const agentFailed = async (error: unknown): Promise<ChatHostTurnEndStatus> => {
    observer.agentError(error);
    return failed('agent-failed', failureText(error, 'the agent failed: ', 'the agent failed'));
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

  if ((await append({ type: 'user_input', text: turn.text, source: 'text_typed' })) === 'stopped') return ended;
  const history = await observer.store('read-history', context.readHistory);
  if (!history.ok) {
    return failed(
      'history-unavailable',
      `the conversation's history could not be read: ${history.code}`,
      history.code === 'store-unavailable',
    );
  }
  const agentContext: ChatAgentContext = { caller: context.caller, userInput: { text: turn.text }, signal, ...history.value };
  let generator: Generator;
  let tools: ReadonlyMap<string, ChatAgentTool>;
  try {
    tools = toolsByName(context.agent);
    generator = observer.activate(() => context.agent.run(turn, agentContext));
  } catch (error) {
    return agentFailed(error);
  }
  let finished = false;
  try {
    const outcome = await driveAgent(context, generator, tools, { append, appendStep, cancelled, agentFailed, ended: () => ended });
    finished = outcome.finished;
    return outcome.status;
  } finally {
    // The host stopped before the generator did: its `finally` blocks run now; the turn's end does not wait for them.
    if (!finished) {
      void Promise.resolve()
        .then(() => observer.activate(() => generator.return(undefined)))
        .catch((error: unknown) => observer.agentError(error));
    }
  }
}

/** The run's writers, as `driveAgent` uses them. */
interface RunWriters {
  readonly append: (event: ChatEventV1) => Promise<Appended>;
  readonly appendStep: (event: ChatEventV1) => Promise<Appended>;
  readonly cancelled: () => Promise<ChatHostTurnEndStatus>;
  readonly agentFailed: (error: unknown) => Promise<ChatHostTurnEndStatus>;
  readonly ended: () => ChatHostTurnEndStatus;
}

// The generator's next step, or the turn's cancellation if it comes first (the agent is not waited for).
async function advance(generator: Generator, feedback: ChatAgentFeedback, { signal, observer }: RunningTurn): Promise<Advanced> {
  if (signal.aborted) return { type: 'cancelled' };
  let onAbort: () => void = () => undefined;
  const aborted = new Promise<Advanced>((resolve) => {
    onAbort = () => resolve({ type: 'cancelled' });
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const next = observer
    .activate(() => generator.next(feedback))
    .then(
      (result): Advanced => ({ type: 'next', result }),
      (error: unknown): Advanced => ({ type: 'threw', error }),
    );
  try {
    return await Promise.race([next, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

// Drives the generator to the turn's end: `finished` when the generator itself ended (returned or threw).
async function driveAgent(
  context: RunningTurn,
  generator: Generator,
  tools: ReadonlyMap<string, ChatAgentTool>,
  writers: RunWriters,
): Promise<{ readonly status: ChatHostTurnEndStatus; readonly finished: boolean }> {
  const { turn, signal } = context;
  const { append, appendStep, cancelled } = writers;
  const stop = (finished = false) => ({ status: writers.ended(), finished });
  let feedback: ChatAgentFeedback = undefined;
  let cards = 0;
  let stateVersion = 0;
  let toolCalls = 0;
  const callIds = new Set<string>();
  for (;;) {
    const advanced = await advance(generator, feedback, context);
    if (advanced.type === 'cancelled') return { status: await cancelled(), finished: false };
    if (advanced.type === 'threw') return { status: await writers.agentFailed(advanced.error), finished: true };
    if (signal.aborted) return { status: await cancelled(), finished: advanced.result.done === true };
    if (advanced.result.done === true) {
      await appendStep(doneEvent(advanced.result.value));
      return stop(true);
    }
    const step = advanced.result.value;
    feedback = undefined;
    switch (step.type) {
      case 'delta':
      case 'reasoning':
        if ((await appendStep({ type: step.type, text: step.text })) === 'stopped') return stop();
        break;
      case 'provenance': {
        const provenance = { type: 'provenance', engine: step.engine, model: step.model } as const;
        const event = step.accountRoute === undefined ? provenance : { ...provenance, accountRoute: step.accountRoute };
        if ((await appendStep(event)) === 'stopped') return stop();
        break;
      }
      case 'state':
        stateVersion += 1;
        if ((await appendStep({ type: 'state', version: stateVersion, snapshot: step.snapshot })) === 'stopped') return stop();
        break;
      case 'navigate':
        if ((await appendStep({ type: 'navigate', href: step.href })) === 'stopped') return stop();
        break;
      case 'fail':
        await appendStep({
          type: 'error',
          code: step.code,
          message: step.message,
          retryable: step.retryable,
          ...(step.retryAfterMs === undefined ? {} : { retryAfterMs: step.retryAfterMs }),
        });
        return stop();
      case 'tool':
      case 'remote-tool': {
        toolCalls += 1;
        const callId = wireCallId(step.callId, toolCalls, callIds);
        const call = { type: 'tool_call', callId, name: step.name } as const;
        const logCall = () => appendStep(step.input === undefined ? call : { ...call, input: step.input });
        // Only a `tool` step is the host's to run, and so to observe; a remote one is logged as it came.
        let observation: ToolObservation | undefined;
        try {
          let outcome: ToolStepOutcome | 'stopped';
          if (step.type === 'remote-tool') outcome = (await logCall()) === 'stopped' ? 'stopped' : readToolOutcome(step.outcome);
          else {
            const { caller, recovery, observer, registerEffect } = context;
            const tool = tools.get(step.name);
            const externalEffect = tool === undefined ? undefined : tool.externalEffect !== false;
            const observed = observer.tool({ callId, name: step.name, externalEffect });
            observation = observed;
            const toolCall = { callId, name: step.name, input: step.input, ordinal: toolCalls };
            const run = { turn, caller, recovery, signal, observer, observation: observed, registerEffect };
            outcome = await runToolStep(run, tool, toolCall, logCall);
          }
          if (outcome === 'stopped') return stop();
          if (outcome === 'cancelled') {
            await append({ type: 'tool_result', callId, name: step.name, status: 'cancelled' });
            observation?.ended('cancelled');
            return { status: await cancelled(), finished: false };
          }
          const { status, summary, blocks } = outcome;
          const result = {
            type: 'tool_result',
            callId,
            name: step.name,
            status,
            ...(summary === undefined ? {} : { summary }),
            ...(blocks === undefined ? {} : { blocks }),
          } as const;
          if ((await appendStep(result as ChatEventV1)) === 'stopped') return stop();
          observation?.ended(status);
          if (status === 'needs-reconciliation') {
            await append({ type: 'done', status: 'needs-reconciliation' });
            return stop();
          }
          feedback = { type: 'tool-result', callId, status, summary: summary ?? '', ...(blocks === undefined ? {} : { blocks }) };
        } finally {
          observation?.close();
        }
        break;
      }
      case 'card': {
        cards += 1;
        const closed = await askCard(context, step.card, cardCorrelationId(turn.turnId, cards), append);
        if (closed === 'stopped') return stop();
        if (closed === 'cancelled') return { status: await cancelled(), finished: false };
        feedback = closed;
        break;
      }
    }
  }
}
