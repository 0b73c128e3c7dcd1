/**
 * The build every package shares: ESM and CJS for ES2020 runtimes (Hermes
 * included) with `.d.ts` and `.d.cts`, tree-shaken, with a source map beside
 * each file. The maps carry the sources' text (`sourcesContent`), since `src`
 * is not published: a debugger or stack trace in an app shows the TypeScript.
 */
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  target: 'es2020',
  clean: true,
  sourcemap: true,
  treeshake: true,
});
