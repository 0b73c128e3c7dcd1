/**
 * What the peers' POST-and-stream routes share: read the peer's body, then
 * the same use cases as `POST /turns` and the events route (start the turn,
 * open its stream in the peer's format), so the peers' routes add no second
 * path around the v1 routes' checks (authentication, grants, body rules,
 * idempotency, stream limit) and the host never sends a request to itself.
 * It owns the order of those steps; reading each peer's body is its route's.
 */
import type { ChatHostCaller } from '../chat-host-caller.js';
import type { RequestChecks } from './check-request.js';
import { isRouteId } from './route-ids.js';
import type { HostRuntime } from '../use-cases/host-runtime.js';
import { hostTurnId } from '../use-cases/host-turn-id.js';
import { openTurnStream } from '../use-cases/open-turn-stream.js';
import type { ChatStreamFormat } from '../use-cases/peer-stream.js';
import { checkTurnText, startTurn } from '../use-cases/start-turn.js';
import { hostRefusalResponse, refusalResponse } from './host-responses.js';
import { isJsonObject, readJsonBody } from './read-json-body.js';

/**
 * The turn's stream in a peer's `format`, from the turn's start (a peer's
 * client replays a resumed message whole), bound to the original request's
 * signal; the caller's authority was checked. Never rejects.
 */
export async function streamPeerTurn(
  runtime: HostRuntime,
  original: Request,
  turn: { readonly caller: ChatHostCaller; readonly conversationId: string; readonly turnId: string },
  format: Exclude<ChatStreamFormat, 'v1'>,
  omitUserInput = false,
): Promise<Response> {
  // The transport reads the cursor from a request: one with none, so the stream starts at the turn's start.
  const fromTheStart = new Request(new URL('/', original.url), { signal: original.signal });
  const stream = await openTurnStream(runtime, { ...turn, request: fromTheStart, format, omitUserInput });
  return stream.ok ? stream.value : hostRefusalResponse(stream);
}

/** What a peer's request body says: a key the client turn id derives from (a run id, a message id) and the person's text. */
export type PeerTurnInput = { readonly turnKey: string; readonly text: string } | { readonly refusal: string };

/** What the peers' routes need from the host: its runtime, its request checks, and the bound on their bodies (the whole message history). */
export interface PeerRouteHost {
  readonly runtime: HostRuntime;
  readonly checks: RequestChecks;
  readonly maxBodyBytes: number;
}

/** How one peer's POST-and-stream route reads its body. */
export interface PeerPostOptions {
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
 * route id, `invalid-body` for what `read` refuses or a text `POST /turns`
 * refuses, then the turn started once per turn key (the client turn id is
 * derived from the format and the key) and its stream without the turn's
 * `user_input` (the peer's client holds the message it sent). A resend of the
 * same peer request starts nothing and streams the turn it started, from its
 * start, whether it runs or ended; every other refusal of starting or of the
 * stream is answered as the v1 routes answer it. Nothing is claimed before
 * every check passed, so a new chat or thread id starts a conversation exactly
 * as a v1 client's first turn does. Never rejects.
 */
export async function answerPeerPost(request: Request, host: PeerRouteHost, options: PeerPostOptions): Promise<Response> {
  const caller = await host.checks.authenticate(request);
  if (caller === null) return refusalResponse('unauthenticated', 'a bearer token is required');
  const body = await readJsonBody(request, host.maxBodyBytes);
  if (!body.ok) return refusalResponse(body.code, body.message);
  if (!isJsonObject(body.value)) return refusalResponse('invalid-body', `expected ${options.expected}`);
  const conversationId = body.value[options.conversationField];
  if (typeof conversationId !== 'string' || !isRouteId(conversationId)) {
    return refusalResponse('invalid-id', `${options.conversationField}: expected letters, digits, _ or -`);
  }
  const input = options.read(body.value);
  if ('refusal' in input) return refusalResponse('invalid-body', input.refusal);
  const badText = checkTurnText(input.text);
  if (badText !== null) return hostRefusalResponse(badText);
  const clientTurnId = await hostTurnId(options.format, input.turnKey);
  const started = await startTurn(host.runtime, { caller, conversationId, clientTurnId, text: input.text });
  // A resend streams the turn it started, running or ended; another message under the key is refused as on POST /turns.
  if (!started.ok && started.code !== 'turn-in-flight' && started.code !== 'turn-already-processed') return hostRefusalResponse(started);
  // Both resend refusals name the turn the client turn id derives, in this conversation.
  const turnId = started.ok ? started.value.turnId : await hostTurnId(conversationId, clientTurnId);
  return streamPeerTurn(host.runtime, request, { caller, conversationId, turnId }, options.format, true);
}
