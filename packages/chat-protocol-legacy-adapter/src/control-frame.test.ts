import { readFileSync } from 'node:fs';
import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../test/sse.js';
import {
  createChatFrameDecoder,
  encodeLegacyControlFrame,
  papercup,
  scout,
  upgradeLegacyChatFrame,
  type LegacyControlFrame,
  type LegacyDialect,
} from './index.js';

// Issue 13 / DESIGN §5: the control frames Papercusp/sse writes (src/server/response.ts,
// src/wire/format.ts) are understood in both directions.

/** Everything an SSE parser reports, in order: messages, and the comments and retry hints beside them. */
function parseAll(text: string): unknown[] {
  const reported: unknown[] = [];
  const parser = createParser({
    onEvent: (message) => reported.push(message),
    onComment: (comment) => reported.push({ comment }),
    onRetry: (retry) => reported.push({ retry }),
  });
  parser.feed(text);
  return reported;
}

const decoderFor = (dialect: LegacyDialect) =>
  createChatFrameDecoder({
    dialect,
    context: {
      conversationId: 'conv_1',
      turnId: 'turn_1',
      identify: ({ seq }) => ({ eventId: `evt_${seq}`, occurredAt: '2026-11-30T09:00:00Z' }),
    },
  });

describe('control frames as @papercusp/sse writes them (issue 13)', () => {
  const capture = readFileSync(new URL('legacy/papercup/sse-control-frames.sse', FIXTURES), 'utf8');

  it('a frame decoder counts the capture’s comments and retry hint as transport, when the host passes them on from its parser', () => {
    const decoder = decoderFor(papercup);
    const results = parseAll(capture).map((reported) => decoder.decode(reported));
    expect(
      results.map((result) => (result.ok ? (result.kind === 'control' ? `control:${result.control}` : result.kind) : result.code)),
    ).toStrictEqual([
      'control:comment',
      'control:comment',
      'control:comment',
      'transport',
      'resync-required',
      // The parser reports the retry line as it reads it, before the message it ends dispatches.
      'control:retry',
      'envelope',
      'control:comment',
      'transport',
      'envelope',
      'envelope',
    ]);
    expect(results[5]).toStrictEqual({ ok: true, kind: 'control', control: 'retry', retryMs: 2000 });
    expect(results[7]).toStrictEqual({ ok: true, kind: 'control', control: 'comment', text: 'keep-alive' });
    expect(decoder.counts()).toStrictEqual({ v1: 0, legacy: 3, transport: 7, unsupported: 1, refusals: { 'resync-required': 1 } });
  });

  it.each<[string, LegacyControlFrame, string]>([
    ['heartbeat', { kind: 'heartbeat', tsMs: 1796029200000 }, 'event: heartbeat\ndata: {"tsMs":1796029200000}\n\n'],
    [
      'resync',
      { kind: 'resync', reason: 'ahead', fromId: 9, floorId: 1, maxId: 4 },
      'event: resync\ndata: {"reason":"ahead","fromId":9,"floorId":1,"maxId":4}\n\n',
    ],
    ['comment', { kind: 'comment', text: 'keep-alive' }, ': keep-alive\n\n'],
  ])('encodeLegacyControlFrame writes the %s frame byte for byte as the capture has it', (_, control, sse) => {
    expect(encodeLegacyControlFrame(control)).toStrictEqual({ ok: true, sse });
    expect(capture).toContain(sse);
  });

  it('writes a retry hint as its own block, which a parser reports as a retry and no message', () => {
    const encoded = encodeLegacyControlFrame({ kind: 'retry', retryMs: 2000 });
    expect(encoded).toStrictEqual({ ok: true, sse: 'retry: 2000\n\n' });
    expect(parseAll(encoded.ok ? encoded.sse : '')).toStrictEqual([{ retry: 2000 }]);
  });

  it.each<LegacyDialect>([papercup, scout])(
    'what it writes decodes back as the server’s own frames in $name: heartbeat transport, resync resync-required',
    (dialect) => {
      const identity = {
        conversationId: 'conv_1',
        turnId: 'turn_1',
        eventId: 'evt_1',
        seq: 1,
        occurredAt: '2026-11-30T09:00:00Z',
        dialect,
      };
      const [heartbeat] = parseAll((encodeLegacyControlFrame({ kind: 'heartbeat', tsMs: 5 }) as { sse: string }).sse);
      expect(upgradeLegacyChatFrame(heartbeat, identity)).toMatchObject({ ok: true, kind: 'transport', transport: 'heartbeat' });
      const [resync] = parseAll(
        (encodeLegacyControlFrame({ kind: 'resync', reason: 'gap', fromId: 1, floorId: 4, maxId: 6 }) as { sse: string }).sse,
      );
      expect(upgradeLegacyChatFrame(resync, identity)).toMatchObject({ ok: false, code: 'resync-required' });
      const decoder = decoderFor(dialect);
      for (const reported of parseAll(': ping\n\nretry: 10\n\n'))
        expect(decoder.decode(reported)).toMatchObject({ ok: true, kind: 'control' });
      expect(decoder.counts()).toMatchObject({ transport: 2, unsupported: 0 });
    },
  );

  it.each([
    { kind: 'heartbeat' },
    { kind: 'heartbeat', tsMs: -1 },
    { kind: 'heartbeat', tsMs: 1.5, extra: 1 },
    { kind: 'comment', text: 'two\nlines' },
    { kind: 'comment', text: 'carriage\rreturn' },
    { kind: 'comment', text: '\u0007bell' },
    { kind: 'retry', retryMs: Number.NaN },
    { kind: 'retry', retryMs: '2000' },
    { kind: 'resync', reason: 'later', fromId: 1, floorId: 1, maxId: 1 },
    { kind: 'resync', reason: 'gap', fromId: 1, floorId: 1 },
    { kind: 'delta', text: 'hi' },
    null,
    'heartbeat',
  ])('refuses %j as invalid-control-frame', (control) => {
    expect(encodeLegacyControlFrame(control)).toMatchObject({ ok: false, code: 'invalid-control-frame' });
  });

  it('a frame decoder refuses a malformed comment or retry report as invalid-frame, counted', () => {
    const decoder = decoderFor(scout);
    for (const input of [{ comment: 'a\nb' }, { retry: -1 }, { retry: '5' }, { comment: 'x', retry: 5 }, { comment: 1 }]) {
      expect(decoder.decode(input)).toMatchObject({ ok: false, code: 'invalid-frame' });
    }
    expect(decoder.counts()).toStrictEqual({ v1: 0, legacy: 0, transport: 0, unsupported: 5, refusals: { 'invalid-frame': 5 } });
  });

  it('every comment and retry hint it writes reads back through a parser as itself (property)', () => {
    const line = fc.string().filter((text) => !/[\r\n]/.test(text) && encodeLegacyControlFrame({ kind: 'comment', text }).ok);
    fc.assert(
      fc.property(line, fc.maxSafeNat(), (text, retryMs) => {
        const comment = encodeLegacyControlFrame({ kind: 'comment', text }) as { sse: string };
        const retry = encodeLegacyControlFrame({ kind: 'retry', retryMs }) as { sse: string };
        // The SSE spec drops one space after the colon: a comment's own leading space is its text's.
        expect(parseAll(comment.sse + retry.sse)).toStrictEqual([{ comment: text }, { retry: retryMs }]);
      }),
    );
  });
});
