/**
 * The package's sources as plain JavaScript, for a child process to import
 * (the tests run on the sources, not on a build): each non-test file of
 * `src` transpiled alone into a directory inside the package, so its imports
 * of other packages resolve as the sources' do. Returns the entry's path.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const PACKAGE_ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Transpiles `src` into `node_modules/.cache/transpiled-src` of the package and returns the path of its `index.js`. */
export async function transpilePackage(): Promise<string> {
  const source = join(PACKAGE_ROOT, 'src');
  const target = join(PACKAGE_ROOT, 'node_modules', '.cache', 'transpiled-src');
  const files = (await readdir(source, { recursive: true })).filter((file) => file.endsWith('.ts') && !file.includes('.test'));
  for (const file of files) {
    const output = ts.transpileModule(await readFile(join(source, file), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      fileName: file,
    });
    const path = join(target, relative(source, join(source, file)).replace(/\.ts$/, '.js'));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, output.outputText);
  }
  await writeFile(join(target, 'package.json'), '{ "type": "module" }\n');
  return join(target, 'index.js');
}
