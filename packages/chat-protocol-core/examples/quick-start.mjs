import { createParser } from 'eventsource-parser';
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

// Client: an SSE parser decodes the byte stream, whatever its chunks; each
// message is parsed strictly and folded into state, a repeat absorbed, a gap resumed.
let state = createChatState('conv_01J9');
const parser = createParser({
  onEvent(message) {
    const parsed = parseChatSseMessage(message);
    if (!parsed.ok) throw new Error(parsed.message);
    const applied = applyChatEvent(state, parsed.value);
    if (applied.ok) {
      state = applied.state;
      console.log(`seq ${parsed.value.seq}: ${applied.outcome}`);
    } else if (applied.code === 'seq-gap') {
      console.log(`seq ${parsed.value.seq}: gap, resume after ${formatChatCursor(applied.replayAfter)}`);
    }
  },
});
const body = [frames[0], frames[0], frames[2], frames[1], frames[2]].join('');
for (let offset = 0; offset < body.length; offset += 7) parser.feed(body.slice(offset, offset + 7));
console.log(`${state.turns[0].status}: ${state.turns[0].text}`);
