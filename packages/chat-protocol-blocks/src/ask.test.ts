import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { messyAskArb, validAskArb } from '../test/block-arbitraries.js';
import { describeParserProperties, everyObjectIsPlain } from '../test/parser-properties.js';
import { AskBlockSchema, parseAskBlock } from './ask.js';
import { BLOCK_LIMITS } from './limits.js';

afterAll(() => {
  expect(({} as Record<string, unknown>)['polluted']).toBe(undefined);
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
});

describe('parseAskBlock: the normalization rules (DESIGN §4)', () => {
  const long = (length: number) => 'x'.repeat(length);
  it.each<[string, unknown, unknown]>([
    ['a bare question is kept as it is', { question: 'Ship it?' }, { question: 'Ship it?' }],
    [
      'every field is kept, trimmed',
      { question: '  Which DB?\n', options: [{ id: ' pg ', label: ' Postgres ', description: ' boring \t' }], refs: [' docs/db.md '] },
      { question: 'Which DB?', options: [{ id: 'pg', label: 'Postgres', description: 'boring' }], refs: ['docs/db.md'] },
    ],
    ['inner whitespace and newlines are kept', { question: 'Line one\n\nline  two' }, { question: 'Line one\n\nline  two' }],
    [
      'an option label falls back to its id',
      { question: 'Q', options: [{ id: 'yes' }] },
      { question: 'Q', options: [{ id: 'yes', label: 'yes' }] },
    ],
    [
      'a blank option label falls back to its id',
      { question: 'Q', options: [{ id: 'yes', label: '  ' }] },
      { question: 'Q', options: [{ id: 'yes', label: 'yes' }] },
    ],
    [
      'an option with a label but no id is dropped: the owner answers with the id',
      { question: 'Q', options: [{ label: 'Yes' }, { id: 'no', label: 'No' }] },
      { question: 'Q', options: [{ id: 'no', label: 'No' }] },
    ],
    ['an option with neither id nor label is dropped', { question: 'Q', options: [{ description: 'd' }, {}] }, { question: 'Q' }],
    [
      'a blank description is dropped',
      { question: 'Q', options: [{ id: 'a', label: 'A', description: ' ' }] },
      { question: 'Q', options: [{ id: 'a', label: 'A' }] },
    ],
    [
      'of options sharing an id, the first usable one is kept (ids compared trimmed)',
      { question: 'Q', options: [{ label: 'no id' }, { id: 'a', label: 'first' }, { id: 'b' }, { id: ' a ', label: 'second' }] },
      {
        question: 'Q',
        options: [
          { id: 'a', label: 'first' },
          { id: 'b', label: 'b' },
        ],
      },
    ],
    [
      'refs keep strings only, trimmed, without blanks',
      { question: 'Q', refs: [' a ', '', '  ', 1, null, { ref: 'x' }, ['y'], true, 'b'] },
      { question: 'Q', refs: ['a', 'b'] },
    ],
    [
      'refs are deduplicated, first kept, compared trimmed',
      { question: 'Q', refs: ['b', 'a', ' b', 'a '] },
      { question: 'Q', refs: ['b', 'a'] },
    ],
    ['empty options and refs are omitted', { question: 'Q', options: [], refs: [] }, { question: 'Q' }],
    [
      'options and refs with nothing usable are omitted',
      { question: 'Q', options: [null, 'yes', ['a']], refs: ['', 7] },
      { question: 'Q' },
    ],
    [
      'unknown keys are ignored',
      { question: 'Q', kind: 'confirm', options: [{ id: 'a', value: 1 }] },
      { question: 'Q', options: [{ id: 'a', label: 'a' }] },
    ],
    ['a key holding undefined is absent', { question: 'Q', options: undefined, refs: undefined }, { question: 'Q' }],
    [
      'numbers are not coerced: a number id drops the option',
      {
        question: 'Q',
        options: [
          { id: 1, label: 'One' },
          { id: '2', label: 2 },
        ],
      },
      { question: 'Q', options: [{ id: '2', label: '2' }] },
    ],
    ['an object where options belong is absent', { question: 'Q', options: { 0: { id: 'a' }, length: 1 } }, { question: 'Q' }],
    ['a string where refs belong is absent', { question: 'Q', refs: 'docs/a.md' }, { question: 'Q' }],
    [
      'an array where an option belongs is absent',
      { question: 'Q', options: [['a', 'A'], { id: 'b' }] },
      { question: 'Q', options: [{ id: 'b', label: 'b' }] },
    ],
    ['a question at the bound is kept', { question: long(BLOCK_LIMITS.maxTextLength) }, { question: long(BLOCK_LIMITS.maxTextLength) }],
    [
      'an over-long label falls back to the id; an over-long ref is dropped',
      {
        question: 'Q',
        options: [{ id: 'a', label: long(BLOCK_LIMITS.maxTextLength + 1) }],
        refs: [long(BLOCK_LIMITS.maxTextLength + 1), 'r'],
      },
      { question: 'Q', options: [{ id: 'a', label: 'a' }], refs: ['r'] },
    ],
    [
      'an option id past 256 is dropped, and the option with it',
      { question: 'Q', options: [{ id: long(BLOCK_LIMITS.maxTokenLength + 1), label: 'L' }] },
      { question: 'Q' },
    ],
    [
      'control characters and lone surrogates drop a string',
      { question: 'Q', options: [{ id: 'a\u0000' }, { id: 'b', label: '\udc00' }], refs: ['\u001b[31m'] },
      { question: 'Q', options: [{ id: 'b', label: 'b' }] },
    ],
  ])('%s', (_rule, input, expected) => {
    expect(parseAskBlock(input)).toStrictEqual(expected);
  });

  it.each<[string, unknown]>([
    ['no input', undefined],
    ['null', null],
    ['a number', 42],
    ['a JSON string: the tag readers parse JSON, not this parser', '{"question":"Q"}'],
    ['an array', [{ question: 'Q' }]],
    ['no question', { options: [{ id: 'a' }] }],
    ['a blank question', { question: ' \n\t ' }],
    ['a number question', { question: 7 }],
    ['an array question', { question: ['Q'] }],
    ['an object question', { question: { text: 'Q' } }],
    ['an over-long question', { question: long(BLOCK_LIMITS.maxTextLength + 1) }],
    ['a question with a control character', { question: 'Q\u0000' }],
    ['an inherited question', Object.create({ question: 'Q' }) as object],
  ])('null when there is no usable question: %s', (_case, input) => {
    expect(parseAskBlock(input)).toBe(null);
  });

  it('keys come out in the schema order, whatever the input order', () => {
    const block = parseAskBlock({ refs: ['r'], options: [{ description: 'd', label: 'L', id: 'i' }], question: 'Q' });
    expect(JSON.stringify(block)).toBe('{"question":"Q","options":[{"id":"i","label":"L","description":"d"}],"refs":["r"]}');
  });

  it('reads only the first maxOptions options and maxRefs refs, counting positions', () => {
    const options = Array.from({ length: BLOCK_LIMITS.maxOptions + 10 }, (_, index) => ({ id: `o${String(index)}` }));
    const refs = Array.from({ length: BLOCK_LIMITS.maxRefs + 10 }, (_, index) => `r${String(index)}`);
    const block = parseAskBlock({ question: 'Q', options, refs });
    expect(block?.options?.length).toBe(BLOCK_LIMITS.maxOptions);
    expect(block?.options?.[BLOCK_LIMITS.maxOptions - 1]).toStrictEqual({
      id: `o${String(BLOCK_LIMITS.maxOptions - 1)}`,
      label: `o${String(BLOCK_LIMITS.maxOptions - 1)}`,
    });
    expect(block?.refs?.length).toBe(BLOCK_LIMITS.maxRefs);
    const blanksFirst = [...Array.from({ length: BLOCK_LIMITS.maxRefs }, () => ' '), 'too late'];
    expect(parseAskBlock({ question: 'Q', refs: blanksFirst })).toStrictEqual({ question: 'Q' });
  });

  it('never mutates its input and never returns a part of it', () => {
    const input = { question: ' Q ', options: [{ id: 'a' }, { id: 'a' }], refs: ['r', 'r'] };
    const before = structuredClone(input);
    const block = parseAskBlock(input);
    expect(input).toStrictEqual(before);
    expect(block?.options).not.toBe(input.options);
    expect(block?.options?.[0]).not.toBe(input.options[0]);
    expect(block?.refs).not.toBe(input.refs);
  });
});

describe('parseAskBlock: hostile input is normal input (DESIGN §2.7)', () => {
  it('__proto__, constructor and prototype keys never matter and never pollute', () => {
    const input: unknown = JSON.parse(
      '{"__proto__":{"polluted":1,"question":"from proto"},"constructor":{"prototype":{"polluted":2}},"question":"Q",' +
        '"options":[{"__proto__":{"polluted":3,"id":"from proto"},"label":"no id"},{"id":"a","prototype":{"polluted":4}}],' +
        '"refs":["r",{"__proto__":{"polluted":5}}]}',
    );
    const block = parseAskBlock(input);
    expect(block).toStrictEqual({ question: 'Q', options: [{ id: 'a', label: 'a' }], refs: ['r'] });
    expect(everyObjectIsPlain(block)).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBe(undefined);
  });

  it('option ids named __proto__, constructor or prototype are ordinary ids', () => {
    const block = parseAskBlock({
      question: 'Q',
      options: [{ id: '__proto__' }, { id: 'constructor' }, { id: '__proto__' }],
      refs: ['__proto__', 'prototype', '__proto__'],
    });
    expect(block).toStrictEqual({
      question: 'Q',
      options: [
        { id: '__proto__', label: '__proto__' },
        { id: 'constructor', label: 'constructor' },
      ],
      refs: ['__proto__', 'prototype'],
    });
  });

  it('a getter is never run: an accessor reads as absent, a throwing one too', () => {
    let calls = 0;
    const option = { id: 'a' };
    Object.defineProperty(option, 'label', {
      enumerable: true,
      get: () => {
        calls++;
        return 'from getter';
      },
    });
    const input = { question: 'Q', options: [option] };
    Object.defineProperty(input, 'refs', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(parseAskBlock(input)).toStrictEqual({ question: 'Q', options: [{ id: 'a', label: 'a' }] });
    expect(calls).toBe(0);
    const throwing = {};
    Object.defineProperty(throwing, 'question', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(parseAskBlock(throwing)).toBe(null);
  });

  it('a Proxy whose every trap throws gives null; as an option it is dropped', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('get');
        },
        getOwnPropertyDescriptor: () => {
          throw new Error('descriptor');
        },
        getPrototypeOf: () => {
          throw new Error('prototype');
        },
        ownKeys: () => {
          throw new Error('keys');
        },
      },
    );
    expect(parseAskBlock(hostile)).toBe(null);
    expect(parseAskBlock({ question: 'Q', options: [hostile, { id: 'a' }], refs: hostile })).toStrictEqual({
      question: 'Q',
      options: [{ id: 'a', label: 'a' }],
    });
  });

  it('cycles and deep nesting are harmless', () => {
    const node: Record<string, unknown> = { question: 'Q', id: 'a' };
    node['options'] = [node];
    node['refs'] = [node, 'r'];
    expect(parseAskBlock(node)).toStrictEqual({ question: 'Q', options: [{ id: 'a', label: 'a' }], refs: ['r'] });
    let deep: unknown = 'Q';
    for (let depth = 0; depth < 100_000; depth++) deep = { question: deep };
    expect(parseAskBlock(deep)).toBe(null);
  });

  it('a huge question is null; a huge run of padding around it is not', () => {
    expect(parseAskBlock({ question: 'x'.repeat(10_000_000) })).toBe(null);
    expect(parseAskBlock({ question: `Q${'\n'.repeat(10_000_000)}` })).toStrictEqual({ question: 'Q' });
  });
});

describeParserProperties('parseAskBlock', { parse: parseAskBlock, schema: AskBlockSchema, messyArb: messyAskArb, validArb: validAskArb });

describe('parseAskBlock: the generator', () => {
  it('messy input often survives, with repeats to deduplicate: the generator is not all junk', () => {
    const samples = fc.sample(messyAskArb, { numRuns: 1_000, seed: 1 });
    expect(samples.filter((value) => parseAskBlock(value) !== null).length).toBeGreaterThan(300);
    expect(samples.filter((value) => (parseAskBlock(value)?.options?.length ?? 0) > 1).length).toBeGreaterThan(50);
  });
});
