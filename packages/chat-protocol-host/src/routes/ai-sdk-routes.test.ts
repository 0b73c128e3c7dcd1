/**
 * `?format=ai-sdk` and the AI SDK's own routes, judged by the AI SDK's own
 * client code over loopback: `AbstractChat` (the engine `useChat` runs) with
 * `DefaultChatTransport`, and `readUIMessageStream` through the transport.
 */
import {
  AbstractChat,
  DefaultChatTransport,
  readUIMessageStream,
  type ChatInit,
  type ChatState,
  type ChatStatus,
  type UIMessage,
} from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auth, call, follow, openTestStore, startHost, startTurn, type Host, type TestStore } from '../loopback-host.testing.js';

let testStore: TestStore;
beforeAll(async () => {
  testStore = await openTestStore();
}, 60_000);
afterAll(() => testStore.close());

// useChat's Chat minus React: the AI SDK's own AbstractChat over a plain state.
class TestChat extends AbstractChat<UIMessage> {
  constructor(options: Omit<ChatInit<UIMessage>, 'messages'> & { readonly initial?: UIMessage[] }) {
    const holder: { messages: UIMessage[] } = { messages: [...(options.initial ?? [])] };
    const state: ChatState<UIMessage> = {
      status: 'ready' as ChatStatus,
      error: undefined,
      get messages() {
        return holder.messages;
      },
      set messages(messages) {
        holder.messages = [...messages];
      },
      pushMessage: (message) => {
        holder.messages = [...holder.messages, message];
      },
      popMessage: () => {
        holder.messages = holder.messages.slice(0, -1);
      },
      replaceMessage: (index, message) => {
        holder.messages = holder.messages.map((existing, at) => (at === index ? message : existing));
      },
      snapshot: (thing) => structuredClone(thing),
    };
    super({ ...options, state });
  }
}

// The AI SDK writes absent optional fields as `undefined`: compare what a JSON reader sees.
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const transportFor = (host: Host, token = 'token-ana') =>
  new DefaultChatTransport({ api: `${host.base}/v1/ai-sdk/chat`, headers: auth(token) });

// Answers the scripted agent's card through the v1 card route as soon as the AI SDK client sees its data part.
const answerCards = (host: Host, conversationId: string) => (part: { type: string; data: unknown }) => {
  if (part.type !== 'data-card') return;
  const { correlationId } = part.data as { correlationId: string };
  void call(host, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, 'token-ana', {
    action: 'submit',
    correlationId,
    value: { confirmed: true },
  });
};

// The assistant message the scripted turn gives an AI SDK reader, as the v1 stream holds it.
async function expectedAssistant(host: Host, conversationId: string, turnId: string, { echoed = false } = {}) {
  const { envelopes } = await follow(host, conversationId, turnId);
  const text = envelopes.flatMap(({ event }) => (event.type === 'delta' ? [event.text] : [])).join('');
  const card = envelopes.find(({ event }) => event.type === 'card');
  if (card?.event.type !== 'card') throw new Error('no card');
  return {
    id: turnId,
    role: 'assistant',
    parts: [
      // The POST's stream leaves out the user_input its client sent; the resume GET replays the whole turn.
      ...(echoed ? [{ type: 'data-user-input', data: { text: 'Refund order 1042', source: 'text_typed' } }] : []),
      { type: 'data-provenance', id: 'provenance', data: { engine: 'scripted', model: 'scripted-refund-1' } },
      { type: 'reasoning', id: `${turnId}:reasoning:1`, text: 'The order qualifies for a refund.', state: 'done' },
      { type: 'text', text: 'Looking into order 1042. ', state: 'done' },
      {
        type: 'tool-issue_refund',
        toolCallId: 'call_refund',
        state: 'output-available',
        input: { orderId: '1042' },
        output: {
          summary: 'refund 1042 issued',
          blocks: [{ kind: 'data', data: { orderId: '1042', refund: 'issued' }, sources: [{ ref: 'order:1042', label: 'Order 1042' }] }],
        },
      },
      // navigate is transient: not part of the message.
      { type: 'data-state', id: 'state', data: { version: 1, snapshot: { orderId: '1042', refund: 'issued', ticket: 'open' } } },
      { type: 'text', text: text.slice('Looking into order 1042. '.length, -'Ticket closed.'.length), state: 'done' },
      { type: 'data-card', id: card.event.card.correlationId, data: card.event.card },
      {
        type: 'data-card-closed',
        id: card.event.card.correlationId,
        data: { correlationId: card.event.card.correlationId, resolution: 'submitted' },
      },
      { type: 'text', text: 'Ticket closed.', state: 'done' },
      { type: 'data-turn-end', data: { stopReason: 'end_turn', usage: { inputTokens: 120, outputTokens: 48, totalTokens: 168 } } },
    ],
  };
}

describe('the AI SDK routes over loopback (DESIGN §11 ?format=ai-sdk, issue 18 host)', () => {
  let host: Host;
  beforeAll(async () => {
    host = await startHost(testStore);
  });

  it("issue 18: the AI SDK's Chat with DefaultChatTransport({ api: '/v1/ai-sdk/chat' }) starts a turn and ends with its UI message: text, reasoning, the tool part, the card's data parts", async () => {
    const conversationId = 'c_ana_aisdk';
    const finished: UIMessage[] = [];
    const chat = new TestChat({
      id: conversationId,
      transport: transportFor(host),
      onData: answerCards(host, conversationId),
      onFinish: ({ message }) => void finished.push(message),
    });
    await chat.sendMessage({ text: 'Refund order 1042' });
    expect(chat.error).toBeUndefined();
    expect(chat.status).toBe('ready');
    const [user, assistant] = chat.messages;
    expect(chat.messages).toHaveLength(2);
    expect(user?.parts).toEqual([{ type: 'text', text: 'Refund order 1042' }]);
    const turnId = assistant?.id ?? '';
    expect(turnId).toMatch(/^turn_[0-9a-f]{32}$/);
    expect(plain(assistant)).toEqual(await expectedAssistant(host, conversationId, turnId));
    expect(finished).toEqual([assistant]);
  });

  it('issue 18: a resend of the same user message starts nothing and streams the turn it started, from its start', async () => {
    const conversationId = 'c_ana_aisdk_resend';
    const transport = transportFor(host);
    const messages: UIMessage[] = [{ id: 'msg_resend', role: 'user', parts: [{ type: 'text', text: 'Refund order 1042' }] }];
    const read = async () => {
      const stream = await transport.sendMessages({
        chatId: conversationId,
        messages,
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      });
      let last: UIMessage | undefined;
      for await (const message of readUIMessageStream({ stream })) {
        last = message;
        const card = message.parts.find((part) => part.type === 'data-card');
        if (card !== undefined && !message.parts.some((part) => part.type === 'data-card-closed'))
          answerCards(host, conversationId)(card as { type: string; data: unknown });
      }
      return last;
    };
    const first = await read();
    const second = await read();
    expect(second).toEqual(first);
    expect(host.effects.filter((id) => id === first?.id)).toHaveLength(1);
  });

  it("issue 18: the AI SDK's resume GET (<api>/:chatId/stream, Chat.resumeStream) streams the conversation's running turn from its start through another host process than the one running it, and answers 204 once it ended", async () => {
    const conversationId = 'c_ana_aisdk_resume';
    const { turnId } = await startTurn(host, conversationId, 'Refund order 1042');
    // A second host on the same store: it holds no run of the turn, as after a reconnect to another process.
    const other = await startHost(testStore);
    // The turn waits for its card: it is running when the client comes back.
    await follow(host, conversationId, turnId, (envelope) => envelope.event.type === 'card');
    const user: UIMessage = { id: 'msg_user', role: 'user', parts: [{ type: 'text', text: 'Refund order 1042' }] };
    const chat = new TestChat({
      id: conversationId,
      transport: transportFor(other),
      onData: answerCards(other, conversationId),
      initial: [user],
    });
    await chat.resumeStream();
    expect(chat.error).toBeUndefined();
    expect(plain(chat.messages)).toEqual([user, await expectedAssistant(host, conversationId, turnId, { echoed: true })]);
    expect(await transportFor(other).reconnectToStream({ chatId: conversationId })).toBeNull();
  });

  it("§10 resumable: ?format=ai-sdk with a cursor streams what follows it, each envelope's last message carrying the v1 cursor as its id", async () => {
    const conversationId = 'c_ana_aisdk_cursor';
    const { turnId } = await startTurn(host, conversationId, 'Refund order 1042');
    const first = await follow(host, conversationId, turnId, (envelope) => envelope.event.type === 'card');
    const card = first.envelopes.at(-1);
    if (card?.event.type !== 'card') throw new Error('no card');
    const events = `${host.base}/v1/conversations/${conversationId}/turns/${turnId}/events`;
    const correlationId = card.event.card.correlationId;
    await call(host, 'POST', `/v1/conversations/${conversationId}/cards/${correlationId}`, 'token-ana', {
      action: 'submit',
      correlationId,
      value: { confirmed: true },
    });
    const raw = await fetch(`${events}?format=ai-sdk&lastEventId=${turnId}:${card.seq}`, { headers: auth('token-ana') });
    expect(raw.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
    const text = await raw.text();
    const ids = [...text.matchAll(/^id: (.*)$/gm)].map((match) => match[1]);
    const rest = await follow(host, conversationId, turnId);
    expect(ids).toEqual(rest.envelopes.filter((envelope) => envelope.seq > card.seq).map((envelope) => `${turnId}:${envelope.seq}`));
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    // The AI SDK's own transport reads the same resumed stream (its reconnect request pointed at the cursor).
    const transport = new DefaultChatTransport({
      api: `${host.base}/v1/ai-sdk/chat`,
      headers: auth('token-ana'),
      prepareReconnectToStreamRequest: () => ({ api: `${events}?format=ai-sdk&lastEventId=${turnId}:${card.seq}` }),
    });
    const stream = await transport.reconnectToStream({ chatId: conversationId });
    if (stream === null) throw new Error('no stream');
    let last: UIMessage | undefined;
    for await (const message of readUIMessageStream({ stream })) last = message;
    expect(plain(last)).toEqual({
      id: turnId,
      role: 'assistant',
      parts: [
        { type: 'data-card-closed', id: correlationId, data: { correlationId, resolution: 'submitted' } },
        { type: 'text', text: 'Ticket closed.', state: 'done' },
        { type: 'data-turn-end', data: { stopReason: 'end_turn', usage: { inputTokens: 120, outputTokens: 48, totalTokens: 168 } } },
      ],
    });
  });

  it("§10 on ?format=: the cursor answers are the v1 route's, unchanged (409 beyond the latest, 204 at the end of a finished turn, 400 for another turn's cursor)", async () => {
    const conversationId = 'c_ana_aisdk_answers';
    const { turnId } = await startTurn(host, conversationId, 'fail please');
    const { envelopes } = await follow(host, conversationId, turnId);
    const last = envelopes.at(-1)?.seq ?? 0;
    const events = `/v1/conversations/${conversationId}/turns/${turnId}/events`;
    for (const format of ['ai-sdk', 'ag-ui']) {
      const beyond = await call(host, 'GET', `${events}?format=${format}&lastEventId=${turnId}:${last + 5}`, 'token-ana');
      expect(beyond).toEqual(await call(host, 'GET', `${events}?lastEventId=${turnId}:${last + 5}`, 'token-ana'));
      expect(beyond).toEqual({ status: 409, body: { code: 'cursor-beyond-latest', lowerBound: 0, latestSeq: last } });
      expect(await call(host, 'GET', `${events}?format=${format}&lastEventId=${turnId}:${last}`, 'token-ana')).toEqual({
        status: 204,
        body: '',
      });
      expect(await call(host, 'GET', `${events}?format=${format}&lastEventId=turn_other:1`, 'token-ana')).toMatchObject({
        status: 400,
        body: { code: 'foreign-turn' },
      });
    }
  });

  it("§11 security on the AI SDK routes: 401 without a bearer, another tenant's conversation answers as a missing one, the stream limit holds, odd input is a typed 400", async () => {
    const body = (id: string, extra: Record<string, unknown> = {}) => ({
      id,
      messages: [{ id: 'msg_1', role: 'user', parts: [{ type: 'text', text: 'Refund order 1042' }] }],
      trigger: 'submit-message',
      ...extra,
    });
    expect(await call(host, 'POST', '/v1/ai-sdk/chat', null, body('c_ana_sec'))).toEqual({
      status: 401,
      body: { code: 'unauthenticated', message: 'a bearer token is required' },
    });
    const missing = await call(host, 'POST', '/v1/ai-sdk/chat', 'token-ana', body('c_nobody_sec'));
    const foreign = await call(host, 'POST', '/v1/ai-sdk/chat', 'token-ana', body('c_bob_sec'));
    expect(missing).toEqual({ status: 404, body: { code: 'not-found', message: 'no such conversation, turn or card' } });
    expect(foreign).toEqual(missing);
    expect(await call(host, 'GET', '/v1/ai-sdk/chat/c_bob_sec/stream', 'token-ana')).toEqual(missing);
    expect(await call(host, 'GET', '/v1/ai-sdk/chat/c_ana_sec/stream', null)).toMatchObject({ status: 401 });
    expect(await call(host, 'GET', '/v1/ai-sdk/chat/c_ana_sec/stream', 'token-ana')).toEqual({ status: 204, body: '' });
    expect(await call(host, 'POST', '/v1/ai-sdk/chat', 'token-ana', body('c_ana_sec', { trigger: 'regenerate-message' }))).toMatchObject({
      status: 400,
      body: { code: 'invalid-body' },
    });
    expect(await call(host, 'POST', '/v1/ai-sdk/chat', 'token-ana', body('../c_ana_sec'))).toMatchObject({
      status: 400,
      body: { code: 'invalid-id' },
    });
    const withFile = body('c_ana_sec', {
      messages: [{ id: 'msg_2', role: 'user', parts: [{ type: 'file', mediaType: 'image/png', url: 'data:,' }] }],
    });
    expect(await call(host, 'POST', '/v1/ai-sdk/chat', 'token-ana', withFile)).toMatchObject({
      status: 400,
      body: { code: 'invalid-body' },
    });
    const { turnId } = await startTurn(host, 'c_ana_sec', 'Refund order 1042');
    expect(await call(host, 'GET', `/v1/conversations/c_ana_sec/turns/${turnId}/events?format=ai-sdk2`, 'token-ana')).toEqual({
      status: 400,
      body: { code: 'unsupported-format', message: 'format: expected v1, ag-ui or ai-sdk' },
    });
    expect(await call(host, 'GET', `/v1/conversations/c_bob_sec/turns/${turnId}/events?format=ai-sdk`, 'token-ana')).toEqual(missing);
  });

  it('§11 the stream limit counts the AI SDK streams: past maxStreamsPerCaller the POST is 429 too-many-streams', async () => {
    const limited = await startHost(testStore, {}, { maxStreamsPerCaller: 1 });
    const conversationId = 'c_ana_aisdk_limit';
    const { turnId } = await startTurn(limited, conversationId, 'Refund order 1042');
    const controller = new AbortController();
    const open = await fetch(`${limited.base}/v1/conversations/${conversationId}/turns/${turnId}/events?format=ai-sdk`, {
      headers: auth('token-ana'),
      signal: controller.signal,
    });
    expect(open.status).toBe(200);
    const refused = await call(limited, 'POST', '/v1/ai-sdk/chat', 'token-ana', {
      id: conversationId,
      messages: [{ id: 'msg_limit', role: 'user', parts: [{ type: 'text', text: 'Refund order 1042' }] }],
      trigger: 'submit-message',
    });
    expect(refused).toEqual({ status: 429, body: { code: 'too-many-streams', message: 'this caller holds too many open streams' } });
    controller.abort();
  });
});
