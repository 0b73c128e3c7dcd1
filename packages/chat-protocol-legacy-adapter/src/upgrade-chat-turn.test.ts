import { readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { parseChatHistoryPage } from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { CARD_LIMITS } from '@papercusp/chat-protocol-core';
import {
  papercup,
  upgradeLegacyChatFrame,
  upgradeLegacyChatTurn,
  type UpgradeLegacyChatTurnRefusalCode,
  type UpgradeLegacyChatTurnResult,
} from './index.js';
import { runs } from '../../../test-support/property-runs.js';

// `UPDATE_LEGACY_FIXTURES=1` (the package's `fixtures` script) rewrites the
// pinned v1 forms; review the diff before committing it.
const UPDATE = process.env['UPDATE_LEGACY_FIXTURES'] === '1';
const RECORDS = new URL('../../../fixtures/legacy/papercup/chat-turns.json', import.meta.url);
const PINNED = new URL('../../../fixtures/legacy/papercup/chat-turns.v1.json', import.meta.url);

interface Case {
  readonly name: string;
  readonly note: string;
  readonly record: Record<string, unknown>;
}
const CASES = JSON.parse(readFileSync(RECORDS, 'utf8')) as Case[];
const recordOf = (name: string): Record<string, unknown> => {
  const found = CASES.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`no fixture ${name}`);
  return found.record;
};

describe('upgradeLegacyChatTurn: the persisted ChatTurn fixtures and their pinned v1 form (DESIGN §5, issue 13)', () => {
  const upgraded = CASES.map(({ name, record }) => ({ name, result: upgradeLegacyChatTurn(record) }));
  if (UPDATE) writeFileSync(PINNED, `${JSON.stringify(upgraded, null, 2)}\n`);
  const pinned = JSON.parse(readFileSync(PINNED, 'utf8')) as { name: string; result: UpgradeLegacyChatTurnResult }[];

  it('pins every fixture, in order', () => {
    expect(pinned.map((entry) => entry.name)).toEqual(CASES.map((entry) => entry.name));
  });

  it.each(CASES.map((entry) => entry.name))('%s upgrades to its pinned form', (name) => {
    expect(upgraded.find((entry) => entry.name === name)).toStrictEqual(pinned.find((entry) => entry.name === name));
  });

  it('the upgraded turns read in order as one strict history page', () => {
    const turns = upgraded.flatMap(({ result }) => (result.ok ? [result.value] : []));
    expect(turns).toHaveLength(16);
    expect(parseChatHistoryPage({ turns, hasMoreEarlier: true })).toStrictEqual({ ok: true, value: { turns, hasMoreEarlier: true } });
  });
});

describe('upgradeLegacyChatTurn: the rules, field by field', () => {
  const value = (name: string) => {
    const result = upgradeLegacyChatTurn(recordOf(name));
    if (!result.ok) throw new Error(`${name}: ${result.code}: ${result.message}`);
    return result.value;
  };

  it('epoch milliseconds become RFC 3339 in UTC, without a fraction for whole seconds', () => {
    expect(value('typed-question').createdAt).toBe('2026-11-30T09:00:00Z');
    expect(value('spoken-answer').createdAt).toBe('2026-11-30T09:00:04.512Z');
  });

  it('source is kept, voice_tts included on an assistant turn', () => {
    expect([
      value('typed-question').source,
      value('voice-question').source,
      value('spoken-answer').source,
      value('system-note').source,
    ]).toEqual(['text_typed', 'voice_stt', 'voice_tts', 'system']);
  });

  it("the product's fields (workRefs, planSlug) travel in product, never dropped", () => {
    expect(value('spoken-answer').product).toStrictEqual({ workRefs: ['WI-1312', 'WI-1313'], planSlug: 'history-v1' });
    expect(value('typed-question').product).toBeUndefined();
  });

  it('a host names its own product fields; the default ones are then unknown', () => {
    const record = { ...recordOf('typed-question'), boardId: 'b_7' };
    expect(upgradeLegacyChatTurn(record, { productFields: ['boardId'] })).toMatchObject({
      ok: true,
      value: { product: { boardId: 'b_7' } },
    });
    expect(upgradeLegacyChatTurn(recordOf('spoken-answer'), { productFields: ['boardId'] })).toMatchObject({
      ok: false,
      code: 'unknown-field',
    });
  });

  it('stored picks become the submitted answer: { option_id } objects for a radio, option ids for a checkbox', () => {
    expect(value('answered-pick').cards).toStrictEqual([
      {
        card: {
          correlationId: 'card_01JBX4',
          createdAt: '2026-11-30T09:01:02.150Z',
          prompt: 'Keep or drop the stale branch?',
          presentation: {
            kind: 'radio',
            options: [
              { id: 'opt_keep', label: 'Keep it' },
              { id: 'opt_drop', label: 'Drop it' },
            ],
          },
          allowDecline: true,
        },
        closed: true,
        resolution: 'submitted',
        answer: { optionId: 'opt_drop' },
      },
    ]);
    expect(value('checkbox-picks').cards?.[0]).toMatchObject({ resolution: 'submitted', answer: { optionIds: ['bug', 'ux'] } });
  });

  it('declined is a decline; a card with neither picks nor declined closed without a reported resolution', () => {
    expect(value('declined-card').cards?.[0]).toMatchObject({ closed: true, resolution: 'declined' });
    expect(value('declined-card').cards?.[0]).not.toHaveProperty('answer');
    expect(value('unanswered-card').cards?.[0]).toMatchObject({ closed: true, resolution: null });
  });

  it('tools keep their call and result: ok true/false is succeeded/failed, no ok and nothing reported is no result', () => {
    expect(value('answered-pick').tools?.map((call) => [call.name, call.result?.status ?? null])).toEqual([
      ['ask_choice', 'succeeded'],
      ['delete_branch', 'succeeded'],
    ]);
    expect(value('unanswered-card').tools?.[0]?.result).toBeNull();
    expect(value('spoken-answer').tools?.[0]).toStrictEqual({
      callId: 'call_01JBX2A',
      name: 'plan_status',
      input: { slug: 'history-v1' },
      result: { status: 'succeeded', summary: '2 open items' },
    });
  });

  it('an error message makes the turn failed with stream-error, not retryable', () => {
    expect(value('failed-turn')).toMatchObject({
      status: 'failed',
      error: { code: 'stream-error', message: 'upstream model timed out', retryable: false, retryAfterMs: null },
    });
  });

  it('provenance keeps its account route, null when absent; the report block is kept strictly', () => {
    expect(value('spoken-answer').provenance).toStrictEqual({ engine: 'operator-converse', model: 'provider_x/large', accountRoute: null });
    expect(value('answered-pick').provenance?.accountRoute).toBe('owner');
    expect(value('spoken-answer').report?.plans[0]?.items?.[1]?.ref).toBe('plan:history-v1#P-2');
  });

  it("a tool without a call id takes the host's mapping", () => {
    const result = upgradeLegacyChatTurn(recordOf('tool-without-call-id'), { callId: ({ turnId, index }) => `call_${turnId}_${index}` });
    expect(result).toMatchObject({ ok: true, value: { tools: [{ callId: 'call_msg_bad3_0', name: 'plan_status' }] } });
  });

  const refusals: readonly (readonly [string, UpgradeLegacyChatTurnRefusalCode, (string | number)[]])[] = [
    ['iso-created-at', 'invalid-timestamp', ['createdAt']],
    ['result-without-ok', 'unknown-status', ['tools', 0, 'ok']],
    ['tool-without-call-id', 'missing-call-identity', ['tools', 0, 'callId']],
    ['unknown-field', 'unknown-field', ['attachments']],
    ['pick-of-another-card', 'unreadable-answer', ['tools', 0, 'picks']],
    ['voice-tts-on-user', 'invalid-turn', ['source']],
  ];
  it.each(refusals)('%s is refused as %s at the field', (name, code, path) => {
    const result = upgradeLegacyChatTurn(recordOf(name));
    expect(result).toMatchObject({ ok: false, code });
    expect(result.ok ? undefined : result.issues?.[0]?.path).toEqual(path);
  });

  it.each<[string, unknown, UpgradeLegacyChatTurnRefusalCode]>([
    ['JSON text that does not parse', '{"id":', 'invalid-json'],
    ['a record that is not an object', [recordOf('typed-question')], 'invalid-record'],
    ['a record without text', { ...recordOf('typed-question'), text: undefined }, 'invalid-record'],
    ['createdAt past year 9999', { ...recordOf('typed-question'), createdAt: 253_402_300_800_000 }, 'invalid-timestamp'],
    ['a fractional createdAt', { ...recordOf('typed-question'), createdAt: 1_796_029_200_000.5 }, 'invalid-timestamp'],
    [
      'picks on a tool without a card',
      { ...recordOf('spoken-answer'), tools: [{ callId: 'c', name: 'n', ok: true, picks: ['a'] }] },
      'invalid-record',
    ],
    [
      'a card the strict v1 parser refuses',
      {
        ...recordOf('declined-card'),
        tools: [
          {
            callId: 'c',
            name: 'ask_choice',
            ok: true,
            card: { correlationId: 'x', createdAt: 'soon', prompt: 'p', presentation: { kind: 'text' } },
          },
        ],
      },
      'invalid-card',
    ],
    [
      'picks on a text card',
      {
        ...recordOf('declined-card'),
        tools: [
          {
            callId: 'c',
            name: 'ask_choice',
            ok: true,
            card: { correlationId: 'x', createdAt: 1, prompt: 'p', presentation: { kind: 'text' } },
            picks: ['a'],
          },
        ],
      },
      'unreadable-answer',
    ],
  ])('%s is %s', (_name, input, code) => {
    expect(upgradeLegacyChatTurn(input)).toMatchObject({ ok: false, code });
  });

  it('reads JSON text like the value it encodes', () => {
    expect(upgradeLegacyChatTurn(JSON.stringify(recordOf('answered-pick')))).toStrictEqual(
      upgradeLegacyChatTurn(recordOf('answered-pick')),
    );
  });

  it('options it cannot read are invalid-options', () => {
    expect(upgradeLegacyChatTurn(recordOf('typed-question'), null as never)).toMatchObject({ ok: false, code: 'invalid-options' });
    expect(upgradeLegacyChatTurn(recordOf('typed-question'), { productFields: 'workRefs' } as never)).toMatchObject({
      ok: false,
      code: 'invalid-options',
    });
  });

  it('never throws and never mutates the record, whatever it is given', () => {
    const record = recordOf('answered-pick');
    const before = JSON.stringify(record);
    upgradeLegacyChatTurn(record);
    expect(JSON.stringify(record)).toBe(before);
    fc.assert(
      fc.property(fc.anything(), (input) => {
        const result = upgradeLegacyChatTurn(input);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: runs(500) },
    );
  });
});

// Issue 13 follow-up: a persisted card is read by the card frame's rules
// (legacy-card.ts, the adapter README's card table), so a stored ChatTurn and a
// live card frame carrying the same card agree, normalized or refused.
describe('upgradeLegacyChatTurn: stored cards with the loose shapes upgrade as card frames do (DESIGN §5, issue 13)', () => {
  const IDENTITY = {
    dialect: papercup,
    conversationId: 'conv_1',
    turnId: 'turn_1',
    eventId: 'evt_1',
    seq: 1,
    occurredAt: '2026-11-30T09:00:00Z',
  };
  const storedCard = (name: string): Record<string, unknown> => {
    const [tool] = recordOf(name)['tools'] as Record<string, unknown>[];
    return tool?.['card'] as Record<string, unknown>;
  };
  const frameUpgrade = (card: unknown) => upgradeLegacyChatFrame({ event: 'card', data: JSON.stringify({ card }) }, IDENTITY);
  const turnCard = (name: string) => {
    const result = upgradeLegacyChatTurn(recordOf(name));
    if (!result.ok) throw new Error(`${name}: ${result.code}: ${result.message}`);
    return result.value.cards?.[0];
  };
  const normalized = [
    'card-options-as-json-string',
    'card-without-allow-decline',
    'card-bounds-as-strings',
    'card-slider-without-bounds',
    'card-empty-option-label',
    'card-long-prompt',
    'card-data-schema-as-string',
  ];

  it.each(normalized)('%s: the turn holds exactly the card the card frame upgrades to', (name) => {
    const frame = frameUpgrade(storedCard(name));
    expect(frame).toMatchObject({ ok: true, kind: 'envelope' });
    const event = frame.ok && frame.kind === 'envelope' ? frame.envelope.event : undefined;
    expect(turnCard(name)?.card).toStrictEqual(event?.type === 'card' ? event.card : 'no card event');
  });

  it('options stored as a JSON string are decoded, and the stored pick answers the decoded card', () => {
    expect(turnCard('card-options-as-json-string')).toStrictEqual({
      card: {
        correlationId: 'card_01JBY1',
        createdAt: '2026-11-30T09:10:00.010Z',
        prompt: 'Keep or drop the stale branch?',
        presentation: {
          kind: 'radio',
          options: [
            { id: 'opt_keep', label: 'Keep it' },
            { id: 'opt_drop', label: 'Drop it' },
          ],
        },
        allowDecline: true,
      },
      closed: true,
      resolution: 'submitted',
      answer: { optionId: 'opt_drop' },
    });
  });

  it('an absent allowDecline is true, so the stored decline stands', () => {
    expect(turnCard('card-without-allow-decline')).toMatchObject({ card: { allowDecline: true }, closed: true, resolution: 'declined' });
  });

  it('bounds as strings are numbers, a slider without bounds gets 0…100, empty labels are ids, a long prompt is cut, dataSchemaJson is decoded', () => {
    expect(turnCard('card-bounds-as-strings')?.card).toMatchObject({
      presentation: { kind: 'slider', min: 10, max: 500, step: 10 },
      timeoutMs: 30_000,
      allowDecline: false,
    });
    expect(turnCard('card-slider-without-bounds')?.card.presentation).toStrictEqual({ kind: 'slider', step: 5, min: 0, max: 100 });
    expect(turnCard('card-empty-option-label')).toMatchObject({
      card: {
        presentation: {
          options: [
            { id: 'north', label: 'north' },
            { id: 'south', label: 'south' },
          ],
        },
      },
      resolution: 'submitted',
      answer: { optionIds: ['north', 'south'] },
    });
    const prompt = turnCard('card-long-prompt')?.card.prompt ?? '';
    expect([prompt.length, prompt.endsWith('…')]).toEqual([CARD_LIMITS.maxPromptLength, true]);
    expect(turnCard('card-data-schema-as-string')?.card.dataSchemaJson).toStrictEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
    });
  });

  it.each<[string, string, (string | number)[], string]>([
    ['card-empty-prompt', 'empty-prompt', ['prompt'], 'a card asks something: the prompt is empty'],
    ['card-options-unreadable', 'options-unreadable', ['presentation', 'options'], 'a string that is not a JSON array of options'],
    ['card-option-without-id', 'option-without-id', ['presentation', 'options', 1], 'an option needs a non-empty string id'],
    ['card-no-options', 'no-options', ['presentation', 'options'], 'a radio card needs at least one option'],
    ['card-bound-not-a-number', 'bound-not-a-number', ['presentation', 'min'], 'a string that is not a number'],
    ['card-data-schema-unreadable', 'data-schema-unreadable', ['dataSchemaJson'], 'a string that is not a JSON object'],
  ])("%s is the card frame's typed refusal (unsupported-card, %s) at the card's place in the record", (name, reason, path, message) => {
    expect(frameUpgrade(storedCard(name))).toMatchObject({ ok: false, code: 'unsupported-card', reason });
    expect(upgradeLegacyChatTurn(recordOf(name))).toStrictEqual({
      ok: false,
      code: 'unsupported-card',
      message: `tool ask_choice: card.${path.join('.')}: ${message}`,
      issues: [{ path: ['tools', 0, 'card', ...path], message }],
      reason,
    });
  });
});
