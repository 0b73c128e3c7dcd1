import { packageTestConfig } from '../../config/vitest.js';

// Race properties run 200 interleavings each, 2,000 in the soak; a loaded 2-core machine is slow, not wrong.
export default packageTestConfig('@papercusp/chat-protocol-testkit', new URL('./', import.meta.url), { testTimeout: 300_000 });
