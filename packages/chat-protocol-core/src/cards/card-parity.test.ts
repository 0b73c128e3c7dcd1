/**
 * Issue 13 "Parity with the shipped Papercusp surface", cards (DESIGN §3.7):
 * the fields Papercusp's CardSpec / OpenCardSnapshot carry, prompt-only cards
 * and how they are answered, `timeoutMs` expiry and decline reasons.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { cardDeadline } from './card-rules.js';
import { CARD_LIMITS, CARD_OPTION_STYLES, isCardDataSchemaJson, type OpenCardSnapshotV1 } from './card-schemas.js';
import { promptOnlyCardKind } from './prompt-only-cards.js';
import { parseOpenCardSnapshot } from './parse-card.js';
import { validateCardResponse } from './validate-card-response.js';
import { createCardCodec } from './card-codec.js';
import { parseChatEnvelope } from '../envelope/parse-chat-envelope.js';

const CREATED_AT = '2026-11-29T12:00:00Z';
const PLAIN: OpenCardSnapshotV1 = { correlationId: 'card_plain', createdAt: CREATED_AT, prompt: 'Anything else before I order?' };
const APPROVAL = {
  title: 'write_file src/app.ts',
  question: 'Apply this change?',
  body: ['--- a/src/app.ts', '+++ b/src/app.ts', '-const a = 1;', '+const a = 2;'],
};
const APPROVAL_CARD: OpenCardSnapshotV1 = {
  correlationId: 'card_approval',
  createdAt: CREATED_AT,
  prompt: 'Apply this change?',
  approval: APPROVAL,
  allowDecline: true,
};
const REPORT = {
  title: 'Issue 13',
  plans: [
    {
      slug: 'issue-13',
      title: 'Parity with Papercusp',
      status: 'wip',
      items: [{ id: 'P-001', text: 'Cards carry every field', status: 'done', ref: 'plan:issue-13' }],
    },
  ],
};
const REPORT_CARD: OpenCardSnapshotV1 = {
  correlationId: 'card_report',
  createdAt: CREATED_AT,
  prompt: 'Where issue 13 stands',
  report: REPORT,
};
const STYLED: OpenCardSnapshotV1 = {
  correlationId: 'card_styled',
  createdAt: CREATED_AT,
  prompt: 'Delete your cart?',
  presentation: {
    kind: 'radio',
    voiceAnswerable: true,
    options: [
      { id: 'yes', label: 'Delete', style: 'danger', hint: 'This cannot be undone' },
      { id: 'no', label: 'Keep', style: 'default' },
    ],
  },
  dataSchemaJson: { type: 'object', properties: { optionId: { type: 'string', enum: ['yes', 'no'] } }, required: ['optionId'] },
};

function envelopeWith(card: unknown) {
  return {
    schemaVersion: 1,
    conversationId: 'conv_1',
    turnId: 'turn_1',
    eventId: 'evt_1',
    seq: 1,
    occurredAt: CREATED_AT,
    event: { type: 'card', card },
  };
}

describe('issue 13: the card fields Papercusp ships parse strictly (DESIGN §3.7)', () => {
  it.each([
    ['a plain prompt-only card', PLAIN],
    ['a tool-approval card', APPROVAL_CARD],
    ['a card that only shows a report', REPORT_CARD],
    ['a radio card with a report body', { ...REPORT_CARD, presentation: { kind: 'radio', options: [{ id: 'ok', label: 'Looks right' }] } }],
    ['options with hint and style, voiceAnswerable, dataSchemaJson', STYLED],
    ['voiceAnswerable on a text card', { ...PLAIN, presentation: { kind: 'text', voiceAnswerable: false } }],
    [
      'a select card with a placeholder',
      { ...PLAIN, presentation: { kind: 'select', placeholder: 'Pick a rubric', options: [{ id: 'a', label: 'A' }] } },
    ],
    ['an approval with an empty body', { ...APPROVAL_CARD, approval: { ...APPROVAL, body: [] } }],
  ])('§3.7 %s is a v1 card, the same through the schema and the hot-path envelope validator', (_label, card) => {
    expect(parseOpenCardSnapshot(card)).toEqual({ ok: true, value: card });
    const parsed = parseChatEnvelope(envelopeWith(card));
    expect(parsed.ok && parsed.value.event).toEqual({ type: 'card', card });
  });

  it('exports the option styles as a const list', () => {
    expect(CARD_OPTION_STYLES).toEqual(['default', 'primary', 'danger']);
    expect(Object.isFrozen(CARD_OPTION_STYLES)).toBe(true);
  });

  it.each([
    [
      'an unknown option style',
      { ...STYLED, presentation: { kind: 'radio', options: [{ id: 'a', label: 'A', style: 'warning' }] } },
      ['presentation', 'options', 0, 'style'],
    ],
    [
      'a hint past its bound',
      { ...STYLED, presentation: { kind: 'radio', options: [{ id: 'a', label: 'A', hint: 'x'.repeat(CARD_LIMITS.maxHintLength + 1) }] } },
      ['presentation', 'options', 0, 'hint'],
    ],
    [
      'voiceAnswerable as a string',
      { ...PLAIN, presentation: { kind: 'radio', voiceAnswerable: 'yes', options: [{ id: 'a', label: 'A' }] } },
      ['presentation', 'voiceAnswerable'],
    ],
    ['an approval without a question', { ...APPROVAL_CARD, approval: { title: 't', body: [] } }, ['approval', 'question']],
    ['an approval with an empty title', { ...APPROVAL_CARD, approval: { ...APPROVAL, title: '' } }, ['approval', 'title']],
    ['an approval with an extra key', { ...APPROVAL_CARD, approval: { ...APPROVAL, tool: 'write_file' } }, ['approval', 'tool']],
    [
      'an approval body line past its bound',
      { ...APPROVAL_CARD, approval: { ...APPROVAL, body: ['x'.repeat(CARD_LIMITS.maxApprovalBodyLineLength + 1)] } },
      ['approval', 'body', 0],
    ],
    [
      'an approval body past its line count',
      { ...APPROVAL_CARD, approval: { ...APPROVAL, body: Array.from({ length: CARD_LIMITS.maxApprovalBodyLines + 1 }, () => 'x') } },
      ['approval', 'body'],
    ],
    ['a report without plans', { ...REPORT_CARD, report: { title: 'Empty', plans: [] } }, ['report', 'plans']],
    ['a report plan with a blank title', { ...REPORT_CARD, report: { plans: [{ title: '  ' }] } }, ['report', 'plans', 0, 'title']],
    [
      'a report item with an unknown key',
      { ...REPORT_CARD, report: { plans: [{ title: 'T', items: [{ text: 'x', owner: 'ana' }] }] } },
      ['report', 'plans', 0, 'items', 0, 'owner'],
    ],
    ['dataSchemaJson as a string', { ...PLAIN, dataSchemaJson: '{"type":"object"}' }, ['dataSchemaJson']],
    ['dataSchemaJson as an array', { ...PLAIN, dataSchemaJson: [] }, ['dataSchemaJson']],
    [
      'dataSchemaJson past its bound',
      { ...PLAIN, dataSchemaJson: { description: 'x'.repeat(CARD_LIMITS.maxDataSchemaJsonLength) } },
      ['dataSchemaJson'],
    ],
  ])('§3.7 %s is invalid-card at its path, in the schema and the envelope alike', (_label, card, path) => {
    const parsed = parseOpenCardSnapshot(card);
    expect(parsed.ok ? [] : parsed.issues?.map((issue) => issue.path)).toContainEqual(path);
    const envelope = parseChatEnvelope(envelopeWith(card));
    expect(envelope.ok ? null : { code: envelope.code, path: envelope.issues?.[0]?.path }).toEqual({
      code: 'invalid-event',
      path: ['event', 'card', ...path],
    });
  });

  it('isCardDataSchemaJson: a JSON object whose JSON text fits the bound', () => {
    expect(isCardDataSchemaJson({ type: 'object' })).toBe(true);
    expect(isCardDataSchemaJson({ d: 'x'.repeat(CARD_LIMITS.maxDataSchemaJsonLength - 8) })).toBe(true);
    expect(isCardDataSchemaJson({ d: 'x'.repeat(CARD_LIMITS.maxDataSchemaJsonLength - 7) })).toBe(false);
    expect(isCardDataSchemaJson('{}')).toBe(false);
    expect(isCardDataSchemaJson({ __proto__: null, constructor: {} })).toBe(false);
  });
});

describe('issue 13: prompt-only cards and how they are answered (DESIGN §3.7)', () => {
  it('promptOnlyCardKind: approval first, then report, else a plain prompt; a presentation makes it none', () => {
    expect(promptOnlyCardKind(PLAIN)).toBe('plain');
    expect(promptOnlyCardKind(APPROVAL_CARD)).toBe('approval');
    expect(promptOnlyCardKind({ ...PLAIN, report: { plans: [] } })).toBe('report');
    expect(promptOnlyCardKind({ ...APPROVAL_CARD, report: { plans: [] } })).toBe('approval');
    expect(promptOnlyCardKind(STYLED)).toBeUndefined();
  });

  it('§3.7 a plain prompt is answered in words: submit { text }', () => {
    expect(validateCardResponse(PLAIN, { action: 'submit', correlationId: 'card_plain', value: { text: 'No, thanks' } })).toEqual({
      ok: true,
      value: { action: 'submit', correlationId: 'card_plain', value: { text: 'No, thanks' } },
    });
  });

  it.each([
    ['an option id', { optionId: 'yes' }],
    ['a confirmation', { confirmed: true }],
    ['text past the answer bound', { text: 'x'.repeat(CARD_LIMITS.maxTextAnswerLength + 1) }],
  ])('§3.7 a plain prompt refuses %s with invalid-value', (_label, value) => {
    const result = validateCardResponse(PLAIN, { action: 'submit', correlationId: 'card_plain', value });
    expect(result.ok ? null : [result.code, result.message]).toEqual(['invalid-value', 'the value does not fit a prompt-only plain card']);
  });

  it('§3.7 a card that only shows a report is acknowledged: submit { acknowledged: true }', () => {
    expect(validateCardResponse(REPORT_CARD, { action: 'submit', correlationId: 'card_report', value: { acknowledged: true } })).toEqual({
      ok: true,
      value: { action: 'submit', correlationId: 'card_report', value: { acknowledged: true } },
    });
    for (const value of [{ acknowledged: false }, { text: 'ok' }, {}]) {
      const result = validateCardResponse(REPORT_CARD, { action: 'submit', correlationId: 'card_report', value });
      expect(result.ok ? null : [result.code, result.message]).toEqual([
        'invalid-value',
        'the value does not fit a prompt-only report card',
      ]);
    }
  });

  it('§3.7 an approval card without presentation is answered yes or no: submit { confirmed }', () => {
    expect(validateCardResponse(APPROVAL_CARD, { action: 'submit', correlationId: 'card_approval', value: { confirmed: false } })).toEqual({
      ok: true,
      value: { action: 'submit', correlationId: 'card_approval', value: { confirmed: false } },
    });
    const text = validateCardResponse(APPROVAL_CARD, { action: 'submit', correlationId: 'card_approval', value: { text: 'yes' } });
    expect(text.ok ? null : text.code).toBe('invalid-value');
  });

  it('§3.7 a product codec answers its prompt-only cards by the same rules', () => {
    const codec = createCardCodec({
      kinds: { rating: { presentation: z.strictObject({ maxStars: z.int() }), value: z.strictObject({ stars: z.int() }) } },
    });
    expect(codec.validateResponse(PLAIN, { action: 'submit', correlationId: 'card_plain', value: { text: 'ok' } })).toEqual({
      ok: true,
      value: { action: 'submit', correlationId: 'card_plain', value: { text: 'ok' } },
    });
    const stars = codec.validateResponse(PLAIN, { action: 'submit', correlationId: 'card_plain', value: { stars: 3 } });
    expect(stars.ok ? null : stars.code).toBe('invalid-value');
  });
});

describe('issue 13: timeoutMs means what it meant (DESIGN §3.7)', () => {
  const TIMED: OpenCardSnapshotV1 = { ...PLAIN, timeoutMs: 60_000 };
  const answer = { action: 'submit', correlationId: 'card_plain', value: { text: 'late?' } };

  it('cardDeadline: expiresAt when present, else createdAt + timeoutMs, else none', () => {
    expect(cardDeadline(TIMED)).toBe('2026-11-29T12:01:00.000Z');
    expect(cardDeadline({ ...TIMED, expiresAt: '2026-11-29T12:00:30+00:00' })).toBe('2026-11-29T12:00:30+00:00');
    expect(cardDeadline(PLAIN)).toBeUndefined();
  });

  it('cardDeadline is exact: an offset is resolved and sub-millisecond digits are kept', () => {
    expect(cardDeadline({ createdAt: '2026-11-29T13:00:00.123456789+01:00', timeoutMs: 1 })).toBe('2026-11-29T12:00:00.124456789Z');
    expect(cardDeadline({ createdAt: '2026-11-29T12:00:00.5Z', timeoutMs: 500 })).toBe('2026-11-29T12:00:01.000Z');
    expect(cardDeadline({ createdAt: '9999-12-31T23:59:59Z', timeoutMs: 604_800_000 })).toBe('9999-12-31T23:59:59.999999999Z');
  });

  it.each([
    ['a millisecond before the deadline', '2026-11-29T12:00:59.999Z', { ok: true, value: answer }],
    ['before it, written in an offset that sorts after it as text', '2026-11-29T13:00:30+01:00', { ok: true, value: answer }],
    ['at the deadline', '2026-11-29T12:01:00Z', { ok: false, code: 'expired', message: 'the card expired at 2026-11-29T12:01:00.000Z' }],
    [
      'after it, written in another offset',
      '2026-11-29T14:01:00+02:00',
      { ok: false, code: 'expired', message: 'the card expired at 2026-11-29T12:01:00.000Z' },
    ],
  ])('§3.7 validateCardResponse judges a timeoutMs card %s', (_label, at, expected) => {
    expect(validateCardResponse(TIMED, answer, { at })).toEqual(expected);
  });

  it('§3.7 every action is late after the deadline, expiresAt cards alike; without `at` lateness is not judged', () => {
    const at = '2026-11-29T13:00:00Z';
    const card = { ...TIMED, allowDecline: true };
    for (const action of ['decline', 'cancel'] as const) {
      const result = validateCardResponse(card, { action, correlationId: 'card_plain' }, { at });
      expect(result.ok ? null : result.code).toBe('expired');
    }
    const expiring = validateCardResponse({ ...PLAIN, expiresAt: '2026-11-29T12:30:00Z' }, answer, { at });
    expect(expiring.ok ? null : expiring.code).toBe('expired');
    expect(validateCardResponse(TIMED, answer)).toEqual({ ok: true, value: answer });
  });

  it.each([
    ['a zone-less time', { at: '2026-11-29T12:00:00' }],
    ['a number', { at: 1 }],
    ['a non-object', 'now'],
  ])('§3.7 %s as `at` is invalid-time', (_label, timing) => {
    expect(validateCardResponse(TIMED, answer, timing as never)).toEqual({
      ok: false,
      code: 'invalid-time',
      message: 'at: expected an RFC 3339 timestamp with an offset',
    });
  });
});

describe('issue 13: a decline may carry a short reason (DESIGN §3.7)', () => {
  const card = { ...PLAIN, allowDecline: true };

  it('§3.7 the reason is kept in the validated response', () => {
    expect(validateCardResponse(card, { action: 'decline', correlationId: 'card_plain', reason: 'Not now' })).toEqual({
      ok: true,
      value: { action: 'decline', correlationId: 'card_plain', reason: 'Not now' },
    });
  });

  it('§3.7 a reason past its bound is invalid-response; a decline is still refused where not allowed', () => {
    const long = validateCardResponse(card, {
      action: 'decline',
      correlationId: 'card_plain',
      reason: 'x'.repeat(CARD_LIMITS.maxDeclineReasonLength + 1),
    });
    expect(long.ok ? null : [long.code, long.issues?.[0]?.path]).toEqual(['invalid-response', ['reason']]);
    const refused = validateCardResponse(PLAIN, { action: 'decline', correlationId: 'card_plain', reason: 'Not now' });
    expect(refused.ok ? null : refused.code).toBe('decline-not-allowed');
  });
});
