import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The example imports the package by name, as a user would; tests run it against the sources.
    alias: { '@papercusp/chat-protocol-legacy-adapter': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['src/**/*.test.ts'],
    // Property suites run 10,000 cases; a loaded CI machine is slow, not wrong.
    testTimeout: 120_000,
    typecheck: {
      enabled: true,
      include: ['src/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
