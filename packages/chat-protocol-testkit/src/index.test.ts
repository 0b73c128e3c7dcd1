import { describe, expect, it } from 'vitest';
import * as testkit from './index.js';
import * as conformance from './vitest.js';

// Every runtime export is a semver promise: changing this list is deliberate.
describe('the public surface of @papercusp/chat-protocol-testkit', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(testkit).sort()).toEqual([
      'CHAT_CAPTURE_DIALECTS',
      'CHAT_CAPTURE_RULES',
      'FAKE_FAULT_KINDS',
      'FAKE_INTERACTION_TABLES',
      'FAKE_RANDOM_FAULT_KINDS',
      'FAKE_TURN_TABLES',
      'FakeDatabaseError',
      'createChatCaptureVerifier',
      'createFakeDatabase',
      'createFakeInteractionStore',
      'createFakeTurnStore',
      'formatChatCaptureReport',
      'listGoldenSessions',
      'replayGoldenSession',
      'verifyChatCapture',
    ]);
  });

  it('exports exactly these runtime names at /vitest', () => {
    expect(Object.keys(conformance).sort()).toEqual([
      'describeInteractionStoreConformance',
      'describeTurnRecoveryConformance',
      'interactionStoreChecks',
      'turnRecoveryChecks',
    ]);
  });
});
