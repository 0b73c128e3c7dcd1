import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { relativeImports, sourceFiles } from '../../../test-support/relative-imports.js';

// Issue 25: the host's folders are layers. The routes (and the page and the Node
// listener around them) call the use cases; the use cases drive the turn runner;
// the runner and the scripted agents know only the agent seam and the stores.
// An inner folder never imports an outer one, so each can be read, and tested,
// without what wraps it.

const SRC = dirname(fileURLToPath(import.meta.url));
const folderOf = (path: string): string => relative(SRC, path).split(sep)[0] ?? '';

/** What each inner folder may not import. */
const OUTER: Readonly<Record<string, readonly string[]>> = {
  'use-cases': ['routes', 'page', 'node'],
  run: ['use-cases', 'routes', 'page', 'node'],
  scripted: ['use-cases', 'run', 'routes', 'page', 'node'],
};

describe('the host source folders are layers (issue 25)', () => {
  const edges = sourceFiles(SRC).flatMap((file) => relativeImports(file).map((target) => ({ from: folderOf(file), file, target })));

  it('reads the imports of every folder', () => {
    const folders = new Set(edges.map((edge) => edge.from));
    for (const folder of ['routes', 'use-cases', 'run', 'scripted', 'page', 'node']) expect(folders).toContain(folder);
  });

  it('no inner folder imports an outer one', () => {
    const inverted = edges
      .filter(({ from, target }) => OUTER[from]?.includes(folderOf(target)) === true)
      .map(({ file, target }) => `${relative(SRC, file)} -> ${relative(SRC, target)}`);
    expect(inverted).toEqual([]);
  });
});
