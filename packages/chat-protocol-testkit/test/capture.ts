/** Building small v1 SSE captures for the verify tests, with core's own encoder. */
import { encodeChatSseFrame, type ChatEventEnvelope, type ChatEventV1 } from '@papercusp/chat-protocol-core';
import { readFileSync } from 'node:fs';

/** A v1 envelope of `conv_t` at `seq` of `turnId`; the event id is `<turnId>.<seq>` unless given. */
function envelope(turnId: string, seq: number, event: ChatEventV1, eventId = `${turnId}.${seq}`): ChatEventEnvelope {
  return { schemaVersion: 1, conversationId: 'conv_t', turnId, eventId, seq, occurredAt: '2026-11-30T10:00:00Z', event };
}

/** The SSE frame of {@link envelope}. */
export function frame(turnId: string, seq: number, event: ChatEventV1, eventId?: string): string {
  return encodeChatSseFrame(envelope(turnId, seq, event, eventId));
}

/** A `delta` frame. */
export function delta(turnId: string, seq: number, text = `text ${seq}`, eventId?: string): string {
  return frame(turnId, seq, { type: 'delta', text }, eventId);
}

/** A `done` frame. */
export function done(turnId: string, seq: number): string {
  return frame(turnId, seq, { type: 'done', status: 'completed' });
}

/** The package's sample captures. */
export const CAPTURES = new URL('../captures/', import.meta.url);

/** The text of a sample capture. */
export function readCapture(name: string): string {
  return readFileSync(new URL(name, CAPTURES), 'utf8');
}

/** The root `fixtures/` folder. */
export const FIXTURES = new URL('../../../fixtures/', import.meta.url);
