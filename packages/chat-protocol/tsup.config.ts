/**
 * The shared build with one entry per subpath: `dist/<entry>.{js,cjs,d.ts,d.cts}`
 * for each key below, which the `exports` map of package.json names. The
 * packages it re-exports stay external (they are dependencies), so the facade's
 * files are one re-export line each and hold no second copy of any code.
 */
import { defineConfig } from 'tsup';
import shared from '../../config/tsup.js';

if (typeof shared === 'function' || Array.isArray(shared)) throw new TypeError('config/tsup.ts must export one options object');

/** Entry name (the `dist` file and the subpath, `index` being the root) to its source. */
export const facadeEntries = {
  index: 'src/index.ts',
  blocks: 'src/blocks.ts',
  recovery: 'src/recovery.ts',
  interactions: 'src/interactions.ts',
  legacy: 'src/legacy.ts',
  testkit: 'src/testkit.ts',
} as const;

export default defineConfig({ ...shared, entry: facadeEntries });
