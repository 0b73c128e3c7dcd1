/**
 * Test support: the testkit's golden sessions, each with its envelopes
 * delivered once (a replay overlap redelivers some) and its AG-UI encoding.
 */
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import { listGoldenSessions, replayGoldenSession, type GoldenReplay } from '@papercusp/chat-protocol-testkit';
import type { AgUiEvent } from '../src/ag-ui-event.js';
import { createAgUiEncoder } from '../src/encoder/create-ag-ui-encoder.js';
import type { AgUiLoss } from '../src/loss.js';

/** One golden session and what the encoder made of it. */
export interface EncodedGoldenSession {
  readonly name: string;
  readonly replay: GoldenReplay;
  /** The envelopes once each, in delivery order. */
  readonly envelopes: readonly ChatEventEnvelope[];
  readonly events: readonly AgUiEvent[];
  /** What each delivered envelope lost, in delivery order. */
  readonly lost: readonly (readonly AgUiLoss[])[];
}

/** Every golden session, encoded with a fresh encoder. */
export function encodedGoldenSessions(): EncodedGoldenSession[] {
  return listGoldenSessions().map((info) => {
    const replayed = replayGoldenSession(info.name);
    if (!replayed.ok) throw new Error(`golden session ${info.name} did not replay`);
    const encoder = createAgUiEncoder();
    const seen = new Set<string>();
    const envelopes: ChatEventEnvelope[] = [];
    const events: AgUiEvent[] = [];
    const lost: (readonly AgUiLoss[])[] = [];
    for (const envelope of replayed.value.envelopes) {
      const result = encoder.encode(envelope);
      events.push(...result.events);
      const key = `${envelope.turnId}:${envelope.seq}`;
      if (seen.has(key)) continue;
      seen.add(key);
      envelopes.push(envelope);
      lost.push(result.lost);
    }
    return { name: info.name, replay: replayed.value, envelopes, events, lost };
  });
}
