import { describe, expect, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as agUi from './index.js';

// Every runtime export is a semver promise: adding or removing one must be a
// deliberate change to this list (and a changeset).
describe('the public surface of @papercusp/chat-protocol-ag-ui', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(agUi), [
      'AG_UI_CUSTOM_EVENT_NAME',
      'AG_UI_METADATA_KEY',
      'cardResponseFromResumeEntry',
      'createAgUiChatAgent',
      'createAgUiDecoder',
      'createAgUiEncoder',
      'resumeEntryFromCardResponse',
    ]);
  });

  it('keeps the names DESIGN §12 fixes', () => {
    for (const name of ['createAgUiEncoder', 'createAgUiDecoder'] as const) expect(typeof agUi[name]).toBe('function');
  });
});
