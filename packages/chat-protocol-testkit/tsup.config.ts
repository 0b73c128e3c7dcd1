// The shared build, plus the `/vitest` entry of the conformance suites (vitest stays external: a peer), the `/races` entry of the race helpers
// and the `chat-protocol` command's module, which `bin/chat-protocol.js` imports. The golden
// sessions in fixtures/golden are bundled in, and copied to golden/ to ship as files (config/golden-module.ts).
import { defineConfig } from 'tsup';
import { copyGoldenFiles, goldenEsbuildPlugin } from '../../config/golden-module.js';
import shared from '../../config/tsup.js';

export default defineConfig({
  ...shared,
  entry: { index: 'src/index.ts', vitest: 'src/vitest.ts', races: 'src/races.ts', cli: 'src/cli.ts' },
  external: ['vitest'],
  esbuildPlugins: [goldenEsbuildPlugin],
  onSuccess: async () => copyGoldenFiles('golden'),
});
