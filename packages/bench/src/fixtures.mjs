/**
 * The wire strings every contender reads: our v1 envelopes and the peers'
 * equivalent events, carrying the same text, the same id sizes and the same
 * tool result content, so the ratios compare validation work, not payloads.
 * The parse rows read pools of distinct strings; the reducer and the legacy
 * adapter read the typical delta and one turn of deltas.
 */
import { seededRandom } from './harness.mjs';

const TEXT = 'The quick brown fox jumps over the lazy dog. ';
const OCCURRED_AT = '2026-11-29T12:34:56.789Z';

/** A typical `delta` envelope, exactly as issue #2 gives it. */
export const deltaEnvelopeText =
  '{"schemaVersion":1,"conversationId":"conv_01HZX3K8M2","turnId":"turn_01HZX3KB7Q","eventId":"evt_01HZX3KC9R","seq":42,"occurredAt":"2026-11-29T12:34:56.789Z","event":{"type":"delta","text":"The quick brown fox jumps over the lazy dog. "}}';

/**
 * The delta envelopes of one turn, seq 1..count, as JSON text: same sizes as
 * the typical envelope (ids padded so every event id is distinct and as long).
 */
export function deltaTurnTexts(count) {
  const texts = [];
  for (let seq = 1; seq <= count; seq += 1) {
    const eventId = `evt_${String(seq).padStart(10, '0')}`;
    texts.push(
      `{"schemaVersion":1,"conversationId":"conv_01HZX3K8M2","turnId":"turn_01HZX3KB7Q","eventId":"${eventId}","seq":${seq},"occurredAt":"${OCCURRED_AT}","event":{"type":"delta","text":"${TEXT}"}}`,
    );
  }
  return texts;
}

// ---------------------------------------------------------------------------
// Pools of distinct envelopes. A benchmark that parses one constant string
// again and again flatters every contender differently (V8 keeps the string's
// shape and the validator's last-id memory hot), so each parse row reads the
// next string of a pool of POOL_SIZE distinct ones, and every peer reads the
// same content in its own form, entry for entry.

/** How many distinct strings each parse row cycles through. */
export const POOL_SIZE = 256;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const WORDS = (
  'the refund window opens when the parcel arrives and closes thirty days later unless the item was ' +
  'used opened or damaged in transit digital goods follow their own terms and a download that has started ' +
  'cannot be returned payments go back to the card or account they came from within five to ten business days ' +
  'after approval customers may ask support for an exception citing the order number and the reason'
).split(' ');

/** A ULID-like id: `prefix_` and ten Crockford base-32 characters, like the typical envelope's. */
function idOf(prefix, random) {
  let id = `${prefix}_`;
  for (let index = 0; index < 10; index += 1) id += CROCKFORD[Math.floor(random() * 32)];
  return id;
}

// Model text is mostly ASCII, but not all of it: now and then a word outside
// Latin-1 (a dash, a curly quote, an emoji) makes the whole string two-byte,
// which is the slower case for every scan of it.
const RARE_WORDS = ['café', 'naïve', '—', 'customer’s', '“exception”', '😀', '👍🏽', '→'];

/** Prose of exactly `length` characters from the word lists, capitalized, ending in a space or a full stop. */
function proseOf(length, random) {
  let text = '';
  while (text.length < length) {
    const word = random() < 0.02 ? RARE_WORDS[Math.floor(random() * RARE_WORDS.length)] : WORDS[Math.floor(random() * WORDS.length)];
    text += `${word} `;
  }
  text = text.slice(0, length - 1);
  // Never cut an emoji in half: v1 text is well-formed, and a lone surrogate would be refused.
  if (/[\ud800-\udbff]$/.test(text)) text = `${text.slice(0, -1)}a`;
  return text[0].toUpperCase() + text.slice(1) + (random() < 0.5 ? ' ' : '.');
}

/**
 * What one pool entry carries, whatever the protocol: ids of the typical sizes,
 * a seq, a millisecond timestamp and the entry's own text. A pool reads like
 * the streams a client or host parses: 4 conversations of 4 turns of 16 events,
 * in stream order, so the conversation and turn ids repeat as on a real
 * connection while every event id, seq, timestamp and text is its own.
 */
function entryOf(index, random, streams) {
  if (index % 64 === 0) streams.conversationId = idOf('conv', random);
  if (index % 16 === 0) {
    streams.turnId = idOf('turn', random);
    streams.messageId = idOf('msg', random);
  }
  streams.time += 200 + Math.floor(random() * 2_000);
  return {
    conversationId: streams.conversationId,
    turnId: streams.turnId,
    eventId: idOf('evt', random),
    messageId: streams.messageId,
    callId: idOf('call', random),
    seq: 1 + (index % 16),
    timestampMs: streams.time,
    occurredAt: new Date(streams.time).toISOString(),
  };
}

function envelopeText(entry, event) {
  return JSON.stringify({
    schemaVersion: 1,
    conversationId: entry.conversationId,
    turnId: entry.turnId,
    eventId: entry.eventId,
    seq: entry.seq,
    occurredAt: entry.occurredAt,
    event,
  });
}

/** `{ core, agUi, aiSdk }` string pools of one shape, entry `i` of each carrying the same content. */
function poolOf(seed, build) {
  const random = seededRandom(seed);
  const pool = { core: [], agUi: [], aiSdk: [] };
  const streams = { conversationId: '', turnId: '', messageId: '', time: Date.parse('2026-11-29T12:00:00.000Z') };
  for (let index = 0; index < POOL_SIZE; index += 1) {
    const strings = build(entryOf(index, random, streams), random);
    pool.core.push(strings.core);
    pool.agUi.push(strings.agUi);
    pool.aiSdk.push(strings.aiSdk);
  }
  return pool;
}

/** Deltas of 45 characters, as the typical envelope of issue #2 carries. */
export const deltaPool = poolOf(1, (entry, random) => {
  const text = proseOf(45, random);
  return {
    core: envelopeText(entry, { type: 'delta', text }),
    agUi: JSON.stringify({ type: 'TEXT_MESSAGE_CONTENT', messageId: entry.messageId, delta: text, timestamp: entry.timestampMs }),
    aiSdk: JSON.stringify({ type: 'text-delta', id: entry.messageId, delta: text }),
  };
});

const REFS = ['doc://policies/refunds#section-', 'doc://terms/digital-goods#clause-', 'doc://help/payments#topic-'];
const LABELS = ['Refund policy, section ', 'Terms: digital goods, clause ', 'Help: payments, topic '];

function sourcesOf(count, random) {
  const sources = [];
  for (let index = 0; index < count; index += 1) {
    const number = 1 + Math.floor(random() * 40);
    sources.push({ ref: `${REFS[index % 3]}${number}`, label: `${LABELS[index % 3]}${number}` });
  }
  return sources;
}

/**
 * One tool result in the three wire forms: ours (`tool_result` with a summary
 * and grounded text blocks), AG-UI's `TOOL_CALL_RESULT` (the summary and each
 * block as text content parts; AG-UI has no sources, so they ride in each
 * part's free `metadata`), and the AI SDK's `tool-output-available` (the same
 * summary and blocks as the tool's free `output`).
 */
function toolResultStrings(entry, summary, blocks) {
  return {
    core: envelopeText(entry, {
      type: 'tool_result',
      callId: entry.callId,
      name: 'search_documents',
      status: 'succeeded',
      summary,
      blocks: blocks.map((block) => ({ kind: 'text', text: block.text, sources: block.sources })),
    }),
    agUi: JSON.stringify({
      type: 'TOOL_CALL_RESULT',
      messageId: entry.messageId,
      toolCallId: entry.callId,
      role: 'tool',
      timestamp: entry.timestampMs,
      content: [
        { type: 'text', text: summary },
        ...blocks.map((block) => ({ type: 'text', text: block.text, metadata: { sources: block.sources } })),
      ],
    }),
    aiSdk: JSON.stringify({
      type: 'tool-output-available',
      toolCallId: entry.callId,
      output: { summary, blocks: blocks.map((block) => ({ kind: 'text', text: block.text, sources: block.sources })) },
    }),
  };
}

/** A tool result grounded in one passage of 900 characters with three sources (about 1.5 KB). */
export const groundedToolResultPool = poolOf(2, (entry, random) =>
  toolResultStrings(entry, proseOf(72, random), [{ text: proseOf(900, random), sources: sourcesOf(3, random) }]),
);

/** The tool result of issue #2's bench: a summary and three short text blocks with one to two sources each (about 1.1 KB). */
export const shortBlocksToolResultPool = poolOf(3, (entry, random) =>
  toolResultStrings(entry, proseOf(72, random), [
    { text: proseOf(121, random), sources: sourcesOf(1, random) },
    { text: proseOf(99, random), sources: sourcesOf(2, random) },
    { text: proseOf(97, random), sources: sourcesOf(1, random) },
  ]),
);
