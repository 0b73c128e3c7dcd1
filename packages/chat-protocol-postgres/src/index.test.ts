import { describe, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as entry from './index.js';

describe('the package root', () => {
  it('exports exactly these runtime names (each a semver promise)', () => {
    expectRuntimeExports(Object.keys(entry), [
      'CHAT_STORE_SCHEMA_VERSION',
      'DEFAULT_CHAT_STORE_SCHEMA',
      'classifyDatabaseError',
      'createPostgresEventLog',
      'isChatIdentifier',
      'migrateChatStore',
      'pgDatabase',
      'pgliteDatabase',
    ]);
  });
});
