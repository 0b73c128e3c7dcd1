import { applyChatEvent, createChatCodec, createChatState, parseChatEnvelope, parseChatState } from '@papercusp/chat-protocol-core';
import { listGoldenSessions, replayGoldenSession } from '@papercusp/chat-protocol-testkit';

// The functions that read a session: core's, or for a session of product
// events a codec that registers them (any data; the session names each channel).
const ANY_DATA = { '~standard': { version: 1, vendor: 'example', validate: (value) => ({ value }) } };
function readersFor(productEvents) {
  const names = Object.keys(productEvents);
  if (names.length === 0) return { parseChatEnvelope, parseChatState, applyChatEvent };
  return createChatCodec({ events: Object.fromEntries(names.map((name) => [name, { schema: ANY_DATA, channel: productEvents[name] }])) });
}

// A client's store: it applies each line as it arrives and, halfway through,
// is rebuilt from its saved snapshot, as after a page reload.
function replayWithReload(jsonl, { parseChatEnvelope, parseChatState, applyChatEvent }) {
  const lines = jsonl.trimEnd().split('\n');
  let state;
  let duplicates = 0;
  for (const [index, line] of lines.entries()) {
    if (index === Math.floor(lines.length / 2)) state = parseChatState(JSON.stringify(state)).value;
    const envelope = parseChatEnvelope(line);
    if (!envelope.ok) throw new Error(`${envelope.code}: ${envelope.message}`);
    state ??= createChatState(envelope.value.conversationId);
    const applied = applyChatEvent(state, envelope.value);
    if (!applied.ok) throw new Error(`${applied.code}: ${applied.message}`);
    if (applied.outcome === 'duplicate') duplicates++;
    state = applied.state;
  }
  return { state, duplicates };
}

for (const { name, productEvents } of listGoldenSessions()) {
  const golden = replayGoldenSession(name).value;
  const { state, duplicates } = replayWithReload(golden.jsonl, readersFor(productEvents));
  const same = `${JSON.stringify(state, null, 2)}\n` === golden.expectedStateJson;
  console.log(`${same ? 'same' : 'DIFFERENT'}: ${name}, ${state.turns.length} turn(s), ${duplicates} duplicate(s) absorbed`);
}
