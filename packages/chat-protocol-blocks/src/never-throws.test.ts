/**
 * Issue 12 "Hostile input" (DESIGN §2.1, §2.2, §2.7): every exported function
 * of blocks is either never-throwing (`null`, a value or text for any argument,
 * hostile ones included) or a serializer documented as throwing `TypeError` only.
 */
import { describe, expect, it } from 'vitest';
import { describeNeverThrows, describeThrowsOnlyTypeError, functionExportNames } from '../../../test-support/never-throws.js';
import * as blocks from './index.js';

const report = { plans: [{ slug: 'ship', title: 'Ship it', status: 'in_progress', items: [{ id: 'a', text: 'Build', status: 'done' }] }] };
const ask = { question: 'Which plan?', options: [{ id: 'basic', label: 'Basic' }], refs: ['doc:1'] };
const turnText = `Before <report>${JSON.stringify(report)}</report> and <ask>${JSON.stringify(ask)}</ask> after`;
const call =
  <Args extends unknown[]>(method: (...args: Args) => unknown) =>
  (...args: unknown[]) =>
    method(...(args as Args));
const splitterPush = (delta: unknown, more: unknown) => {
  const splitter = blocks.createTurnTextSplitter();
  return [splitter.push(delta as string), splitter.push(more as string), splitter.peek(), splitter.end()];
};

describeNeverThrows('blocks: never-throwing functions', {
  parseReportBlock: { call: call(blocks.parseReportBlock), valid: [report], returns: 'value' },
  parseAskBlock: { call: call(blocks.parseAskBlock), valid: [ask], returns: 'value' },
  parseReportTag: { call: call(blocks.parseReportTag), valid: [turnText], returns: 'value' },
  parseAskTag: { call: call(blocks.parseAskTag), valid: [turnText], returns: 'value' },
  splitTurnText: { call: call(blocks.splitTurnText), valid: [turnText, { streaming: true }], returns: 'value' },
  stripBlockTags: { call: call(blocks.stripBlockTags), valid: [turnText], returns: 'value' },
  createTurnTextSplitter: { call: call(blocks.createTurnTextSplitter), valid: [undefined], returns: 'value' },
  'createTurnTextSplitter().push, peek and end': { call: splitterPush, valid: ['Before <rep', 'ort>{}</report>'], returns: 'value' },
});

describeThrowsOnlyTypeError('blocks: serializers documented as throwing TypeError', {
  serializeReportTag: { call: call(blocks.serializeReportTag), valid: [report] },
  serializeAskTag: { call: call(blocks.serializeAskTag), valid: [ask] },
});

describe('blocks: every exported function is classified (issue 12, hostile input)', () => {
  it('lists the never-throwing and the throwing functions exactly', () => {
    expect(functionExportNames(blocks)).toEqual(
      [
        'createTurnTextSplitter',
        'parseAskBlock',
        'parseAskTag',
        'parseReportBlock',
        'parseReportTag',
        'serializeAskTag',
        'serializeReportTag',
        'splitTurnText',
        'stripBlockTags',
      ].sort(),
    );
  });
});

describe('blocks: exact outcomes of the hostile inputs issue 12 found', () => {
  it('the valid arguments above are valid, so mutations start from a block that parses', () => {
    expect(blocks.parseReportTag(blocks.serializeReportTag(report as blocks.ReportBlock))).toEqual(report);
    expect(blocks.parseAskTag(blocks.serializeAskTag(ask as blocks.AskBlock))).toEqual(ask);
  });

  it('splitTurnText reads options it cannot read, or that are not an object, as not streaming (issue 12)', () => {
    const whole = blocks.splitTurnText('Hi <ask>{"question":"Q"}');
    const throwing = new Proxy({}, { get: () => { throw new Error('hostile read'); }, getOwnPropertyDescriptor: () => { throw new Error('hostile read'); } });
    expect(whole).toEqual([{ kind: 'text', text: 'Hi ' }, { kind: 'invalid', tag: 'ask', raw: '<ask>{"question":"Q"}' }]);
    expect(blocks.splitTurnText('Hi <ask>{"question":"Q"}', throwing as never)).toEqual(whole);
    expect(blocks.splitTurnText('Hi <ask>{"question":"Q"}', null as never)).toEqual(whole);
    const getter = Object.defineProperty({}, 'streaming', { get: () => true, enumerable: true });
    expect(blocks.splitTurnText('Hi <ask>{"question":"Q"}', getter)).toEqual(whole);
    expect(blocks.splitTurnText('Hi <ask>{"question":"Q"}', { streaming: true })).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'pending', tag: 'ask' },
    ]);
  });
});
