import { describe, expect, it, vi } from 'vitest';
import type { ChatAgentContext, ChatAgentFeedback, ChatAgentStep } from '../chat-agent.js';
import { SCRIPTED_REFUND_CALL_ID, createScriptedChatAgent } from './scripted-agent.js';

const turn = { conversationId: 'conv_1', turnId: 'turn_1', text: 'refund please' };
const context = (text: string): ChatAgentContext => ({
  caller: { callerId: 'ana', principalId: 'user_ana', tenantId: 'acme', customerId: null, publicOwnerId: null },
  userInput: { text },
  history: [],
  historyOmitted: 0,
  signal: new AbortController().signal,
});

// Drives the agent as the host does: a tool step runs the declared tool, and its outcome and the card's answer go back through next().
async function drive(text: string, confirmed: boolean): Promise<ChatAgentStep[]> {
  const effects: string[] = [];
  const agent = createScriptedChatAgent({ deltaLength: 5, onEffect: (_turn, callId) => effects.push(callId) });
  const generator = agent.run({ ...turn, text }, context(text));
  const steps: ChatAgentStep[] = [];
  let feedback: ChatAgentFeedback = undefined;
  for (;;) {
    const next = await generator.next(feedback);
    if (next.done === true) break;
    const step = next.value;
    steps.push(step);
    feedback = undefined;
    if (step.type === 'tool') {
      const tool = agent.tools?.find((candidate) => candidate.name === step.name);
      const callId = step.callId ?? 'call_1';
      const execution = { signal: new AbortController().signal, turn: { ...turn, text }, callId, effectId: 'effect_turn_1_1' };
      const outcome = await tool?.execute(step.input, execution);
      feedback = { type: 'tool-result', callId, status: 'succeeded', summary: outcome?.summary ?? '' };
    }
    if (step.type === 'card') feedback = { type: 'card-closed', resolution: 'submitted', value: { confirmed } };
  }
  expect(effects).toEqual(steps.some((step) => step.type === 'tool') ? [SCRIPTED_REFUND_CALL_ID] : []);
  return steps;
}

describe('createScriptedChatAgent (issue 17: a scripted, deterministic agent)', () => {
  it('the same text gives the same steps: reasoning, small deltas, one call of its declared tool, a report block, one card, the answer', async () => {
    const first = await drive('refund please', true);
    expect(await drive('refund please', true)).toEqual(first);
    expect(createScriptedChatAgent().tools?.map((tool) => [tool.name, tool.externalEffect])).toEqual([['issue_refund', undefined]]);
    expect(first.find((step) => step.type === 'tool')).toEqual({
      type: 'tool',
      callId: SCRIPTED_REFUND_CALL_ID,
      name: 'issue_refund',
      input: { orderId: '1042' },
    });
    expect(first.map((step) => step.type).filter((type, index, all) => type !== all[index - 1])).toEqual([
      'provenance',
      'reasoning',
      'delta',
      'tool',
      'state',
      'navigate',
      'delta',
      'card',
      'delta',
    ]);
    const text = first.flatMap((step) => (step.type === 'delta' ? [step.text] : [])).join('');
    expect(text).toMatch(/^Looking into order 1042\. The refund is issued\. <report>\{.*\}<\/report><ask>\{.*\}<\/ask>Ticket closed\.$/);
    expect(first.every((step) => step.type !== 'delta' || step.text.length <= 5)).toBe(true);
  });

  it('the card answer steers the end: declined or unconfirmed leaves the ticket open', async () => {
    const steps = await drive('refund please', false);
    expect(steps.flatMap((step) => (step.type === 'delta' ? [step.text] : [])).join('')).toMatch(/Ticket left open\.$/);
  });

  it('a text starting with fail ends with a retryable failure and calls no tool', async () => {
    const steps = await drive('fail now', true);
    expect(steps.at(-1)).toEqual({
      type: 'fail',
      code: 'provider-unavailable',
      message: 'the scripted provider is down',
      retryable: true,
      retryAfterMs: 1000,
    });
    expect(steps.some((step) => step.type === 'tool')).toBe(false);
  });

  it('deltaDelayMs waits that long after each delta, and the turn’s signal ends the wait', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const agent = createScriptedChatAgent({ deltaDelayMs: 60_000 });
      const generator = agent.run(turn, { ...context(turn.text), signal: controller.signal });
      const types = [(await generator.next()).value, (await generator.next()).value, (await generator.next()).value];
      expect(types).toEqual([
        { type: 'provenance', engine: 'scripted', model: 'scripted-refund-1' },
        { type: 'reasoning', text: 'The order qualifies for a refund.' },
        { type: 'delta', text: 'Looking ' },
      ]);
      let second: unknown;
      const next = generator.next().then((result) => (second = result.value));
      await vi.advanceTimersByTimeAsync(59_999);
      expect(second).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await next;
      expect(second).toEqual({ type: 'delta', text: 'into ord' });
      let third: unknown;
      const after = generator.next().then((result) => (third = result.value));
      await vi.advanceTimersByTimeAsync(1_000);
      expect(third).toBeUndefined();
      // The abort clears the pause's timer before it returns: counted around that synchronous step, since other
      // timers (the runner's, a module loaded meanwhile) may come and go while the test awaits.
      const pending = vi.getTimerCount();
      controller.abort();
      expect(vi.getTimerCount()).toBe(pending - 1);
      await after;
      expect(third).toEqual({ type: 'delta', text: 'er 1042.' });
    } finally {
      vi.useRealTimers();
    }
  });
});
