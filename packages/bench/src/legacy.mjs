/**
 * The legacy adapter's cost during a migration (issue #4): lifting a papercup
 * `delta` frame into a v1 envelope, projecting the v1 envelope back down, and
 * reading the frame through the mixed-connection decoder, each against
 * `parseChatEnvelope` of the same event as v1 text. Informational: the adapter
 * re-validates every envelope with core's strict encoder, so it is expected to
 * cost a few parses. It exports contenders and rows; it times nothing itself.
 */
import { parseChatEnvelope } from '@papercusp/chat-protocol-core';
import { createChatFrameDecoder, encodeLegacyChatFrame, papercup, upgradeLegacyChatFrame } from '@papercusp/chat-protocol-legacy-adapter';
import { deltaEnvelopeText } from './fixtures.mjs';

const envelope = parseChatEnvelope(deltaEnvelopeText).value;
const { conversationId, turnId, eventId, seq, occurredAt } = envelope;
const frame = encodeLegacyChatFrame(envelope, { dialect: papercup }).frame;
const context = { dialect: papercup, conversationId, turnId, eventId, seq, occurredAt };
// A long-lived decoder, as on a real connection; its seq grows, which costs nothing.
const decoder = createChatFrameDecoder({
  dialect: papercup,
  context: { conversationId, turnId, identify: () => ({ eventId, occurredAt }) },
});

const isEnvelope = (result) => result.ok === true && result.kind === 'envelope';

/** The adapter's contenders; run.mjs measures them beside `delta/core`. */
export const legacyContenders = [
  { id: 'legacy/upgrade', run: () => upgradeLegacyChatFrame(frame, context), check: isEnvelope },
  { id: 'legacy/encode', run: () => encodeLegacyChatFrame(envelope, { dialect: papercup }), check: (result) => result.ok === true },
  { id: 'legacy/decoder', run: () => decoder.decode(frame), check: isEnvelope },
];

/** Rows for the legacy table, from samples that include `delta/core`. */
export function legacyRows({ samples, median, medianRatio }) {
  const core = samples.get('delta/core');
  const row = (id, contender, input) => ({
    contender,
    input,
    core: `${medianRatio(samples.get(id), core).toFixed(2)}×`,
    time: `${Math.round(median(samples.get(id)))} ns`,
  });
  return [
    row(
      'legacy/upgrade',
      '`upgradeLegacyChatFrame`: decode, lift, strict re-validation',
      `papercup \`delta\`, ${frame.data.length} B data`,
    ),
    row('legacy/encode', '`encodeLegacyChatFrame`: strict parse of the envelope, projection, SSE text', `v1 \`delta\` envelope object`),
    row('legacy/decoder', '`createChatFrameDecoder().decode` on the same frame', `papercup \`delta\`, ${frame.data.length} B data`),
  ];
}
