/**
 * What core's reducer holds of the turn after the envelopes the decoder made so far: the next seq, whether the turn
 * ended, the tool calls (and which have results), the cards (this stream's own, and earlier turns' still waiting)
 * and the last state version. The decoder refuses a chunk whose envelope the reducer would refuse after those, with
 * the reducer's code, so one bad chunk never costs the rest of the turn. It owns that record, changed only once
 * every envelope of a chunk was made; the tool rules that need the call are judged in `chunk-events.ts`.
 */
import { isChatId, type ChatEventV1 } from '@papercusp/chat-protocol-core';
import type { AiSdkDecodeRefusalCode } from './decoder-types.js';

/** The reducer's view of the turn so far (see the module comment). */
export interface TurnPlacement {
  seq: number;
  terminal: boolean;
  readonly calls: Map<string, { readonly name: string; readonly input: unknown; resulted: boolean }>;
  // `own` cards were asked in this stream; the others are earlier turns' cards still waiting.
  readonly cards: Map<string, { readonly own: boolean; closed: boolean }>;
  stateVersion: number | undefined;
}

/** A refusal the decoder counts: its code and message. */
export interface ChunkRefusal {
  readonly code: AiSdkDecodeRefusalCode;
  readonly message: string;
}

/** The turn before its first envelope at `firstSeq`, with the cards earlier turns left waiting. */
export function createTurnPlacement(firstSeq: number, awaitingCards: readonly string[]): TurnPlacement {
  return {
    seq: firstSeq,
    terminal: false,
    calls: new Map(),
    cards: new Map(awaitingCards.map((correlationId) => [correlationId, { own: false, closed: false }])),
    stateVersion: undefined,
  };
}

/**
 * The reducer's refusal of the chunk's events after the envelopes already
 * made, judged before any is made (the tool rules are judged in
 * `eventsOf`, which needs the call). Malformed fields are left to the
 * strict encoder, so they are refused as `invalid-envelope`.
 */
export function placementRefusal(placement: TurnPlacement, events: readonly Record<string, unknown>[]): ChunkRefusal | undefined {
  const { seq, cards, stateVersion } = placement;
  for (const [index, event] of events.entries()) {
    if (event['type'] === 'user_input' && seq + index !== 1) {
      return { code: 'misplaced-user-input', message: `a user input must be the turn's first envelope, not seq ${seq + index}` };
    }
    if (event['type'] === 'card') {
      const correlationId = (event['card'] as Readonly<Record<string, unknown>>)['correlationId'];
      if (isChatId(correlationId) && cards.has(correlationId)) {
        return { code: 'duplicate-card', message: `card ${correlationId} was already asked` };
      }
    }
    if (event['type'] === 'card_closed' && isChatId(event['correlationId'])) {
      const card = cards.get(event['correlationId']);
      if (card === undefined) return { code: 'unknown-card', message: `no card ${event['correlationId']} in this stream` };
      if (card.closed) return { code: 'card-closed', message: `card ${event['correlationId']} is already closed` };
    }
    if (
      event['type'] === 'state' &&
      typeof event['version'] === 'number' &&
      stateVersion !== undefined &&
      event['version'] <= stateVersion
    ) {
      return { code: 'stale-state', message: `state version ${event['version']} is not after ${stateVersion}` };
    }
  }
  return undefined;
}

/** Records one made envelope's event: state changes happen only once every envelope of the chunk was made. */
export function commitEvent(placement: TurnPlacement, event: ChatEventV1): void {
  switch (event.type) {
    case 'tool_call':
      placement.calls.set(event.callId, { name: event.name, input: event.input, resulted: false });
      return;
    case 'tool_result': {
      const call = placement.calls.get(event.callId);
      if (call !== undefined) call.resulted = true;
      return;
    }
    case 'card':
      placement.cards.set(event.card.correlationId, { own: true, closed: false });
      return;
    case 'card_closed': {
      const card = placement.cards.get(event.correlationId);
      if (card !== undefined) card.closed = true;
      return;
    }
    case 'state':
      placement.stateVersion = event.version;
      return;
    case 'done':
    case 'error':
      placement.terminal = true;
      return;
    default:
      return;
  }
}
