import { defineConfig } from 'tsup';
import shared from '../../config/tsup.js';

// The shared build, plus the `/vitest` entry of the conformance suites (vitest stays external: a peer).
export default defineConfig({ ...shared, entry: ['src/index.ts', 'src/vitest.ts'], external: ['vitest'] });
