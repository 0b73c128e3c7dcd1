/**
 * A remote AG-UI agent (an `HttpAgent` URL, or any `AbstractAgent`) as the host's `ChatAgent` (DESIGN §12.1): each
 * turn runs on its own clone of the agent, with the conversation as the thread and the history and the person's
 * message as the run's messages; the run's events are decoded by this package's `createAgUiDecoder` and yielded as
 * steps; the interrupts it finishes with are asked as cards and answered through the next run's `resume`; the
 * turn's signal stops the run. It owns the turn's loop over runs and the step each v1 event is; the events' meaning
 * is the decoder's, the bridge to `runAgent` `agent-run.ts`', and the cards `interrupt-cards.ts`'.
 */
import type {
  ChatAgentCompletion,
  ChatAgentContext,
  ChatAgentFeedback,
  ChatAgentStep,
  ChatAgentTurn,
  ChatEventV1,
  ChatEventV1Of,
  ChatUsage,
  OpenCardSnapshotV1,
} from '@papercusp/chat-protocol-core';
import { readFields } from '@papercusp/chat-protocol-core/internal';
import { createAgUiDecoder } from '../decoder/create-ag-ui-decoder.js';
import type { AgUiDecoder } from '../decoder/decoder-types.js';
import { readPlainData } from '../read-plain-data.js';
import type { AgUiResumeEntry } from '../resume-entries.js';
import { startAgUiRun, type AgUiRun } from './agent-run.js';
import type { AgUiAgentLike, AgUiChatAgent, AgUiChatAgentOptions } from './agent-types.js';
import { fitEvent } from './fit-event.js';
import { askedInterrupts, hasExpired, resumeEntryOf, type AskedInterrupt } from './interrupt-cards.js';
import { runInputMessages } from './run-input-messages.js';

type Turn = AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback>;

// How one run ended, as the turn reads it.
type RunEnding =
  | { readonly kind: 'aborted' }
  | { readonly kind: 'failed'; readonly step: ChatAgentStep }
  | { readonly kind: 'finished'; readonly done: ChatEventV1Of<'done'>; readonly interrupts: readonly AskedInterrupt[] };

/**
 * A remote AG-UI agent as a `ChatAgent` (DESIGN §11.1, §12.1). `options.agent` is `new HttpAgent({ url })` or any
 * `@ag-ui/client` `AbstractAgent`; the package imports nothing of `@ag-ui/client` (an optional peer).
 *
 * Guarantees, per turn:
 * - It runs on `agent.clone()`: turns on one agent never share a thread, messages or abort controller. The run
 *   input's `threadId` is the conversation id, `runId` the turn id (`<turnId>.<n>` for the n-th run a resume
 *   starts), `messages` the history's text then the person's message; tools, context and state are empty.
 * - Events are decoded by `createAgUiDecoder` and yielded in order: text as `delta`, reasoning as `reasoning`,
 *   `STATE_SNAPSHOT`/`STATE_DELTA` as `state` (the snapshot after the patch), a v1 provenance or navigate the run
 *   carries as itself; events with no step meaning are skipped.
 * - A tool call with the server's `TOOL_CALL_RESULT` is one `remote-tool` step when the result arrives, never
 *   admitted here. AG-UI states no outcome, so the adapter reads a result as `succeeded` unless this package's
 *   encoder carried a status; its text, cut to v1's summary bound, is the summary. A call left without a result
 *   has no step: its outcome is unknown.
 * - `RUN_ERROR` is a `fail` with the error's code (`ag-ui-run-error` without a v1 id) and message, retryable only
 *   when the event carries it (`metadata.papercusp.retryable`, never read from the code); the turn ends.
 * - After `RUN_FINISHED` (or `RUN_ERROR`) the run is let end on its own, so its request is never aborted once it
 *   finished. Then the generator returns the completion (usage summed over the turn's runs, the carried stop
 *   reason), unless the outcome is an interrupt: each interrupt is asked as a card (the card the run carried under
 *   its id, else a prompt-only card from its message) and the answers start the next run with `resume` (submitted →
 *   `resolved` with the value as payload; declined, cancelled or expired → `cancelled`; an interrupt already
 *   expired is cancelled without asking).
 * - A turn is never reported completed that the agent did not complete: a run that finished otherwise is
 *   `fail { code: 'ag-ui-run-not-completed' }`, one that ended without `RUN_FINISHED` or `RUN_ERROR`
 *   `fail { code: 'ag-ui-run-unfinished' }` (naming the events the decoder refused).
 * - An error of the run itself (the server unreachable, an HTTP error status, a stream `@ag-ui/client` rejects) is
 *   thrown, for the host to end the turn `agent-failed` with it.
 * - The turn's signal stops the run (`abortRun`, which aborts an `HttpAgent`'s request, and `detachActiveRun`) and
 *   the generator returns at once; the host's `return()` stops it the same way.
 *
 * Throws `TypeError` when `options.agent` has no `clone` method.
 */
export function createAgUiChatAgent(options: AgUiChatAgentOptions): AgUiChatAgent {
  // Read once, and never throwing what a getter or a Proxy trap throws: a misconfigured host gets a TypeError.
  const agent: unknown = readFields(options, ['agent'])?.agent;
  const clone =
    typeof agent === 'object' && agent !== null ? readFields(agent as { readonly clone?: unknown }, ['clone'])?.clone : undefined;
  if (typeof clone !== 'function') {
    throw new TypeError('createAgUiChatAgent needs an AG-UI agent: an @ag-ui/client AbstractAgent, such as new HttpAgent({ url })');
  }
  // Its clone, with the agent as `this` (AbstractAgent.clone reads the agent's own fields).
  const template: AgUiAgentLike = { clone: () => (clone as AgUiAgentLike['clone']).call(agent) };
  return { run: (turn, context) => runTurn(template, turn, context) };
}

async function* runTurn(agent: AgUiAgentLike, turn: ChatAgentTurn, context: ChatAgentContext): Turn {
  const { signal } = context;
  if (signal.aborted) return;
  const runner = agent.clone();
  runner.threadId = turn.conversationId;
  runner.setMessages(runInputMessages(context.history, turn.turnId, context.userInput.text));
  runner.setState({});
  // One decoder for the turn's runs, so a resumed run's state deltas apply to the snapshot an earlier run sent.
  let seq = 0;
  const decoder = createAgUiDecoder({
    conversationId: turn.conversationId,
    identify: () => {
      seq += 1;
      return { turnId: turn.turnId, eventId: `e${seq}`, seq, occurredAt: new Date().toISOString() };
    },
    toolResultStatus: () => 'succeeded',
  });
  let usage: ChatUsage | undefined;
  let resume: AgUiResumeEntry[] | undefined;
  for (let ordinal = 1; ; ordinal += 1) {
    // A host that goes on after a cancellation (next() instead of return()) starts no further run.
    if (signal.aborted) return;
    const runId = ordinal === 1 ? turn.turnId : `${turn.turnId}.${ordinal}`;
    const run = startAgUiRun(runner, resume === undefined ? { runId } : { runId, resume }, signal);
    let ending: RunEnding;
    try {
      ending = yield* readRun(run, decoder);
      // A run that said how it ended is let end on its own: its request is never aborted after the fact, and the
      // AG-UI client has recorded the run (its interrupts, which the next run must answer) before a card is asked.
      if (ending.kind === 'aborted' || (await endOf(run)) === 'aborted') return;
    } finally {
      run.close();
    }
    if (ending.kind === 'failed') {
      yield ending.step;
      return;
    }
    const { done, interrupts } = ending;
    if (done.usage !== undefined) usage = usage === undefined ? done.usage : sumUsage(usage, done.usage);
    if (interrupts.length === 0) {
      if (done.status !== 'completed') {
        yield failStep('ag-ui-run-not-completed', `the AG-UI run finished ${done.status}, not completed`);
        return;
      }
      return completionOf(done.stopReason, usage);
    }
    resume = [];
    for (const { interruptId, card } of interrupts) {
      const feedback = hasExpired(card, Date.now()) ? undefined : yield { type: 'card', card };
      resume.push(resumeEntryOf(interruptId, feedback));
    }
  }
}

// The steps of one run, up to how it ended.
async function* readRun(run: AgUiRun, decoder: AgUiDecoder): AsyncGenerator<ChatAgentStep, RunEnding, ChatAgentFeedback> {
  // The input of each call the run made, for its result's step.
  const inputs = new Map<string, unknown>();
  const cards = new Map<string, OpenCardSnapshotV1>();
  for (;;) {
    const read = await run.next();
    if (read.kind === 'aborted') return read;
    if (read.kind === 'failed') throw read.error;
    if (read.kind === 'ended') {
      const refused = Object.entries(decoder.refusals()).map(([code, count]) => `${code} ${count}`);
      const detail = refused.length === 0 ? '' : ` (refused events: ${refused.join(', ')})`;
      return { kind: 'failed', step: failStep('ag-ui-run-unfinished', `the AG-UI run ended without RUN_FINISHED or RUN_ERROR${detail}`) };
    }
    const plain = readPlainData(read.event);
    // The decoder refuses (and counts) what is not plain data; what it accepts was read the same way.
    const decoded = decoder.decode(plain === undefined ? read.event : fitEvent(plain.value));
    if (!decoded.ok) continue;
    for (const { event } of decoded.envelopes) {
      switch (event.type) {
        case 'done':
          return { kind: 'finished', done: event, interrupts: askedInterrupts(plain?.value, cards) };
        case 'error':
          return { kind: 'failed', step: failStep(event.code, event.message, event.retryable, event.retryAfterMs) };
        case 'tool_call':
          inputs.set(event.callId, event.input);
          break;
        case 'tool_result': {
          const input = inputs.get(event.callId);
          // The seam's outcome is succeeded or failed: a carried cancelled or needs-reconciliation did not succeed.
          const status = event.status === 'succeeded' ? 'succeeded' : 'failed';
          const outcome = { status, summary: event.summary ?? '' } as const;
          yield input === undefined
            ? { type: 'remote-tool', name: event.name, callId: event.callId, outcome }
            : { type: 'remote-tool', name: event.name, input, callId: event.callId, outcome };
          break;
        }
        case 'card':
          cards.set(event.card.correlationId, event.card);
          break;
        default: {
          const step = stepOf(event);
          if (step !== undefined) yield step;
        }
      }
    }
  }
}

// The step a v1 event the run streams is on its own; none for what the turn does not stream (the person's own
// message echoed, a card closing through a resume entry).
function stepOf(event: ChatEventV1): ChatAgentStep | undefined {
  switch (event.type) {
    case 'delta':
    case 'reasoning':
      return { type: event.type, text: event.text };
    case 'state':
      return { type: 'state', snapshot: event.snapshot };
    case 'navigate':
      return { type: 'navigate', href: event.href };
    case 'provenance':
      return event.accountRoute === undefined
        ? { type: 'provenance', engine: event.engine, model: event.model }
        : { type: 'provenance', engine: event.engine, model: event.model, accountRoute: event.accountRoute };
    default:
      return undefined;
  }
}

// Waits for the run's own end (what it delivers after its last event is not read); the turn's abort ends the wait.
async function endOf(run: AgUiRun): Promise<'ended' | 'aborted'> {
  for (;;) {
    const read = await run.next();
    if (read.kind === 'aborted') return 'aborted';
    if (read.kind !== 'event') return 'ended';
  }
}

function failStep(code: string, message: string, retryable = false, retryAfterMs?: number): ChatAgentStep {
  return retryAfterMs === undefined ? { type: 'fail', code, message, retryable } : { type: 'fail', code, message, retryable, retryAfterMs };
}

function completionOf(stopReason: string | undefined, usage: ChatUsage | undefined): ChatAgentCompletion {
  return { ...(stopReason === undefined ? {} : { stopReason }), ...(usage === undefined ? {} : { usage }) };
}

// Core's usage fields, each summed where either run reported it.
function sumUsage(first: ChatUsage, second: ChatUsage): ChatUsage {
  const sum: { -readonly [Key in keyof ChatUsage]: ChatUsage[Key] } = {};
  for (const key of ['inputTokens', 'outputTokens', 'totalTokens', 'costUsd'] as const) {
    const [left, right] = [first[key], second[key]];
    if (left !== undefined || right !== undefined) sum[key] = (left ?? 0) + (right ?? 0);
  }
  return sum;
}
