import { applyChatEvent, createChatState, encodeChatSseFrame, formatChatCursor, parseChatSseMessage } from '@papercusp/chat-protocol-core';

// Host: build envelopes from stored records and write them as SSE.
const base = { schemaVersion: 1, conversationId: 'conv_01J9', turnId: 'turn_01J9' };
const events = [
  { type: 'delta', text: 'Your refund ' },
  { type: 'delta', text: 'is on its way.' },
  { type: 'done', status: 'completed' },
];
const frames = events.map((event, index) =>
  encodeChatSseFrame({
    ...base,
    eventId: `evt_${index + 1}`,
    seq: index + 1,
    occurredAt: `2026-11-29T12:00:0${index}Z`,
    event,
  }),
);

// Client: read each SSE message, fold it into state, resume on a gap.
const readSse = (frame) =>
  Object.fromEntries(
    frame
      .trim()
      .split('\n')
      .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
  );

let state = createChatState('conv_01J9');
for (const frame of [frames[0], frames[0], frames[2], frames[1], frames[2]]) {
  const parsed = parseChatSseMessage(readSse(frame));
  if (!parsed.ok) throw new Error(parsed.message);
  const applied = applyChatEvent(state, parsed.value);
  if (applied.ok) {
    state = applied.state;
    console.log(`seq ${parsed.value.seq}: ${applied.outcome}`);
  } else if (applied.code === 'seq-gap') {
    console.log(`seq ${parsed.value.seq}: gap, resume after ${formatChatCursor(applied.replayAfter)}`);
  }
}
console.log(`${state.turns[0].status}: ${state.turns[0].text}`);
