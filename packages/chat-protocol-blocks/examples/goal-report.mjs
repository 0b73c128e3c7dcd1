import { createReportBlockReader, parseReportBlock, splitTurnText } from '@papercusp/chat-protocol-blocks';
import * as z from 'zod/v4/mini';

// A product's extension: Papercusp's goal report reference, under its schema.
const GoalReportRefSchema = z.strictObject({
  schemaVersion: z.literal(1),
  goalId: z.string().check(z.minLength(1)),
  reportId: z.string().check(z.minLength(1)),
  bodySha256: z.string().check(z.regex(/^[a-f0-9]{64}$/)),
});
const reader = createReportBlockReader({ extensions: { goalReport: GoalReportRefSchema } });

// A goal-only report as Papercusp writes it: no plans, the reference at the top level.
const goalReport = { schemaVersion: 1, goalId: 'goal-7', reportId: 'report-3', bodySha256: 'ab'.repeat(32) };
const text = `Weekly goal report:\n<report>${JSON.stringify({ plans: [], goalReport })}</report>`;

const block = reader.parseTag(text);
console.log(`plans: ${block.plans.length}, goal: ${block.extensions.goalReport.goalId}`);
// Given the reader, the splitter reads the tag as a typed report segment too.
console.log(
  `segments: ${splitTurnText(text, { reportReader: reader })
    .map((segment) => segment.kind)
    .join(', ')}`,
);
// Without the product's reader, the flat key means nothing, and the report has no content.
console.log(`plain parser: ${parseReportBlock({ plans: [], goalReport })}`);
// Written with `extensions`, any reader keeps it (as untyped bounded JSON).
console.log(`kept: ${JSON.stringify(parseReportBlock({ plans: [], extensions: { goalReport } }).extensions.goalReport.reportId)}`);
