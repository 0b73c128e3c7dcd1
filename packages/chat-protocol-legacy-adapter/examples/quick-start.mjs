import { applyChatEvent, createChatState } from '@papercusp/chat-protocol-core';
import { createChatFrameDecoder, encodeLegacyChatFrame, scout } from '@papercusp/chat-protocol-legacy-adapter';

// A client whose backend still speaks scout reads its SSE messages as v1.
const messages = [
  { data: '{"type":"session","sessionId":"sc_51f0"}' },
  { data: '{"type":"token","content":"Three trail shoes "}' },
  { data: '{"type":"tool_start","tool":"search_catalog"}' },
  { data: '{"type":"products","items":[{"sku":"TR-210"}]}' },
  { data: '{"type":"token","content":"under $120."}' },
  { data: '{"type":"done"}' },
];
const decoder = createChatFrameDecoder({
  dialect: scout,
  context: {
    conversationId: 'conv_01J9',
    turnId: 'turn_01J9',
    // Identity is the host's: ids from the turn and seq, times from its clock.
    identify: ({ seq }) => ({ eventId: `turn_01J9.${seq}`, occurredAt: `2026-11-30T09:00:0${seq}Z` }),
    callId: ({ name, seq }) => `turn_01J9.${name}.${seq}`,
  },
});
let state = createChatState('conv_01J9');
for (const message of messages) {
  const result = decoder.decode(message);
  if (!result.ok) console.log(`refused ${result.code}: ${result.message}`);
  else if (result.kind === 'envelope') {
    const applied = applyChatEvent(state, result.envelope);
    if (applied.ok) state = applied.state;
  }
}
const [turn] = state.turns;
console.log(`${turn.status}: ${turn.text} (${turn.toolCalls.map((call) => call.callId).join(', ')})`);
console.log(JSON.stringify(decoder.counts()));

// A host that writes v1 projects each envelope down for readers not yet migrated.
for (const event of [
  { type: 'delta', text: 'Anything else?' },
  { type: 'reasoning', text: 'The user seems done.' },
]) {
  const envelope = {
    schemaVersion: 1,
    conversationId: 'conv_01J9',
    turnId: 'turn_01J9',
    eventId: 'turn_01J9.9',
    seq: 9,
    occurredAt: '2026-11-30T09:01:00Z',
    event,
  };
  const encoded = encodeLegacyChatFrame(envelope, { dialect: scout });
  console.log(encoded.ok ? encoded.sse.trimEnd().replace('\n', ' | ') : `${event.type}: ${encoded.code}, the host picks a fallback`);
}
