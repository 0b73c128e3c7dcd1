/**
 * The routes the AI SDK's `DefaultChatTransport` expects (`ai` 6), so an
 * unchanged `useChat({ transport: new DefaultChatTransport({ api }) })` talks
 * to the host with `api` = `<host>/v1/ai-sdk/chat`: the POST that starts a
 * turn and answers with its UI message stream, and the resume `GET
 * <api>/:chatId/stream` (chat id = conversation id). It owns reading the AI
 * SDK's request; turns, checks and streams are the use cases' the v1 routes call too.
 */
import type { Hono } from 'hono';
import { readRunningTurn } from '../use-cases/read-state.js';
import { hostRefusalResponse } from './host-responses.js';
import { isJsonObject } from './read-json-body.js';
import { answerPeerPost, streamPeerTurn, type PeerRouteHost, type PeerTurnInput } from './start-peer-turn.js';

/** The `api` path of the AI SDK routes. */
export const AI_SDK_CHAT_PATH = '/v1/ai-sdk/chat';

// The last message must be the person's, made of text parts only (v1 turn input is text); its id is the turn key.
function readUserMessage(body: Record<string, unknown>): PeerTurnInput {
  const { messages, trigger } = body;
  if (trigger !== undefined && trigger !== 'submit-message') {
    return { refusal: `trigger ${JSON.stringify(trigger)}: v1 turns are not regenerated; send a new message` };
  }
  if (!Array.isArray(messages) || messages.length === 0) return { refusal: 'messages: expected the chat messages' };
  const last: unknown = messages[messages.length - 1];
  if (!isJsonObject(last) || last['role'] !== 'user' || typeof last['id'] !== 'string' || last['id'] === '') {
    return { refusal: 'the last message must be the user message, with an id' };
  }
  const parts = last['parts'];
  if (!Array.isArray(parts) || parts.length === 0) return { refusal: 'the user message has no parts' };
  const texts: string[] = [];
  for (const part of parts) {
    if (!isJsonObject(part) || part['type'] !== 'text' || typeof part['text'] !== 'string') {
      return { refusal: 'the user message may hold text parts only' };
    }
    texts.push(part['text']);
  }
  return { turnKey: last['id'], text: texts.join('') };
}

/**
 * Adds `POST /v1/ai-sdk/chat` and `GET /v1/ai-sdk/chat/:conversationId/stream`.
 *
 * Guarantees:
 * - POST: the AI SDK's body `{ id, messages, trigger, messageId }` (extra
 *   body fields are ignored) starts a turn in conversation `id` with the text
 *   of the last message, once per user message id (a resend streams the
 *   turn it started), and answers the turn's UI message stream (`?format=ai-sdk`).
 *   Refusals: `401` before the body is read; `invalid-body` for a body that
 *   is not that shape, a last message that is not the user's text, or a
 *   `regenerate-message` trigger; then whatever `POST /turns` and the events
 *   route answer (404 for a conversation that is not the caller's, 429, …).
 * - GET `/stream` (the transport's `reconnectToStream`): after the host's
 *   checks, the conversation's latest running turn, whichever host process
 *   runs it (read from the store), streamed from its start (the AI SDK
 *   replays a resumed message whole), else `204`.
 */
export function registerAiSdkRoutes(app: Hono, host: PeerRouteHost): void {
  const { runtime, checks } = host;
  app.post(AI_SDK_CHAT_PATH, (hono) =>
    answerPeerPost(hono.req.raw, host, {
      format: 'ai-sdk',
      conversationField: 'id',
      expected: 'the AI SDK chat request { id, messages }',
      read: readUserMessage,
    }),
  );

  app.get(`${AI_SDK_CHAT_PATH}/:conversationId/stream`, async (hono) => {
    const checked = await checks.check(hono, []);
    if (checked instanceof Response) return checked;
    const running = await readRunningTurn(runtime, checked.conversationId);
    if (!running.ok) return hostRefusalResponse(running);
    if (running.value === undefined) return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
    return streamPeerTurn(runtime, hono.req.raw, { ...checked, turnId: running.value }, 'ai-sdk');
  });
}
