/**
 * The relative imports of a package's source files, read from their text (no
 * bundler): for the tests that hold a package's modules to their layers (core
 * has no import cycle, the host's inner folders never import its outer ones).
 * Type-only imports count: a type import ties two modules together just the same.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Every `.ts` file under `directory`, tests and type tests left out. */
export function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.test(?:-d)?\.ts$/.test(entry.name) && !entry.name.endsWith('.testing.ts') ? [path] : [];
  });
}

// `import … from '…'`, `export … from '…'` (over several lines too), `import '…'` and `import('…')`;
// only statements that start a line, so the examples in comments are not read.
const SPECIFIERS = /^(?:import|export)\s[^;]*?\bfrom\s*'([^']+)'|^import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

/** The absolute paths (as `.ts`) of the files `file` imports by a relative specifier. */
export function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(SPECIFIERS)]
    .map((match) => match[1] ?? match[2] ?? match[3] ?? '')
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
}
