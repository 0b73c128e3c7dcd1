// The shared build, plus the `chat-protocol-host` command's module, which `bin/chat-protocol-host.js` imports.
import { defineConfig } from 'tsup';
import shared from '../../config/tsup.js';

export default defineConfig({ ...shared, entry: { index: 'src/index.ts', cli: 'src/cli.ts' } });
