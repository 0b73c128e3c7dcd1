import { ResumeEntrySchema } from '@ag-ui/core/schemas';
import type { CardResponse } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
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
