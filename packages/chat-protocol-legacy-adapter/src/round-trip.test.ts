import fc from 'fast-check';
import type { ChatEventEnvelope, ChatEventV1 } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { envelopeArb, idArb, nameArb } from '../../chat-protocol-core/test/arbitraries.js';
import { dotted } from '../test/dotted-dialect.js';
import { dottedFrameArb, papercupFrameArb, scoutFrameArb, type Frame } from '../test/legacy-arbitraries.js';
import { encodeLegacyChatFrame, papercup, scout, upgradeLegacyChatFrame, type LegacyDialect } from './index.js';

const IDENTITY = {
  conversationId: 'conv_1',
  turnId: 'turn_1',
  eventId: 'evt_1',
  seq: 1,
  occurredAt: '2026-11-30T09:00:00Z',
} as const;

const fields = (frame: { readonly event?: string | undefined; readonly data: string }) => ({
  event: frame.event,
  data: JSON.parse(frame.data) as unknown,
});

// Written from DESIGN §5 and the dialect tables, independently of the encoder:
// which v1 events a dialect cannot say.
const hasSubMillisecond = (time: string | undefined) => time !== undefined && /\.\d{3}\d*[1-9]/.test(time);
function hasLegacyForm(dialect: LegacyDialect, event: ChatEventV1): boolean {
  if (event.type === 'done' && event.status !== 'completed') return false;
  if (event.type === 'tool_result' && event.status !== 'succeeded' && event.status !== 'failed') return false;
  if (event.type === 'card' && (hasSubMillisecond(event.card.createdAt) || hasSubMillisecond(event.card.expiresAt))) return false;
  switch (dialect) {
    case papercup:
      return event.type !== 'reasoning';
    case scout:
      return ['delta', 'tool_call', 'card', 'card_closed', 'state', 'navigate', 'error', 'done'].includes(event.type);
    default:
      return (
        event.type === 'delta' ||
        event.type === 'tool_call' ||
        (event.type === 'tool_result' && Object.keys(event).length === 4) ||
        (event.type === 'done' && Object.keys(event).length === 2)
      );
  }
}

// A card's times cross legacy as epoch milliseconds: the instant survives, its
// written offset does not, and whole seconds are written without a fraction.
function instantsOf(event: ChatEventV1): ChatEventV1 {
  if (event.type !== 'card') return event;
  const utc = (time: string) => new Date(Date.parse(time)).toISOString().replace('.000Z', 'Z');
  const { createdAt, expiresAt } = event.card;
  return { ...event, card: { ...event.card, createdAt: utc(createdAt), ...(expiresAt === undefined ? {} : { expiresAt: utc(expiresAt) }) } };
}

const DIALECTS: readonly { readonly dialect: LegacyDialect; readonly frameArb: fc.Arbitrary<Frame> }[] = [
  { dialect: papercup, frameArb: papercupFrameArb },
  { dialect: scout, frameArb: scoutFrameArb },
  { dialect: dotted, frameArb: dottedFrameArb },
];

describe.each(DIALECTS)('the $dialect.name dialect is lossless where both sides can say it (DESIGN §5)', ({ dialect, frameArb }) => {
  it(`encode(upgrade(f)) equals f field for field, for frames with full identity`, () => {
    fc.assert(
      fc.property(frameArb, (frame) => {
        const upgraded = upgradeLegacyChatFrame(frame, { ...IDENTITY, dialect });
        if (!upgraded.ok || upgraded.kind !== 'envelope') throw new Error(JSON.stringify(upgraded));
        const encoded = encodeLegacyChatFrame(upgraded.envelope, { dialect });
        if (!encoded.ok) throw new Error(encoded.message);
        expect(fields(encoded.frame)).toEqual(fields(frame));
      }),
      { numRuns: 10_000 },
    );
  });

  it('upgrade(encode(e)) gives back the event of every v1 envelope with a legacy form, and only those encode', () => {
    fc.assert(
      fc.property(envelopeArb, (envelope: ChatEventEnvelope) => {
        const encoded = encodeLegacyChatFrame(envelope, { dialect });
        if (!hasLegacyForm(dialect, envelope.event)) {
          expect(encoded).toMatchObject({ ok: false, code: 'unsupported-event' });
          return;
        }
        if (!encoded.ok) throw new Error(encoded.message);
        expect(encoded.frame.id).toBe(`${envelope.turnId}:${envelope.seq}`);
        const { event, ...identity } = envelope;
        const upgraded = upgradeLegacyChatFrame(encoded.frame, { ...identity, dialect });
        if (!upgraded.ok || upgraded.kind !== 'envelope') throw new Error(JSON.stringify(upgraded));
        expect(upgraded.envelope).toEqual({ ...envelope, event: instantsOf(event) });
      }),
      { numRuns: 10_000 },
    );
  });
});

describe.each([papercup, scout] as LegacyDialect[])('the one deliberate loss of $name, documented (issue 12: an error is never lost)', (dialect) => {
  it('an error whose retry delay comes without permission comes back without the delay, and nothing else changes', () => {
    const errorArb = fc.record({
      message: nameArb,
      code: idArb.filter((code) => code !== 'stream-error'),
      retryable: fc.constantFrom(false, undefined),
      retryAfterMs: fc.integer({ min: 0, max: 86_400_000 }),
    });
    fc.assert(
      fc.property(errorArb, ({ retryable, ...error }) => {
        const data = retryable === undefined ? error : { ...error, retryable };
        const frame = dialect === scout ? { data: JSON.stringify({ type: 'error', ...data }) } : { event: 'error', data: JSON.stringify(data) };
        const upgraded = upgradeLegacyChatFrame(frame, { ...IDENTITY, dialect });
        if (!upgraded.ok || upgraded.kind !== 'envelope') throw new Error(JSON.stringify(upgraded));
        const encoded = encodeLegacyChatFrame(upgraded.envelope, { dialect });
        if (!encoded.ok) throw new Error(encoded.message);
        const { retryAfterMs: _dropped, ...kept } = error;
        expect(JSON.parse(encoded.frame.data)).toEqual(dialect === scout ? { type: 'error', ...kept } : kept);
      }),
      { numRuns: 1_000 },
    );
  });
});
