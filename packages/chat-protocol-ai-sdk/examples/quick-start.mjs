import { createAiSdkDecoder, createAiSdkEncoder, encodeAiSdkSseFrame } from '@papercusp/chat-protocol-ai-sdk';

const base = { schemaVersion: 1, conversationId: 'conv_1', turnId: 'turn_1', occurredAt: '2026-12-01T10:00:00Z' };
const envelopes = [
  { ...base, eventId: 'evt_1', seq: 1, event: { type: 'delta', text: 'Hello' } },
  { ...base, eventId: 'evt_2', seq: 2, event: { type: 'done', status: 'completed', stopReason: 'stop', usage: { outputTokens: 1 } } },
];

// v1 → the AI SDK UI message stream (what useChat reads)
const encoder = createAiSdkEncoder();
const chunks = envelopes.flatMap((envelope) => {
  const result = encoder.encode(envelope);
  return result.ok ? result.chunks : [];
});
for (const chunk of chunks) console.log(encodeAiSdkSseFrame(chunk).trim());

// the AI SDK UI message stream → v1 (the host supplies ids, seq and time)
const decoder = createAiSdkDecoder({
  conversationId: 'conv_1',
  turnId: 'turn_1',
  identify: ({ seq }) => ({ eventId: `evt_${seq}`, occurredAt: '2026-12-01T10:00:00Z' }),
});
for (const chunk of [{ type: 'source-url', sourceId: 's1', url: 'https://example.com' }, ...chunks]) {
  const result = decoder.decode(chunk);
  if (!result.ok) console.log(`refused: ${result.code}`);
  else for (const envelope of result.envelopes) console.log(JSON.stringify(envelope.event));
}
console.log(JSON.stringify(decoder.counts()));
