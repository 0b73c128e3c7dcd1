import { describe, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as sse from './index.js';

// Every runtime export is a semver promise: changing this list is deliberate.
describe('the public surface of @papercusp/chat-protocol-sse', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(sse), [
      // Client side.
      'CHAT_SSE_EVENT_NAMES',
      'followChatTurn',
      'parseChatMessageEvent',
      'readChatStream',
    ]);
  });
});
