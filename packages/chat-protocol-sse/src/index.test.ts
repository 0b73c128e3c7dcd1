import { describe, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as sse from './index.js';

// Every runtime export is a semver promise: changing this list is deliberate.
describe('the public surface of @papercusp/chat-protocol-sse', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(sse), [
      'CHAT_SSE_CURSOR_QUERY_PARAMETER',
      'CHAT_SSE_EVENT_NAMES',
      'DEFAULT_CHAT_SSE_HEARTBEAT_MS',
      'DEFAULT_CHAT_SSE_MAX_UNREAD_BYTES',
      'DEFAULT_CHAT_SSE_RETRY_MS',
      'createChatSseResponse',
      'followChatTurn',
      'parseChatMessageEvent',
      'readChatStream',
      'writeChatSseResponse',
    ]);
  });
});
