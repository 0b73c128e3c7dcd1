import { fileURLToPath } from 'node:url';
import { packageTestConfig } from '../../config/vitest.js';

const root = new URL('./', import.meta.url);
const source = (path: string) => fileURLToPath(new URL(path, root));

// The root name and the `/agent` subpath each map exactly to their source entry, so examples import them by name.
export default packageTestConfig('@papercusp/chat-protocol-ai-sdk', root, {
  alias: [
    { find: /^@papercusp\/chat-protocol-ai-sdk$/, replacement: source('src/index.ts') },
    { find: /^@papercusp\/chat-protocol-ai-sdk\/agent$/, replacement: source('src/agent.ts') },
  ],
});
