import { packageTestConfig } from '../../config/vitest.js';

export default packageTestConfig('@papercusp/chat-protocol-recovery', new URL('./', import.meta.url));
