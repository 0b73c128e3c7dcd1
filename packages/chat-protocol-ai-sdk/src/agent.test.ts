import { describe, expect, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as agent from './agent.js';

// Every runtime export of the `/agent` subpath is a semver promise, like the root's (`index.test.ts`).
describe('the public surface of @papercusp/chat-protocol-ai-sdk/agent', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(agent), ['createAiSdkChatAgent']);
  });

  it('keeps the name DESIGN §12.1 gives the agent', () => {
    expect(typeof agent.createAiSdkChatAgent).toBe('function');
  });
});
