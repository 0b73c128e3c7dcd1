import { describe, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as postgres from './index.js';

// Every runtime export is a semver promise: changing this list is deliberate.
describe('the public surface of @papercusp/chat-protocol-postgres', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(postgres), [
      'CHAT_STORE_SCHEMA_VERSION',
      'DEFAULT_CHAT_STORE_SCHEMA',
      'DEFAULT_CONVERSATION_LOG_MAX_FRAMES',
      'DEFAULT_CONVERSATION_LOG_MAX_TURNS',
      'classifyDatabaseError',
      'createPostgresChatStore',
      'createPostgresEventLog',
      'createPostgresInteractionStore',
      'createPostgresTurnStore',
      'isChatIdentifier',
      'migrateChatStore',
      'pgDatabase',
      'pgliteDatabase',
      'readInteractionOutbox',
    ]);
  });
});
