/**
 * Requests to a running reference host over loopback HTTP, as a client sends
 * them: a bearer token, a JSON body, a turn started with its `Idempotency-Key`,
 * a turn's event stream followed through the transport's `followChatTurn`.
 * The host's loopback tests and the `chat-protocol-host` command's tests share
 * them; starting a host is each package's own (an in-process server, the built bin).
 */
import { followChatTurn } from '@papercusp/chat-protocol-sse';
import { createTurnId } from '@papercusp/chat-protocol-recovery';
import type { ChatEventEnvelope, ChatStateV1 } from '@papercusp/chat-protocol-core';
import { expect } from 'vitest';

/** A host listening at `base`, and the turn ids whose scripted refund effect started in it (when the test can see them). */
export interface Host {
  readonly base: string;
  readonly effects: string[];
}

/** The `Authorization` header of `token`. */
export const auth = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

/** Sends one request; the body is JSON when it parses, else the text (an event stream, an empty body). */
export async function call(
  host: Host,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${host.base}${path}`, {
    method,
    headers: {
      ...(token === null ? {} : auth(token)),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // an event stream or an empty body: keep the text
  }
  return { status: response.status, body: parsed };
}

/** Starts a turn with a fresh client turn id and expects `202`. */
export async function startTurn(host: Host, conversationId: string, text: string, token = 'token-ana') {
  const clientTurnId = createTurnId();
  const answer = await call(
    host,
    'POST',
    `/v1/conversations/${conversationId}/turns`,
    token,
    { clientTurnId, text },
    { 'Idempotency-Key': clientTurnId },
  );
  expect(answer.status).toBe(202);
  return { clientTurnId, turnId: (answer.body as { turnId: string }).turnId };
}

/** Follows the turn until `until` says stop (or the stream ends); returns every envelope and the last state. */
export async function follow(
  host: Host,
  conversationId: string,
  turnId: string,
  until: (envelope: ChatEventEnvelope) => boolean = () => false,
  token = 'token-ana',
): Promise<{ envelopes: ChatEventEnvelope[]; state: ChatStateV1 | undefined; ended: string | undefined }> {
  const envelopes: ChatEventEnvelope[] = [];
  let state: ChatStateV1 | undefined;
  let ended: string | undefined;
  const url = `${host.base}/v1/conversations/${conversationId}/turns/${turnId}/events`;
  for await (const item of followChatTurn({ url, conversationId, headers: auth(token) })) {
    if (item.type === 'state') {
      envelopes.push(item.envelope);
      state = item.state;
      if (until(item.envelope)) break;
    }
    if (item.type === 'ended') ended = item.reason;
  }
  return { envelopes, state, ended };
}

/** The correlation id of the first card among `envelopes`; throws when there is none. */
export const cardOf = (envelopes: readonly ChatEventEnvelope[]): string => {
  const card = envelopes.find((envelope) => envelope.event.type === 'card');
  if (card?.event.type !== 'card') throw new Error('no card');
  return card.event.card.correlationId;
};
