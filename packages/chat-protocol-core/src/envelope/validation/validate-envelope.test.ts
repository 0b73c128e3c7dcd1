import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardArb, envelopeArb, mutate, mutationArb, neighbours } from '../../../../../test-support/v1-arbitraries.js';
import { ChatEventEnvelopeSchema } from '../envelope.js';
import { CardEventSchema } from '../../events/events.js';
import { parseChatEnvelope } from '../parse-chat-envelope.js';
import { isScreenedJsonText } from '../../primitives/primitives.js';
import { validateEnvelope, validateEvent } from './validate-envelope.js';
import { runs } from '../../../../../test-support/property-runs.js';

describe('the hot-path validator accepts and refuses exactly what ChatEventEnvelopeSchema does', () => {
  it('agrees on generated valid envelopes of every event type', () => {
    fc.assert(
      fc.property(envelopeArb, (envelope) => {
        expect(validateEnvelope(envelope)).toBeNull();
        expect(ChatEventEnvelopeSchema.safeParse(envelope).success).toBe(true);
      }),
      { numRuns: runs(5_000) },
    );
  });

  it('issue 12: both refuse an error event whose retryAfterMs is -0 (JSON writes it as 0), the case this property found', () => {
    const envelope = {
      schemaVersion: 1,
      conversationId: 'a',
      turnId: 'a',
      eventId: 'a',
      seq: 1,
      occurredAt: '1970-01-01T00:00:00Z',
      event: { type: 'error', code: 'a', message: ' ', retryable: true, retryAfterMs: -0 },
    };
    expect([validateEnvelope(envelope) === null, ChatEventEnvelopeSchema.safeParse(envelope).success]).toEqual([false, false]);
  });

  // Issue 13 follow-up: a card's report body is checked by hand on the hot path
  // (so a client's bundle holds no zod); these are its boundaries, each judged
  // as ReportBlockSchema judges it.
  const plan = { title: 'Ship', status: 'wip', items: [{ id: 'P-1', text: 'Cards' }] };
  it.each<[string, unknown, boolean]>([
    ['a report with a title and plans', { title: 'Status', plans: [plan] }, true],
    ['a goal-only report: no plans beside an extension', { plans: [], extensions: { goalReport: { goalId: 'g' } } }, true],
    ['no plans and no extension', { plans: [] }, false],
    ['an empty items list', { plans: [{ title: 'Ship', items: [] }] }, false],
    ['a padded title', { title: ' Status', plans: [plan] }, false],
    ['a blank item text', { plans: [{ title: 'Ship', items: [{ text: '  ' }] }] }, false],
    ['an item without text', { plans: [{ title: 'Ship', items: [{ id: 'P-1' }] }] }, false],
    ['a status past 256 characters', { plans: [{ title: 'Ship', status: 'x'.repeat(257) }] }, false],
    ['101 plans', { plans: Array.from({ length: 101 }, () => ({ title: 'Ship' })) }, false],
    ['an unknown key in a plan', { plans: [{ title: 'Ship', owner: 'me' }] }, false],
    ['an extension with a bad name', { plans: [plan], extensions: { 'bad name': 1 } }, false],
    ['an empty extensions object', { plans: [plan], extensions: {} }, false],
    [
      '17 extensions',
      { plans: [plan], extensions: Object.fromEntries(Array.from({ length: 17 }, (_, index) => [`e${index}`, index])) },
      false,
    ],
  ])("judges a card's report body as ReportBlockSchema does: %s", (_label, report, valid) => {
    const event = { type: 'card', card: { correlationId: 'card_1', createdAt: '2026-11-29T12:00:00Z', prompt: 'Status', report } };
    expect([validateEvent(event) === null, CardEventSchema.safeParse(event).success]).toEqual([valid, valid]);
    const envelope = {
      schemaVersion: 1,
      conversationId: 'a',
      turnId: 'a',
      eventId: 'a',
      seq: 1,
      occurredAt: '1970-01-01T00:00:00Z',
      event,
    };
    expect(parseChatEnvelope(JSON.stringify(envelope)).ok).toBe(valid);
  });

  it('agrees on near-valid envelopes (one key deleted, replaced or added anywhere)', () => {
    fc.assert(
      fc.property(envelopeArb, fc.array(mutationArb, { minLength: 1, maxLength: 2 }), (envelope, mutations) => {
        const candidate = mutations.reduce<unknown>((value, mutation) => mutate(value, mutation), envelope);
        const fast = validateEnvelope(candidate) === null;
        const schema = ChatEventEnvelopeSchema.safeParse(candidate).success;
        expect({ fast, candidate }).toEqual({ fast: schema, candidate });
      }),
      { numRuns: runs(2_000) },
    );
  });

  it('agrees on near-valid cards of every kind (one to three changes inside the card)', () => {
    fc.assert(
      fc.property(cardArb, fc.array(mutationArb, { minLength: 1, maxLength: 3 }), (card, mutations) => {
        const event = { type: 'card', card: mutations.reduce<unknown>((value, mutation) => mutate(value, mutation), card) };
        const fast = validateEvent(event) === null;
        const schema = CardEventSchema.safeParse(event).success;
        expect({ fast, event }).toEqual({ fast: schema, event });
      }),
      { numRuns: runs(2_000) },
    );
  });

  // Exhaustive around each start point (every key × every tricky value), so a
  // rule that differs at one boundary is found without luck; hence fewer runs.
  it('agrees on every single-step neighbour of generated envelopes and cards', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          envelopeArb,
          fc.tuple(envelopeArb, cardArb).map(([envelope, card]) => ({ ...envelope, event: { type: 'card', card } })),
        ),
        (envelope) => {
          for (const candidate of neighbours(envelope)) {
            const fast = validateEnvelope(candidate) === null;
            const schema = ChatEventEnvelopeSchema.safeParse(candidate).success;
            if (fast !== schema) expect({ fast, candidate }).toEqual({ fast: schema, candidate });
          }
        },
      ),
      { numRuns: runs(50) },
    );
  });

  it('agrees on arbitrary JSON values (the validator only ever sees JSON.parse output)', () => {
    fc.assert(
      fc.property(fc.anything(), (anything) => {
        const text = JSON.stringify(anything);
        fc.pre(text !== undefined);
        const value: unknown = JSON.parse(text);
        expect(validateEnvelope(value) === null).toBe(ChatEventEnvelopeSchema.safeParse(value).success);
      }),
      { numRuns: runs(5_000) },
    );
  });
});

// Strings at the edges of the clean-text rule, put anywhere in an envelope; the
// text keeps lone surrogates raw (JSON.parse takes them) so that it passes
// isScreenedJsonText and the screened tables, not the full ones, judge them.
const EDGE_CHARACTERS = ['a', '\t', '\n', '\b', '\f', '\u0000', '\u001f', '\\', '"', '\ud83d', '\ude00', '😀', 'é'];
const edgeMutationArb = fc.record({
  kind: fc.constant('replace' as const),
  pick: fc.nat(),
  value: fc.array(fc.constantFrom(...EDGE_CHARACTERS), { minLength: 1, maxLength: 6 }).map((characters) => characters.join('')),
  key: fc.constant('text'),
});
const rawSurrogates = (text: string) =>
  text.replace(/\\u(d[89a-f][0-9a-f]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

describe('a screened text is judged as strictly as any other (issue 12: parsing ahead of every peer)', () => {
  it('parseChatEnvelope agrees with ChatEventEnvelopeSchema on texts with edge strings, screened or not', () => {
    const numRuns = runs(2_000);
    let screened = 0;
    fc.assert(
      fc.property(
        fc.oneof(
          envelopeArb,
          fc.tuple(envelopeArb, cardArb).map(([envelope, card]) => ({ ...envelope, event: { type: 'card', card } })),
        ),
        fc.array(fc.oneof(edgeMutationArb, mutationArb), { minLength: 1, maxLength: 3 }),
        (envelope, mutations) => {
          const text = rawSurrogates(JSON.stringify(mutations.reduce<unknown>((value, mutation) => mutate(value, mutation), envelope)));
          if (isScreenedJsonText(text)) screened++;
          const parsed = parseChatEnvelope(text).ok;
          const schema = ChatEventEnvelopeSchema.safeParse(JSON.parse(text)).success;
          expect({ parsed, text }).toEqual({ parsed: schema, text });
        },
      ),
      { numRuns },
    );
    // About half the generated texts are screened (the rest hold a \b, \f or \u
    // escape), so both the screened and the full tables were exercised.
    expect(screened).toBeGreaterThan(numRuns / 4);
    expect(screened).toBeLessThan((3 * numRuns) / 4);
  });
});
