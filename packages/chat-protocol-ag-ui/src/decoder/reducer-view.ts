/**
 * What core's reducer will hold of the stream a decoder has emitted so far, kept beside the decoder so it never
 * emits an envelope the reducer would refuse (DESIGN §12): per turn (one AG-UI run), whether it ended, whether it
 * has an envelope yet, the tool calls it made and the cards it asked; per conversation, which turn asked each card
 * last. It restates the reducer's placement rules (`applyChatEvent`) for the events the decoder builds; it owns no
 * identity (seq and ids are the host's) and no state version (the decoder's versions only increase).
 */
import { type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';

/** Why an event cannot be placed next in its turn: the reducer's own codes, and a tool result of another run's call. */
export type PlacementRefusalCode =
  | 'misplaced-user-input'
  | 'duplicate-tool-call'
  | 'unknown-tool-call'
  | 'earlier-run-tool-call'
  | 'duplicate-tool-result'
  | 'unknown-card'
  | 'duplicate-card'
  | 'card-closed'
  | 'card-not-awaiting';

type Fields = Readonly<Record<string, unknown>>;
type CardStatus = 'open' | 'closed' | 'awaiting';

interface TurnView {
  // The turn's place among the conversation's turns: the reducer adds a turn at its first envelope.
  position: number | undefined;
  ended: boolean;
  readonly calls: Map<string, { readonly name: string; answered: boolean }>;
  readonly cards: Map<string, CardStatus>;
}

/** The reducer's view of a decoded stream (see the module comment). */
export interface ReducerView {
  /** True once the run's turn emitted its `done` or `error`: anything more in it is `turn-terminal`. */
  ended(runId: string): boolean;
  /** The name of the call `callId` the run's turn made, or `undefined` when it made none. */
  callName(runId: string, callId: string): string | undefined;
  /**
   * The name of the call `callId` when the run's turn made it and it has no result yet, so a result of it applies;
   * else the refusal: `unknown-tool-call`, `earlier-run-tool-call` (another run made it), `duplicate-tool-result`.
   */
  resultFor(runId: string, callId: string): { readonly ok: true; readonly name: string } | ChatRefusal<PlacementRefusalCode>;
  /** True when the card `correlationId` is open in the run's turn, so its `done` may await it. */
  awaitable(runId: string, correlationId: string): boolean;
  /** Why the reducer would refuse `event` next in the run's turn, or `undefined` when it would apply it. */
  refusal(runId: string, event: Fields): ChatRefusal<PlacementRefusalCode> | undefined;
  /** Records `event` as emitted in the run's turn (it passed {@link ReducerView.refusal} and took its identity). */
  record(runId: string, event: Fields): void;
}

/** A view of an empty conversation. */
export function createReducerView(): ReducerView {
  const turns = new Map<string, TurnView>();
  // The newest turn that asked each card: the one a later card_closed closes (as the reducer's card index says).
  const askers = new Map<string, TurnView>();
  // Which turn made each tool call, to tell a result for another run's call from one for a call never made.
  const callers = new Map<string, TurnView>();
  let positions = 0;

  function turnOf(runId: string): TurnView {
    let turn = turns.get(runId);
    if (turn === undefined) {
      turn = { position: undefined, ended: false, calls: new Map(), cards: new Map() };
      turns.set(runId, turn);
    }
    return turn;
  }

  function refusal(runId: string, event: Fields): ChatRefusal<PlacementRefusalCode> | undefined {
    const turn = turnOf(runId);
    const id = (key: string): string => (typeof event[key] === 'string' ? event[key] : '');
    switch (event['type']) {
      case 'user_input':
        return turn.position === undefined
          ? undefined
          : refuse('misplaced-user-input', "a user message opens its turn: this run's turn already has events");
      case 'tool_call':
        return turn.calls.has(id('callId'))
          ? refuse('duplicate-tool-call', `the call ${id('callId')} was already made in this run`)
          : undefined;
      case 'tool_result': {
        const result = resultFor(runId, id('callId'));
        return result.ok ? undefined : result;
      }
      case 'card': {
        const card = event['card'];
        const correlationId = typeof card === 'object' && card !== null && 'correlationId' in card ? card.correlationId : undefined;
        if (typeof correlationId !== 'string') return undefined;
        if (turn.cards.has(correlationId)) return refuse('duplicate-card', `the card ${correlationId} was already asked in this run`);
        return askers.get(correlationId)?.cards.get(correlationId) === 'awaiting'
          ? refuse('duplicate-card', `the card ${correlationId} still awaits an answer from an earlier run`)
          : undefined;
      }
      case 'card_closed':
        return closingRefusal(turn, id('correlationId'));
      case 'done': {
        const awaiting: unknown = event['awaiting'];
        for (const correlationId of Array.isArray(awaiting) ? (awaiting as unknown[]) : []) {
          const status = typeof correlationId === 'string' ? turn.cards.get(correlationId) : undefined;
          if (typeof correlationId !== 'string' || status === undefined)
            return refuse('unknown-card', 'the run awaits a card it did not ask');
          if (status !== 'open') return refuse('card-closed', `the run awaits ${correlationId}, a card already closed`);
        }
        return undefined;
      }
      default:
        return undefined;
    }
  }

  function resultFor(runId: string, callId: string): { readonly ok: true; readonly name: string } | ChatRefusal<PlacementRefusalCode> {
    const call = turnOf(runId).calls.get(callId);
    if (call?.answered === true) return refuse('duplicate-tool-result', `the call ${callId} already has its result`);
    if (call !== undefined) return { ok: true, name: call.name };
    return callers.has(callId)
      ? refuse('earlier-run-tool-call', `the call ${callId} was made in another run: a client-side tool is a card (DESIGN §12)`)
      : refuse('unknown-tool-call', `the call ${callId} was not made in this run`);
  }

  // A card_closed closes the turn's own card, or one an earlier ended turn left awaiting (DESIGN §3.3).
  function closingRefusal(turn: TurnView, correlationId: string): ChatRefusal<PlacementRefusalCode> | undefined {
    const own = turn.cards.get(correlationId);
    if (own !== undefined) return own === 'closed' ? refuse('card-closed', `the card ${correlationId} is already closed`) : undefined;
    const asker = askers.get(correlationId);
    const status = asker?.cards.get(correlationId);
    if (asker === undefined || status === undefined) return refuse('unknown-card', `no run of this stream asked the card ${correlationId}`);
    if (status === 'closed') return refuse('card-closed', `the card ${correlationId} is already closed`);
    const later = turn.position === undefined || (asker.position !== undefined && asker.position < turn.position);
    if (status !== 'awaiting' || !later)
      return refuse('card-not-awaiting', `the card ${correlationId} is not waiting for a later run to close it`);
    return undefined;
  }

  function record(runId: string, event: Fields): void {
    const turn = turnOf(runId);
    turn.position ??= positions++;
    const text = (key: string): string => (typeof event[key] === 'string' ? event[key] : '');
    switch (event['type']) {
      case 'tool_call':
        turn.calls.set(text('callId'), { name: text('name'), answered: false });
        callers.set(text('callId'), turn);
        return;
      case 'tool_result': {
        const call = turn.calls.get(text('callId'));
        if (call !== undefined) call.answered = true;
        return;
      }
      case 'card': {
        const card = event['card'];
        const correlationId = typeof card === 'object' && card !== null && 'correlationId' in card ? card.correlationId : undefined;
        if (typeof correlationId !== 'string') return;
        turn.cards.set(correlationId, 'open');
        askers.set(correlationId, turn);
        return;
      }
      case 'card_closed': {
        const correlationId = text('correlationId');
        const owner = turn.cards.has(correlationId) ? turn : askers.get(correlationId);
        owner?.cards.set(correlationId, 'closed');
        return;
      }
      case 'done': {
        const awaiting: unknown = event['awaiting'];
        for (const correlationId of Array.isArray(awaiting) ? (awaiting as unknown[]) : [])
          if (typeof correlationId === 'string') turn.cards.set(correlationId, 'awaiting');
        turn.ended = true;
        return;
      }
      case 'error':
        turn.ended = true;
        return;
      default:
        return;
    }
  }

  return {
    ended: (runId) => turns.get(runId)?.ended === true,
    callName: (runId, callId) => turns.get(runId)?.calls.get(callId)?.name,
    resultFor,
    awaitable: (runId, correlationId) => turns.get(runId)?.cards.get(correlationId) === 'open',
    refusal,
    record,
  };
}
