/**
 * Issue 12 "Hostile input" (DESIGN §2.1, §2.2, §2.7): the testkit's capture
 * verifier and golden replays never throw, whatever the text, options or name;
 * the report formatter throws `TypeError` only.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { everyTrapThrows, throwHostile } from '../../../test-support/hostile-values.js';
import { anyArguments, describeHostileContract, type FunctionClassification, type HostileTarget } from '../../../test-support/never-throws.js';
import * as testkit from './index.js';

const capture = readFileSync(new URL('../captures/violations.sse', import.meta.url), 'utf8');
const report = testkit.verifyChatCapture(capture);
const chunked = (options: unknown, chunk: unknown) => {
  const verifier = testkit.createChatCaptureVerifier(options as never);
  verifier.push(chunk as string);
  verifier.push(capture.slice(0, 40));
  return verifier.end();
};
const isReport = (value: unknown) => typeof value === 'object' && value !== null && 'violations' in value;

const neverThrowing: Readonly<Record<string, HostileTarget>> = {
  verifyChatCapture: { call: anyArguments(testkit.verifyChatCapture), valid: [capture, { conversationId: 'conv_1' }], returns: 'value' },
  'verifyChatCapture (legacy)': { call: anyArguments(testkit.verifyChatCapture), valid: ['event: delta\ndata: {"text":"Hi"}\n\n', { legacy: 'papercup', turnId: 'turn_1' }], returns: 'value' },
  createChatCaptureVerifier: { call: chunked, valid: [{ legacy: 'scout' }, capture.slice(0, 200)], returns: 'value' },
  replayGoldenSession: { call: anyArguments(testkit.replayGoldenSession), valid: [testkit.listGoldenSessions()[0]?.name], returns: 'result' },
  listGoldenSessions: { call: anyArguments(testkit.listGoldenSessions), valid: [undefined], returns: 'value' },
};

const throwing: FunctionClassification['throwing'] = {
  formatChatCaptureReport: { call: anyArguments(testkit.formatChatCaptureReport), valid: [report, 'capture.sse'] },
};

describeHostileContract('testkit', testkit, {
  neverThrowing,
  throwing,
  others: {
    FakeDatabaseError: 'the error class the fakes fault with, by design',
    createFakeDatabase: 'a test tool: expects the options it documents',
    createFakeTurnStore: 'a test tool over a fake database',
    createFakeInteractionStore: 'a test tool over a fake database',
  },
});

describe('testkit: the valid arguments', () => {
  it('the valid capture above is a report with violations, so mutations start from a real one', () => {
    expect(isReport(report) && report.violations.length > 0).toBe(true);
  });
});

const refused = (message: string) => ({ ok: false, frames: 0, turns: 0, violations: [{ rule: 'invalid-options', message }] });

describe('testkit: exact outcomes of the hostile inputs issue 12 found', () => {
  it('verifyChatCapture reports options it cannot read or use as one invalid-options violation (DESIGN §8)', () => {
    expect(testkit.verifyChatCapture(capture, null as never)).toEqual(refused('the options cannot be read; expected { conversationId?, legacy?, turnId? }'));
    expect(testkit.verifyChatCapture(capture, everyTrapThrows as never)).toEqual(
      refused('the options cannot be read; expected { conversationId?, legacy?, turnId? }'),
    );
    expect(testkit.verifyChatCapture(capture, { conversationId: 'has space' })).toEqual(refused('conversationId: expected a v1 id'));
    expect(testkit.verifyChatCapture(capture, { legacy: 'scout', turnId: 10n } as never)).toEqual(refused('turnId: expected a v1 id'));
  });

  it('a chunk that is not text is an invalid-capture violation at the frame it would have started (DESIGN §8)', () => {
    const verifier = testkit.createChatCaptureVerifier();
    verifier.push(Symbol('chunk') as never);
    expect(verifier.end().violations).toEqual([{ rule: 'invalid-capture', message: 'a chunk of the capture is a symbol, not text; it was not read', frame: 1 }]);
  });

  it('formatChatCaptureReport throws TypeError for a report it cannot read (§2.1)', () => {
    expect(() => testkit.formatChatCaptureReport(everyTrapThrows as never, 'capture.sse')).toThrow(
      new TypeError('formatChatCaptureReport: the report cannot be read'),
    );
    expect(() => testkit.formatChatCaptureReport(report, { [Symbol.toPrimitive]: throwHostile } as never)).toThrow(
      new TypeError('formatChatCaptureReport: source must be a string'),
    );
    expect(testkit.formatChatCaptureReport(testkit.verifyChatCapture(capture, null as never), 'capture.sse')).toBe(
      'capture.sse: 1 violation in 0 frames, 0 turns\n  end of capture: invalid-options: the options cannot be read; expected { conversationId?, legacy?, turnId? }\n',
    );
  });
});
