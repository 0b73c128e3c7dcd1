/**
 * The agent steps added for every v1 event type (issue 17: the scripted agent
 * exercises every v1 event type): `provenance`, `state`, `navigate`, tool
 * outcomes with grounded `blocks`, and the completion's `stopReason`/`usage`,
 * each run by a real host over loopback on PGlite. A step core's parser
 * refuses ends the turn with a non-retryable `invalid-agent-step` error.
 */
import { CHAT_LIMITS, parseChatEnvelope, type ChatEventV1 } from '@papercusp/chat-protocol-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAgent, ChatAgentCompletion, ChatAgentFeedback, ChatAgentStep } from '../chat-agent.js';
import { follow, openTestStore, startHost, startTurn, type Host, type TestStore } from '../loopback-host.testing.js';

interface Script {
  readonly steps: readonly ChatAgentStep[];
  readonly completion?: ChatAgentCompletion;
  /** What the declared tool `lookup_order` answers in this script's turn. */
  readonly outcome?: unknown;
}

// An agent that yields each text's script and records the feedback the host sends back; its one tool answers the script's outcome.
function scriptAgent(scripts: Readonly<Record<string, Script>>, feedbacks: ChatAgentFeedback[]): ChatAgent {
  return {
    tools: [{ name: 'lookup_order', execute: async (_input, { turn }) => scripts[turn.text]?.outcome as { summary: string } }],
    async *run(turn) {
      const script = scripts[turn.text];
      if (script === undefined) return;
      for (const step of script.steps) feedbacks.push(yield step);
      return script.completion;
    },
  };
}

const tool: ChatAgentStep = { type: 'tool', callId: 'call_lookup', name: 'lookup_order', input: { orderId: '1042' } };

const blocks = [
  { kind: 'text', text: 'Order 1042 shipped on 3 May.', sources: [{ ref: 'order:1042', label: 'Order 1042' }] },
  { kind: 'data', data: { orderId: '1042', shipped: true } },
] as const;

const SCRIPTS: Record<string, Script> = {
  every: {
    steps: [
      { type: 'provenance', engine: 'scripted', model: 'model-1', accountRoute: null },
      { type: 'state', snapshot: { step: 1 } },
      { type: 'navigate', href: '/orders/1042' },
      { type: 'state', snapshot: { step: 2, tags: ['a'] } },
      { type: 'navigate', href: 'https://shop.example/orders/1042' },
    ],
    completion: { stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, costUsd: 0.002 } },
  },
  blocks: { steps: [tool], outcome: { summary: 'order 1042 shipped', blocks } },
  bare: { steps: [{ type: 'delta', text: 'hi' }], completion: {} },
  'bad-navigate': {
    steps: [
      { type: 'delta', text: 'hi' },
      { type: 'navigate', href: 'javascript:alert(1)' },
    ],
  },
  'bad-state': { steps: [{ type: 'state', snapshot: { at: new Date(0) } }] },
  'bad-provenance': { steps: [{ type: 'provenance', engine: '', model: 'model-1' }] },
  'bad-usage': { steps: [], completion: { usage: { inputTokens: -1 } } },
  'bad-stop-reason': { steps: [], completion: { stopReason: 'x'.repeat(CHAT_LIMITS.maxNameLength + 1) } },
  'bad-blocks': { steps: [tool], outcome: { summary: 'order 1042', blocks: [{ kind: 'html', html: '<b>x</b>' }] } },
  'bad-delta': { steps: [{ type: 'delta', text: 'x'.repeat(CHAT_LIMITS.maxTextLength + 1) }] },
  'bad-fail': { steps: [{ type: 'fail', code: 'down', message: 'down', retryable: false, retryAfterMs: 10 }] },
};

let testStore: TestStore;
let host: Host;
const feedbacks: ChatAgentFeedback[] = [];
beforeAll(async () => {
  testStore = await openTestStore();
  host = await startHost(testStore, {}, { agent: scriptAgent(SCRIPTS, feedbacks) });
}, 60_000);
afterAll(() => testStore.close());

async function runTurn(conversationId: string, text: string) {
  const { turnId } = await startTurn(host, conversationId, text);
  const all = await follow(host, conversationId, turnId);
  // Every frame in the log is one core's parser accepts, with contiguous seqs.
  for (const envelope of all.envelopes) expect(parseChatEnvelope(envelope)).toEqual({ ok: true, value: envelope });
  expect(all.envelopes.map((envelope) => envelope.seq)).toEqual(all.envelopes.map((_, index) => index + 1));
  return { turnId, events: all.envelopes.map((envelope) => envelope.event), state: all.state };
}

describe('ChatAgent steps for every v1 event type (issue 17, DESIGN §3.3)', () => {
  it('§3.3 provenance, state (versioned 1, 2 by the host), navigate and done { stopReason, usage } become their v1 frames', async () => {
    const { events, state } = await runTurn('c_ana_steps_every', 'every');
    expect(events.slice(1)).toEqual([
      { type: 'provenance', engine: 'scripted', model: 'model-1', accountRoute: null },
      { type: 'state', version: 1, snapshot: { step: 1 } },
      { type: 'navigate', href: '/orders/1042' },
      { type: 'state', version: 2, snapshot: { step: 2, tags: ['a'] } },
      { type: 'navigate', href: 'https://shop.example/orders/1042' },
      {
        type: 'done',
        status: 'completed',
        stopReason: 'end_turn',
        usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, costUsd: 0.002 },
      },
    ]);
    expect(state?.turns[0]?.hostState).toEqual({ version: 2, snapshot: { step: 2, tags: ['a'] } });
    expect(state?.turns[0]?.provenance).toEqual({ engine: 'scripted', model: 'model-1', accountRoute: null });
  });

  it('§3.3 a completion with neither field writes a bare done { status: completed }', async () => {
    const { events } = await runTurn('c_ana_steps_bare', 'bare');
    expect(events.at(-1)).toEqual({ type: 'done', status: 'completed' });
  });

  it('§3.3 a tool outcome with grounded blocks: tool_result carries them and the agent gets them back', async () => {
    const { events } = await runTurn('c_ana_steps_blocks', 'blocks');
    expect(events.find((event) => event.type === 'tool_result')).toEqual({
      type: 'tool_result',
      callId: 'call_lookup',
      name: 'lookup_order',
      status: 'succeeded',
      summary: 'order 1042 shipped',
      blocks,
    });
    expect(feedbacks).toContainEqual({
      type: 'tool-result',
      callId: 'call_lookup',
      status: 'succeeded',
      summary: 'order 1042 shipped',
      blocks,
    });
    expect(events.at(-1)).toEqual({ type: 'done', status: 'completed' });
  });

  const refusals: readonly (readonly [string, string, ChatEventV1['type'][]])[] = [
    ['bad-navigate', "the agent's navigate step is not a valid v1 event (invalid-event)", ['user_input', 'delta', 'error']],
    ['bad-state', "the agent's state step holds a value that is not JSON data", ['user_input', 'error']],
    ['bad-provenance', "the agent's provenance step is not a valid v1 event (invalid-event)", ['user_input', 'error']],
    ['bad-usage', "the agent's done step is not a valid v1 event (invalid-event)", ['user_input', 'error']],
    ['bad-stop-reason', "the agent's done step is not a valid v1 event (invalid-event)", ['user_input', 'error']],
    ['bad-blocks', "the agent's tool_result step is not a valid v1 event (invalid-event)", ['user_input', 'tool_call', 'error']],
    ['bad-delta', "the agent's delta step is not a valid v1 event (invalid-event)", ['user_input', 'error']],
    ['bad-fail', "the agent's error step is not a valid v1 event (invalid-event)", ['user_input', 'error']],
  ];
  it.each(refusals)(
    'a %s step core refuses ends the turn with a non-retryable invalid-agent-step error, never an invalid frame',
    async (text, message, types) => {
      const conversationId = `c_ana_steps_${text.replace(/-/g, '_')}`;
      const { events, state } = await runTurn(conversationId, text);
      expect(events.map((event) => event.type)).toEqual(types);
      expect(events.at(-1)).toEqual({ type: 'error', code: 'invalid-agent-step', message, retryable: false });
      expect(state?.turns[0]?.status).toBe('failed');
    },
  );
});
