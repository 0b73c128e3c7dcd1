import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The examples import the package by name, as a user would; tests run them against the sources.
    alias: { '@papercusp/chat-protocol-core': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Property suites run 10,000 cases; on a loaded 2-core CI machine that takes
    // seconds, which is not a failure. Time is measured in `pnpm bench`, not here.
    testTimeout: 120_000,
    typecheck: {
      enabled: true,
      include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
