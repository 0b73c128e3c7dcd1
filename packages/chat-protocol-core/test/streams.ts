/**
 * Generated valid conversations: a spec of up to three turns and how their
 * envelopes interleave, and `buildStream`, which turns a spec into envelopes
 * the reducer accepts. Every state the reducer can reach is a prefix of one.
 */
import fc from 'fast-check';
import type { ChatEventEnvelope, ChatEventV1 } from '../src/index.js';
import { applyChatEvent, createChatState, DONE_STATUSES, parseChatEnvelope, type ChatStateV1 } from '../src/index.js';
import { eventArb, idArb, nameArb } from '../../../test-support/v1-arbitraries.js';
import { CONVERSATION_ID } from './envelopes.js';

const terminalArb: fc.Arbitrary<ChatEventV1> = fc.oneof(
  fc.record({ type: fc.constant('done' as const), status: fc.constantFrom(...DONE_STATUSES), stopReason: fc.constant('end_turn') }),
  fc.record({ type: fc.constant('error' as const), code: idArb, message: nameArb, retryable: fc.boolean() }),
);
const turnSpecArb = fc.record({
  events: fc.array(
    eventArb.filter((event) => event.type !== 'done' && event.type !== 'error'),
    { maxLength: 10 },
  ),
  end: fc.option(terminalArb, { nil: undefined }),
});
/** A conversation: up to three turns whose envelopes interleave by `picks`. */
export const streamSpecArb = fc.record({
  turns: fc.array(turnSpecArb, { minLength: 1, maxLength: 3 }),
  picks: fc.array(fc.nat(), { maxLength: 40 }),
});
export type StreamSpec = typeof streamSpecArb extends fc.Arbitrary<infer Spec> ? Spec : never;

const START = Date.UTC(2026, 10, 29, 12, 0, 0);

/**
 * Makes a generated spec a valid stream: per-turn call and card ids, results
 * and closes only for open calls and cards (others dropped), increasing state
 * versions, provenance naming `provider`, ids unique across the conversation,
 * timestamps increasing. Every envelope is checked with the strict parser.
 */
export function buildStream(spec: StreamSpec, provider = 'provider_x'): ChatEventEnvelope[] {
  const perTurn = spec.turns.map((turnSpec, turnIndex) => {
    const turnId = `turn_${turnIndex + 1}`;
    const events: ChatEventV1[] = [];
    const openCalls: { callId: string; name: string }[] = [];
    const openCards: string[] = [];
    let calls = 0;
    let cards = 0;
    let version = -1;
    for (const event of turnSpec.events) {
      switch (event.type) {
        case 'tool_call': {
          const callId = `call_${++calls}`;
          openCalls.push({ callId, name: event.name });
          events.push({ ...event, callId });
          break;
        }
        case 'tool_result': {
          const [call] = openCalls.splice(events.length % Math.max(openCalls.length, 1), 1);
          if (call !== undefined) events.push({ ...event, ...call });
          break;
        }
        case 'card': {
          const correlationId = `card_${++cards}`;
          openCards.push(correlationId);
          events.push({ ...event, card: { ...event.card, correlationId } });
          break;
        }
        case 'card_closed': {
          const [correlationId] = openCards.splice(events.length % Math.max(openCards.length, 1), 1);
          if (correlationId !== undefined) events.push({ ...event, correlationId });
          break;
        }
        case 'state':
          version += 1 + (event.version % 3);
          events.push({ ...event, version });
          break;
        case 'provenance':
          events.push({ ...event, model: `${provider}/large` });
          break;
        case 'user_input':
          // The person's message opens a turn: kept only as its first event.
          if (events.length === 0) events.push(event);
          break;
        default:
          events.push(event);
      }
    }
    if (turnSpec.end !== undefined) events.push(turnSpec.end);
    return events.map((event, index) => ({ turnId, seq: index + 1, event }));
  });
  // Interleave the turns: each pick chooses which turn sends its next envelope.
  const stream: ChatEventEnvelope[] = [];
  let pickIndex = 0;
  for (;;) {
    const pending = perTurn.filter((queue) => queue.length > 0);
    if (pending.length === 0) break;
    const queue = pending[(spec.picks[pickIndex++] ?? 0) % pending.length] as (typeof perTurn)[number];
    const { turnId, seq, event } = queue.shift() as (typeof queue)[number];
    const parsed = parseChatEnvelope({
      schemaVersion: 1,
      conversationId: CONVERSATION_ID,
      turnId,
      eventId: `evt_${turnId}.${seq}`,
      seq,
      occurredAt: new Date(START + stream.length * 1000).toISOString(),
      event,
    });
    if (!parsed.ok) throw new Error(`generator produced an invalid envelope: ${parsed.message}`);
    stream.push(parsed.value);
  }
  return stream;
}

/** The state `envelopes` reduce to from an empty `CONVERSATION_ID`; throws on a refusal (a broken fixture). */
export function replaySession(envelopes: readonly ChatEventEnvelope[]): ChatStateV1 {
  return envelopes.reduce((state, envelope) => {
    const result = applyChatEvent(state, envelope);
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    return result.state;
  }, createChatState(CONVERSATION_ID));
}
