/**
 * The wire strings every contender reads: our v1 envelopes and the peers'
 * equivalent events, carrying the same text, the same id sizes and the same
 * tool result content, so the ratios compare validation work, not payloads.
 */

const TEXT = 'The quick brown fox jumps over the lazy dog. ';
const OCCURRED_AT = '2026-11-29T12:34:56.789Z';
const TIMESTAMP_MS = Date.parse(OCCURRED_AT);

/** A typical `delta` envelope, exactly as issue #2 gives it. */
export const deltaEnvelopeText =
  '{"schemaVersion":1,"conversationId":"conv_01HZX3K8M2","turnId":"turn_01HZX3KB7Q","eventId":"evt_01HZX3KC9R","seq":42,"occurredAt":"2026-11-29T12:34:56.789Z","event":{"type":"delta","text":"The quick brown fox jumps over the lazy dog. "}}';

/** AG-UI's equivalent of a delta: TEXT_MESSAGE_CONTENT with a same-size id and the event's time. */
export const agUiTextContentText = JSON.stringify({
  type: 'TEXT_MESSAGE_CONTENT',
  messageId: 'msg_01HZX3KC9R',
  delta: TEXT,
  timestamp: TIMESTAMP_MS,
});

/** The AI SDK's equivalent of a delta: a `text-delta` UI message chunk. */
export const aiSdkTextDeltaText = JSON.stringify({ type: 'text-delta', id: 'txt_01HZX3KC9R', delta: TEXT });

// A tool result grounded in three passages; the same summary, texts and sources go to AG-UI.
const SUMMARY = 'Found 3 passages about refund windows in the customer policy documents.';
const BLOCKS = [
  {
    text: 'Customers may request a full refund within 30 days of delivery, provided the item is unused and in its original packaging.',
    sources: [{ ref: 'doc://policies/refunds#section-2', label: 'Refund policy, section 2' }],
  },
  {
    text: 'Digital goods are refundable within 14 days unless the download or activation has already started.',
    sources: [
      { ref: 'doc://policies/refunds#section-4', label: 'Refund policy, section 4' },
      { ref: 'doc://terms/digital-goods#withdrawal', label: 'Terms: digital goods' },
    ],
  },
  {
    text: 'Refunds are issued to the original payment method within 5 to 10 business days after approval.',
    sources: [{ ref: 'doc://help/payments#refund-timing', label: 'Help: refund timing' }],
  },
];

/** A `tool_result` envelope with a summary and three text blocks with sources. */
export const toolResultEnvelopeText = JSON.stringify({
  schemaVersion: 1,
  conversationId: 'conv_01HZX3K8M2',
  turnId: 'turn_01HZX3KB7Q',
  eventId: 'evt_01HZX3KD2S',
  seq: 43,
  occurredAt: '2026-11-29T12:34:57.012Z',
  event: {
    type: 'tool_result',
    callId: 'call_01HZX3KCZ4',
    name: 'search_documents',
    status: 'succeeded',
    summary: SUMMARY,
    blocks: BLOCKS.map((block) => ({ kind: 'text', text: block.text, sources: block.sources })),
  },
});

/**
 * AG-UI's equivalent: TOOL_CALL_RESULT whose content parts are the summary and
 * the blocks; AG-UI has no sources, so they ride in each part's free `metadata`.
 */
export const agUiToolCallResultText = JSON.stringify({
  type: 'TOOL_CALL_RESULT',
  messageId: 'msg_01HZX3KD2S',
  toolCallId: 'call_01HZX3KCZ4',
  role: 'tool',
  timestamp: Date.parse('2026-11-29T12:34:57.012Z'),
  content: [
    { type: 'text', text: SUMMARY },
    ...BLOCKS.map((block) => ({ type: 'text', text: block.text, metadata: { sources: block.sources } })),
  ],
});

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
