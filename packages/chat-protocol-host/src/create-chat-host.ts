/**
 * The reference host: DESIGN §11's routes on one web-standard handler. It
 * builds the runtime the use cases run on (`use-cases/`), registers the v1 and
 * the peers' routes (`routes/`) and owns the HTTP edge around them: `HEAD`,
 * `405` with `Allow`, the body deadline and the one answer for an unexpected
 * failure. It does not own authentication (the host's `authenticate`) or
 * grants (the store's lookups).
 */
import type { OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import type { InteractionStore } from '@papercusp/chat-protocol-interactions';
import type { ChatConversationStore, ChatEventLog, TurnStore } from '@papercusp/chat-protocol-recovery';
import { Hono } from 'hono';
import type { ChatAgent } from './chat-agent.js';
import type { ChatHostCaller } from './chat-host-caller.js';
import type { ChatHostEvent } from './chat-host-event.js';
import type { ChatHostOpenTelemetry } from './chat-host-open-telemetry.js';
import { browserPageResponse } from './page/serve-browser-page.js';
import { registerAgUiRoute } from './routes/ag-ui-route.js';
import { registerAiSdkRoutes } from './routes/ai-sdk-routes.js';
import { createRequestChecks } from './routes/check-request.js';
import { methodNotAllowedResponse, notFoundResponse, refusalResponse } from './routes/host-responses.js';
import { withBodyDeadline } from './routes/read-json-body.js';
import { registerV1Routes } from './routes/v1-routes.js';
import { DEFAULT_DRAIN_MS, drainHost } from './use-cases/drain-host.js';
import { createHostRuntime } from './use-cases/host-runtime.js';
import { sweepExpiredTurns, type ChatHostSweepOptions, type ChatHostSweepResult } from './use-cases/sweep-expired-turns.js';

/**
 * The store components the host runs on: what `createPostgresChatStore`
 * returns. Its conversation reads are recovery's `ChatConversationStore`
 * (`authorizeConversation`: the caller's current right to the conversation,
 * asked on every request and by recovery on every turn operation, only `true`
 * grants; `readConversationLog`: every turn with its retained frames, one
 * snapshot, bounded, what `GET /state` folds), which the testkit's
 * `describeConversationStoreConformance` checks. The store's other lookups
 * (`authorizeDispatch`, `interactionAuthority`) must read the same grants.
 */
export interface ChatHostStore extends ChatConversationStore<ChatHostCaller> {
  readonly turnStore: TurnStore<unknown, ChatHostCaller>;
  readonly interactionStore: InteractionStore<OpenCardSnapshotV1, ChatHostCaller>;
  readonly eventLog: ChatEventLog;
}

/** Options of {@link createChatHost}. */
export interface ChatHostOptions {
  readonly store: ChatHostStore;
  readonly agent: ChatAgent;
  /** Resolves the caller from the request (its `Authorization: Bearer …`); `null` (or a throw) is 401. */
  readonly authenticate: (request: Request) => ChatHostCaller | null | Promise<ChatHostCaller | null>;
  /**
   * Grants a conversation to its first caller, for a host whose grants are
   * made on first use (the `chat-protocol-host` command). Called on `POST
   * /turns`, and so on the peer routes' POSTs, only once the request was
   * validated completely (body, text, `Idempotency-Key`) and the caller holds
   * no grant to the conversation; the grant is then read again, so a
   * conversation another caller owns stays `404`. A refused request never
   * reaches it. A throw is `503 store-unavailable` and starts nothing. Without
   * it, grants are the store's alone.
   */
  readonly claimConversation?: (request: { readonly caller: ChatHostCaller; readonly conversationId: string }) => void | Promise<void>;
  /** RFC 3339 clock for frames, admissions and cards (default: the system clock). */
  readonly clock?: () => string;
  /** The largest POST body accepted, in bytes (default 16 KiB). */
  readonly maxBodyBytes?: number;
  /**
   * How long a request's body may take to arrive whole, from the moment the
   * host has the request (default 10 000 ms): past it, `408 request-timeout`.
   */
  readonly bodyTimeoutMs?: number;
  /**
   * Open event streams one caller may hold in this process (default 8),
   * counted per caller id and authority (tenant, principal, customer, public owner).
   */
  readonly maxStreamsPerCaller?: number;
  /** The SSE heartbeat interval (default: the transport's). */
  readonly heartbeatMs?: number;
  /** How long a card stays open (default one hour). */
  readonly cardLifetimeMs?: number;
  /** How often a waiting turn reads its card when no answer reached this process (default 1000 ms). */
  readonly cardPollMs?: number;
  /**
   * How often a running turn re-reads its record to see a cancellation that
   * committed through another host process (default 500 ms): such a
   * cancellation stops the run within this interval plus one read.
   */
  readonly cancelPollMs?: number;
  /**
   * How long after a cancellation this process took for a turn it does not
   * run it waits for the turn's terminal frame before closing the turn's log
   * itself, its run presumed gone (default 5000 ms; keep it well above `cancelPollMs`).
   */
  readonly abandonedTurnGraceMs?: number;
  /**
   * Recovery's admission lease (DESIGN §6.11; default recovery's, 10 minutes):
   * a running turn whose admitted effect has no result past it answers
   * `needs-reconciliation` on the turn-status route. Above the longest tool run.
   */
  readonly admissionLeaseMs?: number;
  /**
   * Recovery's run lease (DESIGN §6 rule 12; default 30 000 ms): a run renews its turn's lease every third of it and
   * stops at once when a renewal finds the turn cancelled, interrupted or owned by another run, or when the lease ran
   * out without one. Past the lease, whoever meets the turn (a follower of its events, the status route, a resend,
   * the cards route, the command's sweeper) interrupts it and writes its tail (§11.2). Every host process sharing a
   * store should use the same lease.
   */
  readonly runLeaseMs?: number;
  /** The most turns `GET /state` folds (default: the store's bound). */
  readonly maxStateTurns?: number;
  /** The most frames `GET /state` folds, over all turns (default: the store's bound). */
  readonly maxStateFrames?: number;
  /** The largest body of the AG-UI and AI SDK POST routes, which carry the whole message history (default 1 MiB). */
  readonly maxPeerBodyBytes?: number;
  /**
   * The most history turns a run's agent is given in `context.history` (a non-negative integer; default 50): the
   * newest earlier ones, `context.historyOmitted` counting the rest. The history is read from the newest turns
   * back within the `GET /state` bounds (`maxStateTurns`, `maxStateFrames`), so a conversation of any length gets
   * its newest turns; only a store that cannot answer ends a new turn with `error { code: 'history-unavailable' }`.
   */
  readonly maxHistoryTurns?: number;
  /**
   * The host's typed events (turns, tools, cards, agent errors, store failures), for logs and metrics. Called
   * synchronously; never given the person's or the model's text; a throw or a rejection is ignored and never
   * breaks a turn.
   */
  readonly onEvent?: (event: ChatHostEvent) => void | Promise<void>;
  /**
   * OpenTelemetry spans of each turn's run (`chat.turn`, with `chat.tool`, `chat.card` and `chat.store.<operation>`
   * children): `@opentelemetry/api`'s `trace` and `context` (`import * as openTelemetry from '@opentelemetry/api'`
   * fits), and optionally a tracer of your own. The host imports nothing of the api (an optional peer): without
   * this option it starts no span, and without an SDK registered every span is the api's no-op. Spans carry ids,
   * names, statuses and codes, never the person's or the model's text; a tracer that throws never breaks a turn.
   */
  readonly openTelemetry?: ChatHostOpenTelemetry;
}

/** What `close` takes. */
export interface ChatHostCloseOptions {
  /**
   * How long running turns get to finish before the host interrupts them and writes their tails itself (a
   * non-negative safe integer of milliseconds; default 10 000).
   */
  readonly drainMs?: number;
}

/** The host's handler ({@link createChatHost}): a web-standard `(request) => Promise<Response>`, and its drain. */
export interface ChatHostHandler {
  (request: Request): Promise<Response>;
  /**
   * Drains this host process (DESIGN §11.2; the command calls it on SIGTERM): new turns are refused at once with
   * `503 { code: 'draining' }` and `Retry-After`, so a load balancer's retry reaches another process; running turns
   * may finish within `drainMs`; then each still running is interrupted (its agent's `signal` aborted) and its
   * tail written — `tool_result`s, cards closed `interrupted`, `done { status: 'interrupted' }` — and the open
   * event streams end, a v1 stream with a `retry:` field, so clients resume on another process with no frame lost
   * or doubled. Every other route keeps answering. Idempotent (a later call answers the first call's promise); rejects
   * only with a `TypeError` for a `drainMs` that is not a non-negative safe integer.
   */
  close(options?: ChatHostCloseOptions): Promise<void>;
  /**
   * Sweeps once (DESIGN §11.2): every running turn of the store whose run lease ran out is interrupted, under the
   * caller `callerOf` names for its conversation, and its tail written, so a turn whose process died ends even
   * when nobody meets it. Run it every `runLeaseMs` (the `chat-protocol-host` command does); needs a turn store
   * with `listRunningTurns` (`sweep-unsupported` otherwise). Never rejects.
   */
  sweepExpiredTurns(options: ChatHostSweepOptions): Promise<ChatHostSweepResult>;
}

// The methods the routes are registered for; Hono answers HEAD with its GET route.
const ROUTED_METHODS = ['GET', 'POST'] as const;

/**
 * Creates the host's handler. Guarantees: every route authenticates (401),
 * validates its ids (400 `invalid-id`), and checks the caller's current
 * authority before touching anything; a conversation, turn or card that is
 * missing or the caller may not see gets the same `404` body; hostile bodies
 * get typed 4xx answers, and a refused `POST /turns` claims and writes
 * nothing; a body that does not arrive within `bodyTimeoutMs` is
 * a `408`; a method a path does not serve is `405` with `Allow` (and
 * `OPTIONS` is `204` with it), a path no route has is the not-found answer
 * for every method; `HEAD` is answered as `GET` without its body, which is
 * cancelled (a stream's slot is released at once); the handler never rejects.
 */
export function createChatHost(options: ChatHostOptions): ChatHostHandler {
  const runtime = createHostRuntime(options);
  const checks = createRequestChecks(runtime, options.authenticate);
  const app = new Hono();
  registerV1Routes(app, runtime, checks, options.maxBodyBytes ?? 16 * 1024);
  // The browser page needs no auth: it holds no data, and sends the person's bearer token to the routes above.
  app.get('/', () => browserPageResponse());
  const peerHost = { runtime, checks, maxBodyBytes: options.maxPeerBodyBytes ?? 1024 * 1024 };
  registerAiSdkRoutes(app, peerHost);
  registerAgUiRoute(app, peerHost);
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;

  // What a path serves (RFC 9110 §15.5.6), read from the routes themselves: `undefined` for a path no route has.
  const allowOf = (path: string): string | undefined => {
    const served = ROUTED_METHODS.filter((method) => app.router.match(method, path)[0].length > 0);
    if (served.length === 0) return undefined;
    return [...served.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])), 'OPTIONS'].join(', ');
  };
  // No route for this method: the path's other methods (405, or 204 for OPTIONS), else the one not-found answer.
  // Before authentication: the answer depends on the path's shape only, never on what exists or who asks.
  app.notFound((context) => {
    const allow = allowOf(context.req.path);
    if (allow === undefined) return notFoundResponse();
    if (context.req.method === 'OPTIONS') return new Response(null, { status: 204, headers: { allow, 'cache-control': 'no-store' } });
    return methodNotAllowedResponse(allow);
  });
  app.onError(() => refusalResponse('internal-error', 'the host failed'));

  const handle = async (request: Request): Promise<Response> => {
    try {
      if (request.method === 'HEAD') {
        // Hono would answer HEAD with the GET answer's body dropped unread, so a stream's end (its slot, its
        // subscription) would never run: the GET answer's body is cancelled here instead.
        const answer = await app.fetch(new Request(request, { method: 'GET' }));
        await answer.body?.cancel().catch(() => undefined);
        return new Response(null, { status: answer.status, statusText: answer.statusText, headers: answer.headers });
      }
      return await app.fetch(withBodyDeadline(request, bodyTimeoutMs));
    } catch {
      return refusalResponse('internal-error', 'the host failed');
    }
  };
  let drained: Promise<void> | undefined;
  const close = (closeOptions?: ChatHostCloseOptions): Promise<void> => {
    if (drained !== undefined) return drained;
    const drainMs = closeOptions?.drainMs ?? DEFAULT_DRAIN_MS;
    if (!Number.isSafeInteger(drainMs) || drainMs < 0)
      return Promise.reject(new TypeError('close: drainMs must be a non-negative safe integer'));
    drained = drainHost(runtime, drainMs);
    return drained;
  };
  return Object.assign(handle, { close, sweepExpiredTurns: (sweep: ChatHostSweepOptions) => sweepExpiredTurns(runtime, sweep) });
}
