/**
 * The one observation point of a turn's run (DESIGN §11.1): the run tells it what happens (the turn, each tool
 * step, each card wait, each store call, the agent's errors) and it tells both the host's `onEvent` (typed
 * events) and OpenTelemetry (the `chat.turn` span tree, through `turn-spans.ts`) from the same call. It owns
 * the span names and attributes; neither a span nor an event ever carries text: ids, names, statuses, codes.
 */
import type { ChatAgentTurn } from '../chat-agent.js';
import type { ChatHostEventSink, ChatHostStoreOperation, ChatHostTurnEndStatus } from '../chat-host-event.js';
import type { ChatHostSpanAttributes } from '../chat-host-open-telemetry.js';
import { startTurnSpan, type HostSpan, type HostTracing } from './turn-spans.js';

/** The store operations a run makes: each is a `chat.store.<operation>` span. */
type RunStoreOperation = Exclude<ChatHostStoreOperation, 'start-turn'>;

/** What a store call answers: its value, or a refusal with a code. */
type StoreAnswer = { readonly ok: true } | { readonly ok: false; readonly code: string };

/** How a `tool` step's `tool_result` settled. */
type ToolStepStatus = 'succeeded' | 'failed' | 'cancelled' | 'needs-reconciliation';

/** How a card closed. */
type CardResolution = 'submitted' | 'declined' | 'cancelled' | 'expired';

// Refusals that mean the store did not answer: the call's span is an ERROR and the hook hears `store-unavailable`.
const STORE_REFUSALS: ReadonlySet<string> = new Set(['store-unavailable', 'checkpoint-failed']);

// Turn ends that are failures of the turn: its span's status is ERROR.
const FAILED_ENDS: ReadonlySet<ChatHostTurnEndStatus> = new Set(['failed', 'stopped']);

// Tool outcomes that are failures of the call.
const FAILED_TOOLS: ReadonlySet<ToolStepStatus> = new Set(['failed', 'needs-reconciliation']);

/** One `tool` step, from before its `tool_call` to its `tool_result`. */
export interface ToolObservation {
  /** Its effect was declared to recovery as `effectId`. */
  declared(effectId: string): void;
  /** The tool's `execute` started (`effectId` `null` for a tool without an external effect). */
  launched(effectId: string | null): void;
  /** Runs the tool's `execute` with the step's span active. */
  activate<Result>(run: () => Result): Result;
  /** Its `tool_result` was written with `status`: the step ends. */
  ended(status: ToolStepStatus): void;
  /** Ends the step if `ended` did not (the run stopped first). */
  close(): void;
}

/** One `card` step, from opening the card to its `card_closed`. */
export interface CardObservation {
  /** Its `card` frame was written: the card of `kind` (its presentation's, or core's prompt-only kind) is shown. */
  asked(kind: string | undefined): void;
  /** Its `card_closed` was written with `resolution`: the wait ends. */
  answered(resolution: CardResolution): void;
  /** Ends the wait if `answered` did not (the card could not be opened, or the run stopped first). */
  close(): void;
}

/** What a run tells: see the module comment. Never throws but what `activate`'s and `store`'s own functions throw. */
export interface TurnObserver {
  /**
   * Makes one store call as a span under the step open now (a run's steps are sequential), else the turn.
   * A throw or a `store-unavailable`/`checkpoint-failed` refusal is an ERROR and a `store-unavailable` event;
   * the answer (or the throw) is the caller's unchanged.
   */
  store<Answer extends StoreAnswer>(
    operation: RunStoreOperation,
    call: () => Promise<Answer>,
    attributes?: ChatHostSpanAttributes,
  ): Promise<Answer>;
  /** Runs the agent's code with the turn's span active. */
  activate<Result>(run: () => Result): Result;
  /** A `tool` step begins: `externalEffect` as its declared tool says (`undefined` for an unknown tool). */
  tool(call: { readonly callId: string; readonly name: string; readonly externalEffect: boolean | undefined }): ToolObservation;
  /** A `card` step begins as `correlationId`. */
  card(correlationId: string): CardObservation;
  /** The agent threw (also after the turn ended, from its `return()`). */
  agentError(error: unknown): void;
  /** The turn's `error` frame was written with `code`. */
  errorWritten(code: string): void;
  /** The run ended with `status`: the turn's span ends. */
  ended(status: ChatHostTurnEndStatus): void;
}

/** Observes the run of `turn` from now (`turn-started`), telling `emit` and, with `tracing`, the turn's spans. */
export function createTurnObserver(turn: ChatAgentTurn, emit: ChatHostEventSink, tracing: HostTracing | undefined): TurnObserver {
  const ids = { conversationId: turn.conversationId, turnId: turn.turnId };
  const idAttributes = { 'chat.conversation.id': turn.conversationId, 'chat.turn.id': turn.turnId };
  const startedAt = performance.now();
  emit({ type: 'turn-started', ...ids });
  const turnSpan = startTurnSpan(tracing, 'chat.turn', idAttributes);
  let step: HostSpan | undefined;
  let errorCode = 'failed';

  // A step's span, the one store calls go under until `finish` ends it.
  const openStep = (name: string, attributes: ChatHostSpanAttributes): { readonly span: HostSpan; readonly finish: () => void } => {
    const span = turnSpan.child(name, { ...idAttributes, ...attributes });
    step = span;
    return {
      span,
      finish: () => {
        if (step === span) step = undefined;
        span.end();
      },
    };
  };

  return {
    async store(operation, call, attributes = {}) {
      // Without tracing every span is a no-op: none is started, and no attributes are built for one (one per frame).
      const span =
        tracing === undefined
          ? turnSpan
          : (step ?? turnSpan).child(`chat.store.${operation}`, { ...idAttributes, 'chat.store.operation': operation, ...attributes });
      const unavailable = (code: string, error?: unknown): void => {
        span.fail(code, error);
        emit({ type: 'store-unavailable', ...ids, operation });
      };
      try {
        const answer = await span.activate(call);
        if (tracing !== undefined) span.set({ 'chat.store.outcome': answer.ok ? 'ok' : answer.code });
        if (!answer.ok && STORE_REFUSALS.has(answer.code)) unavailable(answer.code);
        return answer;
      } catch (error) {
        if (tracing !== undefined) span.set({ 'chat.store.outcome': 'threw' });
        unavailable('store-threw', error);
        throw error;
      } finally {
        span.end();
      }
    },
    activate: (run) => turnSpan.activate(run),
    tool({ callId, name, externalEffect }) {
      const { span, finish } = openStep('chat.tool', {
        'chat.tool.call_id': callId,
        'chat.tool.name': name,
        ...(externalEffect === undefined ? {} : { 'chat.tool.external_effect': externalEffect }),
      });
      let launched = false;
      const close = (): void => {
        span.set({ 'chat.tool.launched': launched });
        finish();
      };
      return {
        declared: (effectId) => span.set({ 'chat.effect.id': effectId }),
        launched: (effectId) => {
          launched = true;
          emit({ type: 'tool-launched', ...ids, callId, name, effectId });
        },
        activate: (run) => span.activate(run),
        ended: (status) => {
          emit({ type: 'tool-ended', ...ids, callId, name, status });
          span.set({ 'chat.tool.status': status });
          if (FAILED_TOOLS.has(status)) span.fail(status);
          close();
        },
        close,
      };
    },
    card(correlationId) {
      const { span, finish } = openStep('chat.card', { 'chat.card.correlation_id': correlationId });
      return {
        asked: (kind) => {
          if (kind !== undefined) span.set({ 'chat.card.kind': kind });
          emit({ type: 'card-asked', ...ids, correlationId });
        },
        answered: (resolution) => {
          span.set({ 'chat.card.resolution': resolution });
          emit({ type: 'card-answered', ...ids, correlationId, resolution });
          finish();
        },
        close: finish,
      };
    },
    agentError(error) {
      emit({ type: 'agent-error', ...ids, error });
      turnSpan.fail('agent-failed', error);
    },
    errorWritten(code) {
      errorCode = code;
      turnSpan.set({ 'chat.turn.error_code': code });
    },
    ended(status) {
      emit({ type: 'turn-ended', ...ids, status, durationMs: Math.max(0, performance.now() - startedAt) });
      turnSpan.set({ 'chat.turn.status': status });
      if (FAILED_ENDS.has(status)) turnSpan.fail(status === 'failed' ? errorCode : status);
      turnSpan.end();
    },
  };
}
