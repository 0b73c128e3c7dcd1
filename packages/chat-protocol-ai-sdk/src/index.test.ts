import { describe, expect, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as aiSdk from './index.js';

// Every runtime export is a semver promise: adding or removing one must be a
// deliberate change to this list (and a changeset).
describe('the public surface of @papercusp/chat-protocol-ai-sdk', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(aiSdk), [
      'AI_SDK_DATA_PARTS',
      'AI_SDK_ERROR_CODE',
      'AI_SDK_FINISH_REASONS',
      'AI_SDK_SSE_DONE',
      'AI_SDK_TOOL_RESULT_PART',
      'AI_SDK_TURN_END_PART',
      'AI_SDK_UI_MESSAGE_STREAM_HEADER',
      'AI_SDK_UI_MESSAGE_STREAM_HEADERS',
      'createAiSdkDecoder',
      'createAiSdkEncoder',
      'encodeAiSdkSseFrame',
    ]);
  });

  it('keeps the names other teams call (DESIGN §12, fixed)', () => {
    expect(typeof aiSdk.createAiSdkEncoder).toBe('function');
    expect(typeof aiSdk.createAiSdkDecoder).toBe('function');
  });
});
