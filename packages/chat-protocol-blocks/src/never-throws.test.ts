/**
 * Issue 12 "Hostile input" (DESIGN §2.1, §2.2, §2.7): every exported function
 * of blocks is either never-throwing (`null`, a value or text for any argument,
 * hostile ones included) or a serializer documented as throwing `TypeError` only.
 */
import { describe, expect, it } from 'vitest';
import { everyTrapThrows } from '../../../test-support/hostile-values.js';
import {
  anyArguments,
  describeHostileContract,
  type FunctionClassification,
  type HostileTarget,
} from '../../../test-support/never-throws.js';
import * as blocks from './index.js';

const report = { plans: [{ slug: 'ship', title: 'Ship it', status: 'in_progress', items: [{ id: 'a', text: 'Build', status: 'done' }] }] };
const ask = { question: 'Which plan?', options: [{ id: 'basic', label: 'Basic' }], refs: ['doc:1'] };
const turnText = `Before <report>${JSON.stringify(report)}</report> and <ask>${JSON.stringify(ask)}</ask> after`;
const splitterPush = (delta: unknown, more: unknown) => {
  const splitter = blocks.createTurnTextSplitter();
  return [splitter.push(delta as string), splitter.push(more as string), splitter.peek(), splitter.end()];
};
const sayText = '<set_mode mode="active"/><say>Hello</say><continue/>';
const projectorPush = (options: unknown, delta: unknown, more: unknown) => {
  const projector = blocks.createSayProjector(options as blocks.SayProjectionOptions);
  return [projector.push(delta as string), projector.push(more as string), projector.end()];
};

const goalReader = blocks.createReportBlockReader({ extensions: { goalReport: blocks.ReportBlockSchema } });
const readerRead = (value: unknown, text: unknown) => [goalReader.parse(value), goalReader.parseTag(text as string)];

const neverThrowing: Readonly<Record<string, HostileTarget>> = {
  parseReportBlock: { call: anyArguments(blocks.parseReportBlock), valid: [report], returns: 'value' },
  parseAskBlock: { call: anyArguments(blocks.parseAskBlock), valid: [ask], returns: 'value' },
  parseReportTag: { call: anyArguments(blocks.parseReportTag), valid: [turnText], returns: 'value' },
  parseAskTag: { call: anyArguments(blocks.parseAskTag), valid: [turnText], returns: 'value' },
  splitTurnText: { call: anyArguments(blocks.splitTurnText), valid: [turnText, { streaming: true }], returns: 'value' },
  stripBlockTags: { call: anyArguments(blocks.stripBlockTags), valid: [turnText], returns: 'value' },
  createTurnTextSplitter: { call: anyArguments(blocks.createTurnTextSplitter), valid: [undefined], returns: 'value' },
  'createTurnTextSplitter().push, peek and end': { call: splitterPush, valid: ['Before <rep', 'ort>{}</report>'], returns: 'value' },
  createReportBlockReader: {
    call: anyArguments(blocks.createReportBlockReader),
    valid: [{ extensions: { goalReport: blocks.ReportBlockSchema } }],
    returns: 'value',
  },
  'createReportBlockReader().parse and parseTag': {
    call: readerRead,
    valid: [{ plans: [], goalReport: report }, turnText],
    returns: 'value',
  },
  projectSayText: { call: anyArguments(blocks.projectSayText), valid: [sayText, { allowPlainText: true }], returns: 'value' },
  createSayProjector: { call: anyArguments(blocks.createSayProjector), valid: [{ allowPlainText: true }], returns: 'value' },
  'createSayProjector().push and end': { call: projectorPush, valid: [{ allowPlainText: true }, '<say>Hel', 'lo</sa'], returns: 'value' },
};

const throwing: FunctionClassification['throwing'] = {
  serializeReportTag: { call: anyArguments(blocks.serializeReportTag), valid: [report] },
  serializeAskTag: { call: anyArguments(blocks.serializeAskTag), valid: [ask] },
};

describeHostileContract('blocks', blocks, {
  neverThrowing,
  throwing,
});

describe('blocks: exact outcomes of hostile say projection options (issue 13, DESIGN §2.7)', () => {
  it('projectSayText and createSayProjector read allowPlainText only as an own boolean data property', () => {
    expect(blocks.projectSayText('Plain', everyTrapThrows as never)).toBe('Plain');
    expect(blocks.projectSayText('Plain', { allowPlainText: 'no' } as never)).toBe('Plain');
    expect(blocks.projectSayText('Plain', { allowPlainText: false })).toBe('');
    expect(blocks.createSayProjector({ allowPlainText: 'yes' } as never).push('Plain')).toBe('');
    expect(blocks.projectSayText('Plain', { allowPlainText: 0 } as never)).toBe('Plain');
    const getter = Object.defineProperty({}, 'allowPlainText', { get: () => true, enumerable: true });
    expect(blocks.createSayProjector(getter).push('Plain')).toBe('');
    expect(blocks.createSayProjector(everyTrapThrows as never).push('Plain')).toBe('');
    expect(blocks.projectSayText(null as never)).toBe('');
  });
});

describe('blocks: exact outcomes of the hostile inputs issue 12 found', () => {
  it('the valid arguments above are valid, so mutations start from a block that parses', () => {
    expect(blocks.parseReportTag(blocks.serializeReportTag(report as blocks.ReportBlock))).toEqual(report);
    expect(blocks.parseAskTag(blocks.serializeAskTag(ask as blocks.AskBlock))).toEqual(ask);
  });

  it('splitTurnText reads options it cannot read, or that are not an object, as not streaming (issue 12)', () => {
    const whole = blocks.splitTurnText('Hi <ask>{"question":"Q"}');
    expect(whole).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'invalid', tag: 'ask', raw: '<ask>{"question":"Q"}' },
    ]);
    expect(blocks.splitTurnText('Hi <ask>{"question":"Q"}', everyTrapThrows as never)).toEqual(whole);
    expect(blocks.splitTurnText('Hi <ask>{"question":"Q"}', null as never)).toEqual(whole);
    const getter = Object.defineProperty({}, 'streaming', { get: () => true, enumerable: true });
    expect(blocks.splitTurnText('Hi <ask>{"question":"Q"}', getter)).toEqual(whole);
    expect(blocks.splitTurnText('Hi <ask>{"question":"Q"}', { streaming: true })).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'pending', tag: 'ask' },
    ]);
  });
});
