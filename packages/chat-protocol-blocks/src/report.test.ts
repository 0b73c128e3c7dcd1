import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { REPORT_STATUS_TOKENS, ReportBlockSchema } from '@papercusp/chat-protocol-core';
import { messyReportArb, validReportArb } from '../test/block-arbitraries.js';
import { describeParserProperties, everyObjectIsPlain } from '../test/parser-properties.js';
import { BLOCK_LIMITS } from './limits.js';
import { parseReportBlock } from './report.js';

afterAll(() => {
  expect(({} as Record<string, unknown>)['polluted']).toBe(undefined);
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
});

describe('REPORT_STATUS_TOKENS', () => {
  it('names the known statuses renderers style, in order, frozen', () => {
    expect(REPORT_STATUS_TOKENS).toStrictEqual(['todo', 'wip', 'blocked', 'done', 'dropped', 'passed', 'failing', 'needs-human']);
    expect(Object.isFrozen(REPORT_STATUS_TOKENS)).toBe(true);
  });
});

describe('parseReportBlock: the normalization rules (DESIGN §4)', () => {
  const long = (length: number) => 'x'.repeat(length);
  it.each<[string, unknown, unknown]>([
    ['a minimal block is kept as it is', { plans: [{ title: 'Ship' }] }, { plans: [{ title: 'Ship' }] }],
    [
      'every field is kept, trimmed',
      {
        title: '  Weekly  ',
        plans: [
          {
            slug: ' api ',
            title: '\nAPI\t',
            status: ' wip ',
            summary: ' half done ',
            items: [{ id: ' 1 ', text: ' endpoints ', status: ' done ', ref: ' pr/12 ' }],
          },
        ],
      },
      {
        title: 'Weekly',
        plans: [
          {
            slug: 'api',
            title: 'API',
            status: 'wip',
            summary: 'half done',
            items: [{ id: '1', text: 'endpoints', status: 'done', ref: 'pr/12' }],
          },
        ],
      },
    ],
    ['inner whitespace and newlines are kept', { plans: [{ title: 'a  b\nc' }] }, { plans: [{ title: 'a  b\nc' }] }],
    [
      'blank strings are dropped',
      {
        title: '   ',
        plans: [{ slug: '', title: 'T', status: ' \n ', summary: '\t', items: [{ id: ' ', text: 'x', status: '', ref: '  ' }] }],
      },
      { plans: [{ title: 'T', items: [{ text: 'x' }] }] },
    ],
    ['a plan title falls back to its slug', { plans: [{ slug: 'api' }] }, { plans: [{ slug: 'api', title: 'api' }] }],
    ['a blank plan title falls back to its slug', { plans: [{ slug: ' api ', title: '  ' }] }, { plans: [{ slug: 'api', title: 'api' }] }],
    [
      'an item text falls back to its id',
      { plans: [{ title: 'T', items: [{ id: 'step-1' }] }] },
      { plans: [{ title: 'T', items: [{ id: 'step-1', text: 'step-1' }] }] },
    ],
    [
      'a plan with neither title nor slug is dropped',
      { plans: [{ status: 'wip', summary: 's' }, { title: 'kept' }] },
      { plans: [{ title: 'kept' }] },
    ],
    [
      'an item with neither text nor id is dropped',
      { plans: [{ title: 'T', items: [{ status: 'done' }, { text: 'kept' }] }] },
      { plans: [{ title: 'T', items: [{ text: 'kept' }] }] },
    ],
    ['an empty items array is omitted', { plans: [{ title: 'T', items: [] }] }, { plans: [{ title: 'T' }] }],
    ['items with nothing usable are omitted', { plans: [{ title: 'T', items: [{}, null, ' '] }] }, { plans: [{ title: 'T' }] }],
    [
      'a status is a free string',
      { plans: [{ title: 'T', status: 'shipping-friday' }] },
      { plans: [{ title: 'T', status: 'shipping-friday' }] },
    ],
    [
      'unknown keys are ignored',
      { kind: 'x', plans: [{ title: 'T', owner: 'ann', items: [{ text: 'x', due: 'mon' }] }] },
      { plans: [{ title: 'T', items: [{ text: 'x' }] }] },
    ],
    [
      'a key holding undefined is absent',
      { title: undefined, plans: [{ title: 'T', slug: undefined, items: undefined }] },
      { plans: [{ title: 'T' }] },
    ],
    [
      'numbers are not coerced: a number title is absent',
      { title: 7, plans: [{ title: 42, slug: 'a' }] },
      { plans: [{ slug: 'a', title: 'a' }] },
    ],
    [
      'numbers are not coerced: an item of numbers is dropped',
      {
        plans: [
          {
            title: 'T',
            items: [
              { id: 3, text: 4 },
              { text: 'x', status: 1, ref: 2 },
            ],
          },
        ],
      },
      { plans: [{ title: 'T', items: [{ text: 'x' }] }] },
    ],
    [
      'booleans, null and boxed strings are not strings',
      { plans: [{ title: true, slug: null }, { title: new String('boxed') }, { title: 'T', status: false }] },
      { plans: [{ title: 'T' }] },
    ],
    ['an array where a plan belongs is absent', { plans: [['title', 'T'], { title: 'kept' }] }, { plans: [{ title: 'kept' }] }],
    [
      'an array where an item belongs is absent',
      { plans: [{ title: 'T', items: [['x'], { text: 'kept' }] }] },
      { plans: [{ title: 'T', items: [{ text: 'kept' }] }] },
    ],
    [
      'an array where a string belongs is absent',
      { title: ['a'], plans: [{ title: ['T'], slug: 's' }] },
      { plans: [{ slug: 's', title: 's' }] },
    ],
    [
      'an object where items belong is absent',
      { plans: [{ title: 'T', items: { 0: { text: 'x' }, length: 1 } }] },
      { plans: [{ title: 'T' }] },
    ],
    [
      'an object where a string belongs is absent',
      { plans: [{ title: { text: 'T' }, slug: 's' }] },
      { plans: [{ slug: 's', title: 's' }] },
    ],
    [
      'a string at the bound is kept',
      { plans: [{ title: long(BLOCK_LIMITS.maxTextLength) }] },
      { plans: [{ title: long(BLOCK_LIMITS.maxTextLength) }] },
    ],
    [
      'the bound counts the trimmed string',
      { plans: [{ title: ` ${long(BLOCK_LIMITS.maxTextLength)}\n` }] },
      { plans: [{ title: long(BLOCK_LIMITS.maxTextLength) }] },
    ],
    [
      'an over-long string is dropped, not truncated',
      { title: long(BLOCK_LIMITS.maxTextLength + 1), plans: [{ title: 'T', summary: long(BLOCK_LIMITS.maxTextLength + 1) }] },
      { plans: [{ title: 'T' }] },
    ],
    [
      'an over-long title falls back to the slug',
      { plans: [{ slug: 's', title: long(BLOCK_LIMITS.maxTextLength + 1) }] },
      { plans: [{ slug: 's', title: 's' }] },
    ],
    [
      'slugs, ids and statuses are tokens: past 256 they are dropped',
      { plans: [{ slug: long(257), title: 'T', status: long(257), items: [{ id: long(257), text: 'x' }] }] },
      { plans: [{ title: 'T', items: [{ text: 'x' }] }] },
    ],
    [
      'a string with a control character is dropped',
      { plans: [{ title: 'T\u0000', slug: 's', summary: 'ring\u0007' }] },
      { plans: [{ slug: 's', title: 's' }] },
    ],
    ['a string with a lone surrogate is dropped', { plans: [{ title: 'T\ud800x', slug: 's' }] }, { plans: [{ slug: 's', title: 's' }] }],
    ['tabs, emoji and CRLF are clean text', { plans: [{ title: 'a\tb 😀\r\nc' }] }, { plans: [{ title: 'a\tb 😀\r\nc' }] }],
    ['holes in a sparse array are absent', { plans: [, { title: 'T' }] }, { plans: [{ title: 'T' }] }],
    [
      'an object with a null prototype is read',
      Object.assign(Object.create(null) as object, { plans: [{ title: 'T' }] }),
      { plans: [{ title: 'T' }] },
    ],
  ])('%s', (_rule, input, expected) => {
    expect(parseReportBlock(input)).toStrictEqual(expected);
  });

  it.each<[string, unknown]>([
    ['no input', undefined],
    ['null', null],
    ['a number', 1],
    ['a boolean', true],
    ['a JSON string: the tag readers parse JSON, not this parser', '{"plans":[{"title":"T"}]}'],
    ['an array', [{ plans: [{ title: 'T' }] }]],
    ['a function', () => ({ plans: [{ title: 'T' }] })],
    ['no plans key', { title: 'T' }],
    ['an empty plans array', { title: 'T', plans: [] }],
    ['plans that is an object', { plans: { 0: { title: 'T' } } }],
    ['plans that is a string', { plans: 'T' }],
    ['plans that are all unusable', { title: 'T', plans: [{}, { title: ' ' }, { slug: 5 }, null, 'T', ['T']] }],
    ['plans inherited, not own', Object.create({ plans: [{ title: 'T' }] }) as object],
  ])('null when no plan is left: %s', (_case, input) => {
    expect(parseReportBlock(input)).toBe(null);
  });

  it('keys come out in the schema order, whatever the input order', () => {
    const block = parseReportBlock({
      plans: [{ items: [{ ref: 'r', status: 's', text: 't', id: 'i' }], summary: 'm', status: 'wip', title: 'T', slug: 'x' }],
      title: 'R',
    });
    expect(JSON.stringify(block)).toBe(
      '{"title":"R","plans":[{"slug":"x","title":"T","status":"wip","summary":"m","items":[{"id":"i","text":"t","status":"s","ref":"r"}]}]}',
    );
  });

  it('reads only the first maxPlans plans and maxItemsPerPlan items of each', () => {
    const items = Array.from({ length: BLOCK_LIMITS.maxItemsPerPlan + 50 }, (_, index) => ({ text: `i${String(index)}` }));
    const plans = Array.from({ length: BLOCK_LIMITS.maxPlans + 50 }, (_, index) => ({ title: `p${String(index)}`, items }));
    const block = parseReportBlock({ plans });
    expect(block?.plans.length).toBe(BLOCK_LIMITS.maxPlans);
    expect(block?.plans[BLOCK_LIMITS.maxPlans - 1]?.title).toBe(`p${String(BLOCK_LIMITS.maxPlans - 1)}`);
    expect(block?.plans[0]?.items?.length).toBe(BLOCK_LIMITS.maxItemsPerPlan);
    expect(block?.plans[0]?.items?.[BLOCK_LIMITS.maxItemsPerPlan - 1]).toStrictEqual({
      text: `i${String(BLOCK_LIMITS.maxItemsPerPlan - 1)}`,
    });
  });

  it('the plan cap counts positions, not usable plans: a usable plan past it is not read', () => {
    const plans: unknown[] = Array.from({ length: BLOCK_LIMITS.maxPlans }, () => ({ title: ' ' }));
    plans.push({ title: 'too late' });
    expect(parseReportBlock({ plans })).toBe(null);
  });

  it('never mutates its input and never returns a part of it', () => {
    const input = { title: ' R ', plans: [{ title: 'T', items: [{ text: 'x' }] }] };
    const before = structuredClone(input);
    const block = parseReportBlock(input);
    expect(input).toStrictEqual(before);
    expect(block?.plans).not.toBe(input.plans);
    expect(block?.plans[0]).not.toBe(input.plans[0]);
    expect(block?.plans[0]?.items).not.toBe(input.plans[0]?.items);
  });
});

describe('parseReportBlock: hostile input is normal input (DESIGN §2.7)', () => {
  it('__proto__, constructor and prototype keys never matter and never pollute', () => {
    const input: unknown = JSON.parse(
      '{"__proto__":{"polluted":1,"plans":[{"title":"from proto"}]},"constructor":{"prototype":{"polluted":2}},' +
        '"plans":[{"__proto__":{"polluted":3,"title":"from proto"},"slug":"s","prototype":{"polluted":4},' +
        '"items":[{"__proto__":{"polluted":5},"constructor":{"prototype":{"polluted":6}},"text":"x"},{"__proto__":{"text":"y"}}]}]}',
    );
    const block = parseReportBlock(input);
    expect(block).toStrictEqual({ plans: [{ slug: 's', title: 's', items: [{ text: 'x' }] }] });
    expect(everyObjectIsPlain(block)).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBe(undefined);
  });

  it('a __proto__ key alone gives null: inherited plans are never read', () => {
    expect(parseReportBlock(JSON.parse('{"__proto__":{"plans":[{"title":"T"}]}}'))).toBe(null);
  });

  it('a getter is never run: an accessor reads as absent, a throwing one too', () => {
    let calls = 0;
    const plan = { title: 'T' };
    Object.defineProperty(plan, 'summary', {
      enumerable: true,
      get: () => {
        calls++;
        return 'from getter';
      },
    });
    Object.defineProperty(plan, 'status', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    const input = { plans: [plan] };
    Object.defineProperty(input, 'title', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(parseReportBlock(input)).toStrictEqual({ plans: [{ title: 'T' }] });
    expect(calls).toBe(0);
  });

  it('a plans getter that throws gives null', () => {
    const input = {};
    Object.defineProperty(input, 'plans', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(parseReportBlock(input)).toBe(null);
  });

  it('a Proxy whose every trap throws gives null; one inside plans is a dropped plan', () => {
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
        has: () => {
          throw new Error('has');
        },
        ownKeys: () => {
          throw new Error('keys');
        },
      },
    );
    expect(parseReportBlock(hostile)).toBe(null);
    expect(parseReportBlock({ plans: [hostile, { title: 'T' }] })).toStrictEqual({ plans: [{ title: 'T' }] });
  });

  it('a revoked Proxy gives null, as input and as plans', () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    expect(parseReportBlock(proxy)).toBe(null);
    expect(parseReportBlock({ plans: proxy })).toBe(null);
  });

  it('an array Proxy claiming a huge length is read only up to the cap', () => {
    let reads = 0;
    const plans = new Proxy([], {
      getOwnPropertyDescriptor: (target, key) => {
        if (key === 'length') return Reflect.getOwnPropertyDescriptor(target, key);
        reads++;
        return { value: { title: `p${String(key)}` }, writable: true, enumerable: true, configurable: true };
      },
    });
    Object.defineProperty(plans, 'length', { value: 2 ** 32 - 1 });
    const block = parseReportBlock({ plans });
    expect(block?.plans.length).toBe(BLOCK_LIMITS.maxPlans);
    expect(reads).toBe(BLOCK_LIMITS.maxPlans);
  });

  it('cycles are harmless: each level is read once, at its depth', () => {
    const node: Record<string, unknown> = { title: 'T', text: 'X' };
    node['items'] = [node];
    node['plans'] = [node];
    expect(parseReportBlock(node)).toStrictEqual({ title: 'T', plans: [{ title: 'T', items: [{ text: 'X' }] }] });
  });

  it('deep nesting anywhere is ignored without recursion', () => {
    let deep: unknown = { title: 'deep' };
    for (let depth = 0; depth < 100_000; depth++) deep = [deep];
    expect(parseReportBlock({ plans: deep })).toBe(null);
    expect(parseReportBlock({ plans: [{ title: 'T', items: deep, summary: deep }] })).toStrictEqual({ plans: [{ title: 'T' }] });
  });

  it('a huge string is dropped; a huge run of padding around a word is not', () => {
    const huge = 'x'.repeat(10_000_000);
    expect(parseReportBlock({ title: huge, plans: [{ title: huge, slug: huge }, { title: 'T' }] })).toStrictEqual({
      plans: [{ title: 'T' }],
    });
    expect(parseReportBlock({ plans: [{ title: `${' '.repeat(10_000_000)}T` }] })).toStrictEqual({ plans: [{ title: 'T' }] });
  });
});

describeParserProperties('parseReportBlock', {
  parse: parseReportBlock,
  schema: ReportBlockSchema,
  messyArb: messyReportArb,
  validArb: validReportArb,
});

describe('parseReportBlock: the generator', () => {
  it('messy input often survives: the generator is not all junk', () => {
    const kept = fc.sample(messyReportArb, { numRuns: 1_000, seed: 1 }).filter((value) => parseReportBlock(value) !== null);
    expect(kept.length).toBeGreaterThan(250);
  });
});
