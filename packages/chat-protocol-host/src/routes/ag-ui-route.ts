/**
 * The route AG-UI's `HttpAgent` expects (`@ag-ui/client` 1.0): it POSTs a
 * `RunAgentInput` to its `url` and reads the run's events as SSE. With `url`
 * = `<host>/v1/ag-ui`, one AG-UI run is one v1 turn of conversation
 * `threadId`. It owns reading the AG-UI request; turns, checks and streams
 * are the use cases' the v1 routes call too.
 */
import type { Hono } from 'hono';
import { isJsonObject } from './read-json-body.js';
import { answerPeerPost, type PeerRouteHost, type PeerTurnInput } from './start-peer-turn.js';

/** The path `HttpAgent`'s `url` names. */
export const AG_UI_RUN_PATH = '/v1/ag-ui';

// AG-UI user content is a string or input parts; v1 turn input is text, so only text parts are read.
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts: string[] = [];
  for (const part of content) {
    if (!isJsonObject(part) || part['type'] !== 'text' || typeof part['text'] !== 'string') return undefined;
    texts.push(part['text']);
  }
  return texts.join('');
}

function readRunInput(body: Record<string, unknown>): PeerTurnInput {
  const { runId, messages, resume } = body;
  if (typeof runId !== 'string' || runId === '') return { refusal: 'runId: expected the run id' };
  // Resume entries answer the interrupts of a run that ended waiting; this host's turns wait for cards in-run.
  if (Array.isArray(resume) && resume.length > 0) return { refusal: 'resume: answer cards with POST /cards/:correlationId' };
  if (!Array.isArray(messages) || messages.length === 0) return { refusal: 'messages: expected the thread messages' };
  const last: unknown = messages[messages.length - 1];
  const text = isJsonObject(last) && last['role'] === 'user' ? textOf(last['content']) : undefined;
  if (text === undefined) return { refusal: 'the last message must be a user message of text' };
  return { turnKey: runId, text };
}

/**
 * Adds `POST /v1/ag-ui`.
 *
 * Guarantees: `401` before the body is read; a `RunAgentInput` whose
 * `threadId` is a conversation id and whose last message is the person's text
 * starts a turn once per `runId` (a resend streams the turn it started) and
 * answers its AG-UI events (`?format=ag-ui`): one `RUN_STARTED` … `RUN_FINISHED`
 * (or `RUN_ERROR`) with `runId` = the host's turn id. Refusals: `invalid-id`
 * (`threadId`), `invalid-body` (not that shape, non-text content, or `resume`
 * entries), then whatever `POST /turns` and the events route answer (404
 * for a conversation that is not the caller's, 429, …). `state`, `tools`,
 * `context` and `forwardedProps` are not read.
 */
export function registerAgUiRoute(app: Hono, host: PeerRouteHost): void {
  app.post(AG_UI_RUN_PATH, (hono) =>
    answerPeerPost(hono.req.raw, host, {
      format: 'ag-ui',
      conversationField: 'threadId',
      expected: 'an AG-UI RunAgentInput',
      read: readRunInput,
    }),
  );
}
