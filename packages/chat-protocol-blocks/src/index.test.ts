import { describe, expect, it } from 'vitest';
import * as blocks from './index.js';

// Every runtime export is a semver promise: changing this list is deliberate.
describe('the public surface of @papercusp/chat-protocol-blocks', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(blocks).sort()).toEqual([
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
