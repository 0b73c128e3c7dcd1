import { describe, expect, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as adapter from './index.js';

// Every runtime export is a semver promise: adding or removing one must be a
// deliberate change to this list (and a changeset).
describe('the public surface of @papercusp/chat-protocol-legacy-adapter', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(adapter), [
      'createChatFrameDecoder',
      'decodeLegacyChatFrame',
      'defineLegacyDialect',
      'encodeLegacyChatFrame',
      'encodeLegacyControlFrame',
      'papercup',
      'parseLegacyLastEventId',
      'scout',
      'upgradeLegacyChatFrame',
      'upgradeLegacyChatTurn',
    ]);
  });

  it('keeps the names other teams already call (DESIGN §5, fixed)', () => {
    for (const name of ['decodeLegacyChatFrame', 'upgradeLegacyChatFrame', 'encodeLegacyChatFrame'] as const) {
      expect(typeof adapter[name]).toBe('function');
    }
  });
});
