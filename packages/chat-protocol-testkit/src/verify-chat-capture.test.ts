import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { delta, done, FIXTURES, frame, readCapture } from '../test/capture.js';
import { CHAT_CAPTURE_RULES, createChatCaptureVerifier, verifyChatCapture, type ChatCaptureReport, type ChatCaptureRule } from './index.js';
import { runs } from '../../../test-support/property-runs.js';

const card = (correlationId: string) => ({
  correlationId,
  createdAt: '2026-11-30T10:00:00Z',
  prompt: 'Refund or replacement?',
  presentation: { kind: 'confirm' as const },
});

// A rule's violation as the tests state it: the rule, where, and the exact message.
const at = (rule: ChatCaptureRule, frame: number, seq: number, message: string, turnId = 'turn_a') => ({
  rule,
  message,
  frame,
  turnId,
  seq,
  eventId: `${turnId}.${seq}`,
});

describe('verify: the sample captures (issue 7)', () => {
  it('the clean capture has no violation', () => {
    expect(verifyChatCapture(readCapture('clean.sse'))).toEqual({ ok: true, frames: 12, turns: 2, violations: [] });
  });

  it('the bad capture reports exactly its violations, in order, each once', () => {
    expect(verifyChatCapture(readCapture('violations.sse'))).toEqual({
      ok: false,
      frames: 15,
      turns: 2,
      violations: [
        at('unknown-tool-call', 4, 3, 'no tool call call_refund in this turn'),
        at('seq-gap', 5, 5, 'expected seq 4 of turn turn_a, got 5: seq 4 is missing'),
        at('event-mismatch', 6, 6, 'event: SSE event is "message", envelope says delta'),
        at('id-mismatch', 7, 7, 'id: SSE id is "turn_a:8", envelope cursor is turn_a:7'),
        at('conflicting-duplicate', 8, 6, 'seq 6 of turn turn_a was delivered before with other content'),
        at('turn-terminal', 10, 9, 'delta after the turn ended with done at seq 8'),
        { rule: 'unparseable-frame', message: 'unsupported-version: schemaVersion: expected schemaVersion 1', frame: 11 },
        { rule: 'invalid-sse-line', message: 'Invalid `retry` value: "soon"', frame: 12 },
        { rule: 'unparseable-frame', message: 'invalid-json: not valid JSON', frame: 12 },
        at('tool-name-mismatch', 14, 2, 'tool call call_search called search_catalog, the result names search_orders', 'turn_b'),
        at('unterminated-frame', 16, 4, 'the capture ends inside this message (no blank line after it), so a client drops it', 'turn_b'),
      ],
    });
  });

  it('reports the same in any split of the capture into chunks (a live stream)', () => {
    const text = readCapture('violations.sse');
    const whole = verifyChatCapture(text);
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: text.length }), { maxLength: 12 }), (cuts) => {
        const verifier = createChatCaptureVerifier();
        let from = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          verifier.push(text.slice(from, cut));
          from = cut;
        }
        verifier.push(text.slice(from));
        expect(verifier.end()).toEqual(whole);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('verify: one rule at a time (DESIGN §3.2–3.5)', () => {
  const cases: readonly {
    readonly name: string;
    readonly capture: string;
    readonly options?: unknown;
    readonly report: Omit<ChatCaptureReport, 'ok'>;
  }[] = [
    {
      name: 'options it cannot use are one invalid-options violation, and nothing is read (issue 12)',
      capture: delta('turn_a', 1),
      options: { legacy: 'papercupp' },
      report: { frames: 0, turns: 0, violations: [{ rule: 'invalid-options', message: 'legacy: expected one of papercup, scout' }] },
    },
    {
      name: 'a capture that is not text is an invalid-capture violation, never a throw (issue 12)',
      capture: null as unknown as string,
      report: {
        frames: 0,
        turns: 0,
        violations: [{ rule: 'invalid-capture', message: 'a chunk of the capture is a null, not text; it was not read', frame: 1 }],
      },
    },
    {
      name: 'an identical redelivery, even in another key order, is replay overlap, not a violation',
      capture:
        delta('turn_a', 1) +
        delta('turn_a', 1) +
        delta('turn_a', 2).replace('"type":"delta","text":"text 2"', '"text":"text 2","type":"delta"') +
        delta('turn_a', 2),
      report: { frames: 4, turns: 1, violations: [] },
    },
    {
      name: 'the same event id at another seq is a conflicting duplicate',
      capture: delta('turn_a', 1) + delta('turn_a', 2, 'again', 'turn_a.1'),
      report: {
        frames: 2,
        turns: 1,
        violations: [
          {
            rule: 'conflicting-duplicate',
            message: 'event id turn_a.1 was delivered before as seq 1 of turn turn_a',
            frame: 2,
            turnId: 'turn_a',
            seq: 2,
            eventId: 'turn_a.1',
          },
        ],
      },
    },
    {
      name: 'a turn starts at seq 1, and a gap names every missing seq once',
      capture: delta('turn_a', 3) + delta('turn_a', 4) + delta('turn_a', 7) + delta('turn_a', 8),
      report: {
        frames: 4,
        turns: 1,
        violations: [
          at('seq-gap', 1, 3, 'expected seq 1 of turn turn_a, got 3: seqs 1–2 are missing'),
          at('seq-gap', 3, 7, 'expected seq 5 of turn turn_a, got 7: seqs 5–6 are missing'),
        ],
      },
    },
    {
      name: 'a seq that arrives after a later one is out of order',
      capture: delta('turn_a', 1) + delta('turn_a', 3) + delta('turn_a', 2),
      report: {
        frames: 3,
        turns: 1,
        violations: [
          at('seq-gap', 2, 3, 'expected seq 2 of turn turn_a, got 3: seq 2 is missing'),
          at('seq-out-of-order', 3, 2, 'seq 2 of turn turn_a arrived after seq 3'),
        ],
      },
    },
    {
      name: 'seqs are per turn: two interleaved turns each count from 1',
      capture: delta('turn_a', 1) + delta('turn_b', 1) + delta('turn_a', 2) + done('turn_b', 2) + done('turn_a', 3),
      report: { frames: 5, turns: 2, violations: [] },
    },
    {
      name: 'done and error are terminal: anything new after either breaks the turn-terminal rule, once; a redelivery does not',
      capture:
        delta('turn_a', 1) +
        frame('turn_a', 2, { type: 'error', code: 'boom', message: 'failed', retryable: false }) +
        frame('turn_a', 2, { type: 'error', code: 'boom', message: 'failed', retryable: false }) +
        done('turn_a', 3) +
        done('turn_a', 3),
      report: { frames: 5, turns: 1, violations: [at('turn-terminal', 4, 3, 'done after the turn ended with error at seq 2')] },
    },
    {
      name: 'a capture is one conversation: the first envelope names it',
      capture: delta('turn_a', 1) + delta('turn_a', 2).split('conv_t').join('conv_other'),
      report: {
        frames: 2,
        turns: 1,
        violations: [at('foreign-conversation', 2, 2, "conversation conv_other, not the capture's conv_t")],
      },
    },
    {
      name: 'tool calls are made once and answered once',
      capture:
        frame('turn_a', 1, { type: 'tool_call', callId: 'call_1', name: 'lookup' }) +
        frame('turn_a', 2, { type: 'tool_call', callId: 'call_1', name: 'lookup' }) +
        frame('turn_a', 3, { type: 'tool_result', callId: 'call_1', name: 'lookup', status: 'succeeded' }) +
        frame('turn_a', 4, { type: 'tool_result', callId: 'call_1', name: 'lookup', status: 'failed' }),
      report: {
        frames: 4,
        turns: 1,
        violations: [
          at('duplicate-tool-call', 2, 2, 'tool call call_1 was already made'),
          at('duplicate-tool-result', 4, 4, 'tool call call_1 already has a result'),
        ],
      },
    },
    {
      name: "the person's message opens its turn: a user_input after seq 1 is misplaced (issue 13)",
      capture:
        frame('turn_a', 1, { type: 'user_input', text: 'Where is my order?', source: 'text_typed' }) +
        frame('turn_a', 2, { type: 'user_input', text: 'Hello?' }),
      report: {
        frames: 2,
        turns: 1,
        violations: [at('misplaced-user-input', 2, 2, "user_input must be the turn's first event (seq 1), got seq 2")],
      },
    },
    {
      name: 'a result belongs to a call of its own turn',
      capture:
        frame('turn_a', 1, { type: 'tool_call', callId: 'call_1', name: 'lookup' }) +
        frame('turn_b', 1, { type: 'tool_result', callId: 'call_1', name: 'lookup', status: 'succeeded' }),
      report: { frames: 2, turns: 2, violations: [at('unknown-tool-call', 2, 1, 'no tool call call_1 in this turn', 'turn_b')] },
    },
    {
      name: 'cards are asked once, closed once, and only when asked; state versions increase',
      capture:
        frame('turn_a', 1, { type: 'card', card: card('card_1') }) +
        frame('turn_a', 2, { type: 'card', card: card('card_1') }) +
        frame('turn_a', 3, { type: 'card_closed', correlationId: 'card_2' }) +
        frame('turn_a', 4, { type: 'card_closed', correlationId: 'card_1', resolution: 'declined' }) +
        frame('turn_a', 5, { type: 'card_closed', correlationId: 'card_1' }) +
        frame('turn_a', 6, { type: 'state', version: 2, snapshot: {} }) +
        frame('turn_a', 7, { type: 'state', version: 2, snapshot: { step: 2 } }),
      report: {
        frames: 7,
        turns: 1,
        violations: [
          at('duplicate-card', 2, 2, 'card card_1 was already asked'),
          at('unknown-card', 3, 3, 'no card card_2 in this turn'),
          at('card-closed', 5, 5, 'card card_1 is already closed'),
          at('stale-state', 7, 7, 'state version 2 is not after 2'),
        ],
      },
    },
    {
      name: 'a card of another turn closes only when its ended turn left it waiting (issue 13)',
      capture:
        frame('turn_a', 1, { type: 'card', card: card('card_1') }) + frame('turn_b', 1, { type: 'card_closed', correlationId: 'card_1' }),
      report: {
        frames: 2,
        turns: 2,
        violations: [at('card-not-awaiting', 2, 1, 'card card_1 of turn turn_a is not waiting for a later turn to close it', 'turn_b')],
      },
    },
    {
      name: 'a gap is reported once: the content after it is still checked, without a cascade',
      capture:
        frame('turn_a', 1, { type: 'tool_call', callId: 'call_1', name: 'lookup' }) +
        frame('turn_a', 3, { type: 'tool_result', callId: 'call_1', name: 'lookup', status: 'succeeded' }) +
        frame('turn_a', 4, { type: 'tool_result', callId: 'call_2', name: 'lookup', status: 'succeeded' }) +
        done('turn_a', 5),
      report: {
        frames: 4,
        turns: 1,
        violations: [
          at('seq-gap', 2, 3, 'expected seq 2 of turn turn_a, got 3: seq 2 is missing'),
          at('unknown-tool-call', 3, 4, 'no tool call call_2 in this turn'),
        ],
      },
    },
    {
      name: 'both SSE disagreements of one frame are reported, and the envelope is still checked',
      capture: delta('turn_a', 1).replace('id: turn_a:1\nevent: delta', 'id: turn_a:9\nevent: done') + delta('turn_a', 2),
      report: {
        frames: 2,
        turns: 1,
        violations: [
          at('event-mismatch', 1, 1, 'event: SSE event is "done", envelope says delta'),
          at('id-mismatch', 1, 1, 'id: SSE id is "turn_a:9", envelope cursor is turn_a:1'),
        ],
      },
    },
    {
      name: 'a v1 heartbeat is a comment; a heartbeat message is a frame that does not parse',
      capture: ': keep-alive\n\n' + delta('turn_a', 1) + 'event: heartbeat\ndata: \n\n',
      report: { frames: 2, turns: 1, violations: [{ rule: 'unparseable-frame', message: 'invalid-json: not valid JSON', frame: 2 }] },
    },
    {
      name: 'a line SSE does not know is an invalid SSE line',
      capture: delta('turn_a', 1) + 'cursor: turn_a:1\n\n',
      report: { frames: 1, turns: 1, violations: [{ rule: 'invalid-sse-line', message: 'Unknown field "cursor"', frame: 2 }] },
    },
    {
      name: 'a capture that stops inside a message loses it, and says where',
      capture: delta('turn_a', 1) + 'id: turn_a:2\nevent: delta\ndata: {"schemaVer',
      report: {
        frames: 1,
        turns: 1,
        violations: [
          {
            rule: 'unterminated-frame',
            message: 'the capture ends inside this message (no blank line after it), so a client drops it',
            frame: 2,
          },
        ],
      },
    },
  ];

  it.each(cases)('$name', ({ capture, options, report }) => {
    expect(verifyChatCapture(capture, options as never)).toEqual({ ok: report.violations.length === 0, ...report });
  });

  it('every rule of the closed list is shown by a case here or by the bad capture', () => {
    const shown = new Set(
      [
        ...cases.flatMap(({ capture, options }) => verifyChatCapture(capture, options as never).violations),
        ...verifyChatCapture(readCapture('violations.sse')).violations,
      ].map((violation) => violation.rule),
    );
    expect([...shown].sort()).toEqual([...CHAT_CAPTURE_RULES].sort());
  });

  it('a conversation given in the options is the one the capture must belong to', () => {
    expect(verifyChatCapture(delta('turn_a', 1), { conversationId: 'conv_other' }).violations).toEqual([
      at('foreign-conversation', 1, 1, "conversation conv_t, not the capture's conv_other"),
    ]);
  });

  it('end() is final: later chunks are ignored and the same report comes back', () => {
    const verifier = createChatCaptureVerifier();
    verifier.push(delta('turn_a', 1));
    const report = verifier.end();
    verifier.push(delta('turn_a', 3));
    expect(verifier.end()).toBe(report);
    expect(report).toEqual({ ok: true, frames: 1, turns: 1, violations: [] });
  });
});

describe('verify --legacy: legacy captures through the adapter (DESIGN §5)', () => {
  const fixture = (path: string) => readFileSync(new URL(path, FIXTURES), 'utf8');

  it('the captured papercup session upgrades and folds without a violation', () => {
    expect(verifyChatCapture(fixture('legacy/papercup/refund-lookup.sse'), { legacy: 'papercup' })).toEqual({
      ok: true,
      frames: 12,
      turns: 1,
      violations: [],
    });
  });

  it("the adapter's refusals are violations naming its code: scout product events", () => {
    expect(verifyChatCapture(fixture('legacy/scout/product-search.sse'), { legacy: 'scout' })).toEqual({
      ok: false,
      frames: 9,
      turns: 1,
      violations: [
        { rule: 'unparseable-frame', message: 'unsupported-event: "products" is not an event of this dialect', frame: 5 },
        { rule: 'unparseable-frame', message: 'unsupported-event: "broaden" is not an event of this dialect', frame: 6 },
      ],
    });
  });

  it('the same legacy capture read as v1 is refused frame by frame', () => {
    const report = verifyChatCapture(fixture('legacy/papercup/refund-lookup.sse'));
    expect(report.violations.map((violation) => violation.rule)).toEqual(Array.from({ length: 12 }, () => 'unparseable-frame'));
  });

  it('tool frames without a call id: a result takes an open call of its tool, else missing-call-identity; seqs follow the decoder', () => {
    const capture = [
      'event: tool_call\ndata: {"name":"lookup"}\n\n',
      'event: tool_call\ndata: {"name":"lookup"}\n\n',
      'event: tool_result\ndata: {"name":"lookup","ok":true}\n\n',
      'event: tool_result\ndata: {"name":"lookup","ok":false}\n\n',
      'event: tool_result\ndata: {"name":"lookup","ok":true}\n\n',
      'event: done\ndata: {}\n\n',
      'event: delta\ndata: {"text":"late"}\n\n',
    ].join('');
    expect(verifyChatCapture(capture, { legacy: 'papercup', conversationId: 'conv_9', turnId: 'turn_9' })).toEqual({
      ok: false,
      frames: 7,
      turns: 1,
      violations: [
        {
          rule: 'unparseable-frame',
          message: 'missing-call-identity: callId: the frame has no call id and the host mapped none',
          frame: 5,
        },
        {
          rule: 'turn-terminal',
          message: 'delta after the turn ended with done at seq 5',
          frame: 7,
          turnId: 'turn_9',
          seq: 6,
          eventId: 'turn_9.evt_6',
        },
      ],
    });
  });

  it('v1 envelopes on a legacy connection are checked too, against its conversation', () => {
    const capture =
      'event: delta\ndata: {"text":"hi"}\n\n' +
      delta('turn_legacy', 2) +
      delta('turn_legacy', 3).replace('id: turn_legacy:3', 'id: turn_legacy:4');
    expect(verifyChatCapture(capture, { legacy: 'papercup', conversationId: 'conv_t' })).toEqual({
      ok: false,
      frames: 3,
      turns: 1,
      violations: [
        {
          rule: 'id-mismatch',
          message: 'id: SSE id is "turn_legacy:4", envelope cursor is turn_legacy:3',
          frame: 3,
          turnId: 'turn_legacy',
          seq: 3,
          eventId: 'turn_legacy.3',
        },
      ],
    });
  });
});

describe('verify never throws (DESIGN §2.7)', () => {
  const reportShape = (report: ChatCaptureReport) => {
    expect(report.ok).toBe(report.violations.length === 0);
    expect(Number.isSafeInteger(report.frames) && report.frames >= 0).toBe(true);
    for (const violation of report.violations) expect(CHAT_CAPTURE_RULES).toContain(violation.rule);
  };

  it('returns a report for arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 400 }),
        fc.constantFrom<undefined | 'papercup' | 'scout'>(undefined, 'papercup', 'scout'),
        (text, legacy) => {
          reportShape(verifyChatCapture(text, { legacy }));
        },
      ),
      { numRuns: runs(500) },
    );
  });

  it('returns a report for arbitrary SSE-shaped text', () => {
    const line = fc.oneof(
      fc.constantFrom('', ':', ': ping', 'data:', 'data: {}', 'event: done', 'id: turn_a:1', 'retry: 1', 'event:', 'id:'),
      fc.string({ maxLength: 40 }).map((text) => `data: ${text}`),
      fc.string({ maxLength: 40 }).map((text) => `event: ${text}`),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\r\n', '\r'), (lines, newline) => {
        reportShape(verifyChatCapture(lines.join(newline)));
      }),
      { numRuns: runs(500) },
    );
  });

  it('returns a report for mutated captures: lines dropped, repeated, swapped, cut or replaced', () => {
    const lines = `${readCapture('clean.sse')}${readCapture('violations.sse')}`.split('\n');
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), to: fc.nat() }),
      fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.nat() }),
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), text: fc.string({ unit: 'binary', maxLength: 30 }) }),
    );
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 8 }), (mutations) => {
        const mutated = [...lines];
        for (const change of mutations) {
          const index = change.at % mutated.length;
          const original = mutated[index] ?? '';
          if (change.kind === 'drop') mutated.splice(index, 1);
          else if (change.kind === 'repeat') mutated.splice(index, 0, original);
          else if (change.kind === 'swap') {
            const other = change.to % mutated.length;
            mutated[index] = mutated[other] ?? '';
            mutated[other] = original;
          } else if (change.kind === 'cut') mutated[index] = original.slice(0, change.length % (original.length + 1));
          else mutated[index] = change.text;
          if (mutated.length === 0) mutated.push('');
        }
        reportShape(verifyChatCapture(mutated.join('\n')));
      }),
      { numRuns: runs(300) },
    );
  });
});
