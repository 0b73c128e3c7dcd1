/**
 * The test setup every package shares. Examples import the package by name,
 * as a user would; the alias runs them against the sources. Property suites
 * run up to 10,000 cases, which on a loaded 2-core CI machine takes seconds:
 * slow is not wrong, and time is measured in `pnpm bench`, never here.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { goldenVitePlugin } from './golden-module.js';

/**
 * The vitest config of the package named `name` whose root is `packageRoot`;
 * `testTimeout` for suites whose properties run longer (the testkit's races).
 */
export function packageTestConfig(name: string, packageRoot: URL, options: { readonly testTimeout?: number } = {}) {
  return defineConfig({
    // The testkit's golden sessions module, for its own tests and for every package that imports it.
    plugins: [goldenVitePlugin],
    // Exactly the package's name: a subpath such as `<name>/vitest` is not its root.
    resolve: { alias: [{ find: new RegExp(`^${escapeRegExp(name)}$`), replacement: fileURLToPath(new URL('src/index.ts', packageRoot)) }] },
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: options.testTimeout ?? 120_000,
      typecheck: {
        enabled: true,
        include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
        tsconfig: fileURLToPath(new URL('tsconfig.json', packageRoot)),
      },
    },
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
