/**
 * The shared build with a second entry: `dist/internal.{js,cjs,d.ts,d.cts}`,
 * the helpers the other @papercusp packages share, which the `./internal`
 * subpath of package.json names. The ESM build puts what both entries use in a
 * shared chunk, so an app bundling the root and a package that imports
 * `./internal` holds one copy of it.
 */
import { defineConfig } from 'tsup';
import shared from '../../config/tsup.js';

if (typeof shared === 'function' || Array.isArray(shared)) throw new TypeError('config/tsup.ts must export one options object');

export default defineConfig({ ...shared, entry: { index: 'src/index.ts', internal: 'src/internal.ts' } });
