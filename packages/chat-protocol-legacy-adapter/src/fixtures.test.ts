import { readFileSync, writeFileSync } from 'node:fs';
import { applyChatEvent, createChatState, type ChatEventEnvelope, type ChatStateV1 } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { dotted } from '../test/dotted-dialect.js';
import { FIXTURES, readSseFixture } from '../test/sse.js';
import {
  createChatFrameDecoder,
  encodeLegacyChatFrame,
  papercup,
  scout,
  upgradeLegacyChatFrame,
  type ChatFrameDecoderCounts,
  type LegacyDialect,
} from './index.js';

// `UPDATE_LEGACY_FIXTURES=1` (the package's `fixtures` script) rewrites the
// pinned envelopes and states; review the diff before committing it.
const UPDATE = process.env['UPDATE_LEGACY_FIXTURES'] === '1';
const CONVERSATION_ID = 'conv_legacy_1';
const two = (value: number) => String(value).padStart(2, '0');

interface Capture {
  readonly dialect: LegacyDialect;
  readonly file: string;
  readonly counts: ChatFrameDecoderCounts;
}

const CAPTURES: readonly Capture[] = [
  {
    dialect: papercup,
    file: 'papercup/refund-lookup',
    counts: { v1: 0, legacy: 9, transport: 3, unsupported: 0, refusals: {} },
  },
  {
    dialect: scout,
    file: 'scout/product-search',
    counts: { v1: 0, legacy: 6, transport: 1, unsupported: 2, refusals: { 'unsupported-event': 2 } },
  },
  {
    dialect: dotted,
    file: 'dotted/refund-lookup',
    counts: { v1: 0, legacy: 5, transport: 2, unsupported: 0, refusals: {} },
  },
];

// The host side of a migration: ids and times come from the host, tool calls
// without an id get a stable one from their position in the turn.
function decoderFor(dialect: LegacyDialect, turnId: string) {
  return createChatFrameDecoder({
    dialect,
    context: {
      conversationId: CONVERSATION_ID,
      turnId,
      identify: ({ seq }) => ({ eventId: `${turnId}.evt_${seq}`, occurredAt: `2026-11-30T09:00:${two(seq)}Z` }),
      callId: ({ name, seq }) => `call_${name}_${seq}`,
    },
  });
}

function pinned<T>(path: string, actual: T): T {
  const url = new URL(path, FIXTURES);
  if (UPDATE) {
    const text = path.endsWith('.jsonl')
      ? (actual as readonly unknown[]).map((line) => `${JSON.stringify(line)}\n`).join('')
      : `${JSON.stringify(actual, null, 2)}\n`;
    writeFileSync(url, text);
  }
  const text = readFileSync(url, 'utf8');
  return (path.endsWith('.jsonl') ? text.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown) : JSON.parse(text)) as T;
}

describe.each(CAPTURES)('the captured $dialect.name session $file', ({ dialect, file, counts }) => {
  const turnId = `turn_${file.replace('/', '_')}`;
  const messages = readSseFixture(`legacy/${file}.sse`);
  const decoder = decoderFor(dialect, turnId);
  const results = messages.map((message) => decoder.decode(message));
  const envelopes = results.flatMap((result) => (result.ok && result.kind === 'envelope' ? [result.envelope] : []));

  it('upgrades to the pinned v1 envelopes (transport frames and product events yield none)', () => {
    expect(envelopes).toEqual(pinned(`legacy/${file}.expected.jsonl`, envelopes));
    expect(decoder.counts()).toEqual(counts);
  });

  it('replays cleanly through applyChatEvent to the pinned state', () => {
    let state: ChatStateV1 = createChatState(CONVERSATION_ID);
    for (const envelope of envelopes) {
      const applied = applyChatEvent(state, envelope);
      expect(applied).toMatchObject({ ok: true, outcome: 'applied' });
      if (applied.ok) state = applied.state;
    }
    expect(state).toEqual(pinned(`legacy/${file}.state.json`, state));
  });

  it('projects back onto the captured frames, adding only the identity the host supplied', () => {
    const captured = messages.filter((_, index) => results[index]?.ok === true && results[index]?.kind === 'envelope');
    expect(captured).toHaveLength(envelopes.length);
    envelopes.forEach((envelope, index) => {
      const encoded = encodeLegacyChatFrame(envelope, { dialect });
      if (!encoded.ok) throw new Error(encoded.message);
      const original = JSON.parse(captured[index]?.data ?? '') as Record<string, unknown>;
      const projected = JSON.parse(encoded.frame.data) as Record<string, unknown>;
      const added = Object.keys(projected).filter((key) => !(key in original));
      expect(added).toEqual(envelope.event.type === 'tool_call' && !('callId' in original) && dialect === scout ? ['callId'] : []);
      expect({ ...projected, callId: undefined }).toEqual({ ...original, callId: undefined });
      expect(roundTrip(envelope, dialect)).toEqual(envelope);
    });
  });
});

function roundTrip(envelope: ChatEventEnvelope, dialect: LegacyDialect): unknown {
  const encoded = encodeLegacyChatFrame(envelope, { dialect });
  if (!encoded.ok) return encoded;
  const upgraded = upgradeLegacyChatFrame(encoded.frame, { ...envelope, dialect });
  return upgraded.ok && upgraded.kind === 'envelope' ? upgraded.envelope : upgraded;
}
