import { packageTestConfig } from '../../config/vitest.js';

export default packageTestConfig('@papercusp/chat-protocol-ag-ui', new URL('./', import.meta.url));
