/**
 * The host's typed events (DESIGN §11.1, `onEvent`): what a host's logs and
 * metrics see of its turns, tools, cards and store calls. It owns the shapes
 * and the one delivery rule (a hook that throws or rejects changes nothing);
 * it never carries the person's or the model's text: ids, names, statuses,
 * durations, and the agent's error itself.
 */

/** The store operations a `store-unavailable` event names (and, but `start-turn`, the run's `chat.store.<operation>` spans). */
export type ChatHostStoreOperation =
  | 'start-turn'
  | 'read-history'
  | 'append-frame'
  | 'finish-turn'
  | 'declare-effect'
  | 'claim-effect'
  | 'dispatch-effect'
  | 'open-card'
  | 'read-card'
  | 'cancel-card'
  | 'expire-card';

/**
 * How a turn's run ended: its terminal frame's `done` status, or `failed` for an `error` frame, `interrupted` when
 * the run lost its turn (its lease, or a draining host gave it up: the interrupter writes the tail), or `stopped`
 * when no terminal frame could be written.
 */
export type ChatHostTurnEndStatus = 'completed' | 'cancelled' | 'needs-reconciliation' | 'failed' | 'interrupted' | 'stopped';

/** What every event names: the turn it is about. */
interface TurnEvent {
  readonly conversationId: string;
  readonly turnId: string;
}

/**
 * One host event, discriminated on `type`:
 * - `turn-started`: this process began the turn's run.
 * - `turn-ended`: the run ended (`status`), `durationMs` after it began.
 * - `tool-launched`: a tool's `execute` started (`effectId` `null` for a tool without an external effect).
 * - `tool-ended`: a `tool` step's `tool_result` was settled with `status` (also a call never launched: not authorized, an unknown tool, a stored result reused).
 * - `card-asked`, `card-answered`: a card was shown, and closed with `resolution`.
 * - `agent-error`: the agent threw (from `run`, a step, or its `return()` after the turn ended); `error` is what it threw.
 * - `store-unavailable`: a store call failed or could not be confirmed (`operation`).
 */
export type ChatHostEvent =
  | (TurnEvent & { readonly type: 'turn-started' })
  | (TurnEvent & { readonly type: 'turn-ended'; readonly status: ChatHostTurnEndStatus; readonly durationMs: number })
  | (TurnEvent & { readonly type: 'tool-launched'; readonly callId: string; readonly name: string; readonly effectId: string | null })
  | (TurnEvent & {
      readonly type: 'tool-ended';
      readonly callId: string;
      readonly name: string;
      readonly status: 'succeeded' | 'failed' | 'cancelled' | 'needs-reconciliation';
    })
  | (TurnEvent & { readonly type: 'card-asked'; readonly correlationId: string })
  | (TurnEvent & {
      readonly type: 'card-answered';
      readonly correlationId: string;
      readonly resolution: 'submitted' | 'declined' | 'cancelled' | 'expired';
    })
  | (TurnEvent & { readonly type: 'agent-error'; readonly error: unknown })
  | (TurnEvent & { readonly type: 'store-unavailable'; readonly operation: ChatHostStoreOperation });

/** Delivers events to the host's hook: synchronously, never throwing; a hook that throws or rejects is ignored. */
export type ChatHostEventSink = (event: ChatHostEvent) => void;

/** The sink over `onEvent` (a no-op without one). */
export function createEventSink(onEvent: ((event: ChatHostEvent) => void | Promise<void>) | undefined): ChatHostEventSink {
  if (onEvent === undefined) return () => undefined;
  return (event) => {
    try {
      const answered: unknown = onEvent(event);
      // A rejection (of any thenable) must not become an unhandled one that ends the process.
      if (answered !== undefined) Promise.resolve(answered).catch(() => undefined);
    } catch {
      // The hook is the host's observer: a throw never breaks a turn.
    }
  };
}
