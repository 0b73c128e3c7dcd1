import { describe, it } from 'vitest';
import { expectRuntimeExports } from '../../../test-support/export-pin.js';
import * as blocks from './index.js';

// Every runtime export is a semver promise: changing this list is deliberate.
describe('the public surface of @papercusp/chat-protocol-blocks', () => {
  it('exports exactly these runtime names', () => {
    expectRuntimeExports(Object.keys(blocks), [
      'AskBlockSchema',
      'BLOCK_LIMITS',
      'REPORT_STATUS_TOKENS',
      'ReportBlockSchema',
      'createReportBlockReader',
      'createSayProjector',
      'createTurnTextSplitter',
      'parseAskBlock',
      'parseAskTag',
      'parseReportBlock',
      'parseReportTag',
      'projectSayText',
      'serializeAskTag',
      'serializeReportTag',
      'splitTurnText',
      'stripBlockTags',
    ]);
  });
});
