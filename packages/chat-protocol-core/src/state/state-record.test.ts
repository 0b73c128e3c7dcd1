import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONVERSATION_ID, SAMPLE_SESSION } from '../../test/envelopes.js';
import { applyChatEvent } from './apply-chat-event.js';
import type { ChatEventEnvelope } from '../envelope/envelope.js';
import { parseChatEnvelope } from '../envelope/parse-chat-envelope.js';
import { createChatState, parseChatState, type ChatStateV1 } from './state.js';

function applied(state: ChatStateV1, envelope: ChatEventEnvelope): ChatStateV1 {
  const result = applyChatEvent(state, envelope);
  if (!result.ok || result.outcome !== 'applied') throw new Error(`expected ${envelope.turnId}:${envelope.seq} to apply`);
  return result.state;
}

const replay = (envelopes: readonly ChatEventEnvelope[], state: ChatStateV1 = createChatState(CONVERSATION_ID)) =>
  envelopes.reduce(applied, state);

/** The same value built from plain objects only, as parseChatState returns it. */
const plainOf = (state: ChatStateV1): ChatStateV1 => JSON.parse(JSON.stringify(state)) as ChatStateV1;

describe('a reduced state is the plain JSON value (issue 12: turns and eventLog are built when read)', () => {
  const state = replay(SAMPLE_SESSION);

  it('JSON.stringify, structuredClone, spread and deep equality see exactly the plain value', () => {
    const plain = plainOf(state);
    expect(state).toStrictEqual(plain);
    expect(structuredClone(state)).toStrictEqual(plain);
    expect(JSON.stringify(structuredClone(state))).toBe(JSON.stringify(state));
    expect({ ...state }).toStrictEqual(plain);
    expect(Object.keys(state)).toStrictEqual(['schemaVersion', 'conversationId', 'turns']);
    expect(Object.keys(state.turns[0] ?? {})).toStrictEqual(Object.keys(plain.turns[0] ?? {}));
    // Nothing else is enumerable: no symbol a copy or an equality check would carry.
    const enumerableSymbols = (value: object) =>
      Object.getOwnPropertySymbols(value).filter((symbol) => Object.getOwnPropertyDescriptor(value, symbol)?.enumerable === true);
    expect([enumerableSymbols(state), enumerableSymbols(state.turns[0] ?? {})]).toStrictEqual([[], []]);
  });

  it('reading turns twice gives the same array and the same turn objects, as a data property does', () => {
    expect(state.turns).toBe(state.turns);
    expect(state.turns[1]).toBe(state.turns[1]);
    expect(state.turns[0]?.eventLog).toBe(plainOf(state).turns[0]?.eventLog);
  });

  it('a turn the event did not touch is the same object in the next state', () => {
    const next = applied(state, { ...(SAMPLE_SESSION[15] as ChatEventEnvelope), turnId: 'turn_3', eventId: 'evt_turn_3_1', seq: 1 });
    expect(next.turns[0]).toBe(state.turns[0]);
    expect(next.turns[1]).toBe(state.turns[1]);
    expect(next.turns.length).toBe(3);
    expect(state.turns.length).toBe(2);
  });

  it('a copy with other turns is read from its own value, never from the state it was copied from', () => {
    const [first] = state.turns;
    const copy = { ...state, turns: first === undefined ? [] : [first] };
    const turnTwo = SAMPLE_SESSION[14] as ChatEventEnvelope;
    // turn_2 is gone from the copy: its seq-1 event applies again, as to a conversation without it.
    expect(applyChatEvent(copy, turnTwo)).toMatchObject({ ok: true, outcome: 'applied' });
    expect(applyChatEvent(state, turnTwo)).toStrictEqual({ ok: true, state, outcome: 'duplicate' });
  });

  it('the hidden record belongs to its state only: an object inheriting from it, with turns of its own, is read from its own value', () => {
    const heir = Object.create(state) as ChatStateV1;
    Object.defineProperty(heir, 'turns', { value: [], enumerable: true });
    Object.defineProperty(heir, 'conversationId', { value: CONVERSATION_ID, enumerable: true });
    expect(applyChatEvent(heir, SAMPLE_SESSION[0] as ChatEventEnvelope)).toMatchObject({ ok: true, outcome: 'applied' });
  });

  it('a frozen state still reads and continues', () => {
    const frozen = Object.freeze(replay(SAMPLE_SESSION.slice(0, 3)));
    Object.freeze(frozen.turns);
    const next = applied(frozen, SAMPLE_SESSION[3] as ChatEventEnvelope);
    expect(JSON.stringify(next)).toBe(JSON.stringify(replay(SAMPLE_SESSION.slice(0, 4))));
  });
});

// Written by the reducer at d875f6c (before its turns and memory were shared) from
// the envelopes beside it: its bytes are the contract a snapshot store relies on.
const FIXTURES = new URL('../../test/fixtures/', import.meta.url);
const pinnedState = readFileSync(new URL('snapshot-d875f6c.state.json', FIXTURES), 'utf8').trimEnd();
const pinnedEnvelopes = readFileSync(new URL('snapshot-d875f6c.jsonl', FIXTURES), 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => {
    const parsed = parseChatEnvelope(line);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.value;
  });

describe('snapshots written before issue 12 (fixture from d875f6c)', () => {
  it('the same envelopes give byte-identical JSON, redeliveries included', () => {
    let state = createChatState('conv_01HZX3K8M2');
    const outcomes: string[] = [];
    for (const envelope of pinnedEnvelopes) {
      const result = applyChatEvent(state, envelope);
      if (!result.ok) throw new Error(result.message);
      outcomes.push(result.outcome);
      state = result.state;
    }
    expect(outcomes.filter((outcome) => outcome === 'duplicate').length).toBe(5);
    expect(JSON.stringify(state)).toBe(pinnedState);
  });

  it('parseChatState reads the old snapshot, and it continues exactly like the live state', () => {
    const parsed = parseChatState(pinnedState);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const live = replay(
      pinnedEnvelopes.filter((envelope, index) => pinnedEnvelopes.findIndex((other) => other.eventId === envelope.eventId) === index),
      createChatState('conv_01HZX3K8M2'),
    );
    for (const envelope of pinnedEnvelopes) {
      expect(applyChatEvent(parsed.value, envelope)).toStrictEqual({ ok: true, state: parsed.value, outcome: 'duplicate' });
      expect(applyChatEvent(parsed.value, { ...envelope, occurredAt: '2030-01-01T00:00:00Z' })).toMatchObject({
        ok: false,
        code: 'conflicting-duplicate',
      });
    }
    const more: ChatEventEnvelope = {
      schemaVersion: 1,
      conversationId: 'conv_01HZX3K8M2',
      turnId: 'turn_4',
      eventId: 'evt_turn_4_5',
      seq: 5,
      occurredAt: '2026-11-29T13:00:00.000Z',
      event: { type: 'done', status: 'completed' },
    };
    expect(JSON.stringify(applied(parsed.value, more))).toBe(JSON.stringify(applied(live, more)));
  });
});
