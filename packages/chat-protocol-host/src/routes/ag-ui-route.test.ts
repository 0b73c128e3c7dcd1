/**
 * `?format=ag-ui` and the route AG-UI's `HttpAgent` posts to, judged by
 * AG-UI's own client code over loopback: `HttpAgent.runAgent` (its HTTP
 * request, SSE parser, `verifyEvents` and `defaultApplyEvents`), and every
 * event checked against `@ag-ui/core`'s `EventSchemas`.
 */
import { HttpAgent, runHttpRequest, transformHttpEventStream, verifyEvents, type BaseEvent, type Message } from '@ag-ui/client';
import { EventSchemas } from '@ag-ui/core/schemas';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, call, follow, openTestStore, startHost, startTurn, type Host, type TestStore } from '../loopback-host.testing.js';

let testStore: TestStore;
beforeAll(async () => {
  testStore = await openTestStore();
}, 60_000);
afterAll(() => testStore.close());

const answerCard = (host: Host, conversationId: string, correlationId: string) =>
  call(host, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, 'token-ana', {
    action: 'submit',
    correlationId,
    value: { confirmed: true },
  });

// What the client's messages say, by role (ids are the encoder's).
const summary = (messages: readonly Message[]) => ({
  user: messages.flatMap((message) => (message.role === 'user' ? [message.content] : [])),
  assistantText: messages.map((message) => (message.role === 'assistant' ? (message.content ?? '') : '')).join(''),
  reasoning: messages.map((message) => (message.role === 'reasoning' ? message.content : '')).join(''),
  toolCalls: messages.flatMap((message) =>
    message.role === 'assistant'
      ? (message.toolCalls ?? []).map((toolCall) => ({
          id: toolCall.id,
          name: toolCall.function.name,
          arguments: toolCall.function.arguments,
        }))
      : [],
  ),
  toolResults: messages.flatMap((message) =>
    message.role === 'tool' ? [{ toolCallId: message.toolCallId, content: message.content }] : [],
  ),
});

const refusedBySchemas = (events: readonly unknown[]) =>
  events.flatMap((event, index) => (EventSchemas.safeParse(event).success ? [] : [{ index, event }]));

describe('the AG-UI route over loopback (DESIGN §11 ?format=ag-ui, issue 18 host)', () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost(testStore);
  });

  it("issue 18: AG-UI's HttpAgent (url '/v1/ag-ui') runs a turn: its verifyEvents accepts the stream, every event passes EventSchemas, and its messages hold the turn's text, reasoning, tool call and result", async () => {
    const conversationId = 'c_ana_agui';
    const agent = new HttpAgent({ url: `${host.base}/v1/ag-ui`, headers: auth('token-ana'), threadId: conversationId });
    agent.addMessage({ id: 'msg_user', role: 'user', content: 'Refund order 1042' });
    const events: BaseEvent[] = [];
    await agent.runAgent(
      { runId: 'run_1' },
      {
        onEvent: ({ event }) => void events.push(event),
        onCustomEvent: ({ event }) => {
          const carried = event.value as { type?: string; card?: { correlationId: string } };
          if (carried.type === 'card' && carried.card !== undefined) void answerCard(host, conversationId, carried.card.correlationId);
        },
      },
    );
    expect(refusedBySchemas(events)).toStrictEqual([]);
    const started = events[0];
    expect(started).toMatchObject({ type: 'RUN_STARTED', threadId: conversationId });
    const turnId = (started as unknown as { runId: string }).runId;
    expect(events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', threadId: conversationId, runId: turnId, outcome: { type: 'success' } });
    const { envelopes } = await follow(host, conversationId, turnId);
    const text = envelopes.flatMap(({ event }) => (event.type === 'delta' ? [event.text] : [])).join('');
    expect(summary(agent.messages)).toStrictEqual({
      // The client's own message only: the POST's stream leaves out the turn's user_input it would echo.
      user: ['Refund order 1042'],
      assistantText: text,
      reasoning: 'The order qualifies for a refund.',
      toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: '{"orderId":"1042"}' }],
      toolResults: [{ toolCallId: 'call_refund', content: 'refund 1042 issued' }],
    });
  });

  it('§10 resumable: ?format=ag-ui with a cursor streams what follows it as a fresh run that AG-UI verifyEvents accepts; the last message of each envelope carries the v1 cursor', async () => {
    const conversationId = 'c_ana_agui_cursor';
    const { turnId } = await startTurn(host, conversationId, 'Refund order 1042');
    const first = await follow(host, conversationId, turnId, (envelope) => envelope.event.type === 'card');
    const card = first.envelopes.at(-1);
    if (card?.event.type !== 'card') throw new Error('no card');
    await answerCard(host, conversationId, card.event.card.correlationId);
    const url = `${host.base}/v1/conversations/${conversationId}/turns/${turnId}/events?format=ag-ui&lastEventId=${turnId}:${card.seq}`;
    // AG-UI's own HTTP pipeline: request, SSE parsing, then its sequencing rules.
    const events = await lastValueFrom(
      transformHttpEventStream(runHttpRequest(() => fetch(url, { headers: auth('token-ana') }))).pipe(verifyEvents(false), toArray()),
    );
    expect(refusedBySchemas(events)).toStrictEqual([]);
    expect(events.map((event) => event.type)).toStrictEqual([
      'RUN_STARTED',
      'CUSTOM',
      'TEXT_MESSAGE_START',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_CONTENT',
      'TEXT_MESSAGE_END',
      'RUN_FINISHED',
    ]);
    const raw = await (await fetch(url, { headers: auth('token-ana') })).text();
    const rest = await follow(host, conversationId, turnId);
    expect([...raw.matchAll(/^id: (.*)$/gm)].map((match) => match[1])).toStrictEqual(
      rest.envelopes.filter((envelope) => envelope.seq > card.seq).map((envelope) => `${turnId}:${envelope.seq}`),
    );
  });

  it("§11 security on the AG-UI route: 401 without a bearer, another tenant's thread answers as a missing one, odd input is a typed 400", async () => {
    const input = (threadId: string, extra: Record<string, unknown> = {}) => ({
      threadId,
      runId: 'run_sec',
      state: {},
      messages: [{ id: 'msg_1', role: 'user', content: 'Refund order 1042' }],
      tools: [],
      context: [],
      forwardedProps: {},
      ...extra,
    });
    expect(await call(host, 'POST', '/v1/ag-ui', null, input('c_ana_agui_sec'))).toStrictEqual({
      status: 401,
      body: { code: 'unauthenticated', message: 'a bearer token is required' },
    });
    const missing = await call(host, 'POST', '/v1/ag-ui', 'token-ana', input('c_nobody_sec'));
    expect(missing).toStrictEqual({ status: 404, body: { code: 'not-found', message: 'no such conversation, turn or card' } });
    expect(await call(host, 'POST', '/v1/ag-ui', 'token-ana', input('c_bob_sec'))).toStrictEqual(missing);
    expect(await call(host, 'POST', '/v1/ag-ui', 'token-ana', input('c/../x'))).toMatchObject({
      status: 400,
      body: { code: 'invalid-id' },
    });
    const assistantLast = input('c_ana_agui_sec', { messages: [{ id: 'msg_2', role: 'assistant', content: 'hi' }] });
    expect(await call(host, 'POST', '/v1/ag-ui', 'token-ana', assistantLast)).toMatchObject({
      status: 400,
      body: { code: 'invalid-body' },
    });
    const withResume = input('c_ana_agui_sec', { resume: [{ interruptId: 'card_1', status: 'cancelled' }] });
    expect(await call(host, 'POST', '/v1/ag-ui', 'token-ana', withResume)).toMatchObject({ status: 400, body: { code: 'invalid-body' } });
    const image = input('c_ana_agui_sec', {
      messages: [{ id: 'msg_3', role: 'user', content: [{ type: 'image', source: { type: 'url', value: 'https://x.test/a.png' } }] }],
    });
    expect(await call(host, 'POST', '/v1/ag-ui', 'token-ana', image)).toMatchObject({ status: 400, body: { code: 'invalid-body' } });
    const { turnId } = await startTurn(host, 'c_ana_agui_sec', 'Refund order 1042');
    expect(await call(host, 'GET', `/v1/conversations/c_bob_sec/turns/${turnId}/events?format=ag-ui`, 'token-ana')).toStrictEqual(missing);
  });
});
