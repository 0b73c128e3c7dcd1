import { defineConfig } from 'tsup';
import shared from '../../config/tsup.js';
import { browserPageDefine } from './bundle-browser-page.js';

// The shared build with the `chat-protocol-host` command's module (which `bin/chat-protocol-host.js` imports),
// plus the browser page's script bundled in (bundle-browser-page.ts).
export default defineConfig({ ...shared, entry: { index: 'src/index.ts', cli: 'src/cli.ts' }, define: browserPageDefine() });
