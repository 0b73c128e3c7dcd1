/**
 * Issue 13 (DESIGN §3.7, §5): every card shape Papercusp ships upgrades field
 * for field, the loose shapes are normalized by the README's rules or refused
 * with a typed reason, and a v1 card projects back down.
 */
import { CARD_LIMITS } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { encodeLegacyChatFrame, papercup, scout, upgradeLegacyChatFrame, type LegacyDialect } from './index.js';

const IDENTITY = { conversationId: 'conv_1', turnId: 'turn_1', eventId: 'evt_1', seq: 1, occurredAt: '2026-11-30T09:00:00Z' } as const;
const CREATED_AT = 1_796_029_200_000; // 2026-11-30T09:00:00Z
const CARD = { correlationId: 'card_1', createdAt: CREATED_AT, prompt: 'Pick one', allowDecline: false };

const frameOf = (dialect: LegacyDialect, card: unknown) =>
  dialect === scout ? { data: JSON.stringify({ type: 'card', card }) } : { event: 'card', data: JSON.stringify({ card }) };

function upgradedCard(card: unknown, dialect: LegacyDialect = papercup): unknown {
  const upgraded = upgradeLegacyChatFrame(frameOf(dialect, card), { ...IDENTITY, dialect });
  if (!upgraded.ok) return upgraded;
  return upgraded.kind === 'envelope' && upgraded.envelope.event.type === 'card' ? upgraded.envelope.event.card : upgraded;
}

const v1 = (card: Record<string, unknown>) => ({ ...card, createdAt: '2026-11-30T09:00:00Z' });

describe('issue 13: Papercusp’s card fields upgrade field for field (DESIGN §5)', () => {
  it.each([
    [
      'a tool-approval card',
      { ...CARD, presentation: { kind: 'confirm' }, approval: { title: 'write_file a.ts', question: 'Apply?', body: ['-a', '+b'] } },
    ],
    [
      'a report body',
      {
        ...CARD,
        presentation: { kind: 'radio', options: [{ id: 'ok', label: 'OK' }] },
        report: { title: 'Status', plans: [{ title: 'Ship', status: 'wip' }] },
      },
    ],
    [
      'a card that only shows a report',
      { ...CARD, report: { plans: [{ slug: 'ship', title: 'Ship', items: [{ id: 'P-1', text: 'Cards', status: 'done' }] }] } },
    ],
    [
      'option hint and style',
      {
        ...CARD,
        presentation: {
          kind: 'radio',
          options: [
            { id: 'a', label: 'A', hint: 'h', style: 'primary' },
            { id: 'b', label: 'B', style: 'danger' },
          ],
        },
      },
    ],
    ['voiceAnswerable', { ...CARD, presentation: { kind: 'radio', voiceAnswerable: true, options: [{ id: 'a', label: 'A' }] } }],
    [
      'dataSchemaJson as Papercusp ships it (an object)',
      { ...CARD, presentation: { kind: 'text' }, dataSchemaJson: { type: 'object', properties: { text: { type: 'string' } } } },
    ],
    ['a prompt-only card', { ...CARD, fallbackText: 'Anything else?' }],
    ['timeoutMs', { ...CARD, presentation: { kind: 'text' }, timeoutMs: 60_000 }],
    [
      'a select card with a placeholder',
      { ...CARD, presentation: { kind: 'select', placeholder: 'Pick', options: [{ id: 'a', label: 'A' }] } },
    ],
    ['an explicit allowDecline: true', { ...CARD, allowDecline: true }],
  ])('§5 %s upgrades unchanged apart from its times, in both dialects', (_label, card) => {
    expect(upgradedCard(card, papercup)).toEqual(v1(card));
    expect(upgradedCard(card, scout)).toEqual(v1(card));
  });
});

describe('issue 13: loose card shapes are normalized by the documented rules (adapter README, card table)', () => {
  const { allowDecline: _flag, ...withoutFlag } = CARD;

  it.each([
    ['an absent allowDecline is true (Papercusp allows a decline unless it is false)', withoutFlag, { ...withoutFlag, allowDecline: true }],
    [
      'options stored as a JSON string are decoded',
      { ...CARD, presentation: { kind: 'radio', options: '[{"id":"s","label":"S"},{"id":"m","label":"M"}]' } },
      {
        ...CARD,
        presentation: {
          kind: 'radio',
          options: [
            { id: 's', label: 'S' },
            { id: 'm', label: 'M' },
          ],
        },
      },
    ],
    [
      'numeric bounds written as strings are numbers',
      { ...CARD, presentation: { kind: 'slider', min: '10', max: '500', step: '2.5' }, timeoutMs: '30000' },
      { ...CARD, presentation: { kind: 'slider', min: 10, max: 500, step: 2.5 }, timeoutMs: 30_000 },
    ],
    [
      'text and checkbox bounds written as strings are numbers',
      {
        ...CARD,
        presentation: {
          kind: 'checkbox',
          options: [
            { id: 'a', label: 'A' },
            { id: 'b', label: 'B' },
          ],
          minSelected: '1',
          maxSelected: '2',
        },
      },
      {
        ...CARD,
        presentation: {
          kind: 'checkbox',
          options: [
            { id: 'a', label: 'A' },
            { id: 'b', label: 'B' },
          ],
          minSelected: 1,
          maxSelected: 2,
        },
      },
    ],
    [
      'a slider without bounds gets 0…100',
      { ...CARD, presentation: { kind: 'slider', step: 5 } },
      { ...CARD, presentation: { kind: 'slider', step: 5, min: 0, max: 100 } },
    ],
    [
      'a slider with only a max gets min 0',
      { ...CARD, presentation: { kind: 'slider', max: 10 } },
      { ...CARD, presentation: { kind: 'slider', max: 10, min: 0 } },
    ],
    [
      'an empty or absent option label is the option’s id',
      { ...CARD, presentation: { kind: 'radio', options: [{ id: 'north', label: '' }, { id: 'south' }] } },
      {
        ...CARD,
        presentation: {
          kind: 'radio',
          options: [
            { id: 'north', label: 'north' },
            { id: 'south', label: 'south' },
          ],
        },
      },
    ],
    [
      'a dataSchemaJson stored as a JSON string is decoded',
      { ...CARD, dataSchemaJson: '{"type":"object"}' },
      { ...CARD, dataSchemaJson: { type: 'object' } },
    ],
  ])('§5 %s', (_label, card, expected) => {
    expect(upgradedCard(card)).toEqual(v1(expected));
  });

  it('§5 a prompt past v1’s bound is cut there, ending in an ellipsis, never inside a surrogate pair', () => {
    const long = 'a'.repeat(CARD_LIMITS.maxPromptLength + 10);
    const cut = upgradedCard({ ...CARD, prompt: long }) as { prompt: string };
    expect(cut.prompt).toBe(`${'a'.repeat(CARD_LIMITS.maxPromptLength - 1)}…`);
    const emoji = `${'a'.repeat(CARD_LIMITS.maxPromptLength - 2)}😀😀`;
    expect((upgradedCard({ ...CARD, prompt: emoji }) as { prompt: string }).prompt).toBe(`${'a'.repeat(CARD_LIMITS.maxPromptLength - 2)}…`);
    const exact = 'b'.repeat(CARD_LIMITS.maxPromptLength);
    expect((upgradedCard({ ...CARD, prompt: exact }) as { prompt: string }).prompt).toBe(exact);
  });

  it('§5 never mutates the frame’s card', () => {
    const card = { ...CARD, presentation: { kind: 'slider', min: '1', max: '2' } };
    const snapshot = structuredClone(card);
    upgradedCard(card);
    expect(card).toEqual(snapshot);
  });
});

describe('issue 13: what no rule can read is refused with a typed reason (unsupported-card)', () => {
  it.each([
    ['an empty prompt', { ...CARD, prompt: '' }, 'empty-prompt', ['prompt'], 'a card asks something: the prompt is empty'],
    [
      'options in a string that is not JSON',
      { ...CARD, presentation: { kind: 'radio', options: 'red, blue' } },
      'options-unreadable',
      ['presentation', 'options'],
      'a string that is not a JSON array of options',
    ],
    [
      'options in a JSON string that is not an array',
      { ...CARD, presentation: { kind: 'radio', options: '{"id":"a"}' } },
      'options-unreadable',
      ['presentation', 'options'],
      'a string that is not a JSON array of options',
    ],
    [
      'an option without an id',
      { ...CARD, presentation: { kind: 'radio', options: [{ id: 'a', label: 'A' }, { label: 'B' }] } },
      'option-without-id',
      ['presentation', 'options', 1],
      'an option needs a non-empty string id',
    ],
    [
      'an option that is not an object',
      { ...CARD, presentation: { kind: 'checkbox', options: ['a'] } },
      'option-without-id',
      ['presentation', 'options', 0],
      'an option needs a non-empty string id',
    ],
    [
      'a radio card without options',
      { ...CARD, presentation: { kind: 'radio' } },
      'no-options',
      ['presentation', 'options'],
      'a radio card needs at least one option',
    ],
    [
      'a select card with no options',
      { ...CARD, presentation: { kind: 'select', options: [] } },
      'no-options',
      ['presentation', 'options'],
      'a select card needs at least one option',
    ],
    [
      'a slider bound that is not a number',
      { ...CARD, presentation: { kind: 'slider', min: 'low', max: 10 } },
      'bound-not-a-number',
      ['presentation', 'min'],
      'a string that is not a number',
    ],
    [
      'a timeoutMs that is not a number',
      { ...CARD, timeoutMs: 'soon' },
      'bound-not-a-number',
      ['timeoutMs'],
      'a string that is not a number',
    ],
    [
      'a dataSchemaJson string that is not a JSON object',
      { ...CARD, dataSchemaJson: '[1]' },
      'data-schema-unreadable',
      ['dataSchemaJson'],
      'a string that is not a JSON object',
    ],
  ])('§5 %s', (_label, card, reason, path, message) => {
    expect(upgradedCard(card)).toEqual({
      ok: false,
      code: 'unsupported-card',
      message: `card.${path.join('.')}: ${message}`,
      issues: [{ path: ['event', 'card', ...path], message }],
      reason,
    });
  });

  it('§5 a card whose own fields look like a refusal is still a card', () => {
    const card = { ...CARD, presentation: { kind: 'text' }, ok: false, code: 'unsupported-card' };
    expect(upgradedCard(card)).toMatchObject({ ok: false, code: 'invalid-envelope', issues: [{ path: ['event', 'card', 'ok'] }] });
  });
});

describe('issue 13: a v1 card projects back down for Papercusp readers', () => {
  const envelope = (card: Record<string, unknown>) => ({
    schemaVersion: 1 as const,
    ...IDENTITY,
    event: { type: 'card' as const, card: { createdAt: '2026-11-30T09:00:00Z', correlationId: 'card_1', prompt: 'Pick one', ...card } },
  });
  const projected = (card: Record<string, unknown>, dialect: LegacyDialect = papercup) => {
    const encoded = encodeLegacyChatFrame(envelope(card) as never, { dialect });
    return encoded.ok ? (JSON.parse(encoded.frame.data) as { card: unknown }).card : encoded;
  };

  it('§5 allowDecline is always written: absent in v1 (not allowed) is false, so Scout’s renderer and Papercusp’s server agree', () => {
    expect(projected({})).toEqual({ createdAt: CREATED_AT, correlationId: 'card_1', prompt: 'Pick one', allowDecline: false });
    expect(projected({ allowDecline: true }, scout)).toEqual({
      createdAt: CREATED_AT,
      correlationId: 'card_1',
      prompt: 'Pick one',
      allowDecline: true,
    });
  });

  it('§5 approval, report, hint/style, voiceAnswerable, dataSchemaJson and timeoutMs are written as they are', () => {
    const card = {
      approval: { title: 't', question: 'q', body: ['b'] },
      report: { plans: [{ title: 'P' }] },
      presentation: { kind: 'radio', voiceAnswerable: true, options: [{ id: 'a', label: 'A', hint: 'h', style: 'danger' }] },
      dataSchemaJson: { type: 'object' },
      timeoutMs: 1_000,
      allowDecline: true,
    };
    expect(projected(card)).toEqual({ createdAt: CREATED_AT, correlationId: 'card_1', prompt: 'Pick one', ...card });
  });
});
