import { defineConfig } from 'tsup';
import shared from '../../config/tsup.js';
import { browserPageDefine } from './bundle-browser-page.js';

// The shared build, plus the browser page's script bundled in (bundle-browser-page.ts).
export default defineConfig({ ...shared, define: browserPageDefine() });
