import { packageTestConfig } from '../../config/vitest.js';

export default packageTestConfig('@papercusp/chat-protocol-sse', new URL('./', import.meta.url));
