import { describe, expect, it } from 'vitest';
import type { ChatAgentFeedback, ChatAgentStep } from '../chat-agent.js';
import { SCRIPTED_REFUND_CALL_ID, createScriptedChatAgent } from './scripted-agent.js';

const turn = { conversationId: 'conv_1', turnId: 'turn_1', text: 'refund please' };

// Drives the agent as the host does: the tool's outcome and the card's answer go back through next().
async function drive(text: string, confirmed: boolean): Promise<ChatAgentStep[]> {
  const effects: string[] = [];
  const agent = createScriptedChatAgent({ deltaLength: 5, onEffect: (_turn, callId) => effects.push(callId) });
  const generator = agent.run({ ...turn, text });
  const steps: ChatAgentStep[] = [];
  let feedback: ChatAgentFeedback = undefined;
  for (;;) {
    const next = await generator.next(feedback);
    if (next.done === true) break;
    steps.push(next.value);
    feedback = undefined;
    if (next.value.type === 'tool') {
      const outcome = await next.value.execute({ signal: new AbortController().signal });
      feedback = { type: 'tool-result', status: 'succeeded', summary: outcome.summary };
    }
    if (next.value.type === 'card') feedback = { type: 'card-closed', resolution: 'submitted', value: { confirmed } };
  }
  expect(effects).toEqual(steps.some((step) => step.type === 'tool') ? [SCRIPTED_REFUND_CALL_ID] : []);
  return steps;
}

const shape = (steps: readonly ChatAgentStep[]) => steps.map((step) => (step.type === 'tool' ? { ...step, execute: 'fn' } : step));

describe('createScriptedChatAgent (issue 17: a scripted, deterministic agent)', () => {
  it('the same text gives the same steps: reasoning, small deltas, one declared effect, a report block, one card, the answer', async () => {
    const first = await drive('refund please', true);
    expect(shape(await drive('refund please', true))).toEqual(shape(first));
    expect(createScriptedChatAgent().effects(turn)).toEqual([SCRIPTED_REFUND_CALL_ID]);
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

  it('a text starting with fail ends with a retryable failure and declares no effect', async () => {
    const steps = await drive('fail now', true);
    expect(steps.at(-1)).toEqual({
      type: 'fail',
      code: 'provider-unavailable',
      message: 'the scripted provider is down',
      retryable: true,
      retryAfterMs: 1000,
    });
    expect(createScriptedChatAgent().effects({ ...turn, text: 'fail now' })).toEqual([]);
  });
});
