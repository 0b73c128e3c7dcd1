import fc from 'fast-check';
import { isChatId, type ChatEventEnvelope, type ChatEventV1 } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { envelopeArb, idArb, nameArb, textArb } from '../../../test-support/v1-arbitraries.js';
import { dotted } from '../test/dotted-dialect.js';
import { dottedFrameArb, papercupFrameArb, scoutFrameArb, type Frame } from '../test/legacy-arbitraries.js';
import { encodeLegacyChatFrame, papercup, scout, upgradeLegacyChatFrame, type LegacyDialect } from './index.js';
import { runs } from '../../../test-support/property-runs.js';

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
  // A turn that ends waiting for the person (issue 13): a legacy done cannot say which cards outlive it.
  if (event.type === 'done' && event.awaiting !== undefined) return false;
  if (event.type === 'tool_result' && event.status !== 'succeeded' && event.status !== 'failed') return false;
  if (event.type === 'card' && (hasSubMillisecond(event.card.createdAt) || hasSubMillisecond(event.card.expiresAt))) return false;
  switch (dialect) {
    case papercup:
      return event.type !== 'reasoning' && event.type !== 'user_input';
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
// Its allowDecline crosses as an explicit boolean (issue 13): absent is false.
function instantsOf(event: ChatEventV1): ChatEventV1 {
  if (event.type !== 'card') return event;
  const utc = (time: string) => new Date(Date.parse(time)).toISOString().replace('.000Z', 'Z');
  const { createdAt, expiresAt, allowDecline } = event.card;
  return {
    ...event,
    card: {
      ...event.card,
      createdAt: utc(createdAt),
      ...(expiresAt === undefined ? {} : { expiresAt: utc(expiresAt) }),
      allowDecline: allowDecline === true,
    },
  };
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
      { numRuns: runs(1_000) },
    );
  });

  it('issue 13: a tool call input crosses unchanged whatever JSON value it is (objects, strings, arrays, numbers, null)', () => {
    const [callType, nameField, inputField] =
      dialect === papercup
        ? ['tool_call', 'name', 'input']
        : dialect === scout
          ? ['tool_start', 'tool', 'input']
          : ['tool.activity', 'toolName', 'args'];
    for (const input of [{ query: 'boots' }, 'search boots', ['boots', 3], 42, null]) {
      const data = { [nameField]: 'search', [inputField]: input };
      const frame: Frame =
        dialect === papercup
          ? { event: callType, data: JSON.stringify({ ...data, callId: 'call_1' }) }
          : {
              data: JSON.stringify({
                [dialect === scout ? 'type' : 'kind']: callType,
                ...data,
                [dialect === scout ? 'callId' : 'toolCallId']: 'call_1',
              }),
            };
      const upgraded = upgradeLegacyChatFrame(frame, { ...IDENTITY, dialect });
      expect(upgraded).toMatchObject({ ok: true, envelope: { event: { type: 'tool_call', callId: 'call_1', name: 'search', input } } });
      if (!upgraded.ok || upgraded.kind !== 'envelope') return;
      const encoded = encodeLegacyChatFrame(upgraded.envelope, { dialect });
      expect(encoded.ok && fields(encoded.frame)).toEqual(fields(frame));
    }
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
      { numRuns: runs(1_000) },
    );
  });
});

describe.each([papercup, scout] as LegacyDialect[])(
  'the deliberate losses of $name, documented (issue 12: an error is never lost)',
  (dialect) => {
    // An error frame's data, projected back through v1: what the legacy reader gets after the round trip.
    const throughV1 = (data: Record<string, unknown>): unknown => {
      const frame =
        dialect === scout ? { data: JSON.stringify({ type: 'error', ...data }) } : { event: 'error', data: JSON.stringify(data) };
      return projected(upgradeLegacyChatFrame(frame, { ...IDENTITY, dialect }), dialect);
    };
    const asFrame = (data: Record<string, unknown>) => (dialect === scout ? { type: 'error', ...data } : data);
    const codeArb = idArb.filter((code) => code !== 'stream-error');

    it('an error whose retry delay comes without permission comes back without the delay, and nothing else changes', () => {
      const errorArb = fc.record({
        message: nameArb,
        code: codeArb,
        retryable: fc.constantFrom(false, undefined),
        retryAfterMs: fc.integer({ min: 0, max: 86_400_000 }),
      });
      fc.assert(
        fc.property(errorArb, ({ retryable, ...error }) => {
          const { retryAfterMs: _dropped, ...kept } = error;
          expect(throughV1(retryable === undefined ? error : { ...error, retryable })).toEqual(asFrame(kept));
        }),
        { numRuns: runs(500) },
      );
    });

    it('a retry delay v1 cannot hold (fractional, negative, past one day) comes back without it, the permission kept', () => {
      const delayArb = fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((delay) => !Number.isInteger(delay)),
        fc.integer({ max: -1 }),
        fc.integer({ min: 86_400_001 }),
      );
      fc.assert(
        fc.property(nameArb, codeArb, delayArb, (message, code, retryAfterMs) => {
          expect(throughV1({ message, code, retryable: true, retryAfterMs })).toEqual(asFrame({ message, code, retryable: true }));
        }),
        { numRuns: runs(500) },
      );
    });

    it('a code that is not a v1 id comes back as the default stream-error, so without a code', () => {
      const badCodeArb = fc.oneof(
        fc.string().filter((code) => !isChatId(code)),
        fc.string({ minLength: 257, maxLength: 300, unit: fc.constant('c') }),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
      );
      fc.assert(
        fc.property(nameArb, badCodeArb, (message, code) => {
          expect(throughV1({ message, code })).toEqual(asFrame({ message }));
        }),
        { numRuns: runs(500) },
      );
    });

    it('a message past the bound comes back cut to its first 4,096 code units that end on a code point', () => {
      const longArb = fc
        .tuple(fc.integer({ min: 4_080, max: 4_100 }), fc.array(fc.constantFrom('a', '😀', 'é', '\n'), { maxLength: 20 }))
        .map(([length, tail]) => 'x'.repeat(length) + tail.join(''));
      fc.assert(
        fc.property(longArb, codeArb, (message, code) => {
          // The cut, said independently: whole code points while they fit.
          let expected = '';
          for (const point of message)
            if (expected.length + point.length <= 4_096) expected += point;
            else break;
          expect(throughV1({ message, code })).toEqual(asFrame({ message: expected, code }));
        }),
        { numRuns: runs(500) },
      );
    });

    it('characters v1 text refuses come back as U+FFFD, one for one, in the message; an empty message as stream error', () => {
      const uncleanArb = fc.constantFrom('\u0000', '\u0007', '\u000b', '\u001b', '\u001f', '\ud800', '\udbff', '\udc00', '\udfff');
      const piecesArb = fc.array(fc.tuple(fc.string({ minLength: 1, maxLength: 8 }), uncleanArb), { minLength: 1, maxLength: 12 });
      fc.assert(
        fc.property(piecesArb, codeArb, (pieces, code) => {
          const message = pieces.map(([clean, unclean]) => clean + unclean).join('');
          const expected = pieces.map(([clean]) => `${clean}\ufffd`).join('');
          expect(throughV1({ message, code })).toEqual(asFrame({ message: expected, code }));
        }),
        { numRuns: runs(500) },
      );
      expect(throughV1({ message: '', code: 'c' })).toEqual(asFrame({ message: 'stream error', code: 'c' }));
    });
  },
);

describe('the deliberate loss of papercup’s plain-text error (issue 12: an error is never lost)', () => {
  it('a plain-text error comes back as the JSON error with that text as its message', () => {
    const plainTextArb = textArb.filter((text) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    });
    fc.assert(
      fc.property(plainTextArb, (text) => {
        const upgraded = upgradeLegacyChatFrame({ event: 'error', data: text }, { ...IDENTITY, dialect: papercup });
        expect(projected(upgraded, papercup)).toEqual({ message: text === '' ? 'stream error' : text });
      }),
      { numRuns: runs(500) },
    );
  });
});

/** The data of the frame an upgraded envelope projects back onto. */
function projected(upgraded: ReturnType<typeof upgradeLegacyChatFrame>, dialect: LegacyDialect): unknown {
  if (!upgraded.ok || upgraded.kind !== 'envelope') throw new Error(JSON.stringify(upgraded));
  const encoded = encodeLegacyChatFrame(upgraded.envelope, { dialect });
  if (!encoded.ok) throw new Error(encoded.message);
  return JSON.parse(encoded.frame.data);
}
