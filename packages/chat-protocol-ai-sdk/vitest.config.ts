import { packageTestConfig } from '../../config/vitest.js';

export default packageTestConfig('@papercusp/chat-protocol-ai-sdk', new URL('./', import.meta.url));
