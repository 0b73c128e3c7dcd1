/**
 * Writing blocks into turn text: `<report>{json}</report>` and `<ask>{json}</ask>`.
 * The serializers validate first and throw a `TypeError` naming the problem, so
 * nothing invalid is ever written; the JSON is escaped so no tag can open or
 * close inside it. They own no reading (tag-readers.ts) and no normalization (they
 * refuse what the parsers would have repaired).
 */
import { ReportBlockSchema, type ReportBlock } from '@papercusp/chat-protocol-core';
import type * as z from 'zod/v4/mini';
import { AskBlockSchema, type AskBlock } from './ask.js';

// Enough to say what is wrong without echoing an attacker's megabyte of keys back.
const MAX_KEY_IN_MESSAGE = 64;

// `<`, `>` and `&` keep tags and HTML entities out of the body; U+2028 and
// U+2029 are escaped too, so the tag stays one line for line-oriented
// transports and logs and is safe inside a script literal. JSON.parse reads
// every escape back to the same character.
const UNSAFE_IN_TAG = /[<>&\u2028\u2029]/g;

function escapeCharacter(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

function quoteKey(key: string): string {
  return JSON.stringify(key.length > MAX_KEY_IN_MESSAGE ? `${key.slice(0, MAX_KEY_IN_MESSAGE)}…` : key);
}

/** A zod path as a reader writes it: `plans[0].items[2].text`. */
function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const key of path) {
    if (typeof key === 'number') text += `[${key}]`;
    else if (typeof key === 'string') text += text === '' ? key : `.${key}`;
  }
  return text;
}

// zod/mini carries no locale, so its messages are all "Invalid input"; this
// says what was wrong in the caller's terms.
function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_big':
      return issue.origin === 'array'
        ? `must have at most ${String(issue.maximum)} entries`
        : `must be at most ${String(issue.maximum)} characters`;
    case 'too_small':
      return issue.origin === 'array' && issue.minimum === 1 ? 'must not be empty' : `must have at least ${String(issue.minimum)} entries`;
    default:
      return issue.message;
  }
}

/** Every problem as `[path, message]`, one per unknown key. */
function problemsOf(error: z.core.$ZodError): Array<readonly [string, string]> {
  const problems: Array<readonly [string, string]> = [];
  for (const issue of error.issues) {
    const path = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push([path, `unknown key ${quoteKey(key)}`]);
    } else {
      problems.push([path, describeIssue(issue)]);
    }
  }
  return problems;
}

function serializeTag(tag: 'report' | 'ask', schema: z.ZodMiniType, block: unknown): string {
  let result: ReturnType<typeof schema.safeParse>;
  try {
    result = schema.safeParse(block);
  } catch {
    throw new TypeError(`invalid ${tag} block: it could not be read (a getter or proxy trap threw)`);
  }
  if (!result.success) {
    const problems = problemsOf(result.error);
    const [path, message] = problems[0] ?? ['', 'invalid'];
    const more = problems.length > 1 ? ` (and ${String(problems.length - 1)} more)` : '';
    throw new TypeError(`invalid ${tag} block${path === '' ? '' : ` at ${path}`}: ${message}${more}`);
  }
  // result.data is zod's fresh copy: keys in the schema's order, whatever the
  // caller's order was, so the same block always gives the same text.
  return `<${tag}>${JSON.stringify(result.data).replace(UNSAFE_IN_TAG, escapeCharacter)}</${tag}>`;
}

/**
 * Writes a report block as `<report>{json}</report>`.
 *
 * Guarantees: the block is validated against {@link ReportBlockSchema} first; an
 * invalid block throws a `TypeError` whose message names the first problem
 * (`invalid report block at plans[0].title: must not be blank`) and how many more
 * there are. The JSON has its keys in the schema's order, is one line, and
 * carries `<`, `>`, `&`, U+2028 and U+2029 as `\u003c`-style escapes, so
 * `</report>` never appears inside it. `parseReportTag` of the output deep-equals
 * the block.
 */
export function serializeReportTag(block: ReportBlock): string {
  return serializeTag('report', ReportBlockSchema, block);
}

/**
 * Writes an ask block as `<ask>{json}</ask>`.
 *
 * Guarantees: the block is validated against {@link AskBlockSchema} first; an
 * invalid block throws a `TypeError` whose message names the first problem
 * (`invalid ask block at options[1].id: duplicate option id`) and how many more
 * there are. The JSON has its keys in the schema's order, is one line, and
 * carries `<`, `>`, `&`, U+2028 and U+2029 as `\u003c`-style escapes, so
 * `</ask>` never appears inside it. `parseAskTag` of the output deep-equals the
 * block.
 */
export function serializeAskTag(block: AskBlock): string {
  return serializeTag('ask', AskBlockSchema, block);
}
