import { describe, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as host from './index.js';

// Every runtime export is a semver promise: changing this list is deliberate.
describe('the public surface of @papercusp/chat-protocol-host', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(host), [
      'AG_UI_RUN_PATH',
      'AI_SDK_CHAT_PATH',
      'CHAT_HOST_REFUSAL_STATUS',
      'MAX_TURN_TEXT_LENGTH',
      'SCRIPTED_REFUND_CALL_ID',
      'createChatHost',
      'createNodeRequestListener',
      'createScriptedChatAgent',
      'isRouteId',
    ]);
  });
});
