import { applyChatEvent, createChatState, historyFromChatState, parseChatHistoryPage } from '@papercusp/chat-protocol-core';

// A turn the person opened by voice, answered with a tool call.
const base = { schemaVersion: 1, conversationId: 'conv_01J9', turnId: 'turn_01J9' };
const events = [
  { type: 'user_input', text: 'Where is my refund?', source: 'voice_stt' },
  { type: 'tool_call', callId: 'call_1', name: 'refund_status', input: { order: '42' } },
  { type: 'tool_result', callId: 'call_1', name: 'refund_status', status: 'succeeded', summary: 'sent' },
  { type: 'delta', text: 'It is on its way.' },
  { type: 'done', status: 'completed' },
];
let state = createChatState('conv_01J9');
for (const [index, event] of events.entries()) {
  const envelope = { ...base, eventId: `evt_${index + 1}`, seq: index + 1, occurredAt: `2026-11-29T12:00:0${index}Z`, event };
  const result = applyChatEvent(state, envelope);
  if (result.ok) state = result.state;
}

// Host: serve the snapshot as a history page. Client: read it strictly and render both sides.
const served = JSON.stringify({ turns: historyFromChatState(state), hasMoreEarlier: false });
const page = parseChatHistoryPage(served);
for (const turn of page.ok ? page.value.turns : []) {
  const tools = (turn.tools ?? []).map((call) => `${call.name}: ${call.result?.status}`).join(', ');
  console.log(`${turn.role} (${turn.source ?? turn.status}): ${turn.text}${tools ? ` [${tools}]` : ''}`);
}
console.log(parseChatHistoryPage({ turns: [{ id: 't', role: 'user', text: '' }], hasMoreEarlier: false }).code);
