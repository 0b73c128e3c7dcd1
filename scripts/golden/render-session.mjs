// @ts-check
// The files of one golden session: its lines as the client received them,
// the state the reducer reaches from those lines, the history page, each
// legacy projection it has, and its index.json entry. Pure: it reads and
// writes no file (write-golden.mjs does), so a check and a write agree.
import {
  applyChatEvent,
  createChatCodec,
  createChatState,
  encodeChatEnvelope,
  formatChatCursor,
  historyFromChatState,
  parseChatEnvelope,
} from '@papercusp/chat-protocol-core';
import { encodeLegacyChatFrame, papercup, scout } from '@papercusp/chat-protocol-legacy-adapter';

/** @typedef {import('./session.mjs').GoldenSession} GoldenSession */
/** @typedef {import('@papercusp/chat-protocol-core').ChatEventEnvelope} ChatEventEnvelope */
/** @typedef {import('@papercusp/chat-protocol-core').ChatStateV1} ChatStateV1 */

const DIALECTS = [papercup, scout];

/**
 * One connection as index.json records it: the Last-Event-ID it opened with
 * and how many lines it delivered.
 * @typedef {{ readonly lastEventId: string | null; readonly envelopes: number }} GoldenConnectionEntry
 */

/**
 * What index.json says of a session.
 * @typedef {{
 *   readonly name: string;
 *   readonly title: string;
 *   readonly scenario: readonly string[];
 *   readonly connections: readonly GoldenConnectionEntry[];
 *   readonly responses: readonly import('@papercusp/chat-protocol-core').CardResponse[];
 *   readonly upgradedFrom?: { readonly dialect: 'papercup' | 'scout'; readonly capture: string };
 *   readonly productEvents?: GoldenSession['productEvents'];
 * }} GoldenIndexEntry
 */

/**
 * The envelopes in the order the client received them, and each connection's size.
 * @param {GoldenSession} session
 */
function deliver({ envelopes, connections = [{ after: null, through: null }] }) {
  /** @type {GoldenSession['envelopes'][number][]} */
  const delivered = [];
  const manifest = connections.map(({ after, through }) => {
    const sent = envelopes.filter((envelope) => envelope.seq > (after ?? 0) && (through === null || envelope.seq <= through));
    if (new Set(sent.map((envelope) => envelope.turnId)).size > 1 && (after !== null || through !== null)) {
      throw new Error('a connection that resumes or drops must carry one turn');
    }
    delivered.push(...sent);
    const first = sent[0];
    if (after !== null && first === undefined) throw new Error('a connection that resumes must deliver an envelope');
    return { lastEventId: after === null || first === undefined ? null : formatChatCursor({ turnId: first.turnId, seq: after }), envelopes: sent.length };
  });
  return { delivered, connections: manifest };
}

// A golden session's product events are judged for their bounds only: the
// session pins the wire and the state, and names each event's channel.
const ANY_DATA = { '~standard': { version: /** @type {const} */ (1), vendor: 'golden', validate: (/** @type {unknown} */ value) => ({ value }) } };

/**
 * The encoder, parser and reducer that read `session`: the base ones, or a
 * codec of its product events.
 * @param {GoldenSession} session
 * @returns {{
 *   encodeChatEnvelope: (record: import('@papercusp/chat-protocol-core').ChatEnvelopeRecord) => import('@papercusp/chat-protocol-core').EncodeChatEnvelopeResult;
 *   parseChatEnvelope: (input: unknown) => import('@papercusp/chat-protocol-core').ParseChatEnvelopeResult;
 *   applyChatEvent: (state: ChatStateV1, envelope: ChatEventEnvelope) => import('@papercusp/chat-protocol-core').ApplyChatEventResult;
 * }}
 */
function codecOf(session) {
  if (session.productEvents === undefined) return { encodeChatEnvelope, parseChatEnvelope, applyChatEvent: (state, envelope) => applyChatEvent(state, envelope) };
  const codec = createChatCodec({
    events: Object.fromEntries(Object.entries(session.productEvents).map(([name, channel]) => [name, { schema: ANY_DATA, channel }])),
  });
  return /** @type {ReturnType<typeof codecOf>} */ (/** @type {unknown} */ (codec));
}

/**
 * Renders `session` into its files (by name in fixtures/golden/) and its
 * index.json entry. Throws when the session is not what a reader accepts:
 * a golden session that does not replay is a defect of this script.
 * @param {GoldenSession} session
 * @returns {{ files: Record<string, string>; entry: GoldenIndexEntry }}
 */
export function renderSession(session) {
  const { delivered, connections } = deliver(session);
  const { encodeChatEnvelope, parseChatEnvelope, applyChatEvent } = codecOf(session);
  const lines = delivered.map((record) => {
    const encoded = encodeChatEnvelope(record);
    if (!encoded.ok) throw new Error(`${session.name} ${record.turnId}:${record.seq}: ${encoded.code}: ${encoded.message}`);
    return encoded.json;
  });
  const first = delivered[0];
  if (first === undefined) throw new Error(`${session.name}: no envelopes`);
  // The state comes from the written lines, exactly as a reader replays them.
  let state = createChatState(first.conversationId);
  /** @type {ChatEventEnvelope[]} */
  const applied = [];
  for (const line of lines) {
    const parsed = parseChatEnvelope(line);
    if (!parsed.ok) throw new Error(`${session.name}: ${parsed.code}: ${parsed.message}`);
    const result = applyChatEvent(state, parsed.value);
    if (!result.ok) throw new Error(`${session.name}: not applied: ${JSON.stringify(result)}`);
    if (result.outcome === 'applied') applied.push(parsed.value);
    state = result.state;
  }
  /** @type {Record<string, string>} */
  const files = {
    [`${session.name}.jsonl`]: `${lines.join('\n')}\n`,
    [`${session.name}.state.json`]: `${JSON.stringify(state, null, 2)}\n`,
    [`${session.name}.history.json`]: `${JSON.stringify({ turns: historyFromChatState(state), hasMoreEarlier: false }, null, 2)}\n`,
  };
  // A projection exists for a dialect only when every applied envelope has a legacy form.
  for (const dialect of DIALECTS) {
    const frames = applied.map((envelope) => encodeLegacyChatFrame(envelope, { dialect }));
    if (frames.every((frame) => frame.ok)) files[`${session.name}.${dialect.name}.sse`] = frames.map((frame) => (frame.ok ? frame.sse : '')).join('');
  }
  const entry = {
    name: session.name,
    title: session.title,
    scenario: session.scenario ?? [],
    connections,
    responses: session.responses ?? [],
    ...(session.upgradedFrom === undefined ? {} : { upgradedFrom: { dialect: session.upgradedFrom, capture: `${session.name}.capture.sse` } }),
    ...(session.productEvents === undefined ? {} : { productEvents: session.productEvents }),
  };
  return { files, entry };
}
