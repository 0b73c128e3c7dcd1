import { packageTestConfig } from '../../config/vitest.js';

export default packageTestConfig('@papercusp/chat-protocol-interactions', new URL('./', import.meta.url));
