import { validateReplayWindow } from '@papercusp/chat-protocol-recovery';
import { createFakeChatEventLog, createFakeDatabase } from '@papercusp/chat-protocol-testkit';

// Two connections to one log: a writer (the agent's worker) and a reader (an SSE connection on another process).
const database = createFakeDatabase();
const writer = createFakeChatEventLog(database);
const reader = createFakeChatEventLog(database);
const turn = { conversationId: 'conv_01J9', turnId: 'turn_7' };
const frame = (seq, event) => ({ schemaVersion: 1, ...turn, eventId: `evt_${seq}`, seq, occurredAt: '2026-12-01T10:00:00Z', event });

const answer = (result) => (result.ok ? result.outcome : result.code);
console.log(`seq 1: ${answer(await writer.append(frame(1, { type: 'delta', text: 'Your refund ' })))}`);
console.log(`seq 1 again: ${answer(await writer.append(frame(1, { type: 'delta', text: 'Your refund ' })))}`);
const gap = await writer.append(frame(3, { type: 'delta', text: 'skipped' }));
console.log(`seq 3: ${gap.code}, expected ${gap.expectedSeq}`);

// The reader subscribes first, then reads the window: together they miss nothing and double nothing.
// onEnd says why the tail ended: `terminal` after done, or `lost` with the seq to resubscribe from.
const live = [];
const unsubscribe = await reader.subscribe(
  { ...turn, after: 0 },
  (envelope) => live.push(envelope.seq),
  (end) => live.push(end.reason),
);
const window = await reader.replayWindow({ ...turn, after: 0 });
await writer.append(frame(2, { type: 'delta', text: 'is on its way.' }));
await writer.append(frame(3, { type: 'done', status: 'completed' }));
console.log(`after done: ${answer(await writer.append(frame(4, { type: 'delta', text: 'late' })))}`);
await new Promise((resolve) => setTimeout(resolve, 0));
unsubscribe();
console.log(`window: latest ${window.latestSeq}, frames ${window.frames.map((envelope) => envelope.seq)}; live: ${live}`);

// Retention drops the finished turn; a client resuming from seq 0 is told its cursor is stale.
console.log(`pruned: ${(await writer.pruneTurns({ before: '2026-12-02T00:00:00Z' })).pruned}`);
const late = validateReplayWindow(await reader.replayWindow({ ...turn, after: 0 }), { ...turn, after: 'turn_7:0' });
console.log(`resume from 0: ${late.code}`);
