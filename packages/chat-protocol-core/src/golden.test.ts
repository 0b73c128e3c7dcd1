import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { applyChatEvent } from './apply-chat-event.js';
import { parseChatEnvelope } from './parse-chat-envelope.js';
import { createChatState, parseChatState, type ChatStateV1, type ChatTurnState } from './state.js';

// Golden sessions (fixtures/golden, written by scripts/write-golden.mjs): each
// `<name>.jsonl` replays to exactly `<name>.state.json`. The byte comparison
// catches any change in what the reducer produces, digests of the idempotency
// memory included; the explicit facts below catch a fixture regenerated from a
// wrong reducer without anyone reading it.
const GOLDEN = new URL('../../../fixtures/golden/', import.meta.url);
const SESSIONS = readdirSync(GOLDEN)
  .filter((file) => file.endsWith('.jsonl'))
  .map((file) => file.slice(0, -'.jsonl'.length))
  .sort();

const read = (file: string) => readFileSync(new URL(file, GOLDEN), 'utf8');

function replaySession(name: string): ChatStateV1 {
  const lines = read(`${name}.jsonl`).split('\n');
  expect(lines.pop()).toBe(''); // one envelope per line, newline-terminated
  let state: ChatStateV1 | undefined;
  lines.forEach((line, index) => {
    const parsed = parseChatEnvelope(line);
    if (!parsed.ok) throw new Error(`${name}.jsonl line ${index + 1}: ${parsed.code}: ${parsed.message}`);
    state ??= createChatState(parsed.value.conversationId);
    const result = applyChatEvent(state, parsed.value);
    if (!result.ok || result.outcome !== 'applied') {
      throw new Error(`${name}.jsonl line ${index + 1} was not applied: ${JSON.stringify(result)}`);
    }
    state = result.state;
  });
  if (state === undefined) throw new Error(`${name}.jsonl is empty`);
  return state;
}

const onlyTurn = (state: ChatStateV1): ChatTurnState => {
  expect(state.turns).toHaveLength(1);
  return state.turns[0] as ChatTurnState;
};

/** What a person reading each session must find in its final state. */
const FACTS: Record<string, (turn: ChatTurnState) => void> = {
  'tools-and-sources': (turn) => {
    expect(turn.status).toBe('completed');
    expect(turn.lastSeq).toBe(11);
    expect(turn.toolCalls.map((call) => [call.name, call.result?.status])).toStrictEqual([
      ['search_help_center', 'succeeded'],
      ['get_order', 'failed'],
    ]);
    const [search, order] = turn.toolCalls;
    expect(search?.result?.blocks?.map((block) => block.kind)).toStrictEqual(['text', 'data']);
    expect(search?.result?.blocks?.[0]?.sources?.map((source) => source.ref)).toStrictEqual([
      'kb:article/refunds-damaged-items',
      'kb:article/refund-timelines',
    ]);
    expect(order?.result).toStrictEqual({
      status: 'failed',
      summary: 'Order lookup timed out',
      error: 'orders-api did not answer within 10 s',
    });
    expect(turn.text.startsWith("I'll check our refund policy and look up your order.\n\nGood news:")).toBe(true);
    expect(turn.provenance).toStrictEqual({ engine: 'papercup-agent', model: 'provider_x/large', accountRoute: 'support-eu' });
    expect(turn.usage).toStrictEqual({ inputTokens: 2381, outputTokens: 164, cachedInputTokens: 1024 });
    expect(turn.cards).toStrictEqual([]);
    expect(turn.error).toBeNull();
  },
  'card-answered': (turn) => {
    expect(turn.status).toBe('completed');
    expect(turn.lastSeq).toBe(9);
    expect(turn.cards.map((entry) => [entry.card.presentation.kind, entry.closed, entry.resolution])).toStrictEqual([
      ['radio', true, 'submitted'],
    ]);
    expect(turn.hostState).toStrictEqual({
      version: 1,
      snapshot: { workspace: { name: 'Acme Research', plan: 'plan_team', seats: 12 } },
    });
    expect(turn.text).toBe(
      'Happy to set that up. Which plan should the new workspace use?\n\nGreat, Acme Research is on the Team plan now. You can invite up to 50 people from Settings → Members.',
    );
    expect(turn.toolCalls).toStrictEqual([]);
  },
  'cancelled-mid-stream': (turn) => {
    expect(turn.status).toBe('cancelled');
    expect(turn.stopReason).toBe('user_cancelled');
    expect(turn.lastSeq).toBe(6);
    expect(turn.toolCalls.map((call) => [call.name, call.result])).toStrictEqual([['run_sql', null]]);
    expect(turn.text).toBe("Here's a plan for moving the orders table to the new schema:\n\n1. Count the rows that still need to move");
    expect(turn.reasoning).not.toBe('');
    expect(turn.usage).toBeNull();
    expect(turn.error).toBeNull();
  },
};

describe('golden sessions replay to their expected final state', () => {
  it('has every required session, and facts for each session it has', () => {
    expect(SESSIONS).toEqual(expect.arrayContaining(['cancelled-mid-stream', 'card-answered', 'tools-and-sources']));
    for (const name of SESSIONS) expect(Object.keys(FACTS)).toContain(name);
  });

  it.each(SESSIONS)('%s: every line applies and the state matches byte for byte', (name) => {
    const state = replaySession(name);
    expect(`${JSON.stringify(state, null, 2)}\n`).toBe(read(`${name}.state.json`));
  });

  it.each(SESSIONS)('%s: the expected state is a valid ChatStateV1 with the facts of the session', (name) => {
    const expected = parseChatState(read(`${name}.state.json`));
    if (!expected.ok) throw new Error(`${name}.state.json: ${expected.code}: ${expected.message}`);
    FACTS[name]?.(onlyTurn(expected.value));
  });
});
