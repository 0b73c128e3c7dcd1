import { mergeConfig, type ViteUserConfigFnObject } from 'vitest/config';
import { packageTestConfig } from '../../config/vitest.js';
import { browserPageDefine } from './bundle-browser-page.js';

const shared: ViteUserConfigFnObject = packageTestConfig('@papercusp/chat-protocol-host', new URL('./', import.meta.url));

// The shared config, plus the browser page's script bundled in, as the build does (bundle-browser-page.ts).
const config: ViteUserConfigFnObject = (env) => mergeConfig(shared(env), { define: browserPageDefine() });
export default config;
