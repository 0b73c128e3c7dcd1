import { applyChatEvent, createChatState, parseChatEnvelope } from '@papercusp/chat-protocol';
import { splitTurnText } from '@papercusp/chat-protocol/blocks';
import { decodeLegacyChatFrame, scout } from '@papercusp/chat-protocol/legacy';
import { createTurnId, isTurnId } from '@papercusp/chat-protocol/recovery';

// The root is core: parse an envelope from the wire and fold it into state.
const parsed = parseChatEnvelope({
  schemaVersion: 1,
  conversationId: 'conv_01J9',
  turnId: 'turn_01J9',
  eventId: 'evt_1',
  seq: 1,
  occurredAt: '2026-11-30T09:00:00Z',
  event: { type: 'delta', text: 'Shipped. <ask>{"question":"Close the ticket?","options":[{"id":"yes","label":"Yes"}]}</ask>' },
});
if (!parsed.ok) throw new Error(parsed.message);
const applied = applyChatEvent(createChatState('conv_01J9'), parsed.value);
if (!applied.ok) throw new Error(applied.message);
const [turn] = applied.state.turns;
console.log(`root: turn ${turn.status}, ${turn.text.length} characters of text`);

// Each subpath is one split package: blocks reads the turn's text ...
const segments = splitTurnText(turn.text);
console.log(
  `/blocks: ${segments.map((segment) => (segment.kind === 'ask' ? `ask "${segment.block.question}"` : segment.kind)).join(', ')}`,
);

// ... the legacy adapter reads an unversioned frame ...
const legacy = decodeLegacyChatFrame({ data: '{"type":"token","content":"Hi"}' }, { dialect: scout });
console.log(`/legacy: ${legacy.ok ? `${legacy.value.type} "${legacy.value.content}"` : legacy.code}`);

// ... and recovery gives the client the turn id it sends on every retry.
const turnId = createTurnId({ getRandomValues: (bytes) => bytes.fill(7) });
console.log(`/recovery: turn id ${turnId}, valid ${isTurnId(turnId)}`);
