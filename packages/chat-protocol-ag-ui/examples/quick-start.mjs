import { createAgUiDecoder, createAgUiEncoder } from '@papercusp/chat-protocol-ag-ui';

const base = { schemaVersion: 1, conversationId: 'conv_1', turnId: 'turn_1' };
const envelopes = [
  { ...base, eventId: 'evt_1', seq: 1, occurredAt: '2026-12-01T10:00:00.000Z', event: { type: 'delta', text: 'Checking your order.' } },
  {
    ...base,
    eventId: 'evt_2',
    seq: 2,
    occurredAt: '2026-12-01T10:00:01.000Z',
    event: { type: 'tool_call', callId: 'call_1', name: 'get_order', input: { id: 'ord_7' } },
  },
  {
    ...base,
    eventId: 'evt_3',
    seq: 3,
    occurredAt: '2026-12-01T10:00:02.000Z',
    event: { type: 'done', status: 'completed', usage: { inputTokens: 12, costUsd: 0.01 } },
  },
];

// v1 → AG-UI: one run per turn, brackets opened and closed, loss reported.
const encoder = createAgUiEncoder();
const events = envelopes.flatMap((envelope) => {
  const { events, lost } = encoder.encode(envelope);
  for (const loss of lost) if (loss.field.startsWith('event.')) console.log(`lost ${loss.field}: ${loss.reason}`);
  return events;
});
console.log(events.map((event) => event.type).join(' '));

// AG-UI → v1: the host allocates every envelope's identity.
let seq = 0;
const decoder = createAgUiDecoder({
  conversationId: 'conv_1',
  identify: ({ runId }) => ({ turnId: runId, eventId: `evt_${++seq}`, seq, occurredAt: '2026-12-01T10:00:00.000Z' }),
});
const typesOf = (list) => list.flatMap((event) => (decoder.decode(event).envelopes ?? []).map((envelope) => envelope.event.type));
console.log(typesOf(events.slice(0, -1)).join(' '));

// A generic AG-UI tool result does not say whether it succeeded: refused and counted, never a success.
const result = decoder.decode({ type: 'TOOL_CALL_RESULT', messageId: 'msg_9', toolCallId: 'call_1', content: 'shipped' });
console.log(`${result.ok ? 'accepted' : result.code} ${JSON.stringify(decoder.refusals())}`);
console.log(typesOf(events.slice(-1)).join(' '));
