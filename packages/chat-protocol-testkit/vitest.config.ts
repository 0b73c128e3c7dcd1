import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The example imports the package by name, as a user would; tests run it against the sources.
    alias: { '@papercusp/chat-protocol-testkit': fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['src/**/*.test.ts'],
    // Race properties run 1,000 interleavings each; a loaded 2-core machine is slow, not wrong.
    testTimeout: 300_000,
    typecheck: {
      enabled: true,
      include: ['src/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
  },
});
