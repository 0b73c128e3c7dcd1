import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { hostileValueArb } from '../../../../test-support/v1-arbitraries.js';
import {
  CARD_KINDS,
  CARD_LIMITS,
  OpenCardSnapshotV1Schema,
  type CardKind,
  type CardPresentationV1,
  type OpenCardSnapshotV1,
} from './card-schemas.js';
import { CARD_VALUE_SCHEMAS, CardResponseSchema } from './card-responses.js';
import { parseOpenCardSnapshot } from './parse-card.js';
import type { CardResponseRefusalCode } from './card-response-refusals.js';
import { validateCardResponse } from './validate-card-response.js';
import { baseCardCodec, createCardCodec, defineCardKind } from './card-codec.js';
import type { ChatIssue } from '../primitives/result.js';
import { runs } from '../../../../test-support/property-runs.js';

const INVALID_CARD = 'the card does not match the v1 card schema';

const OPTIONS = [
  { id: 'red', label: 'Red' },
  { id: 'green', label: 'Green', description: 'like grass' },
  { id: 'blue', label: 'Blue' },
];

// One presentation per base kind, with its bounds set so every refusal is reachable.
const PRESENTATIONS: { readonly [Kind in CardKind]: Extract<CardPresentationV1, { kind: Kind }> } = {
  text: { kind: 'text', placeholder: 'Your name', multiline: false, minLength: 2, maxLength: 5 },
  radio: { kind: 'radio', options: OPTIONS },
  select: { kind: 'select', options: OPTIONS },
  checkbox: { kind: 'checkbox', options: OPTIONS, minSelected: 1, maxSelected: 2 },
  confirm: { kind: 'confirm', confirmLabel: 'Delete', rejectLabel: 'Keep' },
  date: { kind: 'date', min: '2025-01-01', max: '2025-12-31' },
  slider: { kind: 'slider', min: -1, max: 1, step: 0.1, unit: 'V' },
};

// The smallest presentation of each kind: every optional field absent.
const MINIMAL_PRESENTATIONS: { readonly [Kind in CardKind]: Extract<CardPresentationV1, { kind: Kind }> } = {
  text: { kind: 'text' },
  radio: { kind: 'radio', options: [{ id: 'only', label: 'Only' }] },
  select: { kind: 'select', options: [{ id: 'only', label: 'Only' }] },
  checkbox: { kind: 'checkbox', options: [{ id: 'only', label: 'Only' }] },
  confirm: { kind: 'confirm' },
  date: { kind: 'date' },
  slider: { kind: 'slider', min: 0, max: 10 },
};

function card<Presentation extends CardPresentationV1>(
  presentation: Presentation,
  extra: Partial<OpenCardSnapshotV1> = {},
): OpenCardSnapshotV1 & { presentation: Presentation } {
  return {
    correlationId: 'card-1',
    createdAt: '2025-06-01T12:00:00Z',
    prompt: 'Answer me',
    ...extra,
    presentation,
  };
}

function submit(value: unknown, correlationId = 'card-1') {
  return { action: 'submit', correlationId, value };
}

function refusal(code: CardResponseRefusalCode | 'invalid-card', message: string, issues?: ChatIssue[]) {
  return issues === undefined ? { ok: false, code, message } : { ok: false, code, message, issues };
}

function valueRefusal(code: CardResponseRefusalCode, message: string, path: (string | number)[]) {
  return refusal(code, message, [{ path: ['value', ...path], message }]);
}

function invalidCard(issues: ChatIssue[]) {
  return refusal('invalid-card', INVALID_CARD, issues);
}

describe('§3.7 card vocabulary', () => {
  it('names the seven base presentation kinds', () => {
    expect(CARD_KINDS).toEqual(['text', 'radio', 'select', 'checkbox', 'confirm', 'date', 'slider']);
    expect(Object.isFrozen(CARD_KINDS)).toBe(true);
    expect(Object.isFrozen(CARD_LIMITS)).toBe(true);
    expect(Object.keys(CARD_VALUE_SCHEMAS)).toEqual([...CARD_KINDS]);
  });

  it('the base codec is the v1 vocabulary: its schemas are the exported ones', () => {
    expect(baseCardCodec.kinds).toEqual([...CARD_KINDS]);
    expect(baseCardCodec.CardSchema).toBe(OpenCardSnapshotV1Schema);
    expect(baseCardCodec.ResponseSchema).toBe(CardResponseSchema);
  });

  it('§3.4 the card schema has a JSON Schema (it is part of the envelope export), closed at every level', () => {
    const schema = JSON.stringify(z.toJSONSchema(OpenCardSnapshotV1Schema, { unrepresentable: 'any', io: 'input' }));
    expect(schema).toContain('"additionalProperties":false');
    expect(schema).toContain('"slider"');
  });
});

describe('parseOpenCardSnapshot', () => {
  it.each(CARD_KINDS)('§3.7 a %s card with every field parses to an equal fresh copy', (kind) => {
    const input = card(PRESENTATIONS[kind], {
      expiresAt: '2025-06-01T13:00:00.5+01:00',
      schema: { id: 'schema-1', revision: 0 },
      fallbackText: 'Reply in words',
      details: 'More context\nover two lines',
      allowDecline: true,
      timeoutMs: CARD_LIMITS.maxTimeoutMs,
    });
    const result = parseOpenCardSnapshot(JSON.parse(JSON.stringify(input)));
    expect(result).toEqual({ ok: true, value: input });
  });

  it.each(CARD_KINDS)('§3.7 a %s card with only the required fields parses', (kind) => {
    const input = card(MINIMAL_PRESENTATIONS[kind]);
    expect(parseOpenCardSnapshot(input)).toEqual({ ok: true, value: input });
  });

  it('§3.7 does not return or change its input', () => {
    const input = card(PRESENTATIONS.checkbox);
    const before = JSON.stringify(input);
    const result = parseOpenCardSnapshot(input);
    expect(result.ok && result.value).not.toBe(input);
    expect(result.ok && result.value.presentation).not.toBe(input.presentation);
    expect(JSON.stringify(input)).toBe(before);
  });

  const unknownKeys: [string, unknown, (string | number)[]][] = [
    ['the card', { ...card(PRESENTATIONS.text), extra: 1 }, ['extra']],
    ['schema', card(PRESENTATIONS.text, { schema: { id: 's', revision: 1, extra: 1 } as never }), ['schema', 'extra']],
    ['the presentation', card({ ...PRESENTATIONS.text, extra: 1 } as never), ['presentation', 'extra']],
    ['an option', card({ kind: 'radio', options: [{ id: 'a', label: 'A', extra: 1 }] } as never), ['presentation', 'options', 0, 'extra']],
    [
      'a confirm card (declineLabel is not a field)',
      card({ kind: 'confirm', declineLabel: 'No' } as never),
      ['presentation', 'declineLabel'],
    ],
  ];
  it.each(unknownKeys)('§2.3 v1 is strict: an unknown key on %s is refused', (_label, input, path) => {
    const key = String(path.at(-1));
    expect(parseOpenCardSnapshot(input)).toEqual(invalidCard([{ path, message: `unknown key "${key}"` }]));
  });

  it.each([
    ['zone-less createdAt', { createdAt: '2025-06-01T12:00:00' }, ['createdAt']],
    ['createdAt with the unknown offset -00:00', { createdAt: '2025-06-01T12:00:00-00:00' }, ['createdAt']],
    ['epoch-millisecond createdAt (legacy)', { createdAt: 1748779200000 }, ['createdAt']],
    ['createdAt on a day that does not exist', { createdAt: '2025-02-29T12:00:00Z' }, ['createdAt']],
    ['zone-less expiresAt', { expiresAt: '2025-06-02T12:00:00' }, ['expiresAt']],
  ] as const)('§3.2 timestamps carry a zone: %s is refused', (_label, extra, path) => {
    const result = parseOpenCardSnapshot({ ...card(PRESENTATIONS.confirm), ...extra });
    expect(result).toMatchObject({ ok: false, code: 'invalid-card', message: INVALID_CARD });
    // The zoned-timestamp schema may report a pattern and a calendar issue; both point here.
    expect(!result.ok && [...new Set(result.issues?.map((issue) => JSON.stringify(issue.path)))]).toEqual([JSON.stringify(path)]);
  });

  const expiry: [string, string, string, boolean][] = [
    ['an hour later', '2025-06-01T12:00:00Z', '2025-06-01T13:00:00Z', true],
    ['an hour earlier', '2025-06-01T12:00:00Z', '2025-06-01T11:00:00Z', false],
    ['the same instant', '2025-06-01T12:00:00Z', '2025-06-01T12:00:00Z', false],
    ['the same instant in another offset', '2025-06-01T12:00:00Z', '2025-06-01T14:00:00+02:00', false],
    ['later by wall clock, earlier as an instant', '2025-06-01T12:00:00Z', '2025-06-01T13:00:00+02:00', false],
    ['earlier by wall clock, later as an instant', '2025-06-01T12:00:00+02:00', '2025-06-01T11:00:00Z', true],
    ['a nanosecond later', '2025-06-01T12:00:00.000000001Z', '2025-06-01T12:00:00.000000002Z', true],
    ['a nanosecond earlier', '2025-06-01T12:00:00.000000002Z', '2025-06-01T12:00:00.000000001Z', false],
    ['equal with different fraction lengths', '2025-06-01T12:00:00.5Z', '2025-06-01T12:00:00.500Z', false],
    ['half a second later across fraction lengths', '2025-06-01T12:00:00Z', '2025-06-01T12:00:00.5Z', true],
  ];
  it.each(expiry)('§3.7 expiresAt must be a later instant than createdAt: %s', (_label, createdAt, expiresAt, ok) => {
    const input = card(PRESENTATIONS.confirm, { createdAt, expiresAt });
    expect(parseOpenCardSnapshot(input)).toEqual(
      ok ? { ok: true, value: input } : invalidCard([{ path: ['expiresAt'], message: 'expiresAt must be after createdAt' }]),
    );
  });

  const tooManyOptions = Array.from({ length: CARD_LIMITS.maxOptions + 1 }, (_, index) => ({
    id: `option-${index}`,
    label: `Option ${index}`,
  }));
  const invalid: [string, unknown, ChatIssue[]][] = [
    ['an empty prompt', { ...card(PRESENTATIONS.text), prompt: '' }, [{ path: ['prompt'], message: 'must be at least 1 characters' }]],
    [
      'a prompt past the bound',
      { ...card(PRESENTATIONS.text), prompt: 'x'.repeat(4097) },
      [{ path: ['prompt'], message: 'must be at most 4096 characters' }],
    ],
    [
      'a prompt with a control character',
      { ...card(PRESENTATIONS.text), prompt: 'a\u0000b' },
      [{ path: ['prompt'], message: 'control character or lone surrogate' }],
    ],
    [
      'details past the bound',
      card(PRESENTATIONS.text, { details: 'x'.repeat(4097) }),
      [{ path: ['details'], message: 'must be at most 4096 characters' }],
    ],
    [
      'a correlation id with a space',
      card(PRESENTATIONS.text, { correlationId: 'card 1' }),
      [{ path: ['correlationId'], message: 'has an invalid format' }],
    ],
    [
      'a negative schema revision',
      card(PRESENTATIONS.text, { schema: { id: 's', revision: -1 } }),
      [{ path: ['schema', 'revision'], message: 'must be at least 0' }],
    ],
    [
      'allowDecline as a string',
      { ...card(PRESENTATIONS.text), allowDecline: 'yes' },
      [{ path: ['allowDecline'], message: 'expected boolean' }],
    ],
    ['timeoutMs of zero', card(PRESENTATIONS.text, { timeoutMs: 0 }), [{ path: ['timeoutMs'], message: 'must be greater than 0' }]],
    [
      'timeoutMs past seven days',
      card(PRESENTATIONS.text, { timeoutMs: CARD_LIMITS.maxTimeoutMs + 1 }),
      [{ path: ['timeoutMs'], message: 'must be at most 604800000' }],
    ],
    ['a fractional timeoutMs', card(PRESENTATIONS.text, { timeoutMs: 1.5 }), [{ path: ['timeoutMs'], message: 'expected int' }]],
    [
      'a product kind',
      card({ kind: 'rating', maxStars: 5 } as never),
      [{ path: ['presentation', 'kind'], message: 'unknown kind: expected one of text, radio, select, checkbox, confirm, date, slider' }],
    ],
    [
      'text minLength above maxLength',
      card({ kind: 'text', minLength: 5, maxLength: 4 }),
      [{ path: ['presentation', 'minLength'], message: 'minLength must not exceed maxLength' }],
    ],
    [
      'text maxLength of zero',
      card({ kind: 'text', maxLength: 0 }),
      [{ path: ['presentation', 'maxLength'], message: 'must be greater than 0' }],
    ],
    [
      'text maxLength past the answer bound',
      card({ kind: 'text', maxLength: CARD_LIMITS.maxTextAnswerLength + 1 }),
      [{ path: ['presentation', 'maxLength'], message: 'must be at most 65536' }],
    ],
    ['no options', card({ kind: 'radio', options: [] }), [{ path: ['presentation', 'options'], message: 'must be at least 1 items' }]],
    [
      'too many options',
      card({ kind: 'select', options: tooManyOptions }),
      [{ path: ['presentation', 'options'], message: 'must be at most 64 items' }],
    ],
    [
      'duplicate option ids',
      card({
        kind: 'radio',
        options: [
          { id: 'red', label: 'Red' },
          { id: 'red', label: 'Crimson' },
        ],
      }),
      [{ path: ['presentation', 'options'], message: 'option ids must be unique' }],
    ],
    [
      'an option without a label',
      card({ kind: 'radio', options: [{ id: 'a', label: '' }] }),
      [{ path: ['presentation', 'options', 0, 'label'], message: 'must be at least 1 characters' }],
    ],
    [
      'checkbox minSelected above maxSelected',
      card({ kind: 'checkbox', options: OPTIONS, minSelected: 2, maxSelected: 1 }),
      [{ path: ['presentation', 'minSelected'], message: 'minSelected must not exceed maxSelected or the number of options' }],
    ],
    [
      'checkbox minSelected above the option count',
      card({ kind: 'checkbox', options: OPTIONS, minSelected: 4 }),
      [{ path: ['presentation', 'minSelected'], message: 'minSelected must not exceed maxSelected or the number of options' }],
    ],
    [
      'checkbox maxSelected above the option count',
      card({ kind: 'checkbox', options: OPTIONS, maxSelected: 4 }),
      [{ path: ['presentation', 'maxSelected'], message: 'maxSelected must not exceed the number of options' }],
    ],
    [
      'date min after max',
      card({ kind: 'date', min: '2025-02-01', max: '2025-01-31' }),
      [{ path: ['presentation', 'min'], message: 'min must not be after max' }],
    ],
    [
      'a date bound that is not a calendar day',
      card({ kind: 'date', max: '2025-02-29' }),
      [{ path: ['presentation', 'max'], message: 'not a real YYYY-MM-DD calendar date' }],
    ],
    [
      'a date bound with a time',
      card({ kind: 'date', min: '2025-01-01T00:00:00Z' }),
      [
        { path: ['presentation', 'min'], message: 'has an invalid format' },
        { path: ['presentation', 'min'], message: 'not a real YYYY-MM-DD calendar date' },
      ],
    ],
    [
      'slider min equal to max',
      card({ kind: 'slider', min: 1, max: 1 }),
      [{ path: ['presentation', 'max'], message: 'min must be below max, with a finite span' }],
    ],
    [
      'slider span that overflows',
      card({ kind: 'slider', min: -Number.MAX_VALUE, max: Number.MAX_VALUE }),
      [{ path: ['presentation', 'max'], message: 'min must be below max, with a finite span' }],
    ],
    [
      'slider step of zero',
      card({ kind: 'slider', min: 0, max: 1, step: 0 }),
      [{ path: ['presentation', 'step'], message: 'must be greater than 0' }],
    ],
    [
      'slider max of Infinity',
      card({ kind: 'slider', min: 0, max: Number.POSITIVE_INFINITY }),
      [{ path: ['presentation', 'max'], message: 'expected number' }],
    ],
  ];
  it.each(invalid)('§3.7 refuses %s with invalid-card and the issue', (_label, input, issues) => {
    expect(parseOpenCardSnapshot(input)).toEqual(invalidCard(issues));
  });

  const getter = card(PRESENTATIONS.text) as Record<string, unknown>;
  Object.defineProperty(getter, 'prompt', {
    enumerable: true,
    get() {
      throw new Error('boom');
    },
  });
  const sparse = card({ kind: 'radio', options: OPTIONS });
  sparse.presentation.options = [{ id: 'red', label: 'Red' }];
  sparse.presentation.options.length = 4_000_000_000;
  let deep: unknown = 'bottom';
  for (let depth = 0; depth < 10_000; depth += 1) deep = { deep };
  const hostile: [string, unknown, ChatIssue][] = [
    [
      'a __proto__ key from JSON',
      JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(card(PRESENTATIONS.text)).slice(1)}`),
      {
        path: ['__proto__'],
        message: 'forbidden key "__proto__"',
      },
    ],
    [
      'a constructor key in the presentation',
      card({ ...PRESENTATIONS.confirm, constructor: 1 } as never),
      {
        path: ['presentation', 'constructor'],
        message: 'forbidden key "constructor"',
      },
    ],
    ['a throwing getter', getter, { path: ['prompt'], message: 'accessor property' }],
    [
      'a sparse options array of four billion',
      sparse,
      {
        path: ['presentation', 'options'],
        message: 'sparse array or array with extra properties',
      },
    ],
    ['a class instance', new Date(), { path: [], message: 'not a plain object or array' }],
    ['a function', () => card(PRESENTATIONS.text), { path: [], message: 'not JSON data (function)' }],
    ['a symbol key', { ...card(PRESENTATIONS.text), [Symbol('x')]: 1 }, { path: [], message: 'symbol key' }],
    ['ten thousand levels of nesting', deep, { path: Array.from({ length: 32 }, () => 'deep'), message: 'nested too deeply' }],
  ];
  it.each(hostile)('§2.7 hostile input is normal input: %s is invalid-card, without a throw', (_label, input, issue) => {
    expect(parseOpenCardSnapshot(input)).toEqual(refusal('invalid-card', 'the card is not JSON data', [issue]));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each([
    ['null', null, 'expected object'],
    ['an array', [card(PRESENTATIONS.text)], 'expected object'],
    ['a string', JSON.stringify(card(PRESENTATIONS.text)), 'expected object'],
  ])('§2.1 a non-object (%s) is invalid-card', (_label, input, message) => {
    expect(parseOpenCardSnapshot(input)).toEqual(invalidCard([{ path: [], message }]));
  });
});

describe('validateCardResponse', () => {
  const accepted: [CardKind, unknown][] = [
    ['text', { text: 'ab' }],
    ['text', { text: 'abcde' }],
    ['text', { text: 'a\tb\nc' }],
    ['radio', { optionId: 'green' }],
    ['select', { optionId: 'blue' }],
    ['checkbox', { optionIds: ['red'] }],
    ['checkbox', { optionIds: ['blue', 'red'] }],
    ['confirm', { confirmed: true }],
    ['confirm', { confirmed: false }],
    ['date', { date: '2025-01-01' }],
    ['date', { date: '2025-12-31' }],
    ['date', { date: '2025-02-28' }],
    ['slider', { value: -1 }],
    ['slider', { value: 1 }],
    ['slider', { value: 0 }],
    ['slider', { value: 0.3 }],
    ['slider', { value: -0.7 }],
  ];
  it.each(accepted)('§3.7 a %s card accepts the submitted value %j', (kind, value) => {
    const response = submit(value);
    const result = validateCardResponse(card(PRESENTATIONS[kind]), response);
    expect(result).toEqual({ ok: true, value: response });
    expect(result.ok && result.value).not.toBe(response);
  });

  it.each(CARD_KINDS)('§3.7 a minimal %s card takes its defaults (empty text, empty selection, any date, any number)', (kind) => {
    const values: { readonly [Kind in CardKind]: unknown } = {
      text: { text: '' },
      radio: { optionId: 'only' },
      select: { optionId: 'only' },
      checkbox: { optionIds: [] },
      confirm: { confirmed: true },
      date: { date: '1999-12-31' },
      slider: { value: Math.PI },
    };
    expect(validateCardResponse(card(MINIMAL_PRESENTATIONS[kind]), submit(values[kind]))).toEqual({
      ok: true,
      value: submit(values[kind]),
    });
  });

  const refused: [string, CardKind, unknown, ReturnType<typeof refusal>][] = [
    ['text shorter than minLength', 'text', { text: 'a' }, valueRefusal('text-too-short', 'text must be at least 2 characters', ['text'])],
    [
      'text longer than maxLength',
      'text',
      { text: 'abcdef' },
      valueRefusal('text-too-long', 'text must be at most 5 characters', ['text']),
    ],
    [
      'text with a lone surrogate',
      'text',
      { text: 'a\ud800' },
      refusal('invalid-value', 'the value does not fit a text card', [
        { path: ['value', 'text'], message: 'control character or lone surrogate' },
      ]),
    ],
    [
      'a text value that is a number',
      'text',
      { text: 5 },
      refusal('invalid-value', 'the value does not fit a text card', [{ path: ['value', 'text'], message: 'expected string' }]),
    ],
    [
      'an option id not on a radio card',
      'radio',
      { optionId: 'purple' },
      valueRefusal('unknown-option', 'option "purple" is not on the card', ['optionId']),
    ],
    [
      'an option id not on a select card',
      'select',
      { optionId: 'purple' },
      valueRefusal('unknown-option', 'option "purple" is not on the card', ['optionId']),
    ],
    [
      'a checkbox value on a radio card',
      'radio',
      { optionIds: ['red'] },
      refusal('invalid-value', 'the value does not fit a radio card', [
        { path: ['value', 'optionId'], message: 'expected string' },
        { path: ['value', 'optionIds'], message: 'unknown key "optionIds"' },
      ]),
    ],
    [
      'an unknown checkbox option',
      'checkbox',
      { optionIds: ['red', 'purple'] },
      valueRefusal('unknown-option', 'option "purple" is not on the card', ['optionIds', 1]),
    ],
    [
      'a checkbox option twice',
      'checkbox',
      { optionIds: ['red', 'red'] },
      valueRefusal('duplicate-option', 'option "red" is selected twice', ['optionIds', 1]),
    ],
    [
      'fewer options than minSelected',
      'checkbox',
      { optionIds: [] },
      valueRefusal('too-few-options', 'select at least 1 options', ['optionIds']),
    ],
    [
      'more options than maxSelected',
      'checkbox',
      { optionIds: ['red', 'green', 'blue'] },
      valueRefusal('too-many-options', 'select at most 2 options', ['optionIds']),
    ],
    [
      'a confirm value as a string',
      'confirm',
      { confirmed: 'yes' },
      refusal('invalid-value', 'the value does not fit a confirm card', [{ path: ['value', 'confirmed'], message: 'expected boolean' }]),
    ],
    ['a date before min', 'date', { date: '2024-12-31' }, valueRefusal('out-of-range', 'date must not be before 2025-01-01', ['date'])],
    ['a date after max', 'date', { date: '2026-01-01' }, valueRefusal('out-of-range', 'date must not be after 2025-12-31', ['date'])],
    [
      'a date that is not a calendar day',
      'date',
      { date: '2025-02-29' },
      refusal('invalid-value', 'the value does not fit a date card', [
        { path: ['value', 'date'], message: 'not a real YYYY-MM-DD calendar date' },
      ]),
    ],
    [
      'a date-time instead of a date',
      'date',
      { date: '2025-02-01T00:00:00Z' },
      refusal('invalid-value', 'the value does not fit a date card', [
        { path: ['value', 'date'], message: 'has an invalid format' },
        { path: ['value', 'date'], message: 'not a real YYYY-MM-DD calendar date' },
      ]),
    ],
    ['a slider value below min', 'slider', { value: -1.1 }, valueRefusal('out-of-range', 'value must be within -1…1', ['value'])],
    ['a slider value above max', 'slider', { value: 1.0000001 }, valueRefusal('out-of-range', 'value must be within -1…1', ['value'])],
    [
      'a slider value off the 0.1 step',
      'slider',
      { value: 0.35 },
      valueRefusal('off-step', 'value must be -1 plus a multiple of 0.1', ['value']),
    ],
    [
      'a slider value a millionth off the step',
      'slider',
      { value: 0.300001 },
      valueRefusal('off-step', 'value must be -1 plus a multiple of 0.1', ['value']),
    ],
    [
      'a slider value of NaN',
      'slider',
      { value: Number.NaN },
      refusal('invalid-value', 'the value does not fit a slider card', [{ path: ['value', 'value'], message: 'expected number' }]),
    ],
    [
      'a value with an extra key',
      'confirm',
      { confirmed: true, note: 'x' },
      refusal('invalid-value', 'the value does not fit a confirm card', [{ path: ['value', 'note'], message: 'unknown key "note"' }]),
    ],
    [
      'a value that is an array',
      'text',
      ['hello'],
      refusal('invalid-value', 'the value does not fit a text card', [{ path: ['value'], message: 'expected object' }]),
    ],
  ];
  it.each(refused)('§3.7 refuses %s with its code', (_label, kind, value, expected) => {
    expect(validateCardResponse(card(PRESENTATIONS[kind]), submit(value))).toEqual(expected);
  });

  it.each([
    ['0.1 from 0: 0.3', 0, 1, 0.1, 0.3],
    ['0.1 from 0: 0.7', 0, 1, 0.1, 0.7],
    ['0.01 from -1: 0.07', -1, 1, 0.01, 0.07],
    ['0.25 from 0.1: 0.85', 0.1, 2, 0.25, 0.85],
    ['0.001 over a billion: 123456.789', 0, 1e9, 0.001, 123456.789],
    ['1e-7 from 0: 3e-7', 0, 1, 1e-7, 3e-7],
  ])('§3.7 floating steps judge a value on the step as on it: step %s', (_label, min, max, step, value) => {
    const sliderCard = card({ kind: 'slider', min, max, step });
    expect(validateCardResponse(sliderCard, submit({ value }))).toEqual({ ok: true, value: submit({ value }) });
  });

  describe('actions', () => {
    it.each([
      ['allowDecline true', { allowDecline: true }],
      ['allowDecline false', { allowDecline: false }],
      ['allowDecline absent', {}],
    ])('§3.7 cancel is always allowed (%s)', (_label, extra) => {
      expect(validateCardResponse(card(PRESENTATIONS.radio, extra), { action: 'cancel', correlationId: 'card-1' })).toEqual({
        ok: true,
        value: { action: 'cancel', correlationId: 'card-1' },
      });
    });

    it('§3.7 decline is allowed when the card says allowDecline: true', () => {
      expect(
        validateCardResponse(card(PRESENTATIONS.radio, { allowDecline: true }), { action: 'decline', correlationId: 'card-1' }),
      ).toEqual({ ok: true, value: { action: 'decline', correlationId: 'card-1' } });
    });

    it.each([
      ['allowDecline false', { allowDecline: false }],
      ['allowDecline absent (absent means not allowed)', {}],
    ])('§3.7 decline is refused with decline-not-allowed: %s', (_label, extra) => {
      expect(validateCardResponse(card(PRESENTATIONS.radio, extra), { action: 'decline', correlationId: 'card-1' })).toEqual(
        refusal('decline-not-allowed', 'this card does not allow declining'),
      );
    });

    it.each([
      ['submit', submit({ optionId: 'red' }, 'card-2')],
      ['decline', { action: 'decline', correlationId: 'card-2' }],
      ['cancel', { action: 'cancel', correlationId: 'card-2' }],
    ])('§3.7 a %s for another card is wrong-card', (_label, response) => {
      expect(validateCardResponse(card(PRESENTATIONS.radio, { allowDecline: true }), response)).toEqual(
        refusal('wrong-card', 'the response answers another card', [{ path: ['correlationId'], message: 'expected "card-1"' }]),
      );
    });
  });

  describe('response shape', () => {
    const withGetter = { action: 'submit', correlationId: 'card-1' };
    Object.defineProperty(withGetter, 'value', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const notData: [string, unknown, ChatIssue][] = [
      ['a throwing getter', withGetter, { path: ['value'], message: 'accessor property' }],
      [
        'a __proto__ key from JSON',
        JSON.parse('{"action":"cancel","correlationId":"card-1","__proto__":{"x":1}}'),
        {
          path: ['__proto__'],
          message: 'forbidden key "__proto__"',
        },
      ],
      ['a Map', new Map([['action', 'cancel']]), { path: [], message: 'not a plain object or array' }],
      ['a bigint value', submit({ value: 1n }), { path: ['value', 'value'], message: 'not JSON data (bigint)' }],
    ];
    it.each(notData)('§2.7 %s is invalid-response, without a throw', (_label, response, issue) => {
      expect(validateCardResponse(card(PRESENTATIONS.slider), response)).toEqual(
        refusal('invalid-response', 'the response is not JSON data', [issue]),
      );
    });

    const malformed: [string, unknown, ChatIssue[]][] = [
      ['null', null, [{ path: [], message: 'expected object' }]],
      ['an array', [submit({ confirmed: true })], [{ path: [], message: 'expected object' }]],
      [
        'a missing action',
        { correlationId: 'card-1' },
        [{ path: ['action'], message: 'unknown action: expected one of submit, decline, cancel' }],
      ],
      [
        'an unknown action',
        { action: 'answer', correlationId: 'card-1' },
        [{ path: ['action'], message: 'unknown action: expected one of submit, decline, cancel' }],
      ],
      ['a submit without a value', { action: 'submit', correlationId: 'card-1' }, [{ path: ['value'], message: 'expected nonoptional' }]],
      [
        'a cancel with a value',
        { action: 'cancel', correlationId: 'card-1', value: { confirmed: true } },
        [{ path: ['value'], message: 'unknown key "value"' }],
      ],
      [
        'a decline with an extra key',
        { action: 'decline', correlationId: 'card-1', because: 'busy' },
        [{ path: ['because'], message: 'unknown key "because"' }],
      ],
      ['a numeric correlation id', { action: 'cancel', correlationId: 1 }, [{ path: ['correlationId'], message: 'expected string' }]],
    ];
    it.each(malformed)('§3.7 %s is invalid-response', (_label, response, issues) => {
      expect(validateCardResponse(card(PRESENTATIONS.confirm), response)).toEqual(
        refusal('invalid-response', 'not a card response', issues),
      );
    });

    it('§3.7 does not change the response it checks', () => {
      const response = submit({ optionIds: ['blue', 'red'] });
      const before = JSON.stringify(response);
      validateCardResponse(card(PRESENTATIONS.checkbox), response);
      expect(JSON.stringify(response)).toBe(before);
    });
  });

  it.each([
    ['a card that is not a card', { correlationId: 'card-1' }],
    ['a card whose prompt was emptied after parsing', { ...card(PRESENTATIONS.confirm), prompt: '' }],
  ])('§2.1 %s is invalid-card (a caller mistake, still no throw)', (_label, badCard) => {
    const result = validateCardResponse(badCard as OpenCardSnapshotV1, submit({ confirmed: true }));
    expect(result).toMatchObject({ ok: false, code: 'invalid-card', message: INVALID_CARD });
  });
});

describe('createCardCodec', () => {
  const rating = defineCardKind({
    presentation: z
      .strictObject({ maxStars: z.int().check(z.positive()), icon: z.optional(z.enum(['star', 'heart'])) })
      .check(z.refine((presentation) => presentation.maxStars <= 10, { message: 'at most 10 stars', path: ['maxStars'] })),
    value: z.strictObject({ stars: z.int().check(z.nonnegative()) }),
    validate(presentation, value) {
      return value.stars > presentation.maxStars ? [{ path: ['stars'], message: `at most ${presentation.maxStars} stars` }] : undefined;
    },
  });
  const codec = createCardCodec({ kinds: { rating } });
  const ratingCard = {
    correlationId: 'card-1',
    createdAt: '2025-06-01T12:00:00Z',
    prompt: 'How was it?',
    presentation: { kind: 'rating' as const, maxStars: 5 },
  };

  it('§3.7 lists the base kinds then the product kinds', () => {
    expect(codec.kinds).toEqual([...CARD_KINDS, 'rating']);
  });

  it('§3.7 a product card parses through the codec and is refused by the base parser', () => {
    expect(codec.parseCard(ratingCard)).toEqual({ ok: true, value: ratingCard });
    expect(parseOpenCardSnapshot(ratingCard)).toEqual(
      invalidCard([
        {
          path: ['presentation', 'kind'],
          message: 'unknown kind: expected one of text, radio, select, checkbox, confirm, date, slider',
        },
      ]),
    );
  });

  it('§3.7 the codec still reads every base kind', () => {
    for (const kind of CARD_KINDS) {
      const input = card(PRESENTATIONS[kind]);
      expect(codec.parseCard(input)).toEqual({ ok: true, value: input });
    }
    expect(codec.validateResponse(card(PRESENTATIONS.slider), submit({ value: 0.35 }))).toEqual(
      valueRefusal('off-step', 'value must be -1 plus a multiple of 0.1', ['value']),
    );
  });

  it.each([
    [
      'an unknown key',
      { kind: 'rating', maxStars: 5, color: 'gold' },
      [{ path: ['presentation', 'color'], message: 'unknown key "color"' }],
    ],
    [
      "the product's own refinement",
      { kind: 'rating', maxStars: 11 },
      [{ path: ['presentation', 'maxStars'], message: 'at most 10 stars' }],
    ],
    ['a wrong field type', { kind: 'rating', maxStars: '5' }, [{ path: ['presentation', 'maxStars'], message: 'expected number' }]],
  ])('§2.3 a product presentation stays strict and keeps its refinements: %s', (_label, presentation, issues) => {
    expect(codec.parseCard({ ...ratingCard, presentation })).toEqual(invalidCard(issues));
  });

  it('§3.7 a product value is checked by its schema, then by its validate rule', () => {
    expect(codec.validateResponse(ratingCard, submit({ stars: 4 }))).toEqual({ ok: true, value: submit({ stars: 4 }) });
    expect(codec.validateResponse(ratingCard, submit({ stars: 6 }))).toEqual(
      refusal('invalid-value', 'the value does not fit this rating card', [{ path: ['value', 'stars'], message: 'at most 5 stars' }]),
    );
    expect(codec.validateResponse(ratingCard, submit({ stars: 'four' }))).toEqual(
      refusal('invalid-value', 'the value does not fit a rating card', [{ path: ['value', 'stars'], message: 'expected number' }]),
    );
    expect(codec.validateResponse(ratingCard, submit({ optionId: 'red' }))).toMatchObject({ ok: false, code: 'invalid-value' });
    expect(codec.validateResponse(ratingCard, { action: 'decline', correlationId: 'card-1' })).toEqual(
      refusal('decline-not-allowed', 'this card does not allow declining'),
    );
  });

  it('§3.7 the base validator refuses a product card as invalid-card', () => {
    const result = validateCardResponse(ratingCard as never, submit({ stars: 4 }));
    expect(result).toMatchObject({ ok: false, code: 'invalid-card' });
  });

  it("§3.7 the codec's response schema accepts product values", () => {
    expect(codec.ResponseSchema.safeParse(submit({ stars: 3 })).success).toBe(true);
    expect(CardResponseSchema.safeParse(submit({ stars: 3 })).success).toBe(false);
  });

  it('§3.7 a kind without validate accepts any value its schema accepts', () => {
    const bare = createCardCodec({
      kinds: { 'color-picker': { presentation: z.strictObject({}), value: z.strictObject({ hex: z.string() }) } },
    });
    const pickerCard = { ...ratingCard, presentation: { kind: 'color-picker' as const } };
    expect(bare.validateResponse(pickerCard, submit({ hex: '#fff' }))).toEqual({ ok: true, value: submit({ hex: '#fff' }) });
  });

  const misuse: [string, unknown, string][] = [
    ['a base kind', { slider: rating }, 'card kind "slider" is a base kind and cannot be redefined'],
    ['a name that is not kebab-case', { Rating: rating }, 'card kind "Rating" must be kebab-case, at most 64 characters'],
    ['a name that is __proto__', JSON.parse('{"__proto__":{}}'), 'card kind "__proto__" must be kebab-case, at most 64 characters'],
    [
      'a stripping (non-strict) presentation',
      { rating: { ...rating, presentation: z.object({ maxStars: z.int() }) } },
      'card kind "rating": presentation must be a z.strictObject',
    ],
    [
      'a presentation that declares kind',
      { rating: { ...rating, presentation: z.strictObject({ kind: z.literal('rating') }) } },
      'card kind "rating": presentation must not declare kind; the codec adds it',
    ],
    [
      'a plain object as presentation',
      { rating: { ...rating, presentation: { maxStars: 5 } } },
      'card kind "rating": presentation must be a z.strictObject',
    ],
    [
      'a non-strict object value',
      { rating: { ...rating, value: z.object({ stars: z.int() }) } },
      'card kind "rating": value must be a zod schema, a z.strictObject for objects',
    ],
    ['a validate that is not a function', { rating: { ...rating, validate: true } }, 'card kind "rating": validate must be a function'],
    ['a definition that is not an object', { rating: null }, 'card kind "rating" needs a definition object'],
  ];
  it.each(misuse)('§2.1 a programming error throws TypeError at creation: %s', (_label, kinds, message) => {
    expect(() => createCardCodec({ kinds: kinds as never })).toThrow(new TypeError(message));
  });

  it('§2.1 createCardCodec without a kinds record throws TypeError', () => {
    expect(() => createCardCodec(null as never)).toThrow(TypeError);
    expect(() => createCardCodec({ kinds: [] as never })).toThrow(TypeError);
  });
});

describe('never throws (properties)', () => {
  const codes: ReadonlySet<string> = new Set([
    'invalid-card',
    'invalid-response',
    'wrong-card',
    'decline-not-allowed',
    'invalid-value',
    'unknown-option',
    'duplicate-option',
    'too-few-options',
    'too-many-options',
    'text-too-short',
    'text-too-long',
    'out-of-range',
    'off-step',
  ]);
  const anything = hostileValueArb;
  const kinds = fc.constantFrom(...CARD_KINDS);
  // Mostly `usual`, sometimes anything at all: near-valid input reaches the
  // per-kind rules, arbitrary input reaches the screens in front of them.
  function mostly<T>(usual: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
    return fc.oneof({ arbitrary: usual, weight: 9 }, { arbitrary: anything, weight: 1 });
  }
  const optionIds = fc.constantFrom('red', 'green', 'blue', 'only', 'purple');
  const values = mostly(
    fc.oneof(
      fc.record({ text: mostly(fc.string({ unit: 'binary', maxLength: 7 })) }),
      fc.record({ optionId: mostly(optionIds) }),
      fc.record({ optionIds: fc.array(mostly(optionIds), { maxLength: 4 }) }),
      fc.record({ confirmed: mostly(fc.boolean()) }),
      fc.record({
        date: mostly(
          fc
            .date({ min: new Date('2024-06-01T00:00:00Z'), max: new Date('2026-06-01T00:00:00Z'), noInvalidDate: true })
            .map((date) => date.toISOString().slice(0, 10)),
        ),
      }),
      fc.record({
        value: mostly(
          fc.oneof(
            fc.double({ min: -1.5, max: 1.5 }),
            fc.integer({ min: -15, max: 15 }).map((tenths) => tenths / 10),
          ),
        ),
      }),
    ),
  );
  const correlationIds = mostly(fc.constantFrom('card-1', 'card-1', 'card-1', 'card-2'));
  const responses = mostly(
    fc.oneof(
      { arbitrary: fc.record({ action: mostly(fc.constant('submit')), correlationId: correlationIds, value: values }), weight: 6 },
      { arbitrary: fc.record({ action: mostly(fc.constantFrom('decline', 'cancel')), correlationId: correlationIds }), weight: 2 },
      {
        arbitrary: fc.record(
          { action: mostly(fc.constantFrom('submit', 'decline', 'cancel')), correlationId: correlationIds, value: values },
          { requiredKeys: [] },
        ),
        weight: 1,
      },
    ),
  );
  const cards = mostly(
    fc
      .tuple(kinds, fc.boolean(), fc.option(fc.boolean(), { nil: undefined }))
      .map(([kind, minimal, allowDecline]) =>
        card((minimal ? MINIMAL_PRESENTATIONS : PRESENTATIONS)[kind], allowDecline === undefined ? {} : { allowDecline }),
      ),
  );

  it('§2.1 validateCardResponse never throws and refuses only with its own codes; what it accepts is a CardResponse', () => {
    fc.assert(
      fc.property(cards, responses, (candidate, response) => {
        const result = validateCardResponse(candidate as OpenCardSnapshotV1, response);
        if (result.ok) {
          expect(CardResponseSchema.safeParse(result.value).success).toBe(true);
        } else {
          expect(codes.has(result.code)).toBe(true);
        }
      }),
      { numRuns: runs(2_000) },
    );
  });

  it('§2.1 parseOpenCardSnapshot never throws; what it accepts parses again to an equal card', () => {
    const nearCards = fc.oneof(
      anything,
      cards,
      fc.tuple(cards, fc.string(), anything).map(([base, key, value]) => ({ ...(base as object), [key]: value })),
      fc
        .tuple(kinds, fc.string(), anything)
        .map(([kind, key, value]) => card({ ...PRESENTATIONS[kind], [key]: value } as CardPresentationV1)),
    );
    fc.assert(
      fc.property(nearCards, (input) => {
        const result = parseOpenCardSnapshot(input);
        if (result.ok) expect(parseOpenCardSnapshot(result.value)).toEqual(result);
        else expect(result.code).toBe('invalid-card');
      }),
      { numRuns: runs(2_000) },
    );
  });
});
