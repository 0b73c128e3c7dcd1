import type { ChatHistoryTurnV1 } from '@papercusp/chat-protocol-core';
import { APICallError, jsonSchema, tool, type Tool, type ToolExecutionOptions } from 'ai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  finish,
  hangingCall,
  reasoning,
  runTurn,
  scriptedModel,
  text,
  toolCall,
  toolExecution,
  turnContext,
  usage,
} from '../../test/agent-harness.js';
import { createAiSdkChatAgent } from '../agent.js';

const weatherInput = z.object({ city: z.string() });

/** A weather tool whose `execute` records its calls and answers 21 °C, or throws when `fail`. */
function weatherTool(fail = false) {
  const calls: { input: unknown; options: ToolExecutionOptions }[] = [];
  const definition = tool({
    description: 'The weather in a city',
    inputSchema: weatherInput,
    execute: async (input, options) => {
      calls.push({ input, options });
      if (fail) throw new Error('the weather service is down');
      return { city: input.city, celsius: 21 };
    },
  });
  return { definition, calls };
}

const apiError = (statusCode: number, responseHeaders?: Record<string, string>) =>
  new APICallError({
    message: 'provider said: org-secret is over its limit',
    url: 'https://api.example.com/v1',
    requestBodyValues: {},
    statusCode,
    ...(responseHeaders ? { responseHeaders } : {}),
  });

describe('createAiSdkChatAgent: the tool loop (DESIGN §12.1)', () => {
  it('runs a two-step tool loop: text, a tool call, its result fed back, the final text; usage summed over the steps', async () => {
    const weather = weatherTool();
    const model = scriptedModel([
      [
        ...reasoning('r1', 'The person wants the weather.'),
        ...text('t1', 'Let me ', 'check.'),
        toolCall('call_1', 'weather', '{"city":"Lyon"}'),
        finish('tool-calls', usage(3, 5)),
      ],
      [...text('t2', 'It is 21 °C in Lyon.'), finish('stop', usage(20, 7))],
    ]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition } });

    const { steps, feedback, completion } = await runTurn(agent, turnContext('Weather in Lyon?'));

    expect(steps).toEqual([
      { type: 'reasoning', text: 'The person wants the weather.' },
      { type: 'delta', text: 'Let me ' },
      { type: 'delta', text: 'check.' },
      { type: 'tool', name: 'weather', input: { city: 'Lyon' }, callId: 'call_1' },
      { type: 'delta', text: 'It is 21 °C in Lyon.' },
    ]);
    expect(feedback[3]).toEqual({
      type: 'tool-result',
      callId: 'call_1',
      status: 'succeeded',
      summary: '{"city":"Lyon","celsius":21}',
      blocks: [{ kind: 'data', data: { city: 'Lyon', celsius: 21 } }],
    });
    expect(completion).toEqual({ stopReason: 'stop', usage: { inputTokens: 23, outputTokens: 12, totalTokens: 35 } });
    // The AI SDK tool's own execute ran once, with the call's id, the messages that led to the call and the signal.
    expect(weather.calls).toHaveLength(1);
    expect(weather.calls[0]?.input).toEqual({ city: 'Lyon' });
    expect(weather.calls[0]?.options).toMatchObject({ toolCallId: 'call_1', messages: [{ role: 'user', content: 'Weather in Lyon?' }] });
    expect(weather.calls[0]?.options.abortSignal).toBeInstanceOf(AbortSignal);
    // The second call reads the first call's answer and the host's result.
    expect(model.doStreamCalls).toHaveLength(2);
    expect(model.doStreamCalls[1]?.prompt.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'The person wants the weather.', providerOptions: undefined },
          { type: 'text', text: 'Let me check.', providerOptions: undefined },
          {
            type: 'tool-call',
            toolCallId: 'call_1',
            toolName: 'weather',
            input: { city: 'Lyon' },
            providerExecuted: undefined,
            providerOptions: undefined,
          },
        ],
        providerOptions: undefined,
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'weather',
            output: { type: 'json', value: { city: 'Lyon', celsius: 21 } },
            providerOptions: undefined,
          },
        ],
        providerOptions: undefined,
      },
    ]);
  });

  it('offers the model each tool with its JSON schema, and a provider-executed tool as the provider defines it', async () => {
    const weather = weatherTool();
    const search: Tool = { type: 'provider', id: 'example.web_search', args: { maxUses: 1 }, inputSchema: jsonSchema({ type: 'object' }) };
    const model = scriptedModel([[...text('t1', 'Hi.'), finish('stop')]]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition, search } });

    await runTurn(agent, turnContext('Hi'));

    expect(model.doStreamCalls[0]?.tools).toEqual([
      {
        type: 'function',
        name: 'weather',
        description: 'The weather in a city',
        inputSchema: z.toJSONSchema(weatherInput, { target: 'draft-07' }),
        providerOptions: undefined,
      },
      { type: 'provider', name: 'search', id: 'example.web_search', args: { maxUses: 1 } },
    ]);
    expect(agent.tools.map((declared) => declared.name)).toEqual(['weather']);
  });

  it('logs a provider-executed tool call and its result as a remote-tool step, never declared or run here', async () => {
    const search: Tool = { type: 'provider', id: 'example.web_search', args: {}, inputSchema: jsonSchema({ type: 'object' }) };
    const model = scriptedModel([
      [
        { type: 'tool-call', toolCallId: 'srv_1', toolName: 'search', input: '{"query":"lyon"}', providerExecuted: true },
        { type: 'tool-result', toolCallId: 'srv_1', toolName: 'search', result: { hits: 3 } },
        ...text('t1', 'Found 3.'),
        finish('stop'),
      ],
    ]);
    const agent = createAiSdkChatAgent({ model, tools: { search } });

    const { steps, completion } = await runTurn(agent, turnContext('Search'));

    expect(steps).toEqual([
      {
        type: 'remote-tool',
        name: 'search',
        callId: 'srv_1',
        input: { query: 'lyon' },
        outcome: { summary: '{"hits":3}', blocks: [{ kind: 'data', data: { hits: 3 } }] },
      },
      { type: 'delta', text: 'Found 3.' },
    ]);
    expect(completion).toEqual({ stopReason: 'stop', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 } });
  });

  it('sends the system prompt, then the history as user and assistant messages, then the person’s message', async () => {
    const history: ChatHistoryTurnV1[] = [
      { id: 'turn_0', role: 'system', text: 'Conversation opened from the billing page.' },
      { id: 'turn_1', role: 'user', text: 'What is my plan?' },
      { id: 'turn_1', role: 'assistant', text: 'You are on Pro.', tools: [], status: 'completed' },
      { id: 'turn_2', role: 'user', text: 'Cancel it.' },
      {
        id: 'turn_2',
        role: 'assistant',
        text: '',
        status: 'failed',
        error: { code: 'provider-failed', message: 'x', retryable: false, retryAfterMs: null },
      },
    ];
    const model = scriptedModel([[...text('t1', 'Done.'), finish('stop')]]);
    const agent = createAiSdkChatAgent({ model, system: 'You are the billing assistant.' });

    await runTurn(agent, turnContext('Are you there?', { history, historyOmitted: 4 }));

    expect(model.doStreamCalls[0]?.prompt).toEqual([
      { role: 'system', content: 'You are the billing assistant.' },
      { role: 'user', content: [{ type: 'text', text: 'What is my plan?' }], providerOptions: undefined },
      { role: 'assistant', content: [{ type: 'text', text: 'You are on Pro.' }], providerOptions: undefined },
      { role: 'user', content: [{ type: 'text', text: 'Cancel it.' }], providerOptions: undefined },
      { role: 'user', content: [{ type: 'text', text: 'Are you there?' }], providerOptions: undefined },
    ]);
  });

  it('stops at maxSteps with stopReason max-steps and runs none of the last step’s calls', async () => {
    const weather = weatherTool();
    const call = (id: string) => [toolCall(id, 'weather', '{"city":"Lyon"}'), finish('tool-calls')];
    const model = scriptedModel([call('call_1'), call('call_2')]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition }, maxSteps: 2 });

    const { steps, completion } = await runTurn(agent, turnContext('Loop'));

    expect(steps).toEqual([{ type: 'tool', name: 'weather', input: { city: 'Lyon' }, callId: 'call_1' }]);
    expect(weather.calls).toHaveLength(1);
    expect(model.doStreamCalls).toHaveLength(2);
    expect(completion).toEqual({ stopReason: 'max-steps', usage: { inputTokens: 2, outputTokens: 2, totalTokens: 4 } });
  });

  it('sums usage the AI SDK’s way: a count stays absent only when no step reported it', async () => {
    const weather = weatherTool();
    const partial = {
      inputTokens: { total: 4, noCache: 4, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: undefined, text: undefined, reasoning: undefined },
    };
    const model = scriptedModel([
      [toolCall('call_1', 'weather', '{"city":"Lyon"}'), finish('tool-calls', partial)],
      [...text('t1', 'Done.'), finish('length', partial)],
    ]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition } });

    const { completion } = await runTurn(agent, turnContext('Go'));

    // No step reported output tokens: the sum has none, rather than a made-up 0.
    expect(completion).toEqual({ stopReason: 'length', usage: { inputTokens: 8, totalTokens: 8 } });
  });
});

describe('createAiSdkChatAgent: tool results are fed back (DESIGN §11.1)', () => {
  it('gives a failing tool’s error back to the model, which recovers', async () => {
    const weather = weatherTool(true);
    const model = scriptedModel([
      [toolCall('call_1', 'weather', '{"city":"Lyon"}'), finish('tool-calls')],
      [...text('t1', 'I could not reach the weather service.'), finish('stop')],
    ]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition } });

    const { steps, feedback, completion } = await runTurn(agent, turnContext('Weather?'));

    expect(feedback[0]).toEqual({ type: 'tool-result', callId: 'call_1', status: 'failed', summary: 'the weather service is down' });
    expect(model.doStreamCalls[1]?.prompt.at(-1)).toEqual({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: 'call_1',
          toolName: 'weather',
          output: { type: 'error-text', value: 'the weather service is down' },
          providerOptions: undefined,
        },
      ],
      providerOptions: undefined,
    });
    expect(steps.at(-1)).toEqual({ type: 'delta', text: 'I could not reach the weather service.' });
    expect(completion).toEqual({ stopReason: 'stop', usage: { inputTokens: 2, outputTokens: 2, totalTokens: 4 } });
  });

  it.each([
    ['failed', 'not authorized', { type: 'error-text', value: 'not authorized' }],
    ['failed', '', { type: 'error-text', value: 'the tool failed' }],
    ['cancelled', '', { type: 'error-text', value: 'the call was cancelled' }],
    [
      'needs-reconciliation',
      'lost ack',
      { type: 'error-text', value: 'the outcome of the call is unknown: it may or may not have run (lost ack)' },
    ],
    ['succeeded', 'sent', { type: 'text', value: 'sent' }],
  ] as const)('the model reads a host result %s with summary %j as %j', async (status, summary, output) => {
    const weather = weatherTool();
    const model = scriptedModel([
      [toolCall('call_1', 'weather', '{"city":"Lyon"}'), finish('tool-calls')],
      [...text('t1', 'OK.'), finish('stop')],
    ]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition } });
    const run = agent.run({ conversationId: 'conv_1', turnId: 'turn_1', text: 'Go' }, turnContext('Go'));

    expect((await run.next()).value).toEqual({ type: 'tool', name: 'weather', input: { city: 'Lyon' }, callId: 'call_1' });
    await run.next({ type: 'tool-result', callId: 'call_1', status, summary });
    await run.return(undefined);

    expect(weather.calls).toHaveLength(0);
    expect(model.doStreamCalls[1]?.prompt.at(-1)?.content).toEqual([
      { type: 'tool-result', toolCallId: 'call_1', toolName: 'weather', output, providerOptions: undefined },
    ]);
  });

  it('reads several result blocks as a JSON array of their texts and data', async () => {
    const weather = weatherTool();
    const model = scriptedModel([
      [toolCall('call_1', 'weather', '{"city":"Lyon"}'), finish('tool-calls')],
      [...text('t1', 'OK.'), finish('stop')],
    ]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition } });

    await runTurn(agent, turnContext('Go'), {
      runTool: async () => ({
        summary: 'two',
        blocks: [
          { kind: 'text', text: 'sunny' },
          { kind: 'data', data: { celsius: 21 } },
        ],
      }),
    });

    expect(model.doStreamCalls[1]?.prompt.at(-1)?.content).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call_1',
        toolName: 'weather',
        output: { type: 'json', value: ['sunny', { celsius: 21 }] },
        providerOptions: undefined,
      },
    ]);
  });

  it('throws when the host answers a tool step without a tool-result (the host ends the turn agent-failed)', async () => {
    const weather = weatherTool();
    const model = scriptedModel([[toolCall('call_1', 'weather', '{}'), finish('tool-calls')]]);
    const run = createAiSdkChatAgent({ model, tools: { weather: weather.definition } }).run(
      { conversationId: 'c', turnId: 't', text: 'Go' },
      turnContext('Go'),
    );

    await run.next();

    await expect(run.next(undefined)).rejects.toThrow(
      new TypeError('createAiSdkChatAgent: the host answered a tool step without a tool-result'),
    );
  });
});

describe('createAiSdkChatAgent: provider errors keep their retry permission (DESIGN §12.1)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('turns a 429 with retry-after: 3 into a retryable provider-rate-limited fail with retryAfterMs 3000', async () => {
    const error = apiError(429, { 'retry-after': '3' });
    const onProviderError = vi.fn();
    const model = scriptedModel([
      async () => {
        throw error;
      },
    ]);
    const agent = createAiSdkChatAgent({ model, onProviderError });

    const { steps, completion } = await runTurn(agent, turnContext('Hi'));

    expect(steps).toEqual([
      {
        type: 'fail',
        code: 'provider-rate-limited',
        message: 'The model provider is rate limiting requests (HTTP 429).',
        retryable: true,
        retryAfterMs: 3000,
      },
    ]);
    expect(completion).toBeUndefined();
    expect(onProviderError.mock.calls).toEqual([[error]]);
  });

  const NOW = Date.parse('2026-12-01T10:00:00Z');
  it.each([
    [
      'retry-after-ms in milliseconds, before retry-after',
      503,
      { 'retry-after-ms': '1500.2', 'retry-after': '9' },
      'provider-failed',
      true,
      1501,
    ],
    ['retry-after as an HTTP date', 429, { 'Retry-After': new Date(NOW + 60_000).toUTCString() }, 'provider-rate-limited', true, 60_000],
    ['retry-after past one day, capped', 429, { 'retry-after': '999999' }, 'provider-rate-limited', true, 86_400_000],
    ['retry-after that is neither seconds nor a date', 429, { 'retry-after': 'soon' }, 'provider-rate-limited', true, undefined],
    ['a retryable 500 without headers', 500, undefined, 'provider-failed', true, undefined],
    ['a 400, never retryable, its retry-after ignored', 400, { 'retry-after': '3' }, 'provider-failed', false, undefined],
  ] as const)('maps %s', async (_name, statusCode, headers, code, retryable, retryAfterMs) => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    const model = scriptedModel([
      async () => {
        throw apiError(statusCode, headers);
      },
    ]);

    const { steps } = await runTurn(createAiSdkChatAgent({ model }), turnContext('Hi'));

    const message =
      code === 'provider-rate-limited'
        ? 'The model provider is rate limiting requests (HTTP 429).'
        : `The model provider call failed (HTTP ${statusCode}).`;
    expect(steps).toEqual([{ type: 'fail', code, message, retryable, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) }]);
  });

  it('unwraps the AI SDK’s RetryError once its own retries (maxRetries) ran out', async () => {
    const model = scriptedModel([
      async () => {
        throw apiError(429, { 'retry-after-ms': '1' });
      },
      async () => {
        throw apiError(429, { 'retry-after-ms': '2' });
      },
    ]);

    const { steps } = await runTurn(createAiSdkChatAgent({ model, maxRetries: 1 }), turnContext('Hi'));

    expect(model.doStreamCalls).toHaveLength(2);
    expect(steps).toEqual([
      {
        type: 'fail',
        code: 'provider-rate-limited',
        message: 'The model provider is rate limiting requests (HTTP 429).',
        retryable: true,
        retryAfterMs: 2,
      },
    ]);
  });

  it('keeps the text already yielded when the provider fails mid-text, and ends with the fail step', async () => {
    const model = scriptedModel([
      [
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Let me' },
        { type: 'error', error: apiError(529) },
      ],
    ]);

    const { steps, completion } = await runTurn(createAiSdkChatAgent({ model }), turnContext('Hi'));

    expect(steps).toEqual([
      { type: 'delta', text: 'Let me' },
      { type: 'fail', code: 'provider-failed', message: 'The model provider call failed (HTTP 529).', retryable: true },
    ]);
    expect(completion).toBeUndefined();
  });

  it('turns a provider’s own stream error event into a non-retryable provider-failed: no permission is assumed', async () => {
    const model = scriptedModel([[...text('t1', 'Hel'), { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]]);

    const { steps } = await runTurn(createAiSdkChatAgent({ model }), turnContext('Hi'));

    expect(steps).toEqual([
      { type: 'delta', text: 'Hel' },
      { type: 'fail', code: 'provider-failed', message: 'The model provider reported an error while streaming.', retryable: false },
    ]);
  });

  it('lets any other error propagate after the text already yielded (the host ends the turn agent-failed)', async () => {
    const bug = new TypeError('provider bug');
    const model = scriptedModel([[...text('t1', 'Hel'), { type: 'error', error: bug }]]);
    const seen: unknown[] = [];

    await expect(runTurn(createAiSdkChatAgent({ model }), turnContext('Hi'), { onStep: (step) => seen.push(step) })).rejects.toBe(bug);
    expect(seen).toEqual([{ type: 'delta', text: 'Hel' }]);
  });
});

describe('createAiSdkChatAgent: cancellation (DESIGN §11.1)', () => {
  it.each([
    ['a provider that honours the abort', true],
    ['a provider that ignores it', false],
  ])('with %s, the model call observes the abort and the generator returns at once, keeping the text', async (_name, honoursAbort) => {
    const hanging = hangingCall(
      [
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Hel' },
      ],
      honoursAbort,
    );
    const controller = new AbortController();
    const agent = createAiSdkChatAgent({ model: scriptedModel([hanging.call]) });
    const run = agent.run({ conversationId: 'c', turnId: 't', text: 'Hi' }, turnContext('Hi', { signal: controller.signal }));

    expect(await run.next()).toEqual({ done: false, value: { type: 'delta', text: 'Hel' } });
    const next = run.next();
    controller.abort();

    // No wall clock: the generator ends on the abort event itself, even when the provider's stream never ends.
    expect(await next).toEqual({ done: true, value: undefined });
    await hanging.aborted;
  });

  it('ends at once when the host calls return() after a cancellation, mid-text', async () => {
    const hanging = hangingCall(
      [
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Hel' },
      ],
      true,
    );
    const controller = new AbortController();
    const run = createAiSdkChatAgent({ model: scriptedModel([hanging.call]) }).run(
      { conversationId: 'c', turnId: 't', text: 'Hi' },
      turnContext('Hi', { signal: controller.signal }),
    );

    await run.next();
    controller.abort();

    expect(await run.return(undefined)).toEqual({ done: true, value: undefined });
    await hanging.aborted;
  });

  it('runs its finally when the host calls return() during a tool step: the call’s messages are released', async () => {
    const weather = weatherTool();
    const model = scriptedModel([[toolCall('call_1', 'weather', '{"city":"Lyon"}'), finish('tool-calls')]]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition } });
    const [declared] = agent.tools;
    const execution = toolExecution();
    const run = agent.run(execution.turn, turnContext('Go'));

    await run.next();
    await declared?.execute({ city: 'Lyon' }, execution);
    expect(await run.return(undefined)).toEqual({ done: true, value: undefined });
    await declared?.execute({ city: 'Lyon' }, execution);

    expect(weather.calls.map((call) => call.options.messages)).toEqual([[{ role: 'user', content: 'Go' }], []]);
  });

  it('gives a call id two runs hold at once no messages rather than another conversation’s', async () => {
    const weather = weatherTool();
    const model = scriptedModel([
      [toolCall('call_1', 'weather', '{"city":"Lyon"}'), finish('tool-calls')],
      [toolCall('call_1', 'weather', '{"city":"Oslo"}'), finish('tool-calls')],
    ]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition } });
    const first = agent.run({ conversationId: 'c1', turnId: 't1', text: 'A' }, turnContext('A'));
    const second = agent.run({ conversationId: 'c2', turnId: 't2', text: 'B' }, turnContext('B'));

    await first.next();
    await second.next();
    await agent.tools[0]?.execute({ city: 'Lyon' }, toolExecution());
    await first.return(undefined);
    await second.return(undefined);

    expect(weather.calls.map((call) => call.options.messages)).toEqual([[]]);
  });

  it('yields no further tool step and calls the model no more once the signal aborted during a tool step', async () => {
    const weather = weatherTool();
    const controller = new AbortController();
    const model = scriptedModel([
      [toolCall('call_1', 'weather', '{"city":"Lyon"}'), toolCall('call_2', 'weather', '{"city":"Oslo"}'), finish('tool-calls')],
    ]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition } });

    const { steps, completion } = await runTurn(agent, turnContext('Go', { signal: controller.signal }), {
      runTool: async () => {
        controller.abort();
        return { status: 'failed', summary: 'cancelled' };
      },
    });

    expect(steps).toEqual([{ type: 'tool', name: 'weather', input: { city: 'Lyon' }, callId: 'call_1' }]);
    expect(completion).toBeUndefined();
    expect(model.doStreamCalls).toHaveLength(1);
  });

  it('passes the execution’s signal to the tool, and rethrows what a cancelled tool throws (its outcome is unknown)', async () => {
    const controller = new AbortController();
    let started = () => {};
    const running = new Promise<void>((resolve) => (started = resolve));
    const slow = tool({
      inputSchema: jsonSchema<object>({ type: 'object' }),
      execute: (_input, { abortSignal }) =>
        new Promise((_resolve, reject) => {
          abortSignal?.addEventListener('abort', () => reject(new Error('aborted')));
          started();
        }),
    });
    const [declared] = createAiSdkChatAgent({ model: scriptedModel([]), tools: { slow } }).tools;

    const outcome = declared?.execute({}, toolExecution(controller.signal));
    await running;
    controller.abort();

    await expect(outcome).rejects.toThrow(new Error('aborted'));
  });
});

describe('createAiSdkChatAgent: declared tools', () => {
  it('declares each tool with execute, an external effect unless named in readOnlyTools', () => {
    const model = scriptedModel([]);
    const agent = createAiSdkChatAgent({
      model,
      tools: { weather: weatherTool().definition, send_email: weatherTool().definition },
      readOnlyTools: ['weather'],
    });

    expect(agent.tools.map(({ name, externalEffect }) => ({ name, externalEffect }))).toEqual([
      { name: 'weather', externalEffect: false },
      { name: 'send_email', externalEffect: true },
    ]);
    expect(Object.isFrozen(agent.tools)).toBe(true);
  });

  const noExecute = tool({ inputSchema: jsonSchema({ type: 'object' }) });
  const approval = tool({ inputSchema: jsonSchema({ type: 'object' }), needsApproval: true, execute: async () => 'ok' });
  it.each([
    ['options that are not an object', null, 'createAiSdkChatAgent: options must be an object'],
    ['no model', { model: undefined }, 'createAiSdkChatAgent: model must be an AI SDK language model or model id'],
    ['tools that are an array', { tools: [] }, 'createAiSdkChatAgent: tools must be an object of AI SDK tools, not an array'],
    ['a tool that is not an object', { tools: { weather: 3 } }, 'createAiSdkChatAgent: tool "weather" must be an AI SDK tool, not number'],
    [
      'a function tool without execute',
      { tools: { pick: noExecute } },
      'createAiSdkChatAgent: tool "pick" has no execute; a client-side tool is a card',
    ],
    [
      'a tool with needsApproval',
      { tools: { deploy: approval } },
      'createAiSdkChatAgent: tool "deploy" has needsApproval; ask the person through a card instead',
    ],
    [
      'a tool name v1 cannot carry',
      { tools: { ['x'.repeat(257)]: weatherTool().definition } },
      'createAiSdkChatAgent: a tool name must be clean text of 1 to 256 characters',
    ],
    [
      'a readOnlyTools name that is no tool',
      { tools: { weather: weatherTool().definition }, readOnlyTools: ['wether'] },
      'createAiSdkChatAgent: readOnlyTools names "wether", which is not a tool with execute',
    ],
    [
      'readOnlyTools that is not an array',
      { readOnlyTools: 'weather' },
      'createAiSdkChatAgent: readOnlyTools must be an array of tool names',
    ],
    ['maxSteps 0', { maxSteps: 0 }, 'createAiSdkChatAgent: maxSteps must be a positive integer'],
    ['maxRetries -1', { maxRetries: -1 }, 'createAiSdkChatAgent: maxRetries must be a non-negative integer'],
    ['a system prompt that is not a string', { system: 1 }, 'createAiSdkChatAgent: system must be a string'],
  ])('refuses %s with a TypeError at creation', (_name, options, message) => {
    const withModel = options === null ? null : { model: scriptedModel([]), ...options };
    expect(() => createAiSdkChatAgent(withModel as never)).toThrow(new TypeError(message));
  });
});

describe('createAiSdkChatAgent: hostile values become typed outcomes', () => {
  /** Runs one call of a tool that returns `output`, and answers the outcome the host stored. */
  async function outcomeOf(output: unknown) {
    const echo: Tool = { inputSchema: jsonSchema({ type: 'object' }), execute: async () => output };
    const [declared] = createAiSdkChatAgent({ model: scriptedModel([]), tools: { echo } }).tools;
    return declared?.execute({}, toolExecution());
  }

  it('cuts a huge string output: a summary of 4,096 and a text block of 65,536 code units, each ending in an ellipsis', async () => {
    const outcome = await outcomeOf('x'.repeat(100_000));
    expect(outcome?.summary).toBe(`${'x'.repeat(4_095)}…`);
    expect(outcome?.blocks).toEqual([{ kind: 'text', text: `${'x'.repeat(65_535)}…` }]);
  });

  it('carries a JSON output past a text block’s bound as its JSON text, cut', async () => {
    const outcome = await outcomeOf({ rows: 'y'.repeat(70_000) });
    expect(outcome?.blocks).toEqual([{ kind: 'text', text: `{"rows":"${'y'.repeat(65_535 - 9)}…` }]);
    expect(outcome?.summary).toHaveLength(4_096);
  });

  it.each([
    ['undefined, as JSON null', undefined, { summary: 'null', blocks: [{ kind: 'data', data: null }] }],
    [
      'a date, as its JSON string',
      new Date('2026-12-01T10:00:00Z'),
      { summary: '"2026-12-01T10:00:00.000Z"', blocks: [{ kind: 'data', data: '2026-12-01T10:00:00.000Z' }] },
    ],
    [
      'a control character, as the JSON text that escapes it',
      { note: 'a\u0000b' },
      { summary: '{"note":"a\\u0000b"}', blocks: [{ kind: 'text', text: '{"note":"a\\u0000b"}' }] },
    ],
    [
      'a string with a control character and a lone surrogate, repaired',
      'a\u0007b\ud800',
      { summary: 'a\ufffdb\ufffd', blocks: [{ kind: 'text', text: 'a\ufffdb\ufffd' }] },
    ],
  ])('carries %s', async (_name, output, expected) => {
    expect(await outcomeOf(output)).toEqual(expected);
  });

  it.each([
    [
      'a cycle',
      (() => {
        const cycle: Record<string, unknown> = {};
        cycle['self'] = cycle;
        return cycle;
      })(),
    ],
    ['a BigInt', { count: 10n }],
    [
      'a getter that throws',
      Object.defineProperty({}, 'boom', {
        enumerable: true,
        get: () => {
          throw new Error('boom');
        },
      }),
    ],
  ])('answers an output JSON cannot write (%s) as succeeded, saying it is not carried', async (_name, output) => {
    expect(await outcomeOf(output)).toEqual({ summary: "the tool's output cannot be written as JSON, so it is not carried" });
  });

  it.each([
    ['an Error', new Error('disk full'), 'disk full'],
    ['a string', 'disk full', 'disk full'],
    [
      'a Proxy whose traps throw',
      new Proxy(
        {},
        {
          getPrototypeOf: () => {
            throw new Error('trap');
          },
        },
      ),
      'the tool failed',
    ],
    ['an Error with a huge message', new Error('z'.repeat(5_000)), `${'z'.repeat(4_095)}…`],
  ])('answers a tool that throws %s as failed, with a bounded summary', async (_name, thrown, summary) => {
    const failing: Tool = {
      inputSchema: jsonSchema({ type: 'object' }),
      execute: async () => {
        throw thrown;
      },
    };
    const [declared] = createAiSdkChatAgent({ model: scriptedModel([]), tools: { failing } }).tools;
    expect(await declared?.execute({}, toolExecution())).toEqual({
      status: 'failed',
      summary,
    });
  });

  it('checks the input against the tool’s schema when the host runs it: a mismatch fails without running the tool', async () => {
    const weather = weatherTool();
    const model = scriptedModel([
      [toolCall('call_1', 'weather', '{"city":3}'), finish('tool-calls')],
      [...text('t1', 'Sorry.'), finish('stop')],
    ]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition } });

    const { steps, feedback } = await runTurn(agent, turnContext('Go'));

    expect(steps[0]).toEqual({ type: 'tool', name: 'weather', input: { city: 3 }, callId: 'call_1' });
    expect(feedback[0]).toMatchObject({
      status: 'failed',
      summary: expect.stringMatching(/^the input does not match the tool's input schema: /),
    });
    expect(weather.calls).toHaveLength(0);
  });

  it.each([
    ['unparsable JSON', '{"city":', /^Invalid input for tool weather/, { input: '{"city":' }],
    ['a tool the agent does not have', '{}', /^Model tried to call unavailable tool 'launch'/, { input: {} }],
    ['a control character in the input', '{"city":"Ly\\u0000on"}', /^the tool input is not JSON data the chat protocol can carry$/, {}],
    ['nesting past 32 levels', `${'['.repeat(40)}${']'.repeat(40)}`, /^the tool input is not JSON data the chat protocol can carry$/, {}],
  ])('logs a call with %s as a failed remote-tool step, never run, and the model reads why', async (_name, input, summary, carried) => {
    const weather = weatherTool();
    const name = _name === 'a tool the agent does not have' ? 'launch' : 'weather';
    const model = scriptedModel([
      [toolCall('call_1', name, input), finish('tool-calls')],
      [...text('t1', 'Sorry.'), finish('stop')],
    ]);
    const agent = createAiSdkChatAgent({ model, tools: { weather: weather.definition } });

    const { steps } = await runTurn(agent, turnContext('Go'));

    expect(steps[0]).toEqual({
      type: 'remote-tool',
      name,
      callId: 'call_1',
      ...carried,
      outcome: { status: 'failed', summary: expect.stringMatching(summary) },
    });
    expect(weather.calls).toHaveLength(0);
    const output = model.doStreamCalls[1]?.prompt.at(-1)?.content[0];
    expect(output).toMatchObject({
      type: 'tool-result',
      toolCallId: 'call_1',
      output: { type: 'error-text', value: expect.stringMatching(summary) },
    });
  });

  it('splits a model delta past v1’s text bound into pieces that join back exactly', async () => {
    const long = `${'a'.repeat(65_535)}😀${'b'.repeat(10)}`;
    const model = scriptedModel([[...text('t1', long), finish('stop')]]);

    const { steps } = await runTurn(createAiSdkChatAgent({ model }), turnContext('Go'));

    expect(steps.map((step) => (step.type === 'delta' ? step.text.length : -1))).toEqual([65_535, 12]);
    expect(steps.map((step) => (step.type === 'delta' ? step.text : '')).join('')).toBe(long);
  });
});
