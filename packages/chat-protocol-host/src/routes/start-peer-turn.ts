/**
 * What the peers' POST-and-stream routes share: start a turn through the
 * host's own `POST /turns` and answer with its events route in the peer's
 * format, so the peers' routes add no second path around the v1 routes'
 * checks (authentication, grants, body rules, idempotency, stream limit).
 * It owns the internal requests only; reading the peer's body is each route's.
 */
import { IDEMPOTENCY_KEY_HEADER } from '@papercusp/chat-protocol-recovery';
import type { ChatHostCaller } from '../chat-host-caller.js';
import { refusalResponse } from './host-responses.js';
import { hostTurnId } from '../use-cases/host-turn-id.js';
import { formatChatStream, type ChatStreamFormat } from '../use-cases/peer-stream.js';
import { isJsonObject, readJsonBody } from './read-json-body.js';
import { isRouteId } from '../route-ids.js';

/** The host's own routes, answered in process (`app.fetch`). */
export type HostDispatch = (request: Request) => Response | Promise<Response>;

/** What {@link startPeerTurn} needs: the conversation, the client turn id derived from the peer's request, the person's text. */
interface PeerTurnRequest {
  readonly original: Request;
  readonly conversationId: string;
  readonly clientTurnId: string;
  readonly text: string;
  readonly format: Exclude<ChatStreamFormat, 'v1'>;
}

// Headers a v1 request must not inherit from the peer's: its own body and cursor are set here.
const NOT_FORWARDED = ['content-length', 'content-type', 'transfer-encoding', 'last-event-id', IDEMPOTENCY_KEY_HEADER];

/** The original request's headers (so `authenticate` sees the same credentials), without body and cursor headers. */
function forwardedHeaders(original: Request): Headers {
  const headers = new Headers(original.headers);
  for (const name of NOT_FORWARDED) headers.delete(name);
  return headers;
}

/** The base URL of a conversation's v1 routes on the original request's origin. */
function conversationBase(original: Request, conversationId: string): string {
  return `${new URL(original.url).origin}/v1/conversations/${encodeURIComponent(conversationId)}`;
}

/** The turn's events route in `format`, from the turn's start, bound to the original request's signal. */
export function streamTurn(dispatch: HostDispatch, original: Request, conversationId: string, turnId: string, format: ChatStreamFormat) {
  const url = `${conversationBase(original, conversationId)}/turns/${encodeURIComponent(turnId)}/events?format=${format}`;
  return dispatch(new Request(url, { headers: forwardedHeaders(original), signal: original.signal }));
}

function turnIdOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const { code, turnId } = body as Record<string, unknown>;
  return (code === 'turn-in-flight' || code === 'turn-already-processed') && typeof turnId === 'string' ? turnId : undefined;
}

/**
 * Starts the turn once per client turn id and answers its stream in the
 * peer's format, without the turn's `user_input` (the peer's client holds the
 * message it sent). Guarantees: a resend of the same peer request (same derived
 * client turn id) starts nothing and streams the turn it started, from its
 * start, whether it runs or ended; every refusal of `POST /turns` or of the
 * events route is answered as the v1 route answers it. Never rejects.
 */
async function startPeerTurn(dispatch: HostDispatch, request: PeerTurnRequest): Promise<Response> {
  const { original, conversationId, clientTurnId, text, format } = request;
  const headers = forwardedHeaders(original);
  headers.set('content-type', 'application/json');
  headers.set(IDEMPOTENCY_KEY_HEADER, clientTurnId);
  const started = await dispatch(
    new Request(`${conversationBase(original, conversationId)}/turns`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ clientTurnId, text }),
    }),
  );
  if (started.status !== 202 && started.status !== 409) return started;
  const body: unknown = await started
    .clone()
    .json()
    .catch(() => null);
  const turnId = started.status === 202 ? (body as { turnId?: unknown } | null)?.turnId : turnIdOf(body);
  if (typeof turnId !== 'string') return started;
  const stream = await streamTurn(dispatch, original, conversationId, turnId, 'v1');
  return formatChatStream(stream, format, { omitUserInput: true });
}

/** What a peer's request body says: a key the client turn id derives from (a run id, a message id) and the person's text. */
export type PeerTurnInput = { readonly turnKey: string; readonly text: string } | { readonly refusal: string };

/** How one peer's POST-and-stream route reads its body. */
export interface PeerPostOptions {
  readonly dispatch: HostDispatch;
  /** The caller, or `null` (never throws). */
  readonly authenticate: (request: Request) => Promise<ChatHostCaller | null>;
  readonly maxBodyBytes: number;
  readonly format: Exclude<ChatStreamFormat, 'v1'>;
  /** The body field naming the conversation (`threadId`, `id`). */
  readonly conversationField: string;
  /** What the body should be, for the refusal of one that is not an object. */
  readonly expected: string;
  readonly read: (body: Record<string, unknown>) => PeerTurnInput;
}

/**
 * A peer's POST-and-stream request: `401` before the body is read, the body
 * under `maxBodyBytes`, `invalid-id` for a conversation field that is not a
 * route id, `invalid-body` for what `read` refuses, then {@link startPeerTurn}
 * once per turn key (the client turn id is derived from the format and the key).
 * Nothing is claimed before every check passed: a host's `claimConversation`
 * runs inside `POST /turns`, after that route's own checks, so a new chat or
 * thread id starts a conversation exactly as a v1 client's first turn does.
 */
export async function answerPeerPost(request: Request, options: PeerPostOptions): Promise<Response> {
  if ((await options.authenticate(request)) === null) return refusalResponse('unauthenticated', 'a bearer token is required');
  const body = await readJsonBody(request, options.maxBodyBytes);
  if (!body.ok) return refusalResponse(body.code, body.message);
  if (!isJsonObject(body.value)) return refusalResponse('invalid-body', `expected ${options.expected}`);
  const conversationId = body.value[options.conversationField];
  if (typeof conversationId !== 'string' || !isRouteId(conversationId)) {
    return refusalResponse('invalid-id', `${options.conversationField}: expected letters, digits, _ or -`);
  }
  const input = options.read(body.value);
  if ('refusal' in input) return refusalResponse('invalid-body', input.refusal);
  return startPeerTurn(options.dispatch, {
    original: request,
    conversationId,
    clientTurnId: await hostTurnId(options.format, input.turnKey),
    text: input.text,
    format: options.format,
  });
}
