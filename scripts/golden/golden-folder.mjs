// @ts-check
// Where the golden sessions live: fixtures/golden/ at the repository root,
// read by the legacy sessions (their hand-written captures) and written by
// write-golden.mjs.

/** The folder fixtures/golden/, as a URL ending in a slash. */
export const GOLDEN_FOLDER = new URL('../../fixtures/golden/', import.meta.url);
