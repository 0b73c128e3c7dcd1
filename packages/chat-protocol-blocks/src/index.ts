/**
 * @papercusp/chat-protocol-blocks: `<report>` and `<ask>` blocks embedded in
 * agent turn text. Every export is listed by name; `index.test.ts` pins the list.
 */
export { BLOCK_LIMITS } from './limits.js';
export type { BlockLimits } from './limits.js';
// The strict report shape is core's (a card's report body uses the same schema), re-exported here.
export { REPORT_STATUS_TOKENS, ReportBlockSchema } from '@papercusp/chat-protocol-core';
export type { ReportBlock, ReportItem, ReportPlan, ReportStatusToken } from '@papercusp/chat-protocol-core';
export { parseReportBlock } from './report.js';
export { AskBlockSchema, parseAskBlock } from './ask.js';
export type { AskBlock, AskOption } from './ask.js';
export { serializeAskTag, serializeReportTag } from './serialize.js';
export { parseAskTag, parseReportTag } from './tag-readers.js';
export { createTurnTextSplitter, splitTurnText } from './split.js';
export { stripBlockTags } from './strip-block-tags.js';
export { createSayProjector, projectSayText } from './say-projection.js';
export { createReportBlockReader } from './report-reader.js';
export type { ReportBlockReader, ReportBlockReaderOptions, ReportBlockWithExtensions, ReportExtensionSchemas } from './report-reader.js';
export type { SayProjectionOptions, SayProjector } from './say-projection.js';
export type { BlockTagName, SplitTurnTextOptions, TurnTextSegment, TurnTextSplitter, TurnTextSplitterOptions } from './split.js';
