/**
 * The export-pinning check every package runs: each runtime export of an
 * entry is a semver promise, so the package's own test lists the entry's
 * names, and adding or removing one is a deliberate change to that list (and
 * a changeset). The lists stay in each package; only the check is shared.
 */
import { expect } from 'vitest';

/**
 * Asserts that an entry's runtime names, `Object.keys(entry)` of its module
 * namespace (`import * as entry`), are exactly `names`: no name missing, none
 * extra, listed in sorted order so a change to the list reads as one line.
 * The caller passes `Object.keys(entry)` rather than the namespace so knip
 * sees every export of the entry as read.
 */
export function expectRuntimeExports(exported: readonly string[], names: readonly string[]): void {
  expect([...exported].sort()).toEqual(names);
}
