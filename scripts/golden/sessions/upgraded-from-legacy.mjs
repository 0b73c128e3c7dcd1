// @ts-check
// upgraded-from-papercup / upgraded-from-scout: the hand-written legacy
// captures `<name>.capture.sse`, read with one frame decoder per connection.
// The host context gives ids and times as a migrating host would: event ids
// and times from its own clock, call ids by tool name for frames without one.

import { readFileSync } from 'node:fs';
import { createChatFrameDecoder, papercup, scout } from '@papercusp/chat-protocol-legacy-adapter';
import { createParser } from 'eventsource-parser';
import { GOLDEN_FOLDER } from '../golden-folder.mjs';
import { callId, conversationIdOf, eventSeed, iso, turnSeed, ulid } from '../ids.mjs';

/**
 * The envelopes the legacy adapter upgrades the capture `<name>.capture.sse` to.
 * @param {string} name
 * @param {import('@papercusp/chat-protocol-legacy-adapter').LegacyDialect} dialect
 * @param {number} start
 * @returns {import('@papercusp/chat-protocol-core').ChatEventEnvelope[]}
 */
function upgradedSession(name, dialect, start) {
  /** @type {import('eventsource-parser').EventSourceMessage[]} */
  const messages = [];
  createParser({ onEvent: (message) => messages.push(message) }).feed(readFileSync(new URL(`${name}.capture.sse`, GOLDEN_FOLDER), 'utf8'));
  const conversationId = conversationIdOf(name, start);
  const turnId = `turn_${ulid(start, turnSeed(name, 0))}`;
  const decoder = createChatFrameDecoder({
    dialect,
    context: {
      conversationId,
      turnId,
      identify: ({ seq }) => ({ eventId: `evt_${ulid(start + seq * 400, eventSeed(name, 0, seq - 1))}`, occurredAt: iso(start + seq * 400) }),
      callId: ({ name: tool }) => callId(`${name}/${tool}`, start),
    },
  });
  /** @type {import('@papercusp/chat-protocol-core').ChatEventEnvelope[]} */
  const envelopes = [];
  for (const message of messages) {
    const result = decoder.decode(message);
    if (result.ok && result.kind === 'envelope') envelopes.push(result.envelope);
    else if (!result.ok && result.code !== 'unsupported-event') throw new Error(`${name}: ${result.code}: ${result.message}`);
  }
  return envelopes;
}

/** @type {import('../session.mjs').GoldenSession} */
export const upgradedFromPapercupSession = {
  name: 'upgraded-from-papercup',
  title: 'A papercup (legacy0) capture upgraded to v1',
  upgradedFrom: 'papercup',
  envelopes: upgradedSession('upgraded-from-papercup', papercup, Date.UTC(2026, 10, 30, 15, 0, 0, 0)),
};
/** @type {import('../session.mjs').GoldenSession} */
export const upgradedFromScoutSession = {
  name: 'upgraded-from-scout',
  title: 'A scout (legacy0) capture upgraded to v1; its product events have no v1 form',
  upgradedFrom: 'scout',
  envelopes: upgradedSession('upgraded-from-scout', scout, Date.UTC(2026, 10, 30, 16, 0, 0, 0)),
};
