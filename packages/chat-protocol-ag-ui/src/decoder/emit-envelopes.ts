/**
 * Turning a translated step's v1 events into envelopes: each is first placed (core's reducer must apply it after what
 * the decoder already emitted) and parsed with a placeholder identity, and only when every one passes does the host
 * allocate their identities, so a refused event never costs the host a seq. It owns that order and the envelope's
 * shape; what an event means is the translators', and the identity is the host's.
 */
import { CHAT_LIMITS, type ChatEventTypeV1, type ChatRefusal } from '@papercusp/chat-protocol-core';
import { refuse } from '@papercusp/chat-protocol-core/internal';
import type { AgUiEnvelopeIdentity, DecodeAgUiEventRefusalCode } from './decoder-types.js';
import type { Fields } from './event-vocabulary.js';
import type { DecoderHost } from './host-context.js';
import type { ReducerView } from './reducer-view.js';

// The identity every event is first parsed with, before the host is asked for the real one: ids as long as any the
// host may give and the longest seq, so an event that passes with it passes with the host's, and a refused event
// never takes a seq from the host.
const PLACEHOLDER_IDENTITY: AgUiEnvelopeIdentity = {
  turnId: 'x'.repeat(CHAT_LIMITS.maxIdLength),
  eventId: 'x'.repeat(CHAT_LIMITS.maxIdLength),
  seq: Number.MAX_SAFE_INTEGER,
  occurredAt: '2026-12-01T10:00:00.000000000+00:00',
};

/**
 * The envelopes of `events` in the run `runId`, each recorded in `view` once made, or the first refusal: the
 * reducer's placement code, or `invalid-envelope` when the parser refuses one (with the placeholder identity, before
 * any identity is taken; with the host's, its own fault). `timestamp` is the AG-UI event's, passed to `identify`.
 */
export function emitEnvelopes<Envelope>(
  host: DecoderHost<Envelope>,
  view: ReducerView,
  runId: string,
  events: readonly Fields[],
  timestamp: unknown,
): Envelope[] | ChatRefusal<DecodeAgUiEventRefusalCode> {
  // Every event is checked before any takes an identity: a refused one never costs the host a seq.
  for (const event of events) {
    const placed = view.refusal(runId, event);
    if (placed !== undefined) return placed;
    const checked = host.parse(envelopeOf(host.conversationId, event, PLACEHOLDER_IDENTITY));
    if (!checked.ok) return refuse('invalid-envelope', `the v1 parser refused the envelope: ${checked.message}`, checked.issues);
  }
  const envelopes: Envelope[] = [];
  for (const event of events) {
    const identity = host.identify({
      runId,
      type: event['type'] as ChatEventTypeV1,
      timestamp: typeof timestamp === 'number' ? timestamp : undefined,
    });
    const parsed = host.parse(envelopeOf(host.conversationId, event, identity));
    // Only the host's identity can fail here: its own fault, refused as the envelope it made.
    if (!parsed.ok) return refuse('invalid-envelope', `the v1 parser refused the envelope: ${parsed.message}`, parsed.issues);
    view.record(runId, event);
    envelopes.push(parsed.value);
  }
  return envelopes;
}

function envelopeOf(conversationId: string, event: Fields, identity: AgUiEnvelopeIdentity): unknown {
  return {
    schemaVersion: 1,
    conversationId,
    turnId: identity.turnId,
    eventId: identity.eventId,
    seq: identity.seq,
    occurredAt: identity.occurredAt,
    event,
  };
}
