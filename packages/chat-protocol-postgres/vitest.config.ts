import { packageTestConfig } from '../../config/vitest.js';

export default packageTestConfig('@papercusp/chat-protocol-postgres', new URL('./', import.meta.url), {
  soakInclude: ['soak/**/*.test.ts'],
});
