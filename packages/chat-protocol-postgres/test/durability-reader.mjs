// @ts-check
/**
 * The reading process of the restart-durability test: a fresh process after
 * the server's crash and restart reads what the writer left, through the
 * store, and prints it as one JSON line.
 */
import { cardId, LOG_TURN, OWNER, openDurabilityStore, turnId } from './durability-store.mjs';

const [url = '', schema = '', turnsToRead = '0', cardsToRead = '0'] = process.argv.slice(2);
const { pool, store, resolver } = openDurabilityStore(url, schema);

const window = await store.eventLog.replayWindow({ ...LOG_TURN, after: 0 });
const turns = [];
for (let index = 0; index < Number(turnsToRead); index += 1) {
  const stored = await store.turnStore.read(turnId(index));
  turns.push(
    stored === null ? null : { revision: stored.record.revision, status: stored.record.status, effects: stored.record.effects.length },
  );
}
const cards = [];
for (let index = 0; index < Number(cardsToRead); index += 1) {
  const read = await resolver.read({
    caller: OWNER,
    conversationId: 'conv_durable',
    correlationId: cardId(index),
    at: '2031-05-01T08:30:00Z',
  });
  cards.push(read.ok ? read.record.status : read.code);
}
process.stdout.write(`${JSON.stringify({ latestSeq: window.latestSeq, seqs: window.frames.map((frame) => frame.seq), turns, cards })}\n`);
await pool.end();
