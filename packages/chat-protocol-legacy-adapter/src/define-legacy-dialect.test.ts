import * as core from '@papercusp/chat-protocol-core';
import { describe, expect, it } from 'vitest';
import { dotted } from '../test/dotted-dialect.js';
import { REQUIRED_V1_FIELDS } from './define-legacy-dialect.js';
import {
  decodeLegacyChatFrame,
  defineLegacyDialect,
  encodeLegacyChatFrame,
  upgradeLegacyChatFrame,
  type LegacyDialectDefinition,
} from './index.js';

const SCHEMAS = {
  delta: core.DeltaEventSchema,
  user_input: core.UserInputEventSchema,
  reasoning: core.ReasoningEventSchema,
  tool_call: core.ToolCallEventSchema,
  tool_result: core.ToolResultEventSchema,
  provenance: core.ProvenanceEventSchema,
  card: core.CardEventSchema,
  card_closed: core.CardClosedEventSchema,
  state: core.StateEventSchema,
  navigate: core.NavigateEventSchema,
  done: core.DoneEventSchema,
  error: core.ErrorEventSchema,
} as const;

describe('defineLegacyDialect', () => {
  it('knows exactly the v1 fields core’s schemas require', () => {
    for (const type of core.CHAT_EVENT_TYPES_V1) {
      const shape = SCHEMAS[type].shape as Record<string, { _zod: { optin?: string } }>;
      const required = Object.keys(shape).filter((field) => field !== 'type' && shape[field]?._zod.optin !== 'optional');
      expect([type, REQUIRED_V1_FIELDS[type]]).toEqual([type, required]);
    }
  });

  const base = { name: 'bad', typeFrom: 'event' } as const;
  const refusals: readonly (readonly [string, LegacyDialectDefinition, string])[] = [
    ['an empty name', { ...base, name: '', types: {} }, 'name: expected a non-empty string'],
    ['an empty type field', { ...base, typeFrom: { field: '' }, types: {} }, 'typeFrom.field: expected a non-empty string'],
    ['an unknown kind', { ...base, types: { d: { v1: 'delta', fields: { text: 'string' as 'text' } } } }, 'd.text: unknown kind "string"'],
    [
      'an unknown v1 type',
      { ...base, types: { d: { v1: 'message' as 'delta', fields: { text: 'text' } } } },
      'd: unknown v1 type "message"',
    ],
    [
      'a v1 field the event lacks',
      { ...base, types: { d: { v1: 'delta', fields: { text: 'text', lang: 'string?' } } } },
      'd: v1 delta has no field lang',
    ],
    [
      'a field mapped onto type',
      { ...base, types: { d: { v1: 'delta', fields: { text: 'text', kind: { kind: 'string?', v1: 'type' } } } } },
      'd: v1 delta has no field type',
    ],
    [
      'two sources for one v1 field',
      { ...base, types: { d: { v1: 'delta', fields: { text: 'text', body: { kind: 'text', v1: 'text' } } } } },
      'd: v1 field text has two sources',
    ],
    [
      'a field and a fixed value for one v1 field',
      { ...base, types: { d: { v1: 'done', fields: { status: 'string?' }, fixed: { status: 'completed' } } } },
      'd: v1 field status has two sources',
    ],
    [
      'a required v1 field without a source',
      { ...base, types: { d: { v1: 'done', fields: { stopReason: 'string?' } } } },
      'd: v1 done needs status, which no field or fixed value supplies',
    ],
    [
      'two legacy types for one v1 type',
      { ...base, types: { a: { v1: 'delta', fields: { text: 'text' } }, b: { v1: 'delta', fields: { text: 'text' } } } },
      'b: v1 type delta is already encoded by a',
    ],
    [
      'a kind on the wrong v1 field',
      { ...base, types: { d: { v1: 'tool_result', fields: { id: { kind: 'outcome', v1: 'callId' }, name: 'name', status: 'string?' } } } },
      'd.id: kind outcome maps only to v1 status',
    ],
    [
      'a default on a required kind',
      { ...base, types: { d: { v1: 'delta', fields: { text: { kind: 'text', default: '' } } } } },
      'd.text: a default of kind text must be a scalar of an optional kind',
    ],
    [
      'a default of the wrong type',
      {
        ...base,
        types: { e: { v1: 'error', fields: { message: 'message', code: { kind: 'string?', default: 1 }, retryable: 'boolean?' } } },
      },
      'e.code: a default of kind string? must be a string',
    ],
    [
      'the type field reused as a field',
      { ...base, typeFrom: { field: 'kind' }, types: { d: { v1: 'delta', fields: { kind: { kind: 'text', v1: 'text' } } } } },
      'd.kind: the data field kind names the type',
    ],
    [
      'a heartbeat with fields',
      { ...base, types: { ping: { transport: 'heartbeat', fields: { at: 'number?' } } } },
      'ping: a heartbeat carries no fields',
    ],
    ['an unknown transport role', { ...base, types: { hello: { transport: 'hello' as 'session' } } }, 'hello: unknown transport role'],
    [
      'when on a required kind',
      {
        ...base,
        types: {
          e: {
            v1: 'error',
            fields: {
              message: { kind: 'message', when: { retryable: true } },
              code: { kind: 'string?', default: 'x' },
              retryable: 'boolean?',
            },
          },
        },
      },
      'e.message: a required kind message cannot be dropped by when',
    ],
    [
      'when naming a field without a source',
      {
        ...base,
        types: {
          e: {
            v1: 'error',
            fields: {
              message: 'message',
              code: { kind: 'string?', default: 'x' },
              retryable: { kind: 'boolean?', default: false },
              retryAfterMs: { kind: 'number?', when: { permitted: true } },
            },
          },
        },
      },
      'e.retryAfterMs: when names permitted, which no other field or fixed value supplies',
    ],
    [
      'when naming its own field',
      {
        ...base,
        types: {
          e: {
            v1: 'error',
            fields: {
              message: 'message',
              code: { kind: 'string?', default: 'x' },
              retryable: { kind: 'boolean?', default: false },
              retryAfterMs: { kind: 'number?', when: { retryAfterMs: 1 } },
            },
          },
        },
      },
      'e.retryAfterMs: when names retryAfterMs, which no other field or fixed value supplies',
    ],
    [
      'a key without an object field for its v1 field',
      {
        ...base,
        types: { d: { v1: 'done', fields: { costUsd: { kind: 'number?', v1: 'usage', key: 'costUsd' } }, fixed: { status: 'completed' } } },
      },
      'd.costUsd: key costUsd needs an object? or usage? field for v1 usage',
    ],
    [
      'a key on a required kind',
      {
        ...base,
        types: {
          d: { v1: 'done', fields: { usage: 'object?', note: { kind: 'text', v1: 'usage', key: 'note' } }, fixed: { status: 'completed' } },
        },
      },
      'd.note: a key needs a non-empty name and an optional kind, without default or when',
    ],
    [
      'an empty key',
      {
        ...base,
        types: {
          d: { v1: 'done', fields: { usage: 'object?', cost: { kind: 'number?', v1: 'usage', key: '' } }, fixed: { status: 'completed' } },
        },
      },
      'd.cost: a key needs a non-empty name and an optional kind, without default or when',
    ],
    [
      'two sources for one key',
      {
        ...base,
        types: {
          d: {
            v1: 'done',
            fields: {
              usage: 'object?',
              cost: { kind: 'number?', v1: 'usage', key: 'costUsd' },
              price: { kind: 'number?', v1: 'usage', key: 'costUsd' },
            },
            fixed: { status: 'completed' },
          },
        },
      },
      'd.price: v1 usage.costUsd has two sources',
    ],
    [
      'when that is not a record',
      {
        ...base,
        types: {
          e: {
            v1: 'error',
            fields: {
              message: 'message',
              code: { kind: 'string?', default: 'x' },
              retryable: { kind: 'boolean?', default: false },
              retryAfterMs: { kind: 'number?', when: null as unknown as { retryable: true } },
            },
          },
        },
      },
      'e.retryAfterMs: when must map v1 fields to values',
    ],
    [
      'event names that are not a list',
      { ...base, typeFrom: { field: 'kind', eventNames: 'ping' as unknown as readonly string[] }, types: {} },
      'typeFrom.eventNames: expected an array of type names',
    ],
    [
      'an event name that is not a string',
      { ...base, typeFrom: { field: 'kind', eventNames: [7 as unknown as string] }, types: {} },
      'typeFrom.eventNames: 7 is not a type of this dialect',
    ],
    [
      'an event name that is not a type',
      { ...base, typeFrom: { field: 'kind', eventNames: ['ping'] }, types: { d: { v1: 'delta', fields: { text: 'text' } } } },
      'typeFrom.eventNames: "ping" is not a type of this dialect',
    ],
    [
      'an event name from the prototype',
      { ...base, typeFrom: { field: 'kind', eventNames: ['toString'] }, types: {} },
      'typeFrom.eventNames: "toString" is not a type of this dialect',
    ],
    [
      'plainText naming no field of the type',
      {
        ...base,
        types: {
          e: {
            v1: 'error',
            fields: { message: 'message', code: { kind: 'id?', default: 'x' }, retryable: { kind: 'boolean?', default: false } },
            plainText: 'text',
          },
        },
      },
      'e: plainText must name a field of a string kind',
    ],
    [
      'plainText naming a field that is not a string kind',
      { ...base, types: { s: { v1: 'state', fields: { version: 'version', snapshot: 'json?' }, plainText: 'snapshot' } } },
      's: plainText must name a field of a string kind',
    ],
    [
      'an unknown uncleanText',
      { ...base, types: { d: { v1: 'delta', fields: { text: 'text' }, uncleanText: 'strip' as 'replace' } } },
      "d: uncleanText must be 'refuse' or 'replace'",
    ],
    [
      'a retry delay kind on another field',
      {
        ...base,
        types: {
          e: {
            v1: 'error',
            fields: { message: 'message', code: { kind: 'id?', default: 'x' }, retryable: { kind: 'retry-delay?', default: 0 } },
          },
        },
      },
      'e.retryable: kind retry-delay? maps only to v1 retryAfterMs',
    ],
    [
      'a default of kind id? that is not a string',
      {
        ...base,
        types: {
          e: {
            v1: 'error',
            fields: { message: 'message', code: { kind: 'id?', default: 1 }, retryable: { kind: 'boolean?', default: false } },
          },
        },
      },
      'e.code: a default of kind id? must be a string',
    ],
  ];

  it.each(refusals)('throws TypeError for %s', (_, definition, problem) => {
    expect(() => defineLegacyDialect(definition)).toThrow(
      new TypeError(`defineLegacyDialect(${JSON.stringify(definition.name)}): ${problem}`),
    );
  });

  it('returns a frozen dialect that keeps its definition', () => {
    expect(Object.isFrozen(dotted)).toBe(true);
    expect(dotted.name).toBe('dotted');
    expect(Object.keys(dotted.definition.types)).toEqual(['ping', 'message.delta', 'tool.activity', 'tool.result', 'run.finished']);
  });
});

describe('a third dialect, declared through the public API only, round-trips its four event shapes', () => {
  const identity = { conversationId: 'conv_1', turnId: 'turn_1', eventId: 'evt_1', seq: 1, occurredAt: '2026-11-30T09:00:00Z' };
  it.each([
    [
      { kind: 'message.delta', delta: 'Checking' },
      { type: 'delta', text: 'Checking' },
    ],
    [
      { kind: 'tool.activity', toolCallId: 'tc_1', toolName: 'lookup', args: { id: 7 } },
      { type: 'tool_call', callId: 'tc_1', name: 'lookup', input: { id: 7 } },
    ],
    [
      { kind: 'tool.result', toolCallId: 'tc_1', toolName: 'lookup', success: true },
      { type: 'tool_result', callId: 'tc_1', name: 'lookup', status: 'succeeded' },
    ],
    [{ kind: 'run.finished' }, { type: 'done', status: 'completed' }],
  ])('%j ⇄ %j', (data, event) => {
    const frame = { data: JSON.stringify(data) };
    const { kind, ...fields } = data;
    expect(decodeLegacyChatFrame(frame, { dialect: dotted })).toEqual({ ok: true, value: { type: kind, ...fields } });
    const upgraded = upgradeLegacyChatFrame(frame, { ...identity, dialect: dotted });
    expect(upgraded).toMatchObject({ ok: true, kind: 'envelope', envelope: { ...identity, event } });
    if (!upgraded.ok || upgraded.kind !== 'envelope') return;
    expect(encodeLegacyChatFrame(upgraded.envelope, { dialect: dotted })).toMatchObject({
      ok: true,
      frame: { data: JSON.stringify(data), id: 'turn_1:1' },
    });
  });

  it('recognises its ping heartbeat as transport', () => {
    expect(upgradeLegacyChatFrame({ event: 'ping', data: '' }, { ...identity, dialect: dotted })).toMatchObject({
      ok: true,
      kind: 'transport',
      transport: 'heartbeat',
    });
  });
});
