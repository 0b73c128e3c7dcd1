/**
 * The end-to-end tests' turn and checks: a ten-frame turn whose text is more
 * than one byte per character (so cuts land mid-character), its state after a
 * clean connection, and what a connection's body says about the server side.
 */
import {
  applyChatEvent,
  createChatState,
  encodeChatSseFrame,
  parseChatCursor,
  parseChatSseMessage,
  type ChatEventEnvelope,
  type ChatStateV1,
} from '@papercusp/chat-protocol-core';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { DEFAULT_CHAT_SSE_RETRY_MS } from '../src/create-chat-sse-response.js';
import { DONE, envelopeAt } from './sse-test-server.js';
import type { ServedConnection } from './log-server.js';

const TEXTS = ['Où ', 'est ', 'mon ', 'remboursement ? ', 'Il ', 'est ', 'en route 🚚 — ', 'comptez ', '3 jours.'];

/** Seqs 1…10 of the test turn (`TURN` of the server fixtures): nine deltas, then `done`. */
export const TEN_FRAMES: readonly ChatEventEnvelope[] = [
  ...TEXTS.map((text, index) => envelopeAt(index + 1, { type: 'delta', text })),
  envelopeAt(TEXTS.length + 1, DONE),
];

/** The state a clean connection folds `envelopes` into. */
export function foldTurn(envelopes: readonly ChatEventEnvelope[], conversationId: string): ChatStateV1 {
  return envelopes.reduce((state, envelope) => {
    const applied = applyChatEvent(state, envelope);
    if (!applied.ok) throw new Error(`${applied.code}: ${applied.message}`);
    return applied.state;
  }, createChatState(conversationId));
}

/** Byte offsets of every frame boundary of a clean body from the start: its `retry:` field, then frames (no heartbeats). */
export function boundariesOf(envelopes: readonly ChatEventEnvelope[]): number[] {
  let offset = Buffer.byteLength(`retry: ${DEFAULT_CHAT_SSE_RETRY_MS}\n\n`);
  return envelopes.map((envelope) => (offset += Buffer.byteLength(encodeChatSseFrame(envelope))));
}

/**
 * The seqs of every whole frame a connection's body carried, and whether they
 * are exactly the ones after its `Last-Event-ID`, in order, each once (a cut
 * body may stop early, never skip or repeat).
 */
export function servedInOrder(connection: ServedConnection): { readonly seqs: number[]; readonly contiguous: boolean } {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message) });
  parser.feed(connection.body);
  const seqs = messages.map((message) => {
    const parsed = parseChatSseMessage(message);
    return parsed.ok ? parsed.value.seq : -1;
  });
  const after = parseChatCursor(connection.lastEventId)?.seq ?? 0;
  return { seqs, contiguous: seqs.every((seq, index) => seq === after + index + 1) };
}
