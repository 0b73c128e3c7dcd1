import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { relativeImports, sourceFiles } from '../../../test-support/relative-imports.js';

// Issue 25: the folders of src are layers a reader can take one at a time only
// while no module needs one that needs it back. This reads the relative
// imports of every source file (type-only ones too: a type cycle ties two
// modules together just the same) straight from the text, without a bundler.

const SRC = dirname(fileURLToPath(import.meta.url));

const name = (path: string) => relative(SRC, path).split(sep).join('/');
const files = sourceFiles(SRC);
const imports = new Map(files.map((file) => [file, relativeImports(file)]));

/** Every cycle a depth-first walk closes, as `a.ts -> b.ts -> a.ts`. */
function cycles(): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (file: string) => {
    path.push(file);
    for (const target of imports.get(file) ?? []) {
      const start = path.indexOf(target);
      if (start !== -1) found.push([...path.slice(start), target].map(name).join(' -> '));
      else if (!done.has(target)) visit(target);
    }
    path.pop();
    done.add(file);
  };
  for (const file of files) if (!done.has(file)) visit(file);
  return found;
}

describe('the modules of core/src import each other without a cycle (issue 25)', () => {
  it('reads every relative import of every source file, and each names a source file', () => {
    const unresolved = [...imports].flatMap(([file, targets]) =>
      targets.filter((target) => !existsSync(target) || !imports.has(target)).map((target) => `${name(file)} -> ${name(target)}`),
    );
    expect(unresolved).toEqual([]);
    // The root lists every export by name: if the walk saw none of those, it read nothing.
    expect(imports.get(join(SRC, 'index.ts'))?.length).toBeGreaterThan(30);
  });

  it('has no import cycle, type-only imports included', () => {
    expect(cycles()).toEqual([]);
  });
});
