import { describe, expect, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as testkit from './index.js';
import { readFileSync } from 'node:fs';
import * as races from './races.js';
import * as conformance from './vitest.js';

// Every runtime export is a semver promise: changing this list is deliberate.
describe('the public surface of @papercusp/chat-protocol-testkit', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(testkit), [
      'CHAT_CAPTURE_DIALECTS',
      'CHAT_CAPTURE_RULES',
      'FAKE_EVENT_LOG_TABLES',
      'FAKE_FAULT_KINDS',
      'FAKE_INTERACTION_TABLES',
      'FAKE_RANDOM_FAULT_KINDS',
      'FAKE_TURN_TABLES',
      'FakeDatabaseError',
      'createChatCaptureVerifier',
      'createFakeChatEventLog',
      'createFakeConversationStore',
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
    expectRuntimeExports(Object.keys(conformance), [
      'chatEventLogChecks',
      'conversationStoreChecks',
      'describeChatEventLogConformance',
      'describeConversationStoreConformance',
      'describeInteractionStoreConformance',
      'describeTurnRecoveryConformance',
      'interactionStoreChecks',
      'turnRecoveryChecks',
    ]);
  });

  it('exports exactly these runtime names at /races', () => {
    expectRuntimeExports(Object.keys(races), [
      'checkRaces',
      'scheduleChatEventLog',
      'scheduleInteractionStore',
      'scheduleTransit',
      'scheduleTurnRecoveryAdapter',
      'settleRace',
    ]);
  });

  it('keeps fast-check out of the package root: no module the root imports imports it (DESIGN §2.8)', () => {
    const seen = new Set<string>();
    const bare = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      for (const [, specifier] of source.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
        if (specifier === undefined) continue;
        if (specifier.startsWith('./')) visit(specifier.replace(/\.js$/, '.ts'));
        else bare.add(specifier);
      }
    };
    visit('./index.ts');
    expect(seen.size).toBeGreaterThan(5);
    expect([...bare].filter((specifier) => specifier.startsWith('fast-check') || specifier.startsWith('vitest'))).toEqual([]);
    expect([...bare]).toContain('@papercusp/chat-protocol-core');
  });
});
