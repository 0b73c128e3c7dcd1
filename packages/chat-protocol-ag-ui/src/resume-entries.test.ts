import { ResumeEntrySchema } from '@ag-ui/core/schemas';
import type { CardResponse } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { everyHostileArgument, everyTrapThrows, syncOutcomeOf, throwHostile } from '../../../test-support/hostile-values.js';
import { encodedGoldenSessions } from '../test/golden-sessions.js';
import { cardResponseFromResumeEntry, resumeEntryFromCardResponse } from './resume-entries.js';

const goldenResponses: CardResponse[] = encodedGoldenSessions().flatMap((session) => [...session.replay.responses]);

describe('AG-UI resume entries ⇄ v1 card responses (issue 18)', () => {
  it('maps every answer of the golden sessions to a resume entry AG-UI accepts, and back to an equal response', () => {
    expect(new Set(goldenResponses.map((response) => response.action))).toStrictEqual(new Set(['submit', 'decline']));
    for (const response of goldenResponses) {
      const entry = resumeEntryFromCardResponse(response);
      expect(ResumeEntrySchema.safeParse(entry).success).toBe(true);
      expect(cardResponseFromResumeEntry(entry)).toStrictEqual({ ok: true, value: response });
    }
  });

  it('maps submit to resolved with the value, cancel to cancelled, decline to cancelled with its reason carried', () => {
    expect(resumeEntryFromCardResponse({ action: 'submit', correlationId: 'card_1', value: { confirmed: true } })).toStrictEqual({
      interruptId: 'card_1',
      status: 'resolved',
      payload: { confirmed: true },
    });
    expect(resumeEntryFromCardResponse({ action: 'cancel', correlationId: 'card_1' })).toStrictEqual({
      interruptId: 'card_1',
      status: 'cancelled',
    });
    const declined = resumeEntryFromCardResponse({ action: 'decline', correlationId: 'card_1', reason: 'not now' });
    expect(declined).toStrictEqual({
      interruptId: 'card_1',
      status: 'cancelled',
      metadata: { papercusp: { action: 'decline', reason: 'not now' } },
    });
    expect(cardResponseFromResumeEntry(declined)).toStrictEqual({
      ok: true,
      value: { action: 'decline', correlationId: 'card_1', reason: 'not now' },
    });
    expect(cardResponseFromResumeEntry({ interruptId: 'card_1', status: 'cancelled' })).toStrictEqual({
      ok: true,
      value: { action: 'cancel', correlationId: 'card_1' },
    });
  });

  it('never invents an answer: a resolved entry without a payload is missing-payload, malformed entries are typed refusals', () => {
    expect(cardResponseFromResumeEntry({ interruptId: 'card_1', status: 'resolved' })).toMatchObject({
      ok: false,
      code: 'missing-payload',
    });
    expect(cardResponseFromResumeEntry({ interruptId: 'card_1', status: 'approved' })).toMatchObject({
      ok: false,
      code: 'invalid-resume-entry',
    });
    expect(cardResponseFromResumeEntry([])).toMatchObject({ ok: false, code: 'invalid-resume-entry' });
    expect(cardResponseFromResumeEntry({ interruptId: 'not an id', status: 'cancelled' })).toMatchObject({
      ok: false,
      code: 'invalid-card-response',
    });
  });
});

describe('cardResponseFromResumeEntry on hostile entries (issue 24, DESIGN §2.1, §2.7)', () => {
  const getter = (base: object, key: string) =>
    Object.defineProperty({ ...base }, key, { enumerable: true, configurable: true, get: throwHostile });
  const unreadable = {
    ok: false,
    code: 'invalid-resume-entry',
    message: 'a resume entry is plain data: no getters, Proxies or class instances',
  };

  it('refuses an entry it cannot read as plain data with invalid-resume-entry, at the top or inside payload or metadata, and never throws', () => {
    const resolved = { interruptId: 'card_1', status: 'resolved' };
    const cancelled = { interruptId: 'card_1', status: 'cancelled' };
    const cases: readonly unknown[] = [
      everyTrapThrows,
      getter(resolved, 'status'),
      getter(resolved, 'interruptId'),
      getter(resolved, 'payload'),
      { ...resolved, payload: everyTrapThrows },
      { ...resolved, payload: getter({ confirmed: true }, 'confirmed') },
      { ...resolved, payload: { nested: [everyTrapThrows] } },
      { ...resolved, payload: new Date(0) },
      { ...cancelled, metadata: everyTrapThrows },
      { ...cancelled, metadata: { papercusp: getter({ action: 'decline' }, 'reason') } },
      { ...cancelled, metadata: { papercusp: everyTrapThrows } },
      Object.create({ interruptId: 'card_1', status: 'cancelled' }) as unknown,
      { ...cancelled, metadata: Object.create({ papercusp: { action: 'decline' } }) as unknown },
    ];
    for (const entry of cases) expect(cardResponseFromResumeEntry(entry)).toStrictEqual(unreadable);
  });

  it('reads every catalogue value at the top and as the payload to a typed refusal or a response, never a throw', () => {
    for (const hostile of everyHostileArgument([{ interruptId: 'card_1', status: 'resolved', payload: { confirmed: true } }])) {
      const outcome = syncOutcomeOf(() => cardResponseFromResumeEntry(hostile.args[0]));
      expect('returned' in outcome, hostile.label).toBe(true);
    }
    for (const hostile of everyHostileArgument([{ confirmed: true }])) {
      const outcome = syncOutcomeOf(() =>
        cardResponseFromResumeEntry({ interruptId: 'card_1', status: 'resolved', payload: hostile.args[0] }),
      );
      expect('returned' in outcome && typeof outcome.returned === 'object', hostile.label).toBe(true);
    }
  });

  it('reads only the entry’s own fields: inherited names (__proto__, constructor, toString) as keys or values are data like any other', () => {
    const invalid = { ok: false, code: 'invalid-card-response', message: 'the resume entry is not a valid v1 card response' };
    expect(cardResponseFromResumeEntry({ interruptId: 'toString', status: 'cancelled' })).toStrictEqual({
      ok: true,
      value: { action: 'cancel', correlationId: 'toString' },
    });
    expect(cardResponseFromResumeEntry({ interruptId: '__proto__', status: 'cancelled' })).toStrictEqual({
      ok: true,
      value: { action: 'cancel', correlationId: '__proto__' },
    });
    // An own __proto__ key of the entry is a field v1 does not read, never the entry's prototype.
    expect(
      cardResponseFromResumeEntry(JSON.parse('{"interruptId":"card_1","status":"cancelled","__proto__":{"status":"resolved"}}')),
    ).toStrictEqual({
      ok: true,
      value: { action: 'cancel', correlationId: 'card_1' },
    });
    expect(
      cardResponseFromResumeEntry(
        JSON.parse('{"interruptId":"card_1","status":"cancelled","metadata":{"__proto__":{"papercusp":{"action":"decline"}}}}'),
      ),
    ).toStrictEqual({ ok: true, value: { action: 'cancel', correlationId: 'card_1' } });
    for (const payload of [
      JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
      { constructor: { prototype: {} } },
      { toString: 'x' },
      'toString',
    ])
      expect(cardResponseFromResumeEntry({ interruptId: 'card_1', status: 'resolved', payload })).toStrictEqual(invalid);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(cardResponseFromResumeEntry({ interruptId: 'card_1', status: 'resolved', payload: undefined })).toStrictEqual({
      ok: false,
      code: 'missing-payload',
      message: 'a resolved resume entry without a payload states no answer',
    });
  });
});
