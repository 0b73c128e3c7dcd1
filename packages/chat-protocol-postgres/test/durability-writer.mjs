// @ts-check
/**
 * The writing process of the restart-durability test: three loops write as
 * fast as the server answers (event log appends to one turn, new turns,
 * opened cards) and print one line per acknowledged write. A line is printed
 * only after the store resolved, so every line names a committed write; a
 * write in flight when the server stops is never printed. Stdout is a pipe,
 * written synchronously on Linux, so a SIGKILL loses no printed line.
 */
import { AUTHORITY, cardId, LOG_TURN, OWNER, openDurabilityStore, turnId } from './durability-store.mjs';

const [url = '', schema = ''] = process.argv.slice(2);
const { store, recovery, resolver } = openDurabilityStore(url, schema);
const at = '2031-05-01T08:00:00Z';

async function appendEvents() {
  for (let seq = 1; ;) {
    const appended = await store.eventLog.append({
      schemaVersion: 1,
      ...LOG_TURN,
      eventId: `event_durable_${seq}`,
      seq,
      occurredAt: at,
      event: { type: 'delta', text: `frame ${seq}` },
    });
    if (appended.ok) {
      process.stdout.write(`event ${seq}\n`);
      seq += 1;
    }
  }
}

async function startTurns() {
  for (let index = 0; ;) {
    const started = await recovery.startTurn({
      caller: OWNER,
      conversationId: 'conv_durable',
      turnId: turnId(index),
      effectIds: ['call_a', 'call_b'],
    });
    if (started.ok) {
      process.stdout.write(`turn ${index}\n`);
      index += 1;
    }
  }
}

async function openCards() {
  for (let index = 0; ;) {
    const opened = await resolver.open({
      caller: OWNER,
      card: { correlationId: cardId(index), createdAt: at, prompt: 'Go ahead?', presentation: { kind: 'confirm' } },
      schema: { id: 'go-ahead', revision: 1 },
      expiresAt: '2031-05-01T09:00:00Z',
      scope: { conversationId: 'conv_durable', ...AUTHORITY },
      at,
    });
    // `needs-reconciliation` is ok too, but not an acknowledgement: only `opened` says it committed.
    if (opened.ok && opened.outcome === 'opened') {
      process.stdout.write(`card ${index}\n`);
      index += 1;
    }
  }
}

await Promise.all([appendEvents(), startTurns(), openCards()]);
