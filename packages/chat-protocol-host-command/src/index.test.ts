import { describe, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as command from './index.js';

// Every runtime export is a semver promise: changing this list is deliberate.
describe('the public surface of @papercusp/chat-protocol-host-command', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(command), ['claimConversationOwner', 'conversationOwnerLookups', 'migrateConversationOwners']);
  });
});
