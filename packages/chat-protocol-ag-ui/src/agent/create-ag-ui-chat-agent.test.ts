/**
 * `createAgUiChatAgent` (issue 26, DESIGN §12.1) against a real AG-UI server over loopback (`node:http`, events
 * written by `@ag-ui/encoder`), driven through `@ag-ui/client`'s own `HttpAgent`; the generator is driven by a small
 * host loop here, with a fake context (the host's own tests run it through the host).
 */
import { AbstractAgent, HttpAgent, type BaseEvent, type RunAgentInput } from '@ag-ui/client';
import type {
  ChatAgentContext,
  ChatAgentFeedback,
  ChatAgentStep,
  ChatAgentTurn,
  ChatEventEnvelope,
  ChatHistoryTurnV1,
} from '@papercusp/chat-protocol-core';
import { Observable } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  runFinished,
  runStarted,
  startAgUiServer,
  type AgUiServer,
  type AgUiServerEvent,
  type AgUiServerScript,
} from '../../test/ag-ui-server.js';
import { createAgUiEncoder } from '../encoder/create-ag-ui-encoder.js';
import type { AgUiAgentLike, AgUiChatAgent } from './agent-types.js';
import { createAgUiChatAgent } from './create-ag-ui-chat-agent.js';

const servers: AgUiServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(script: AgUiServerScript, status?: number): Promise<AgUiServer> {
  const server = await startAgUiServer(script, status);
  servers.push(server);
  return server;
}

const TURN: ChatAgentTurn = { conversationId: 'conv_agui', turnId: 'turn_3', text: 'When will it arrive?' };
const HISTORY: readonly ChatHistoryTurnV1[] = [
  { id: 'turn_1', role: 'user', text: 'Where is order 1042?' },
  { id: 'turn_1', role: 'assistant', text: 'It shipped on Monday.' },
];

function contextOf(signal: AbortSignal = new AbortController().signal): ChatAgentContext {
  return { caller: { tenantId: 'acme', principalId: 'ana' }, userInput: { text: TURN.text }, history: HISTORY, historyOmitted: 0, signal };
}

const agentFor = (server: AgUiServer): AgUiChatAgent => createAgUiChatAgent({ agent: new HttpAgent({ url: server.url }) });

// The host's part, in small: every step is taken in order; a remote tool's result is fed back as the host feeds any
// result back, a card is answered with the next of `answers` (cancelled when there is none), other steps get nothing.
async function drive(agent: AgUiChatAgent, answers: ChatAgentFeedback[] = [], context = contextOf(), turn = TURN) {
  const generator = agent.run(turn, context);
  const steps: ChatAgentStep[] = [];
  let feedback: ChatAgentFeedback;
  for (;;) {
    const next = await generator.next(feedback);
    if (next.done === true) return { steps, completion: next.value };
    steps.push(next.value);
    feedback = feedbackFor(next.value, answers);
  }
}

function feedbackFor(step: ChatAgentStep, answers: ChatAgentFeedback[]): ChatAgentFeedback {
  if (step.type === 'remote-tool') {
    return {
      type: 'tool-result',
      callId: step.callId ?? 'call_minted',
      status: step.outcome.status ?? 'succeeded',
      summary: step.outcome.summary,
    };
  }
  if (step.type === 'card') return answers.shift() ?? { type: 'card-closed', resolution: 'cancelled' };
  return undefined;
}

// The events of one assistant text message.
const text = (messageId: string, ...deltas: string[]): AgUiServerEvent[] => [
  { type: 'TEXT_MESSAGE_START', messageId, role: 'assistant' },
  ...deltas.map((delta) => ({ type: 'TEXT_MESSAGE_CONTENT', messageId, delta })),
  { type: 'TEXT_MESSAGE_END', messageId },
];

// Writes the events, then ends the response.
const streams =
  (...runs: ((input: Parameters<AgUiServerScript>[0]['input']) => AgUiServerEvent[])[]): AgUiServerScript =>
  (run, index) => {
    for (const event of runs[index]?.(run.input) ?? []) run.send(event);
    run.end();
  };

describe('createAgUiChatAgent: the run input (issue 26)', () => {
  it("the run's thread is the conversation, its run id the turn, its messages the history's two turns then the person's message, with empty tools, context and state", async () => {
    const server = await serve(streams((input) => [runStarted(input), ...text('msg_1', 'Thursday.'), runFinished(input)]));
    await drive(agentFor(server));
    expect(server.requests).toHaveLength(1);
    const { input } = server.requests[0]!;
    expect({ threadId: input.threadId, runId: input.runId, tools: input.tools, context: input.context, state: input.state }).toStrictEqual({
      threadId: 'conv_agui',
      runId: 'turn_3',
      tools: [],
      context: [],
      state: {},
    });
    expect(input.messages).toStrictEqual([
      { id: 'turn_1:user', role: 'user', content: 'Where is order 1042?' },
      { id: 'turn_1:assistant', role: 'assistant', content: 'It shipped on Monday.' },
      { id: 'turn_3:user', role: 'user', content: 'When will it arrive?' },
    ]);
    expect(input.resume).toBeUndefined();
  });
});

describe('createAgUiChatAgent: events as steps (issue 26)', () => {
  it('text is delta, reasoning is reasoning, STATE_SNAPSHOT and STATE_DELTA are state (the snapshot after the patch), RUN_FINISHED returns the completion with its usage once the response has ended', async () => {
    const events = (input: RunAgentInput): AgUiServerEvent[] => [
      runStarted(input),
      { type: 'REASONING_START', messageId: 'rsn_1' },
      { type: 'REASONING_MESSAGE_START', messageId: 'rsn_1', role: 'reasoning' },
      { type: 'REASONING_MESSAGE_CONTENT', messageId: 'rsn_1', delta: 'Ask the carrier.' },
      { type: 'REASONING_MESSAGE_END', messageId: 'rsn_1' },
      { type: 'REASONING_END', messageId: 'rsn_1' },
      ...text('msg_1', 'It arrives ', 'on Thursday.'),
      { type: 'STATE_SNAPSHOT', snapshot: { order: '1042', eta: 'Thu' } },
      { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/eta', value: 'Thursday' }] },
      { type: 'STEP_STARTED', stepName: 'no step meaning' },
      { type: 'STEP_FINISHED', stepName: 'no step meaning' },
      runFinished(input, { usage: [{ inputTokens: 12, outputTokens: 5, totalTokens: 17 }] }),
    ];
    const server = await serve((run) => {
      for (const event of events(run.input)) run.send(event);
      // The response ends a moment after RUN_FINISHED: the turn returns once it has, never aborting the request.
      setTimeout(() => run.end(), 250);
    });
    expect(await drive(agentFor(server))).toStrictEqual({
      steps: [
        { type: 'reasoning', text: 'Ask the carrier.' },
        { type: 'delta', text: 'It arrives ' },
        { type: 'delta', text: 'on Thursday.' },
        { type: 'state', snapshot: { order: '1042', eta: 'Thu' } },
        { type: 'state', snapshot: { order: '1042', eta: 'Thursday' } },
      ],
      completion: { usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 } },
    });
    expect(await server.requests[0]!.ended).toBe('finished');
  });

  it("a tool call with the server's TOOL_CALL_RESULT is one remote-tool step, succeeded (AG-UI states no outcome: the adapter's reading) unless the result carries a status, its text cut to v1's summary bound; a call left without a result has no step; the turn goes on", async () => {
    const server = await serve(
      streams((input) => [
        runStarted(input),
        { type: 'TOOL_CALL_START', toolCallId: 'call_1', toolCallName: 'track_parcel' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '{"order":' },
        { type: 'TOOL_CALL_ARGS', toolCallId: 'call_1', delta: '"1042"}' },
        { type: 'TOOL_CALL_END', toolCallId: 'call_1' },
        { type: 'TOOL_CALL_RESULT', messageId: 'res_1', toolCallId: 'call_1', content: 'In transit, due Thursday', role: 'tool' },
        { type: 'TOOL_CALL_START', toolCallId: 'call_2', toolCallName: 'fetch_invoice' },
        { type: 'TOOL_CALL_END', toolCallId: 'call_2' },
        { type: 'TOOL_CALL_RESULT', messageId: 'res_2', toolCallId: 'call_2', content: 'x'.repeat(5000), role: 'tool' },
        { type: 'TOOL_CALL_START', toolCallId: 'call_3', toolCallName: 'refund' },
        { type: 'TOOL_CALL_END', toolCallId: 'call_3' },
        {
          type: 'TOOL_CALL_RESULT',
          messageId: 'res_3',
          toolCallId: 'call_3',
          content: 'card declined',
          role: 'tool',
          metadata: { papercusp: { status: 'failed' } },
        },
        { type: 'TOOL_CALL_START', toolCallId: 'call_4', toolCallName: 'open_ticket' },
        { type: 'TOOL_CALL_END', toolCallId: 'call_4' },
        ...text('msg_1', 'Due Thursday.'),
        runFinished(input),
      ]),
    );
    expect(await drive(agentFor(server))).toStrictEqual({
      steps: [
        {
          type: 'remote-tool',
          name: 'track_parcel',
          input: { order: '1042' },
          callId: 'call_1',
          outcome: { status: 'succeeded', summary: 'In transit, due Thursday' },
        },
        { type: 'remote-tool', name: 'fetch_invoice', callId: 'call_2', outcome: { status: 'succeeded', summary: `${'x'.repeat(4095)}…` } },
        { type: 'remote-tool', name: 'refund', callId: 'call_3', outcome: { status: 'failed', summary: 'card declined' } },
        { type: 'delta', text: 'Due Thursday.' },
      ],
      completion: {},
    });
  });

  it('a v1 provenance and navigate the run carries (CUSTOM "papercusp.event") are steps of their own', async () => {
    const server = await serve(
      streams((input) => [
        runStarted(input),
        { type: 'CUSTOM', name: 'papercusp.event', value: { type: 'provenance', engine: 'remote', model: 'gpt-x', accountRoute: null } },
        { type: 'CUSTOM', name: 'papercusp.event', value: { type: 'navigate', href: '/orders/1042' } },
        { type: 'CUSTOM', name: 'someone.else', value: { ignored: true } },
        runFinished(input),
      ]),
    );
    expect((await drive(agentFor(server))).steps).toStrictEqual([
      { type: 'provenance', engine: 'remote', model: 'gpt-x', accountRoute: null },
      { type: 'navigate', href: '/orders/1042' },
    ]);
  });
});

describe('createAgUiChatAgent: interrupts as cards, answers through resume (issue 26)', () => {
  it("an interrupt is a prompt-only card (its message, its response schema, declinable), asked once its run has ended; the card's answer starts the next run (runId <turn>.2) with resume, after the thread's messages so far, and the turn goes on; an interrupt already expired is cancelled without a card", async () => {
    const responseSchema = { type: 'object', properties: { text: { type: 'string' } } };
    const interrupted = [
      { id: 'approve_refund', reason: 'approval', message: 'Refund 40 EUR to Ana?', responseSchema },
      { id: 'old_offer', reason: 'offer', message: 'Take the old offer?', expiresAt: '2020-01-01T00:00:00Z' },
    ];
    const server = await serve((run, index) => {
      const { input } = run;
      if (index === 1) {
        for (const event of [runStarted(input), ...text('msg_2', 'Refunded.'), runFinished(input)]) run.send(event);
        run.end();
        return;
      }
      for (const event of [runStarted(input), ...text('msg_1', 'I can refund 40 EUR.')]) run.send(event);
      run.send(runFinished(input, { outcome: { type: 'interrupt', interrupts: interrupted } }));
      // The response ends a moment after the run finished: the turn waits for it (the AG-UI client records the
      // interrupts as the run ends), so the request finishes and is never aborted, however long the moment.
      setTimeout(() => run.end(), 250);
    });
    const result = await drive(agentFor(server), [{ type: 'card-closed', resolution: 'submitted', value: { text: 'yes' } }]);
    expect(result).toStrictEqual({
      steps: [
        { type: 'delta', text: 'I can refund 40 EUR.' },
        { type: 'card', card: { prompt: 'Refund 40 EUR to Ana?', allowDecline: true, dataSchemaJson: responseSchema } },
        { type: 'delta', text: 'Refunded.' },
      ],
      completion: {},
    });
    expect(server.requests).toHaveLength(2);
    expect(await server.requests[0]!.ended).toBe('finished');
    const { input } = server.requests[1]!;
    expect({ threadId: input.threadId, runId: input.runId, resume: input.resume }).toStrictEqual({
      threadId: 'conv_agui',
      runId: 'turn_3.2',
      resume: [
        { interruptId: 'approve_refund', status: 'resolved', payload: { text: 'yes' } },
        { interruptId: 'old_offer', status: 'cancelled' },
      ],
    });
    expect(input.messages.map((message) => [message.role, 'content' in message ? message.content : undefined])).toStrictEqual([
      ['user', 'Where is order 1042?'],
      ['assistant', 'It shipped on Monday.'],
      ['user', 'When will it arrive?'],
      ['assistant', 'I can refund 40 EUR.'],
    ]);
  });

  it("an interrupt naming a card the run carried (a v1 host behind AG-UI, this package's encoder) asks that card; a decline resumes the interrupt cancelled with the decline carried", async () => {
    const card = {
      correlationId: 'card_size',
      createdAt: '2026-12-01T10:00:00.000Z',
      prompt: 'Which size?',
      presentation: {
        kind: 'radio' as const,
        options: [
          { id: 's', label: 'S' },
          { id: 'm', label: 'M' },
        ],
      },
      allowDecline: true,
    };
    // The remote side: a v1 turn that ends waiting on its card, as this package's encoder writes it.
    const remoteTurn = (input: { readonly threadId: string; readonly runId: string }): AgUiServerEvent[] => {
      const encoder = createAgUiEncoder();
      const events: ChatEventEnvelope['event'][] = [
        { type: 'delta', text: 'One moment.' },
        { type: 'card', card },
        { type: 'done', status: 'completed', awaiting: ['card_size'] },
      ];
      return events.flatMap((event, index) => {
        const envelope = {
          schemaVersion: 1 as const,
          conversationId: input.threadId,
          turnId: input.runId,
          eventId: `evt_${index + 1}`,
          seq: index + 1,
          occurredAt: '2026-12-01T10:00:00.000Z',
          event,
        };
        return encoder.encode(envelope).events as unknown as AgUiServerEvent[];
      });
    };
    const server = await serve(streams(remoteTurn, (input) => [runStarted(input), ...text('msg_2', 'No size, then.'), runFinished(input)]));
    const result = await drive(agentFor(server), [{ type: 'card-closed', resolution: 'declined' }]);
    const { correlationId: _correlationId, createdAt: _createdAt, ...asked } = card;
    expect(result).toStrictEqual({
      steps: [
        { type: 'delta', text: 'One moment.' },
        { type: 'card', card: asked },
        { type: 'delta', text: 'No size, then.' },
      ],
      completion: {},
    });
    expect(server.requests[1]!.input.resume).toStrictEqual([
      { interruptId: 'card_size', status: 'cancelled', metadata: { papercusp: { action: 'decline' } } },
    ]);
  });
});

describe('createAgUiChatAgent: how a turn fails (issue 26)', () => {
  it('RUN_ERROR is a fail step with its code and message, not retryable unless the event carries it (metadata.papercusp.retryable, with retryAfterMs); a code that is not a v1 id is ag-ui-run-error; the turn ends', async () => {
    const server = await serve(
      streams(
        (input) => [
          runStarted(input),
          ...text('msg_1', 'Let me check.'),
          { type: 'RUN_ERROR', message: 'The model is overloaded', code: 'model-overloaded' },
        ],
        (input) => [
          runStarted(input),
          {
            type: 'RUN_ERROR',
            message: 'Slow down',
            code: 'rate-limited',
            metadata: { papercusp: { retryable: true, retryAfterMs: 2000 } },
          },
        ],
        (input) => [runStarted(input), { type: 'RUN_ERROR', message: '', code: 'Not an id' }],
      ),
    );
    const agent = agentFor(server);
    expect(await drive(agent)).toStrictEqual({
      steps: [
        { type: 'delta', text: 'Let me check.' },
        { type: 'fail', code: 'model-overloaded', message: 'The model is overloaded', retryable: false },
      ],
      completion: undefined,
    });
    expect((await drive(agent)).steps).toStrictEqual([
      { type: 'fail', code: 'rate-limited', message: 'Slow down', retryable: true, retryAfterMs: 2000 },
    ]);
    expect((await drive(agent)).steps).toStrictEqual([
      { type: 'fail', code: 'ag-ui-run-error', message: 'the AG-UI run failed without a message', retryable: false },
    ]);
  });

  it('a run that finished otherwise than completed is fail ag-ui-run-not-completed; one that ended without RUN_FINISHED or RUN_ERROR is fail ag-ui-run-unfinished, naming the events the decoder refused: never completed', async () => {
    const server = await serve(
      streams(
        (input) => [runStarted(input), runFinished(input, { outcome: { type: 'cancelled' } })],
        (input) => [runStarted(input), { type: 'TEXT_MESSAGE_START', messageId: 'msg_1', role: 'assistant' }],
        (input) => [{ ...runStarted(input), threadId: 'someone_else' }, ...text('msg_1', 'Hello.'), runFinished(input)],
      ),
    );
    const agent = agentFor(server);
    expect((await drive(agent)).steps).toStrictEqual([
      { type: 'fail', code: 'ag-ui-run-not-completed', message: 'the AG-UI run finished cancelled, not completed', retryable: false },
    ]);
    expect((await drive(agent)).steps).toStrictEqual([
      { type: 'fail', code: 'ag-ui-run-unfinished', message: 'the AG-UI run ended without RUN_FINISHED or RUN_ERROR', retryable: false },
    ]);
    expect((await drive(agent)).steps).toStrictEqual([
      {
        type: 'fail',
        code: 'ag-ui-run-unfinished',
        message: 'the AG-UI run ended without RUN_FINISHED or RUN_ERROR (refused events: foreign-thread 1, outside-run 4)',
        retryable: false,
      },
    ]);
  });

  it("an error of the run itself (here the server's HTTP 503) is thrown, for the host to end the turn agent-failed with the error", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = await serve(() => undefined, 503);
    await expect(drive(agentFor(server))).rejects.toThrow('HTTP 503: the agent is down');
  });

  it('createAgUiChatAgent throws TypeError for an agent without clone', () => {
    expect(() => createAgUiChatAgent({ agent: JSON.parse('{}') as AgUiAgentLike })).toThrow(TypeError);
    expect(() => createAgUiChatAgent({ agent: JSON.parse('null') as AgUiAgentLike })).toThrow(TypeError);
  });
});

describe('createAgUiChatAgent: cancellation (issue 26, DESIGN §11.1)', () => {
  // A run that streams its first words and then holds the connection open.
  const slow: AgUiServerScript = (run) => {
    run.send(runStarted(run.input));
    run.send({ type: 'TEXT_MESSAGE_START', messageId: 'msg_1', role: 'assistant' });
    run.send({ type: 'TEXT_MESSAGE_CONTENT', messageId: 'msg_1', delta: 'Working' });
  };

  it("aborting the turn's signal while the generator waits for the server stops the run: the generator returns with no further step and the server sees its request's connection closed", async () => {
    const server = await serve(slow);
    const controller = new AbortController();
    const generator = agentFor(server).run(TURN, contextOf(controller.signal));
    expect(await generator.next()).toStrictEqual({ done: false, value: { type: 'delta', text: 'Working' } });
    const waiting = generator.next();
    controller.abort();
    expect(await waiting).toStrictEqual({ done: true, value: undefined });
    expect(await server.requests[0]!.ended).toBe('closed');
  });

  it("the host's return() while the generator holds a step runs its finally: the run stops and the server sees the connection closed", async () => {
    const server = await serve(slow);
    const generator = agentFor(server).run(TURN, contextOf());
    expect(await generator.next()).toStrictEqual({ done: false, value: { type: 'delta', text: 'Working' } });
    expect(await generator.return(undefined)).toStrictEqual({ done: true, value: undefined });
    expect(await server.requests[0]!.ended).toBe('closed');
  });

  // Any AbstractAgent, here one whose abortRun does nothing: its runs are counted and stream their first events,
  // then never end (unless the last was RUN_FINISHED); each one's teardown (the run unsubscribed from) is recorded.
  function openEndedAgent(first: (input: RunAgentInput) => AgUiServerEvent[], initialised: Promise<void> = Promise.resolve()) {
    const runs: string[] = [];
    const teardowns: string[] = [];
    let tornDown = (): void => undefined;
    const unsubscribed = new Promise<void>((resolve) => (tornDown = resolve));
    class OpenEndedAgent extends AbstractAgent {
      run(input: RunAgentInput): Observable<BaseEvent> {
        return new Observable<BaseEvent>((subscriber) => {
          runs.push(input.runId);
          const events = first(input);
          for (const event of events) subscriber.next(event as unknown as BaseEvent);
          if (events.at(-1)?.type === 'RUN_FINISHED') subscriber.complete();
          return () => {
            teardowns.push(input.runId);
            tornDown();
          };
        });
      }
    }
    const template = new OpenEndedAgent();
    // A subscriber every clone keeps: the run starts once `initialised` resolves.
    template.subscribe({ onRunInitialized: () => initialised });
    return { agent: createAgUiChatAgent({ agent: template }), runs, teardowns, unsubscribed };
  }
  const thinking = (input: RunAgentInput) => [runStarted(input), ...text('msg_1', 'Thinking').slice(0, 2)];

  it('any AbstractAgent, here one whose abortRun does nothing: cancelling the turn unsubscribes from its run (detachActiveRun)', async () => {
    const { agent, teardowns } = openEndedAgent(thinking);
    const controller = new AbortController();
    const generator = agent.run(TURN, contextOf(controller.signal));
    expect(await generator.next()).toStrictEqual({ done: false, value: { type: 'delta', text: 'Thinking' } });
    const waiting = generator.next();
    controller.abort();
    expect(await waiting).toStrictEqual({ done: true, value: undefined });
    expect(teardowns).toStrictEqual(['turn_3']);
  });

  it('a run cancelled before the AbstractAgent could detach it (while it initialises) is unsubscribed from at its first event', async () => {
    let initialise = (): void => undefined;
    const { agent, runs, teardowns, unsubscribed } = openEndedAgent(thinking, new Promise<void>((resolve) => (initialise = resolve)));
    const controller = new AbortController();
    const first = agent.run(TURN, contextOf(controller.signal)).next();
    controller.abort();
    expect(await first).toStrictEqual({ done: true, value: undefined });
    expect(runs).toStrictEqual([]);
    initialise();
    await unsubscribed;
    expect({ runs, teardowns }).toStrictEqual({ runs: ['turn_3'], teardowns: ['turn_3'] });
  });

  it('a turn cancelled while its card is open starts no further run, even when the host goes on with next()', async () => {
    const { agent, runs } = openEndedAgent((input) => [
      runStarted(input),
      runFinished(input, { outcome: { type: 'interrupt', interrupts: [{ id: 'approve', reason: 'approval', message: 'Go ahead?' }] } }),
    ]);
    const controller = new AbortController();
    const generator = agent.run(TURN, contextOf(controller.signal));
    expect(await generator.next()).toStrictEqual({
      done: false,
      value: { type: 'card', card: { prompt: 'Go ahead?', allowDecline: true } },
    });
    controller.abort();
    expect(await generator.next({ type: 'card-closed', resolution: 'cancelled' })).toStrictEqual({ done: true, value: undefined });
    expect(runs).toStrictEqual(['turn_3']);
  });

  it('a turn whose signal is already aborted returns at once and sends no request', async () => {
    const server = await serve(slow);
    const controller = new AbortController();
    controller.abort();
    expect(await drive(agentFor(server), [], contextOf(controller.signal))).toStrictEqual({ steps: [], completion: undefined });
    expect(server.requests).toStrictEqual([]);
  });

  it('each turn runs on its own clone of the agent: cancelling one turn leaves another on the same HttpAgent running to its end', async () => {
    let releaseRuns = (): void => undefined;
    const released = new Promise<void>((resolve) => (releaseRuns = resolve));
    const server = await serve(async (run) => {
      run.send(runStarted(run.input));
      run.send({ type: 'TEXT_MESSAGE_START', messageId: `msg_${run.input.runId}`, role: 'assistant' });
      run.send({ type: 'TEXT_MESSAGE_CONTENT', messageId: `msg_${run.input.runId}`, delta: run.input.runId });
      await released;
      run.send({ type: 'TEXT_MESSAGE_END', messageId: `msg_${run.input.runId}` });
      run.send(runFinished(run.input));
      run.end();
    });
    const agent = agentFor(server);
    const cancelled = new AbortController();
    const first = agent.run({ ...TURN, turnId: 'turn_a' }, contextOf(cancelled.signal));
    const second = agent.run({ ...TURN, turnId: 'turn_b' }, contextOf());
    expect(await first.next()).toStrictEqual({ done: false, value: { type: 'delta', text: 'turn_a' } });
    expect(await second.next()).toStrictEqual({ done: false, value: { type: 'delta', text: 'turn_b' } });
    const waiting = first.next();
    cancelled.abort();
    expect(await waiting).toStrictEqual({ done: true, value: undefined });
    expect(await server.requests[0]!.ended).toBe('closed');
    releaseRuns();
    expect(await second.next()).toStrictEqual({ done: true, value: {} });
    expect(await server.requests[1]!.ended).toBe('finished');
  });
});
