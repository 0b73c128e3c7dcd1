/**
 * SQL identifiers the store builds from options (the schema name, the
 * notification channel): validated, then quoted, so no option can reach the
 * SQL text as anything but a name. Values are never interpolated: they are
 * always bound parameters.
 */

/** A lower-case Postgres name: a letter or `_`, then letters, digits or `_`, at most 63 bytes. */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Whether `name` is an identifier the store accepts for a schema or a channel. */
export function isChatIdentifier(name: unknown): name is string {
  return typeof name === 'string' && IDENTIFIER.test(name);
}

/** `name` double-quoted for SQL; throws `TypeError` for a name `isChatIdentifier` refuses. */
export function quoteIdentifier(name: string): string {
  if (!isChatIdentifier(name)) {
    throw new TypeError(`not a valid identifier: ${shownName(name)} (expected /^[a-z_][a-z0-9_]{0,62}$/)`);
  }
  return `"${name}"`;
}

/** A name for an error message: a string quoted, anything else by its type (never its own toJSON, which may throw). */
export function shownName(name: unknown): string {
  return typeof name === 'string' ? JSON.stringify(name) : `a ${typeof name}`;
}
