/**
 * The pin `entries.test.ts` cannot make: type-only exports vanish at run time,
 * so TypeScript's own checker lists every export of each facade entry, types
 * included, and asserts it is exactly the export list of the package the entry
 * names, each name resolving to that package's own declaration.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { facadeEntries } from '../tsup.config.js';

const packageRoot = new URL('../', import.meta.url);
const mirrored: Record<keyof typeof facadeEntries, string> = {
  index: '@papercusp/chat-protocol-core',
  blocks: '@papercusp/chat-protocol-blocks',
  recovery: '@papercusp/chat-protocol-recovery',
  interactions: '@papercusp/chat-protocol-interactions',
  legacy: '@papercusp/chat-protocol-legacy-adapter',
  testkit: '@papercusp/chat-protocol-testkit',
};

const files = Object.fromEntries(
  Object.entries(facadeEntries).map(([entry, source]) => [entry, fileURLToPath(new URL(source, packageRoot))]),
);
const program = ts.createProgram(Object.values(files), {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2020,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
});
const checker = program.getTypeChecker();

const resolved = (symbol: ts.Symbol): ts.Symbol =>
  (symbol.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(symbol) : symbol;

/** Every export of the module `file`, by name, with the declaration it resolves to. */
function exportsOfFile(file: string): Map<string, ts.Symbol> {
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error(`no module symbol for ${file}`);
  return new Map(checker.getExportsOfModule(module).map((symbol) => [symbol.name, resolved(symbol)]));
}

/** Every export of the package that `file` imports as `packageName`, as the checker resolves it from there. */
function exportsOfPackage(file: string, packageName: string): Map<string, ts.Symbol> {
  const source = program.getSourceFile(file);
  const specifier = source?.statements
    .filter(ts.isExportDeclaration)
    .map((declaration) => declaration.moduleSpecifier)
    .find((candidate) => candidate !== undefined && ts.isStringLiteral(candidate) && candidate.text === packageName);
  const module = specifier && checker.getSymbolAtLocation(specifier);
  if (!module) throw new Error(`${file} does not re-export ${packageName}`);
  return new Map(checker.getExportsOfModule(module).map((symbol) => [symbol.name, resolved(symbol)]));
}

describe('every export of each facade entry, types included, is its package’s', () => {
  it('compiles the entries without errors', () => {
    expect(ts.getPreEmitDiagnostics(program).map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))).toEqual(
      [],
    );
  });

  it.each(Object.entries(mirrored))('entry %s has exactly the exports of %s, each the same declaration', (entry, packageName) => {
    const file = files[entry];
    if (file === undefined) throw new Error(`no source for entry ${entry}`);
    const facade = exportsOfFile(file);
    const original = exportsOfPackage(file, packageName);
    const typeOnly = [...original.values()].filter((symbol) => (symbol.flags & ts.SymbolFlags.Value) === 0);
    expect(typeOnly.length).toBeGreaterThan(0);
    expect([...facade.keys()].sort()).toEqual([...original.keys()].sort());
    for (const [name, symbol] of original) expect(facade.get(name) === symbol, name).toBe(true);
  });
});
