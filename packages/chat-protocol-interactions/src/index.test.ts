import { describe, expect, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as interactions from './index.js';

// Every runtime export is a semver promise: adding or removing one must be a
// deliberate change to this list (and a changeset).
describe('the public surface of @papercusp/chat-protocol-interactions', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(interactions), [
      'INTERACTION_TERMINAL_STATUSES',
      'InteractionResolver',
      'isInteractionSchemaRef',
      'isInteractionScope',
      'parseInteractionRecord',
      'standardSchemaValidator',
    ]);
  });

  it('keeps the name other teams already call (DESIGN §7, fixed)', () => {
    expect(typeof interactions.InteractionResolver).toBe('function');
  });
});
