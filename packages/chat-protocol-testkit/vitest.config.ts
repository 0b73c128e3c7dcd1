import { packageTestConfig } from '../../config/vitest.js';

// Race properties run 1,000 interleavings each; a loaded 2-core machine is slow, not wrong.
export default packageTestConfig('@papercusp/chat-protocol-testkit', new URL('./', import.meta.url), { testTimeout: 300_000 });
