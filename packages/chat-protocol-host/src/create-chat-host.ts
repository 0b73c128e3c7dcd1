/**
 * The reference host: DESIGN §11's routes on one web-standard handler, wired to
 * the store (turns, cards, event log), `TurnRecovery`, `InteractionResolver`,
 * the SSE transport and a `ChatAgent`. It owns routing, request checks,
 * authority checks on every route and the turn runs it starts; it does not own
 * authentication (the host's `authenticate`) or grants (the store's lookups).
 */
import { CardResponseSchema, LIGHTWEIGHT_CHAT_CAPABILITIES, isCleanText, type OpenCardSnapshotV1 } from '@papercusp/chat-protocol-core';
import { InteractionResolver, type InteractionStore } from '@papercusp/chat-protocol-interactions';
import {
  IDEMPOTENCY_KEY_HEADER,
  TurnRecovery,
  isTurnId,
  type ChatConversationStore,
  type ChatEventLog,
  type TurnStore,
} from '@papercusp/chat-protocol-recovery';
import { createChatSseResponse } from '@papercusp/chat-protocol-sse';
import { Hono, type Context } from 'hono';
import { registerAgUiRoute } from './routes/ag-ui-route.js';
import { registerAiSdkRoutes } from './routes/ai-sdk-routes.js';
import { createCardWakeups } from './run/card-wakeups.js';
import type { ChatAgent } from './chat-agent.js';
import type { ChatHostCaller } from './chat-host-caller.js';
import { closeAbandonedTurn } from './run/close-abandoned-turn.js';
import { readConversationState, type ConversationStateAnswer } from './use-cases/conversation-state.js';
import { answerExistingTurn } from './use-cases/existing-turn.js';
import { hostTurnId } from './use-cases/host-turn-id.js';
import { jsonResponse, methodNotAllowedResponse, notFoundResponse, refusalResponse } from './routes/host-responses.js';
import { hasOrphanedEffect } from './use-cases/orphaned-effects.js';
import { formatChatStream, readChatStreamFormat } from './use-cases/peer-stream.js';
import { isJsonObject, readJsonBody, withBodyDeadline } from './routes/read-json-body.js';
import { isRouteId } from './route-ids.js';
import { runChatTurn } from './run/run-chat-turn.js';
import { browserPageResponse } from './page/serve-browser-page.js';
import { createStreamLimit } from './use-cases/stream-limit.js';
import { readTurnProgress, type TurnProgress } from './use-cases/turn-progress.js';
import { watchTurnCancellation } from './run/watch-turn-cancellation.js';

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
  /** The most turns `GET /state` folds (default: the store's bound). */
  readonly maxStateTurns?: number;
  /** The most frames `GET /state` folds, over all turns (default: the store's bound). */
  readonly maxStateFrames?: number;
  /** The largest body of the AG-UI and AI SDK POST routes, which carry the whole message history (default 1 MiB). */
  readonly maxPeerBodyBytes?: number;
}

/** The longest `text` a turn's message may hold, in UTF-16 code units. */
export const MAX_TURN_TEXT_LENGTH = 4000;

const FULL_CAPABILITIES = {
  ...LIGHTWEIGHT_CHAT_CAPABILITIES,
  connectionReplay: true,
  persistedHistory: true,
  persistedDecisions: true,
  completedToolCheckpoints: true,
  interruptedTurnRecovery: true,
} as const;

const PREFIX = '/v1/conversations/:conversationId';

// The methods the routes are registered for; Hono answers HEAD with its GET route.
const ROUTED_METHODS = ['GET', 'POST'] as const;

type Checked = { readonly caller: ChatHostCaller; readonly conversationId: string } | Response;

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
export function createChatHost(options: ChatHostOptions): (request: Request) => Promise<Response> {
  const { store, agent } = options;
  const clock = options.clock ?? (() => new Date().toISOString());
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;
  const cardLifetimeMs = options.cardLifetimeMs ?? 3_600_000;
  const cardPollMs = options.cardPollMs ?? 1000;
  const cancelPollMs = options.cancelPollMs ?? 500;
  const abandonedTurnGraceMs = options.abandonedTurnGraceMs ?? 5000;
  const stateBounds = {
    ...(options.maxStateTurns === undefined ? {} : { maxTurns: options.maxStateTurns }),
    ...(options.maxStateFrames === undefined ? {} : { maxFrames: options.maxStateFrames }),
  };
  // The conversation's folded state (GET /state, the AI SDK's resume), or the refusal to answer.
  const readState = async (conversationId: string): Promise<ConversationStateAnswer | Response> => {
    const answer = await readConversationState(store.readConversationLog, conversationId, stateBounds);
    if (answer.ok) return answer.value;
    return refusalResponse(answer.code, answer.message, answer.limit === undefined ? {} : { limit: answer.limit });
  };
  const streams = createStreamLimit(options.maxStreamsPerCaller ?? 8);
  const authorized = async (caller: ChatHostCaller, conversationId: string): Promise<boolean> => {
    try {
      return (await store.authorizeConversation({ caller, conversationId })) === true;
    } catch {
      return false;
    }
  };
  // The turn runs and effects this process holds, so cancellation and card answers reach them at once.
  const runs = new Map<string, AbortController>();
  const effects = new Map<string, AbortController>();
  const cardWakeups = createCardWakeups(cardPollMs);
  const recovery = new TurnRecovery<unknown, ChatHostCaller>(
    {
      capabilities: FULL_CAPABILITIES,
      authorize: ({ caller, conversationId }) => authorized(caller, conversationId),
      store: store.turnStore,
      replayWindow: (request) => store.eventLog.replayWindow(request),
      abort: ({ turnId, effectIds }) => {
        for (const effectId of effectIds) effects.get(`${turnId}/${effectId}`)?.abort();
      },
    },
    { clock, ...(options.admissionLeaseMs === undefined ? {} : { admissionLeaseMs: options.admissionLeaseMs }) },
  );
  const resolver = new InteractionResolver<ChatHostCaller, OpenCardSnapshotV1>({
    store: store.interactionStore,
    // The resolver checks the value against the card's kind (options, bounds, allowDecline): the host adds no schema.
    validate: ({ value }) => ({ value }),
    clock,
  });
  // The caller, or `null` for no caller, a non-object or a throw: every route's 401.
  const authenticate = async (request: Request): Promise<ChatHostCaller | null> => {
    try {
      const caller = await options.authenticate(request);
      return caller !== null && typeof caller === 'object' ? caller : null;
    } catch {
      return null;
    }
  };
  // Who calls and on which ids, before any grant is read: POST /turns validates its body between the two.
  const identify = async (context: Context, ids: readonly string[]): Promise<Checked> => {
    const caller = await authenticate(context.req.raw);
    if (caller === null) return refusalResponse('unauthenticated', 'a bearer token is required');
    const conversationId = context.req.param('conversationId');
    for (const name of ['conversationId', ...ids]) {
      if (!isRouteId(context.req.param(name))) return refusalResponse('invalid-id', `${name}: expected letters, digits, _ or -`);
    }
    return conversationId === undefined ? notFoundResponse() : { caller, conversationId };
  };
  const check = async (context: Context, ids: readonly string[]): Promise<Checked> => {
    const identified = await identify(context, ids);
    if (identified instanceof Response) return identified;
    return (await authorized(identified.caller, identified.conversationId)) ? identified : notFoundResponse();
  };
  // An accepted turn's grant: the caller's own, or the one `claimConversation` gives a first caller.
  const grantTurn = async (caller: ChatHostCaller, conversationId: string): Promise<Response | null> => {
    if (await authorized(caller, conversationId)) return null;
    if (options.claimConversation === undefined) return notFoundResponse();
    try {
      await options.claimConversation({ caller, conversationId });
    } catch {
      return refusalResponse('store-unavailable', 'the conversation could not be claimed');
    }
    return (await authorized(caller, conversationId)) ? null : notFoundResponse();
  };

  // The routes on one turn: the checks above, then the turn must exist in this conversation.
  const checkTurn = async (
    context: Context,
  ): Promise<(Exclude<Checked, Response> & { turnId: string; progress: TurnProgress }) | Response> => {
    const checked = await check(context, ['turnId']);
    if (checked instanceof Response) return checked;
    const turnId = context.req.param('turnId');
    if (turnId === undefined) return notFoundResponse();
    const progress = await readTurnProgress(store, checked.conversationId, turnId);
    if (progress === 'unavailable') return refusalResponse('store-unavailable', 'the turn could not be read');
    if (progress === null) return notFoundResponse();
    return { ...checked, turnId, progress };
  };

  const app = new Hono();

  // Every check that needs no grant comes first, so a refused request claims and writes nothing (§11 "The HTTP edge").
  app.post(`${PREFIX}/turns`, async (context) => {
    const identified = await identify(context, []);
    if (identified instanceof Response) return identified;
    const { caller, conversationId } = identified;
    const body = await readJsonBody(context.req.raw, maxBodyBytes);
    if (!body.ok) return refusalResponse(body.code, body.message);
    if (!isJsonObject(body.value)) return refusalResponse('invalid-body', 'expected { clientTurnId, text }');
    const { clientTurnId, text, ...rest } = body.value;
    if (Object.keys(rest).length > 0 || !isTurnId(clientTurnId) || typeof text !== 'string') {
      return refusalResponse('invalid-body', 'expected exactly { clientTurnId, text }, clientTurnId of the form turn_<32 hex digits>');
    }
    if (text.length === 0 || text.length > MAX_TURN_TEXT_LENGTH || !isCleanText(text)) {
      return refusalResponse('invalid-body', `text: 1 to ${MAX_TURN_TEXT_LENGTH} characters of clean text`);
    }
    const key = context.req.header(IDEMPOTENCY_KEY_HEADER);
    if (key === undefined) return refusalResponse('missing-idempotency-key', `the ${IDEMPOTENCY_KEY_HEADER} header is required`);
    if (key !== clientTurnId) return refusalResponse('idempotency-key-mismatch', `${IDEMPOTENCY_KEY_HEADER} must equal clientTurnId`);
    const refused = await grantTurn(caller, conversationId);
    if (refused !== null) return refused;
    const turnId = await hostTurnId(conversationId, clientTurnId);
    const turn = { conversationId, turnId, text };
    let effectIds: readonly string[];
    try {
      effectIds = agent.effects(turn);
    } catch {
      effectIds = [];
    }
    const started = await recovery.startTurn({ caller, conversationId, turnId, effectIds });
    if (!started.ok) {
      if (started.code === 'forbidden') return notFoundResponse();
      // The id names a turn started with other effect ids: a resend of another message, a client's error (409), not an outage.
      if (started.code !== 'turn-conflict') return refusalResponse('store-unavailable', started.message);
    }
    if (!started.ok || started.outcome === 'existing') {
      return answerExistingTurn(store, { conversationId, turnId, text, effectsDiffer: !started.ok });
    }
    const controller = new AbortController();
    runs.set(turnId, controller);
    // A cancellation committed through another host process reaches this run through its turn record.
    const stopWatching = watchTurnCancellation({
      turnStore: store.turnStore,
      turnId,
      intervalMs: cancelPollMs,
      onCancelled: () => {
        controller.abort();
        for (const effectId of effectIds) effects.get(`${turnId}/${effectId}`)?.abort();
      },
    });
    void runChatTurn({
      turn,
      caller,
      agent,
      effectIds,
      recovery,
      resolver,
      eventLog: store.eventLog,
      clock,
      signal: controller.signal,
      registerEffect: (effectId, effect) => effects.set(`${turnId}/${effectId}`, effect),
      armCardWait: (correlationId, signal) => cardWakeups.arm(correlationId, signal),
      cardLifetimeMs,
    })
      // runChatTurn never rejects; this keeps a future bug from becoming an unhandled rejection that ends the process.
      .catch(() => undefined)
      .finally(() => {
        stopWatching();
        runs.delete(turnId);
        for (const effectId of effectIds) effects.delete(`${turnId}/${effectId}`);
      });
    return jsonResponse(202, { turnId });
  });

  app.get(`${PREFIX}/turns/by-client-id/:clientTurnId`, async (context) => {
    const checked = await check(context, ['clientTurnId']);
    if (checked instanceof Response) return checked;
    const clientTurnId = context.req.param('clientTurnId');
    if (!isTurnId(clientTurnId)) return refusalResponse('invalid-id', 'clientTurnId: expected turn_<32 hex digits>');
    const turnId = await hostTurnId(checked.conversationId, clientTurnId);
    const progress = await readTurnProgress(store, checked.conversationId, turnId);
    if (progress === 'unavailable') return refusalResponse('store-unavailable', 'the turn could not be read');
    if (progress === null) return jsonResponse(200, { turnId, status: 'not-found' });
    // A running turn whose admitted effect outlived the lease lost its worker: its outcome needs reconciliation.
    const orphaned =
      progress.status === 'running' &&
      (await hasOrphanedEffect(recovery, { caller: checked.caller, conversationId: checked.conversationId, turnId }));
    return jsonResponse(200, { turnId, ...progress, ...(orphaned ? { status: 'needs-reconciliation' } : {}) });
  });

  app.get(`${PREFIX}/turns/:turnId/events`, async (context) => {
    const checked = await checkTurn(context);
    if (checked instanceof Response) return checked;
    const { turnId, caller } = checked;
    const format = readChatStreamFormat(context.req.raw);
    if (format === null) return refusalResponse('unsupported-format', 'format: expected v1, ag-ui or ai-sdk');
    if (!streams.acquire(caller)) return refusalResponse('too-many-streams', 'this caller holds too many open streams');
    try {
      const response = await createChatSseResponse(context.req.raw, {
        log: store.eventLog,
        conversationId: checked.conversationId,
        turnId,
        ...(options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs }),
      });
      return streams.release(caller, formatChatStream(response, format));
    } catch {
      streams.release(caller, new Response(null));
      return refusalResponse('store-unavailable', 'the stream could not start');
    }
  });

  app.post(`${PREFIX}/turns/:turnId/cancel`, async (context) => {
    const checked = await checkTurn(context);
    if (checked instanceof Response) return checked;
    const { turnId, progress } = checked;
    if (progress.status !== 'running' && progress.status !== 'cancelled') {
      return refusalResponse('turn-finished', `the turn already ended: ${progress.status}`, { turnId, status: progress.status });
    }
    const cancelled = await recovery.cancelTurn({ caller: checked.caller, conversationId: checked.conversationId, turnId });
    if (!cancelled.ok) {
      return cancelled.code === 'forbidden' || cancelled.code === 'unknown-turn'
        ? notFoundResponse()
        : refusalResponse('store-unavailable', cancelled.message);
    }
    // The cancellation committed: now stop this process's run, which writes the turn's `done { status: 'cancelled' }`.
    const run = runs.get(turnId);
    run?.abort();
    // Another process's run sees the record within cancelPollMs; if none wrote the terminal frame by the grace, its run is gone.
    if (run === undefined) {
      const { caller, conversationId } = checked;
      const timer = setTimeout(() => {
        void closeAbandonedTurn({ conversationId, turnId, caller, eventLog: store.eventLog, resolver, clock }).catch(() => undefined);
      }, abandonedTurnGraceMs);
      timer.unref?.();
    }
    return jsonResponse(200, { turnId, committed: cancelled.committed, inFlight: cancelled.inFlight });
  });

  app.post(`${PREFIX}/cards/:correlationId`, async (context) => {
    const checked = await check(context, ['correlationId']);
    if (checked instanceof Response) return checked;
    const correlationId = context.req.param('correlationId');
    const body = await readJsonBody(context.req.raw, maxBodyBytes);
    if (!body.ok) return refusalResponse(body.code, body.message);
    // Strict: a field the contract does not name (a tenant, a principal) is refused, never read.
    if (!isJsonObject(body.value) || body.value['correlationId'] !== correlationId || !CardResponseSchema.safeParse(body.value).success) {
      return refusalResponse('invalid-body', 'expected a CardResponse whose correlationId is the one in the path');
    }
    // Authority is the bearer's, read by the store in the card's transaction; nothing in the body grants it.
    const answer = await resolver.respond({ caller: checked.caller, conversationId: checked.conversationId, response: body.value });
    if (!answer.ok) {
      if (answer.code === 'not-found') return notFoundResponse();
      if (answer.code === 'store-unavailable') return refusalResponse('store-unavailable', answer.message);
      // Another answer closed the card first: the client learns the stored resolution, not just that it lost.
      if (answer.code === 'already-closed')
        return refusalResponse('already-closed', answer.message, { correlationId, status: answer.status });
      if (answer.code === 'invalid-request' || answer.code === 'validation-failed' || answer.code.startsWith('invalid-')) {
        return refusalResponse('invalid-body', answer.message, { reason: answer.code });
      }
      return refusalResponse('card-refused', answer.message, { reason: answer.code });
    }
    cardWakeups.wake(correlationId);
    if (answer.outcome === 'needs-reconciliation') return refusalResponse('store-unavailable', 'the answer could not be confirmed');
    // The same answer resent (a network retry) gets the stored resolution, marked so the client can tell (DESIGN §7.5).
    const status = answer.record.status;
    return jsonResponse(200, answer.replayed ? { correlationId, status, replayed: true } : { correlationId, status });
  });

  app.get(`${PREFIX}/state`, async (context) => {
    const checked = await check(context, []);
    if (checked instanceof Response) return checked;
    const answer = await readState(checked.conversationId);
    return answer instanceof Response ? answer : jsonResponse(200, answer);
  });

  // The browser page needs no auth: it holds no data, and sends the person's bearer token to the routes above.
  app.get('/', () => browserPageResponse());
  const dispatch = (request: Request): Response | Promise<Response> => app.fetch(request);
  const maxPeerBodyBytes = options.maxPeerBodyBytes ?? 1024 * 1024;
  registerAiSdkRoutes(app, {
    dispatch,
    check,
    authenticate,
    runningTurn: async (conversationId) => {
      const answer = await readState(conversationId);
      return answer instanceof Response ? answer : answer.running.at(-1)?.turnId;
    },
    maxBodyBytes: maxPeerBodyBytes,
  });
  registerAgUiRoute(app, { dispatch, authenticate, maxBodyBytes: maxPeerBodyBytes });

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

  return async (request) => {
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
}
