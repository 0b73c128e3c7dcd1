/**
 * The page's calls to the host's routes (DESIGN §11) with the person's bearer
 * token: read the conversation (`GET /state`), start a turn (`POST /turns`
 * with `Idempotency-Key`, resent with the same client turn id after a network
 * failure, as recovery's delivery model asks), cancel it, answer a card.
 * Answers come back as values, never throws.
 */
import type { CardValue } from '@papercusp/chat-protocol-core';
import { IDEMPOTENCY_KEY_HEADER, createTurnId } from '@papercusp/chat-protocol-recovery';
import { field, readConversationSnapshot, type ConversationSnapshot } from './conversation-snapshot.js';

/** Who the page is and which conversation it shows: read from its form, kept in memory only. */
export interface PageSession {
  readonly conversationId: string;
  readonly token: string;
}

/** The host's answer, or the network's failure. */
export type HostAnswer =
  { readonly ok: true; readonly status: number; readonly body: unknown } | { readonly ok: false; readonly message: string };

/** The URL of a conversation route on the host that served the page. */
export function conversationUrl(session: PageSession, path: string): string {
  return `${location.origin}/v1/conversations/${encodeURIComponent(session.conversationId)}${path}`;
}

/** The headers every route needs. */
export function authorization(session: PageSession): Record<string, string> {
  return { authorization: `Bearer ${session.token}` };
}

async function send(session: PageSession, path: string, init: RequestInit): Promise<HostAnswer> {
  try {
    const response = await fetch(conversationUrl(session, path), init);
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the status says enough
    }
    return { ok: true, status: response.status, body: parsed };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : 'network error' };
  }
}

const post = (session: PageSession, path: string, body: unknown, headers: Record<string, string> = {}): Promise<HostAnswer> =>
  send(session, path, {
    method: 'POST',
    headers: { ...authorization(session), 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** Says what a refusal was: the host's `code` and `message`. */
export function describeRefusal(answer: HostAnswer): string {
  if (!answer.ok) return `The host could not be reached: ${answer.message}`;
  return `The host answered ${answer.status}: ${String(field(answer.body, 'code') ?? 'error')} (${String(field(answer.body, 'message') ?? '')})`;
}

/**
 * Starts a turn once: the client turn id is minted once and sent on every
 * attempt, so a resend after a lost answer finds the same turn (`409
 * turn-in-flight` or `turn-already-processed` carry its `turnId`).
 */
export async function startTurn(
  session: PageSession,
  text: string,
  attempts = 3,
): Promise<{ readonly ok: true; readonly turnId: string } | { readonly ok: false; readonly message: string }> {
  const clientTurnId = createTurnId();
  let answer: HostAnswer = { ok: false, message: 'not sent' };
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    answer = await post(session, '/turns', { clientTurnId, text }, { [IDEMPOTENCY_KEY_HEADER]: clientTurnId });
    if (answer.ok || attempt + 1 === attempts) break;
    await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
  }
  const turnId = answer.ok ? field(answer.body, 'turnId') : undefined;
  const code = answer.ok ? field(answer.body, 'code') : undefined;
  const accepted = answer.ok && (answer.status === 202 || code === 'turn-in-flight' || code === 'turn-already-processed');
  return accepted && typeof turnId === 'string' ? { ok: true, turnId } : { ok: false, message: describeRefusal(answer) };
}

/** Asks the host to cancel the turn (`POST /turns/:turnId/cancel`). */
export function cancelTurn(session: PageSession, turnId: string): Promise<HostAnswer> {
  return post(session, `/turns/${encodeURIComponent(turnId)}/cancel`, {});
}

/** Sends a card answer (`POST /cards/:correlationId`); the bearer's authority, never the body's. */
export function answerCard(
  session: PageSession,
  response: { readonly action: 'submit' | 'decline'; readonly correlationId: string; readonly value?: CardValue },
): Promise<HostAnswer> {
  return post(session, `/cards/${encodeURIComponent(response.correlationId)}`, response);
}

/** Reads the conversation (`GET /state`): its snapshot, or the message saying why not. */
export async function readConversation(
  session: PageSession,
): Promise<{ readonly ok: true; readonly snapshot: ConversationSnapshot } | { readonly ok: false; readonly message: string }> {
  const answer = await send(session, '/state', { headers: authorization(session) });
  if (!answer.ok || answer.status !== 200) return { ok: false, message: describeRefusal(answer) };
  const snapshot = readConversationSnapshot(answer.body, session.conversationId);
  return snapshot === null ? { ok: false, message: 'The host answered a conversation the page cannot read.' } : { ok: true, snapshot };
}
