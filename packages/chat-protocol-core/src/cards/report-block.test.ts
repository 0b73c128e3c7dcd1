import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { REPORT_LIMITS, isReportExtensionName, ReportBlockSchema, trimmedTextSchema } from './report-block.js';

const valid = {
  title: 'Release',
  plans: [{ slug: 'ship', title: 'Ship 0.1.0', status: 'wip', items: [{ text: 'Pack', status: 'done' }] }],
};

function issuePaths(input: unknown): string[] {
  const parsed = z.safeParse(ReportBlockSchema, input);
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.path.join('.'));
}

describe('ReportBlockSchema: one strict report shape for tags and card bodies (DESIGN §3.7, §4)', () => {
  it('accepts a normalized block and returns it unchanged', () => {
    expect(z.safeParse(ReportBlockSchema, valid)).toEqual({ success: true, data: valid });
  });

  it('refuses an empty plan list, an unknown key and an empty item list, each at its path', () => {
    expect(issuePaths({ plans: [] })).toEqual(['plans']);
    expect(issuePaths({ ...valid, extra: 1 })).toEqual(['']);
    expect(issuePaths({ plans: [{ title: 'A', items: [] }] })).toEqual(['plans.0.items']);
  });

  it('refuses an optional key that holds undefined: absent or valid, never undefined', () => {
    expect(issuePaths({ title: undefined, plans: valid.plans })).toEqual(['title']);
    expect(issuePaths({ plans: [{ title: 'A', summary: undefined }] })).toEqual(['plans.0.summary']);
  });

  it('refuses blank, untrimmed, unclean and over-long strings', () => {
    expect(issuePaths({ plans: [{ title: '   ' }] })).toEqual(['plans.0.title']);
    expect(issuePaths({ plans: [{ title: ' A' }] })).toEqual(['plans.0.title']);
    expect(issuePaths({ plans: [{ title: 'A\u0000' }] })).toEqual(['plans.0.title']);
    expect(issuePaths({ plans: [{ title: 'A', slug: 'x'.repeat(REPORT_LIMITS.maxTokenLength + 1) }] })).toEqual(['plans.0.slug']);
  });

  it('bounds plans and items by REPORT_LIMITS', () => {
    const plan = { title: 'A' };
    expect(issuePaths({ plans: Array.from({ length: REPORT_LIMITS.maxPlans }, () => plan) })).toEqual([]);
    expect(issuePaths({ plans: Array.from({ length: REPORT_LIMITS.maxPlans + 1 }, () => plan) })).toEqual(['plans']);
    const items = Array.from({ length: REPORT_LIMITS.maxItemsPerPlan + 1 }, () => ({ text: 'x' }));
    expect(issuePaths({ plans: [{ title: 'A', items }] })).toEqual(['plans.0.items']);
  });
});

describe('ReportBlockSchema extensions: product content on a report (DESIGN §4, issue 13 goal-only reports)', () => {
  const goalReport = { schemaVersion: 1, goalId: 'goal-7', reportId: 'report-3', bodySha256: 'a'.repeat(64) };

  it('accepts a goal-only report: no plans, one extension', () => {
    const block = { plans: [], extensions: { goalReport } };
    expect(z.safeParse(ReportBlockSchema, block)).toEqual({ success: true, data: block });
    expect(issuePaths({ title: 'Goal', plans: valid.plans, extensions: { goalReport, 'scout-cart': [1, 'two', null] } })).toEqual([]);
  });

  it('refuses an empty report: no plans and no extension, at plans', () => {
    expect(issuePaths({ plans: [] })).toEqual(['plans']);
    expect(issuePaths({ plans: [], extensions: undefined })).toEqual(['extensions']);
  });

  it('refuses extensions that are empty, too many, badly named or not bounded JSON, at extensions', () => {
    const tooMany = Object.fromEntries(Array.from({ length: REPORT_LIMITS.maxExtensions + 1 }, (_, index) => [`x${index}`, index]));
    const atLimit = Object.fromEntries(Array.from({ length: REPORT_LIMITS.maxExtensions }, (_, index) => [`x${index}`, index]));
    expect(issuePaths({ plans: [], extensions: atLimit })).toEqual([]);
    for (const extensions of [
      {},
      tooMany,
      { '1st': 1 },
      { 'goal report': 1 },
      { constructor: 1 },
      { goal: Number.NaN },
      { goal: 'a\u0000' },
      [1],
      'goal',
    ]) {
      expect(issuePaths({ plans: valid.plans, extensions })).toEqual(['extensions']);
    }
    expect(issuePaths({ plans: valid.plans, extensions: JSON.parse('{"__proto__":{"polluted":true}}') })).toEqual(['extensions']);
  });

  it('isReportExtensionName: a letter then letters, digits, _ or -, at most 64 characters, no prototype key', () => {
    expect(['goalReport', 'scout-cart', 'a', `a${'b'.repeat(63)}`].map(isReportExtensionName)).toEqual([true, true, true, true]);
    const refused = ['', '_a', '-a', '9a', 'a b', '__proto__', 'constructor', 'prototype', `a${'b'.repeat(64)}`, 42, null];
    expect(refused.map(isReportExtensionName)).toEqual(refused.map(() => false));
  });
});

describe('trimmedTextSchema', () => {
  it('reports every problem of a string, not only the first', () => {
    const parsed = z.safeParse(trimmedTextSchema(3), ' \u0007 long ');
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map(({ code, message }) => ({ code, message }))).toEqual([
      { code: 'custom', message: 'must not start or end with whitespace' },
      { code: 'custom', message: 'must not contain control characters or lone surrogates' },
      { code: 'too_big', message: expect.any(String) },
    ]);
  });
});
