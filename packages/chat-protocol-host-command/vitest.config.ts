import { packageTestConfig } from '../../config/vitest.js';

export default packageTestConfig('@papercusp/chat-protocol-host-command', new URL('./', import.meta.url));
