/**
 * Issue 26, OpenTelemetry spans (DESIGN §11.1), through real hosts over loopback on PGlite with the SDK's
 * in-memory exporter: the exact span tree of the scripted agent's turn (its tool, its card wait, every store
 * call), never a text of the turn in it, ERROR on an agent that throws, a failing store and a `fail` step, the
 * default tracer, a host whose api has no SDK, and, with a context manager, the caller's trace and active spans.
 */
import type { ChatEventEnvelope } from '@papercusp/chat-protocol-core';
import * as openTelemetryApi from '@opentelemetry/api';
import { SpanStatusCode, context, trace, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatAgent } from '../chat-agent.js';
import type { ChatHostEvent } from '../chat-host-event.js';
import { auth, call, cardOf, follow, openTestStore, startHost, startTurn, type TestStore } from '../loopback-host.testing.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('chat-host-test');

let testStore: TestStore;
beforeAll(async () => {
  testStore = await openTestStore();
}, 60_000);
afterAll(async () => {
  await provider.shutdown();
  await testStore.close();
});

/** A span as the tree shows it: its name, attributes, ERROR message and children in the order they started. */
interface SpanNode {
  readonly name: string;
  readonly attributes: Attributes;
  readonly error?: string;
  readonly children: readonly SpanNode[];
}

const spansOf = (turnId: string): ReadableSpan[] =>
  exporter.getFinishedSpans().filter((span) => span.attributes['chat.turn.id'] === turnId);

// The turn's spans once its `chat.turn` span ended (after the terminal frame a follower sees).
async function endedSpansOf(turnId: string): Promise<ReadableSpan[]> {
  await vi.waitFor(
    () => {
      if (!spansOf(turnId).some((span) => span.name === 'chat.turn')) throw new Error('the turn span has not ended');
    },
    { timeout: 5000 },
  );
  return spansOf(turnId);
}

// The spans as trees: each root (no parent among them) with its children, siblings in the order they started.
function spanTree(spans: readonly ReadableSpan[]): SpanNode[] {
  const started = [...spans].sort((one, other) => one.startTime[0] - other.startTime[0] || one.startTime[1] - other.startTime[1]);
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const node = (span: ReadableSpan): SpanNode => ({
    name: span.name,
    attributes: span.attributes,
    ...(span.status.code === SpanStatusCode.ERROR ? { error: span.status.message ?? '' } : {}),
    children: started.filter((child) => child.parentSpanContext?.spanId === span.spanContext().spanId).map(node),
  });
  return started.filter((span) => !ids.has(span.parentSpanContext?.spanId ?? '')).map(node);
}

// The expected spans of one turn.
function expectedSpans(conversationId: string, turnId: string) {
  const ids = { 'chat.conversation.id': conversationId, 'chat.turn.id': turnId };
  const span = (name: string, attributes: Attributes, children: SpanNode[] = [], error?: string): SpanNode => ({
    name,
    attributes: { ...ids, ...attributes },
    ...(error === undefined ? {} : { error }),
    children,
  });
  const store = (operation: string, attributes: Attributes = {}, outcome = 'ok', error?: string): SpanNode =>
    span(`chat.store.${operation}`, { 'chat.store.operation': operation, ...attributes, 'chat.store.outcome': outcome }, [], error);
  const append = (seq: number, type: string, outcome = 'ok', error?: string): SpanNode =>
    store('append-frame', { 'chat.event.seq': seq, 'chat.event.type': type }, outcome, error);
  return { span, store, append };
}

// Every text a turn's frames carry: the person's input, the agent's deltas and reasoning, tool input and output, card prompts.
function textsOf(envelopes: readonly ChatEventEnvelope[]): string[] {
  return envelopes.flatMap(({ event }) => {
    switch (event.type) {
      case 'user_input':
      case 'delta':
      case 'reasoning':
        return [event.text];
      case 'tool_call':
        return event.input === undefined ? [] : [JSON.stringify(event.input)];
      case 'tool_result':
        return event.summary === undefined ? [] : [event.summary, JSON.stringify(event.blocks)];
      case 'card':
        return [event.card.prompt];
      case 'error':
        return [event.message];
      default:
        return [];
    }
  });
}

// Every attribute value of the spans and of their events, as strings.
const valuesOf = (spans: readonly ReadableSpan[]): string[] =>
  spans.flatMap((span) =>
    [span.attributes, ...span.events.map((event) => event.attributes ?? {})].flatMap((attributes) => Object.values(attributes).map(String)),
  );

describe('OpenTelemetry spans of a turn (issue 26, DESIGN §11.1)', () => {
  it('a scripted turn is one chat.turn span with a chat.tool, a chat.card and a chat.store span per store call, under explicit parents and without a context manager', async () => {
    const host = await startHost(testStore, { deltaLength: 10_000 }, { cardPollMs: 600_000, openTelemetry: { trace, context, tracer } });
    const conversationId = 'c_ana_otel_scripted';
    const { turnId } = await startTurn(host, conversationId, 'refund please');
    const first = await follow(host, conversationId, turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    // Answered once the run read its card as pending: two reads, whatever the timing.
    await vi.waitFor(() => expect(spansOf(turnId).filter((span) => span.name === 'chat.store.read-card')).toHaveLength(1));
    const body = { action: 'submit', correlationId, value: { confirmed: true } };
    expect((await call(host, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, 'token-ana', body)).status).toBe(200);
    const rest = await follow(host, conversationId, turnId);
    expect(rest.state?.turns[0]?.status).toBe('completed');
    const spans = await endedSpansOf(turnId);

    const { span, store, append } = expectedSpans(conversationId, turnId);
    expect(spanTree(spans)).toEqual([
      span('chat.turn', { 'chat.turn.status': 'completed' }, [
        append(1, 'user_input'),
        store('read-history'),
        append(2, 'provenance'),
        append(3, 'reasoning'),
        append(4, 'delta'),
        span(
          'chat.tool',
          {
            'chat.tool.call_id': 'call_refund',
            'chat.tool.name': 'issue_refund',
            'chat.tool.external_effect': true,
            'chat.effect.id': `effect_${turnId}_1`,
            'chat.tool.launched': true,
            'chat.tool.status': 'succeeded',
          },
          [store('declare-effect'), append(5, 'tool_call'), store('claim-effect'), store('dispatch-effect'), append(6, 'tool_result')],
        ),
        append(7, 'state'),
        append(8, 'navigate'),
        append(9, 'delta'),
        append(10, 'delta'),
        append(11, 'delta'),
        span('chat.card', { 'chat.card.correlation_id': correlationId, 'chat.card.kind': 'confirm', 'chat.card.resolution': 'submitted' }, [
          store('open-card'),
          append(12, 'card'),
          store('read-card'),
          store('read-card'),
          append(13, 'card_closed'),
        ]),
        append(14, 'delta'),
        append(15, 'done'),
        store('finish-turn'),
      ]),
    ]);
    const root = spans.find((each) => each.name === 'chat.turn');
    expect(root?.parentSpanContext).toBeUndefined();
    expect(new Set(spans.map((each) => each.spanContext().traceId))).toEqual(new Set([root?.spanContext().traceId]));
    expect(spans.map((each) => each.instrumentationScope.name)).toEqual(spans.map(() => 'chat-host-test'));
  });

  it('no span attribute carries a text of the turn: not the person input, a delta, the reasoning, tool input or output, a card prompt', async () => {
    const host = await startHost(testStore, {}, { cardPollMs: 200, openTelemetry: { trace, context, tracer } });
    const conversationId = 'c_ana_otel_no_text';
    const { turnId } = await startTurn(host, conversationId, 'please refund order 1042 for Ana');
    const first = await follow(host, conversationId, turnId, (envelope) => envelope.event.type === 'card');
    const correlationId = cardOf(first.envelopes);
    await call(host, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: true },
    });
    const { envelopes } = await follow(host, conversationId, turnId);
    const spans = await endedSpansOf(turnId);
    const texts = textsOf(envelopes);
    expect(texts).toContain('please refund order 1042 for Ana');
    const values = valuesOf(spans);
    // A delta is 8 characters but the last of each text, which can be as short as '. ': those are looked for whole,
    // since a random id may hold them by chance.
    const carried = (text: string) => values.some((value) => (text.length < 8 ? value === text : value.includes(text)));
    expect(texts.filter(carried)).toEqual([]);
  });

  it('an agent that throws ends the turn span with ERROR agent-failed and the error recorded, after the agent-failed frame', async () => {
    const agentError = new Error('boom');
    const agent: ChatAgent = {
      async *run() {
        yield { type: 'delta', text: 'thinking it over' };
        throw agentError;
      },
    };
    const host = await startHost(testStore, {}, { agent, openTelemetry: { trace, context, tracer } });
    const conversationId = 'c_ana_otel_throw';
    const { turnId } = await startTurn(host, conversationId, 'explode');
    const { envelopes } = await follow(host, conversationId, turnId);
    const spans = await endedSpansOf(turnId);

    const { span, store, append } = expectedSpans(conversationId, turnId);
    expect(spanTree(spans)).toEqual([
      span(
        'chat.turn',
        { 'chat.turn.status': 'failed', 'chat.turn.error_code': 'agent-failed' },
        [append(1, 'user_input'), store('read-history'), append(2, 'delta'), append(3, 'error'), store('finish-turn')],
        'agent-failed',
      ),
    ]);
    const root = spans.find((each) => each.name === 'chat.turn');
    expect(
      root?.events.map((event) => [event.name, event.attributes?.['exception.type'], event.attributes?.['exception.message']]),
    ).toEqual([['exception', 'Error', 'boom']]);
    expect(textsOf(envelopes).filter((text) => valuesOf(spans).some((value) => value.includes(text)))).toEqual([]);
  });

  it.each([
    ['throws', 'threw', 'store-threw'],
    ['answers store-unavailable', 'store-unavailable', 'store-unavailable'],
  ])(
    'an append that %s is a chat.store.append-frame span with ERROR, a store-unavailable event, and a stopped turn span with ERROR',
    async (_how, outcome, error) => {
      const storeError = new Error('connection reset');
      const { eventLog } = testStore.store;
      const failing = {
        ...eventLog,
        append: async (envelope: ChatEventEnvelope) => {
          if (envelope.seq < 2) return eventLog.append(envelope);
          if (outcome === 'threw') throw storeError;
          return { ok: false, code: 'store-unavailable', message: 'the store is down' } as const;
        },
      };
      const events: ChatHostEvent[] = [];
      const host = await startHost(
        { ...testStore, store: { ...testStore.store, eventLog: failing } },
        {},
        { onEvent: (event) => void events.push(event), openTelemetry: { trace, context, tracer } },
      );
      const conversationId = `c_ana_otel_store_${outcome.replace('-', '_')}`;
      const { turnId } = await startTurn(host, conversationId, 'refund please');
      const spans = await endedSpansOf(turnId);

      const { span, store, append } = expectedSpans(conversationId, turnId);
      expect(spanTree(spans)).toEqual([
        span(
          'chat.turn',
          { 'chat.turn.status': 'stopped' },
          [append(1, 'user_input'), store('read-history'), append(2, 'provenance', outcome, error)],
          'stopped',
        ),
      ]);
      const failed = spans.find((each) => each.attributes['chat.event.seq'] === 2);
      expect(failed?.events.map((event) => event.attributes?.['exception.message'])).toEqual(
        outcome === 'threw' ? ['connection reset'] : [],
      );
      expect(events.filter((event) => event.type === 'store-unavailable')).toEqual([
        { type: 'store-unavailable', conversationId, turnId, operation: 'append-frame' },
      ]);
    },
  );

  it('an api without an SDK registered makes every span a no-op: the turn runs as without openTelemetry', async () => {
    const host = await startHost(testStore, {}, { openTelemetry: openTelemetryApi });
    const conversationId = 'c_ana_otel_no_sdk';
    const { turnId } = await startTurn(host, conversationId, 'fail please');
    const { envelopes } = await follow(host, conversationId, turnId);
    expect(envelopes.at(-1)?.event).toMatchObject({ type: 'error', code: 'provider-unavailable' });
    expect(spansOf(turnId)).toEqual([]);
  });

  it('the default tracer is the global provider one, named @papercusp/chat-protocol-host; a fail step ends the turn span with ERROR and its code', async () => {
    trace.setGlobalTracerProvider(provider);
    try {
      const host = await startHost(testStore, {}, { openTelemetry: { trace, context } });
      const conversationId = 'c_ana_otel_default_tracer';
      const { turnId } = await startTurn(host, conversationId, 'fail please');
      await follow(host, conversationId, turnId);
      const spans = await endedSpansOf(turnId);
      expect(new Set(spans.map((span) => span.instrumentationScope.name))).toEqual(new Set(['@papercusp/chat-protocol-host']));
      const [root] = spanTree(spans);
      expect(root && { ...root, children: root.children.length }).toEqual({
        name: 'chat.turn',
        attributes: {
          'chat.conversation.id': conversationId,
          'chat.turn.id': turnId,
          'chat.turn.status': 'failed',
          'chat.turn.error_code': 'provider-unavailable',
        },
        error: 'provider-unavailable',
        // user_input, the history, the two deltas of 'Let me check. ', the error and the turn's finish.
        children: 6,
      });
    } finally {
      trace.disable();
    }
  });
});

describe('OpenTelemetry spans with a context manager (issue 26, DESIGN §11.1)', () => {
  const contextManager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(contextManager.enable());
  });
  afterAll(() => {
    context.disable();
  });

  it('a turn begun inside an active span is its child, and the agent, a tool execute and each store call run with their span active', async () => {
    const active: { agent?: string | undefined; tool?: string | undefined } = {};
    const activeInAppends: (string | undefined)[] = [];
    const { eventLog } = testStore.store;
    const watched = {
      ...eventLog,
      append: (envelope: ChatEventEnvelope) => {
        activeInAppends.push(trace.getActiveSpan()?.spanContext().spanId);
        return eventLog.append(envelope);
      },
    };
    const agent: ChatAgent = {
      tools: [
        {
          name: 'lookup',
          externalEffect: false,
          execute: async () => {
            await new Promise((resolve) => setTimeout(resolve, 1));
            active.tool = trace.getActiveSpan()?.spanContext().spanId;
            return { summary: 'found' };
          },
        },
      ],
      async *run() {
        await new Promise((resolve) => setTimeout(resolve, 1));
        active.agent = trace.getActiveSpan()?.spanContext().spanId;
        yield { type: 'tool', name: 'lookup', input: { q: 'x' } };
      },
    };
    const host = await startHost(
      { ...testStore, store: { ...testStore.store, eventLog: watched } },
      {},
      { agent, openTelemetry: { trace, context, tracer } },
    );
    const conversationId = 'c_ana_otel_active';
    const clientTurnId = createTurnId();
    const request = new Request(`${host.base}/v1/conversations/${conversationId}/turns`, {
      method: 'POST',
      headers: { ...auth('token-ana'), 'content-type': 'application/json', 'Idempotency-Key': clientTurnId },
      body: JSON.stringify({ clientTurnId, text: 'look it up' }),
    });
    // The app's own span around the request, as its HTTP instrumentation would make it.
    const outer = tracer.startSpan('POST /turns');
    const answer = await context.with(trace.setSpan(context.active(), outer), () => host.handler(request));
    outer.end();
    const { turnId } = (await answer.json()) as { turnId: string };
    await follow(host, conversationId, turnId);
    const spans = await endedSpansOf(turnId);
    const turnSpan = spans.find((span) => span.name === 'chat.turn');
    const toolSpan = spans.find((span) => span.name === 'chat.tool');
    expect(turnSpan?.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(turnSpan?.spanContext().traceId).toBe(outer.spanContext().traceId);
    expect(toolSpan?.parentSpanContext?.spanId).toBe(turnSpan?.spanContext().spanId);
    expect(active).toEqual({ agent: turnSpan?.spanContext().spanId, tool: toolSpan?.spanContext().spanId });
    const appendSpans = spans.filter((span) => span.name === 'chat.store.append-frame').map((span) => span.spanContext().spanId);
    expect(appendSpans).toHaveLength(4);
    expect(activeInAppends).toEqual(appendSpans);
    expect(toolSpan?.attributes).toMatchObject({
      'chat.tool.external_effect': false,
      'chat.tool.launched': true,
      'chat.tool.status': 'succeeded',
    });
  });
});
