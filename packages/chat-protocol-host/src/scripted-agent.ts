/**
 * A deterministic `ChatAgent` for the demo and the tests: the same text gives
 * the same steps, with no model and no clock. It streams prose and a `<report>`
 * block in small deltas, runs one tool with an external effect (a refund), asks
 * one confirm card and answers what the person chose. A text starting with
 * `fail` ends the turn with a retryable error instead.
 */
import { serializeReportTag } from '@papercusp/chat-protocol-blocks';
import type { ChatAgent, ChatAgentFeedback, ChatAgentStep, ChatAgentToolOutcome, ChatAgentTurn } from './chat-agent.js';

/** Options of {@link createScriptedChatAgent}. */
export interface ScriptedChatAgentOptions {
  /** How long the refund's external effect takes, in milliseconds (default 0). Tests cancel while it is in flight. */
  readonly toolDelayMs?: number;
  /** Called once each time the refund's external effect really runs: the witness that it ran once. */
  readonly onEffect?: (turn: ChatAgentTurn, callId: string) => void;
  /** The length of each streamed delta (default 8 characters). */
  readonly deltaLength?: number;
}

/** The call id of the scripted refund, the one effect the scripted agent declares. */
export const SCRIPTED_REFUND_CALL_ID = 'call_refund';

const REPORT = serializeReportTag({
  title: 'Refund',
  plans: [{ title: 'Order 1042', status: 'wip', items: [{ text: 'Refund issued', status: 'done' }] }],
});

// Cuts ASCII script text into deltas; the script holds no surrogate pairs to split.
function* deltas(text: string, length: number): Generator<ChatAgentStep> {
  for (let index = 0; index < text.length; index += length) yield { type: 'delta', text: text.slice(index, index + length) };
}

/**
 * Creates the scripted agent. Guarantees: deterministic steps for a given
 * text; the refund effect is the only declared effect; its `execute` ignores
 * the abort signal once started (an external effect cannot be called back),
 * so a cancellation while it is in flight leaves a late result for recovery
 * to retain.
 */
export function createScriptedChatAgent(options: ScriptedChatAgentOptions = {}): ChatAgent {
  const toolDelayMs = options.toolDelayMs ?? 0;
  const deltaLength = options.deltaLength ?? 8;
  const onEffect = options.onEffect;
  return {
    effects: (turn) => (turn.text.startsWith('fail') ? [] : [SCRIPTED_REFUND_CALL_ID]),
    async *run(turn): AsyncGenerator<ChatAgentStep, void, ChatAgentFeedback> {
      if (turn.text.startsWith('fail')) {
        yield* deltas('Let me check. ', deltaLength);
        yield { type: 'fail', code: 'provider-unavailable', message: 'the scripted provider is down', retryable: true, retryAfterMs: 1000 };
        return;
      }
      yield { type: 'reasoning', text: 'The order qualifies for a refund.' };
      yield* deltas('Looking into order 1042. ', deltaLength);
      const result = yield {
        type: 'tool',
        callId: SCRIPTED_REFUND_CALL_ID,
        name: 'issue_refund',
        input: { orderId: '1042' },
        execute: async (): Promise<ChatAgentToolOutcome> => {
          onEffect?.(turn, SCRIPTED_REFUND_CALL_ID);
          if (toolDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, toolDelayMs));
          return { summary: 'refund 1042 issued' };
        },
      };
      const refunded = result?.type === 'tool-result' && result.status === 'succeeded';
      yield* deltas(refunded ? 'The refund is issued. ' : 'The refund did not go through. ', deltaLength);
      yield* deltas(REPORT, deltaLength);
      const answer = yield { type: 'card', card: { prompt: 'Close the ticket?', presentation: { kind: 'confirm' }, allowDecline: true } };
      const confirmed =
        answer?.type === 'card-closed' &&
        answer.resolution === 'submitted' &&
        (answer.value as { confirmed?: unknown } | undefined)?.confirmed === true;
      yield* deltas(confirmed ? 'Ticket closed.' : 'Ticket left open.', deltaLength);
    },
  };
}
