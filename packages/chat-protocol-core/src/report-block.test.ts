import { describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { REPORT_LIMITS, ReportBlockSchema, trimmedTextSchema } from './report-block.js';

const valid = { title: 'Release', plans: [{ slug: 'ship', title: 'Ship 0.1.0', status: 'wip', items: [{ text: 'Pack', status: 'done' }] }] };

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
