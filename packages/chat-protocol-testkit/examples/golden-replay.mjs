import { applyChatEvent, createChatState, parseChatEnvelope, parseChatState } from '@papercusp/chat-protocol-core';
import { listGoldenSessions, replayGoldenSession } from '@papercusp/chat-protocol-testkit';

// A client's store: it applies each line as it arrives and, halfway through,
// is rebuilt from its saved snapshot, as after a page reload.
function replayWithReload(jsonl) {
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

for (const { name } of listGoldenSessions()) {
  const golden = replayGoldenSession(name).value;
  const { state, duplicates } = replayWithReload(golden.jsonl);
  const same = `${JSON.stringify(state, null, 2)}\n` === golden.expectedStateJson;
  console.log(`${same ? 'same' : 'DIFFERENT'}: ${name}, ${state.turns.length} turn(s), ${duplicates} duplicate(s) absorbed`);
}
