/**
 * zod/mini issues in the contract's terms: zod/mini carries no locale, so its
 * messages all read "Invalid input"; these say what was wrong, with a path, and
 * never echo more than a bounded slice of hostile input back.
 */
import type * as z from 'zod/v4/mini';
import type { ChatIssue } from './result.js';

// Enough to say what is wrong without echoing an attacker's megabyte of keys back.
const MAX_ISSUES = 32;
const MAX_KEY_IN_MESSAGE = 64;

/** A key as JSON text, cut to a bounded length. */
export function quoteKey(key: string): string {
  return JSON.stringify(key.length > MAX_KEY_IN_MESSAGE ? `${key.slice(0, MAX_KEY_IN_MESSAGE)}…` : key);
}

// zod/mini carries no locale, so its messages are all "Invalid input"; this
// says what was wrong in the caller's terms.
function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_big':
      return issue.inclusive === false
        ? `must be less than ${String(issue.maximum)}${unitOf(issue.origin)}`
        : `must be at most ${String(issue.maximum)}${unitOf(issue.origin)}`;
    case 'too_small':
      return issue.inclusive === false
        ? `must be greater than ${String(issue.minimum)}${unitOf(issue.origin)}`
        : `must be at least ${String(issue.minimum)}${unitOf(issue.origin)}`;
    case 'invalid_format':
      return 'has an invalid format';
    case 'invalid_union': {
      // zod 4 names the discriminator and its options; zod 3.25 names neither (its path still ends at the discriminator).
      const { discriminator, options } = issue as { readonly discriminator?: unknown; readonly options?: unknown };
      return typeof discriminator === 'string' && Array.isArray(options)
        ? `unknown ${discriminator}: expected one of ${options.map(String).join(', ')}`
        : 'matches none of the allowed shapes';
    }
    case 'invalid_value':
      return `expected one of ${issue.values.map(String).join(', ')}`;
    default:
      return issue.message;
  }
}

function unitOf(origin: string): string {
  if (origin === 'string') return ' characters';
  if (origin === 'array') return ' items';
  return '';
}

/** Up to 32 issues of a failed zod parse, one per unknown key. */
export function issuesOf(error: z.core.$ZodError): ChatIssue[] {
  const issues: ChatIssue[] = [];
  for (const issue of error.issues) {
    const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) issues.push({ path: [...path, key], message: `unknown key ${quoteKey(key)}` });
    } else {
      issues.push({ path, message: describeIssue(issue) });
    }
    if (issues.length >= MAX_ISSUES) break;
  }
  return issues.slice(0, MAX_ISSUES);
}
