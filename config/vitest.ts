/**
 * The test setup every package shares. Examples import the package by name,
 * as a user would; the alias runs them against the sources. `pnpm test` runs
 * each property's base count; `pnpm soak` (`--mode soak`) runs every property
 * `test-support/property-runs.ts`'s multiple of that (issue 14). The type
 * tests (`*.test-d.ts`) are compile-time assertions: `pnpm typecheck` checks
 * them with the rest of the package, so `pnpm test` does not run `tsc` a
 * second time (`vitest run --typecheck` still does, for one package).
 * Slow is not wrong on a loaded 2-core CI machine: time is measured in
 * `pnpm bench`, never here.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { goldenVitePlugin } from './golden-module.js';
import { packageReporters } from './vitest-summary-reporter.js';
import { DEFAULT_SOAK_MULTIPLE } from '../test-support/property-runs.js';

/** The longest a single test may take in `pnpm soak`. */
const SOAK_TEST_TIMEOUT_CAP_MS = 600_000;

/** What a package's config may add to the shared one. */
export interface PackageTestOptions {
  /** For suites whose properties run longer (the testkit's races); soak gives each test ten times as long. */
  readonly testTimeout?: number;
  /** Test files only `pnpm soak` runs (the store's multi-process chaos run): long, and bounded in time themselves. */
  readonly soakInclude?: readonly string[];
  /** Replaces the alias of the package's root name: the facade maps each of its subpaths to its source entry. */
  readonly alias?: NonNullable<ViteUserConfig['resolve']>['alias'];
}

/**
 * The vitest config of the package named `name` whose root is `packageRoot`.
 * In `--mode soak` the tests see `CHAT_PROTOCOL_SOAK` (the caller's value, or
 * `DEFAULT_SOAK_MULTIPLE`) and fast-check's default run count is multiplied.
 */
export function packageTestConfig(name: string, packageRoot: URL, options: PackageTestOptions = {}) {
  return defineConfig(({ mode }) => {
    const soak = mode === 'soak';
    const testTimeout = options.testTimeout ?? 120_000;
    return {
      // The testkit's golden sessions module, for its own tests and for every package that imports it.
      plugins: [goldenVitePlugin],
      resolve: {
        // Exactly the package's name: a subpath such as `<name>/vitest` is not its root.
        alias: options.alias ?? [
          { find: new RegExp(`^${escapeRegExp(name)}$`), replacement: fileURLToPath(new URL('src/index.ts', packageRoot)) },
        ],
      },
      test: {
        // Under turbo (`pnpm test`, `pnpm soak`) a passing package is one line; vitest run by hand lists every file.
        reporters: packageReporters(),
        include: ['src/**/*.test.ts', 'test/**/*.test.ts', ...(soak ? (options.soakInclude ?? []) : [])],
        // The test files share a worker's modules instead of each importing zod, fast-check and the
        // sources afresh: that import was half of a package's suite. They test pure functions and
        // fakes each test creates, restore their spies, and the hostile checks compare prototypes
        // around each test; the caches pure modules keep are invisible by contract, so sharing them
        // across files tests that too. `vitest run --isolate` gives each file its own again.
        isolate: false,
        // Soak runs ten times the cases, so ten times the time, but at most ten minutes a test (the
        // slowest soak test takes about 90 s on a loaded 2-core machine): a test that hangs fails in
        // time to name itself, inside CI's budget, instead of waiting out a 50-minute timeout.
        testTimeout: soak ? Math.min(testTimeout * 10, SOAK_TEST_TIMEOUT_CAP_MS) : testTimeout,
        ...(soak
          ? {
              env: { CHAT_PROTOCOL_SOAK: process.env['CHAT_PROTOCOL_SOAK'] || String(DEFAULT_SOAK_MULTIPLE) },
              setupFiles: [fileURLToPath(new URL('soak-setup.ts', import.meta.url))],
            }
          : {}),
        typecheck: {
          include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
          tsconfig: fileURLToPath(new URL('tsconfig.json', packageRoot)),
        },
      },
    };
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
