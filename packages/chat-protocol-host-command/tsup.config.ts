import { defineConfig } from 'tsup';
import shared from '../../config/tsup.js';

// The shared build with the command's module beside the library entry: `bin/chat-protocol-host.js` imports `dist/cli.js`.
export default defineConfig({ ...shared, entry: { index: 'src/index.ts', cli: 'src/cli.ts' } });
