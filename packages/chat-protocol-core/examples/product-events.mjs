import * as z from 'zod/v4/mini';
import { createChatCodec, createChatState, parseChatEnvelope } from '@papercusp/chat-protocol-core';

// Scout registers its events: a namespaced name, a schema for the data, a channel.
const scout = createChatCodec({
  events: {
    'scout.products': { schema: z.strictObject({ products: z.array(z.strictObject({ id: z.string() })) }), channel: 'state' },
    'scout.highlight': { schema: z.strictObject({ productId: z.string() }), channel: 'event' },
    'scout.cart_mutate': { schema: z.strictObject({ op: z.enum(['add', 'remove']), productId: z.string() }), channel: 'transient' },
  },
});

const envelope = (seq, event) =>
  JSON.stringify({
    schemaVersion: 1,
    conversationId: 'conv_1',
    turnId: 'turn_1',
    eventId: `evt_${seq}`,
    seq,
    occurredAt: '2026-11-30T17:00:00Z',
    event,
  });
const events = [
  { type: 'scout.products', data: { products: [{ id: 'TR-210' }, { id: 'TR-315' }] } },
  { type: 'scout.highlight', data: { productId: 'TR-210' } },
  { type: 'scout.products', data: { products: [{ id: 'TR-210' }] } },
  { type: 'scout.cart_mutate', data: { op: 'add', productId: 'TR-210' } },
];

let state = createChatState('conv_1');
for (const [index, event] of events.entries()) {
  const parsed = scout.parseChatEnvelope(envelope(index + 1, event));
  if (!parsed.ok) throw new Error(`${parsed.code}: ${parsed.message}`);
  const applied = scout.applyChatEvent(state, parsed.value);
  if (!applied.ok) throw new Error(`${applied.code}: ${applied.message}`);
  state = applied.state;
}

const [turn] = state.turns;
console.log(`state channel, last write wins: ${JSON.stringify(turn.productState)}`);
console.log(`event channel, in order: ${JSON.stringify(turn.productEvents)}`);
console.log(`transient: in the log only (${turn.lastSeq} seqs applied)`);
console.log(`the base parser: ${parseChatEnvelope(envelope(1, events[0])).code}`);
const refused = scout.parseChatEnvelope(envelope(5, { type: 'scout.highlight', data: { productId: 7 } }));
console.log(`data its schema refuses: ${refused.code} at ${refused.issues[0].path.join('.')}`);
