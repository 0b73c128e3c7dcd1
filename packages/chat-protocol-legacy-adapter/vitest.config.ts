import { packageTestConfig } from '../../config/vitest.js';

export default packageTestConfig('@papercusp/chat-protocol-legacy-adapter', new URL('./', import.meta.url));
