/**
 * The result shape every parser and encoder returns: a value or a refusal whose
 * `code` comes from a closed union per function. Refusals are data; nothing here
 * throws.
 */

/** Where and why a value was refused. `path` leads from the top of the input to the offending value. */
export interface ChatIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** A typed refusal: `code` is a kebab-case literal from the function's own union. */
export interface ChatRefusal<Code extends string> {
  readonly ok: false;
  readonly code: Code;
  readonly message: string;
  readonly issues?: readonly ChatIssue[];
}

/** `{ ok: true, value }` or a {@link ChatRefusal}. */
export type ParseResult<T, Code extends string = string> = { readonly ok: true; readonly value: T } | ChatRefusal<Code>;

/**
 * Builds a refusal; `issues` is omitted rather than set to `undefined`, and
 * also when it is not a non-empty array. Packages built on core refuse through
 * it, so every refusal has the same shape. Never throws.
 */
export function refuse<Code extends string>(code: Code, message: string, issues?: readonly ChatIssue[]): ChatRefusal<Code> {
  return hasIssues(issues) ? { ok: false, code, message, issues } : { ok: false, code, message };
}

// `Array.isArray` throws on a revoked Proxy and `length` may be a throwing trap.
function hasIssues(issues: unknown): issues is readonly ChatIssue[] {
  try {
    return Array.isArray(issues) && issues.length > 0;
  } catch {
    return false;
  }
}
