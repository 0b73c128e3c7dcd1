/**
 * A deterministic `ChatAgent` for the demo and the tests: the same text gives
 * the same steps, with no model and no clock. The default turn exercises every
 * v1 event type: `provenance` first, reasoning, prose with a `<report>` and an
 * `<ask>` block in small deltas, one call of its declared tool with an external
 * effect (`issue_refund`) whose result carries a grounded block, a host `state` snapshot and a
 * `navigate` after it, one confirm card, and `done` with `usage`. A text
 * starting with `cards` asks one card of each base kind instead; one starting
 * with `fail` ends the turn with a retryable error.
 */
import { serializeAskTag, serializeReportTag } from '@papercusp/chat-protocol-blocks';
import type {
  ChatAgent,
  ChatAgentCompletion,
  ChatAgentFeedback,
  ChatAgentStep,
  ChatAgentTool,
  ChatAgentToolOutcome,
  ChatAgentTurn,
} from '../chat-agent.js';
import { scriptedCardTurn } from './scripted-card-turn.js';

/** Options of {@link createScriptedChatAgent}. */
export interface ScriptedChatAgentOptions {
  /** How long the refund's external effect takes, in milliseconds (default 0). Tests cancel while it is in flight. */
  readonly toolDelayMs?: number;
  /** Called once each time the refund's external effect really runs: the witness that it ran once. */
  readonly onEffect?: (turn: ChatAgentTurn, callId: string) => void;
  /** The length of each streamed delta (default 8 characters). */
  readonly deltaLength?: number;
  /**
   * How long the agent waits after each streamed delta, in milliseconds (default 0): a slow model's stream. The turn's
   * signal ends the wait. Tests stop or kill a host while its turn is between two deltas.
   */
  readonly deltaDelayMs?: number;
}

/** The call id of the scripted refund on the wire (`tool_call.callId`): the one call the scripted agent makes. */
export const SCRIPTED_REFUND_CALL_ID = 'call_refund';

const REPORT = serializeReportTag({
  title: 'Refund',
  plans: [{ title: 'Order 1042', status: 'wip', items: [{ text: 'Refund issued', status: 'done' }] }],
});

const ASK = serializeAskTag({
  question: 'Anything else about order 1042?',
  options: [
    { id: 'receipt', label: 'Email me the receipt' },
    { id: 'nothing', label: 'No, thanks' },
  ],
});

/** What the scripted refund returns: its summary and a grounded data block citing the order. */
const REFUND_OUTCOME: ChatAgentToolOutcome = {
  summary: 'refund 1042 issued',
  blocks: [{ kind: 'data', data: { orderId: '1042', refund: 'issued' }, sources: [{ ref: 'order:1042', label: 'Order 1042' }] }],
};

/** The default turn's `done` usage: fixed counts, as a model's would be. */
const REFUND_COMPLETION: ChatAgentCompletion = {
  stopReason: 'end_turn',
  usage: { inputTokens: 120, outputTokens: 48, totalTokens: 168 },
};

// Resolves after `ms`, or at once when `signal` aborts.
const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });

// Cuts text into deltas of `length` code points, so a surrogate pair (a person's emoji echoed back) is never split, and
// waits `delayMs` after each (none for 0).
async function* deltas(text: string, length: number, delayMs: number, signal: AbortSignal): AsyncGenerator<ChatAgentStep, void> {
  const points = Array.from(text);
  for (let index = 0; index < points.length; index += length) {
    yield { type: 'delta', text: points.slice(index, index + length).join('') };
    if (delayMs > 0) await pause(delayMs, signal);
  }
}

/**
 * Creates the scripted agent. Guarantees: deterministic steps for a given
 * text; one declared tool, `issue_refund`, with an external effect (so the host
 * admits it through recovery and it runs at most once), called once by the
 * default turn; its `execute` ignores the abort signal once started (an
 * external effect cannot be called back), so a cancellation while it is in
 * flight leaves a late result for recovery to retain.
 */
export function createScriptedChatAgent(options: ScriptedChatAgentOptions = {}): ChatAgent {
  const toolDelayMs = options.toolDelayMs ?? 0;
  const deltaLength = options.deltaLength ?? 8;
  const deltaDelayMs = options.deltaDelayMs ?? 0;
  const onEffect = options.onEffect;
  const refund: ChatAgentTool = {
    name: 'issue_refund',
    execute: async (_input, execution): Promise<ChatAgentToolOutcome> => {
      onEffect?.(execution.turn, execution.callId);
      if (toolDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, toolDelayMs));
      return REFUND_OUTCOME;
    },
  };
  return {
    tools: [refund],
    async *run(turn, context): AsyncGenerator<ChatAgentStep, ChatAgentCompletion | void, ChatAgentFeedback> {
      const stream = (text: string) => deltas(text, deltaLength, deltaDelayMs, context.signal);
      if (turn.text.startsWith('cards')) return yield* scriptedCardTurn(stream);
      if (turn.text.startsWith('fail')) {
        yield* stream('Let me check. ');
        yield { type: 'fail', code: 'provider-unavailable', message: 'the scripted provider is down', retryable: true, retryAfterMs: 1000 };
        return;
      }
      yield { type: 'provenance', engine: 'scripted', model: 'scripted-refund-1' };
      yield { type: 'reasoning', text: 'The order qualifies for a refund.' };
      yield* stream('Looking into order 1042. ');
      const result = yield { type: 'tool', callId: SCRIPTED_REFUND_CALL_ID, name: refund.name, input: { orderId: '1042' } };
      const refunded = result?.type === 'tool-result' && result.status === 'succeeded';
      if (refunded) {
        yield { type: 'state', snapshot: { orderId: '1042', refund: 'issued', ticket: 'open' } };
        yield { type: 'navigate', href: '/orders/1042' };
      }
      yield* stream(refunded ? 'The refund is issued. ' : 'The refund did not go through. ');
      yield* stream(REPORT);
      yield* stream(ASK);
      const answer = yield { type: 'card', card: { prompt: 'Close the ticket?', presentation: { kind: 'confirm' }, allowDecline: true } };
      const confirmed =
        answer?.type === 'card-closed' &&
        answer.resolution === 'submitted' &&
        (answer.value as { confirmed?: unknown } | undefined)?.confirmed === true;
      yield* stream(confirmed ? 'Ticket closed.' : 'Ticket left open.');
      return REFUND_COMPLETION;
    },
  };
}
