/**
 * The build every package shares: ESM and CJS for ES2020 runtimes (Hermes
 * included) with `.d.ts` and `.d.cts`, tree-shaken, no source maps.
 */
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  target: 'es2020',
  clean: true,
  sourcemap: false,
  treeshake: true,
});
